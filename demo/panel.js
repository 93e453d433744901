// panel.js — the agent panel: what an agent sees of this page.
//
// This is the Page tab. It uses only the consumer side of
// document.modelContext, exactly as an in-page agent would: getResources(),
// getResourceTemplates(), readResource(uri), and the resourcelistchanged /
// resourceupdated events. It knows nothing about the shop. (The MCP tab,
// mcp-panel.js, sees the same resources through a stock MCP client.)
// The one exception is the suppressed-push counter, which comes from the
// module's debug log through debug-tap.js (the module has no counter API).
'use strict';

panel: {
  const P = globalThis.AgentPanel; // panel-common.js
  const { $, el } = P;
  const mc = document.modelContext;
  const tap = globalThis.__agentPanelTap;

  const statusEl = $('#agent-status');
  const listEl = $('#resource-list');
  const tplEl = $('#template-list');
  const logEl = $('#push-log');

  const stats = new Map(); // uri -> { dispatched, suppressed }
  const statFor = (uri) => {
    let s = stats.get(uri);
    if (!s) stats.set(uri, (s = { dispatched: 0, suppressed: 0 }));
    return s;
  };
  const totalDispatched = P.total('#total-dispatched', '#tab-count-page b');
  const totalSuppressed = P.total('#total-suppressed');

  function setStatus(state, text) {
    statusEl.dataset.state = state;
    statusEl.textContent = text;
  }

  if (!mc || typeof mc.getResources !== 'function') {
    setStatus('error', 'modelcontext.js did not load: is /static/modelcontext.js served? (run make build)');
    break panel;
  }

  // First thing: hear how the start went (and never leave a rejected ready
  // unhandled).
  Promise.resolve(mc.ready).then(
    () => setStatus('ready', 'Connected · live resources on document.modelContext'),
    (err) => setStatus('error', `Module failed: ${err && err.message ? err.message : err}`),
  );

  // One line of JSON, cut to fit a log row; the full text goes in the tooltip.
  function compact(value, max) {
    let s;
    try {
      s = value === undefined ? 'undefined' : JSON.stringify(value);
      if (s === undefined) s = String(value);
    } catch (_) {
      s = String(value);
    }
    return { short: s.length > max ? s.slice(0, max - 1) + '…' : s, full: s };
  }

  function pretty(value) {
    try {
      const s = JSON.stringify(value, null, 2);
      return s === undefined ? String(value) : s;
    } catch (_) {
      return String(value);
    }
  }

  // valueView shows a value read as the DevTools panel does, a collapsible
  // tree of its JSON (js/extension/jsontree.js, served at /jsontree.js);
  // as text when it has no JSON or the tree did not load.
  function valueView(value) {
    const tree = globalThis.ModelContextJSONTree;
    let data;
    try {
      const s = JSON.stringify(value);
      if (s !== undefined) data = JSON.parse(s);
    } catch (_) { /* shown as text */ }
    if (!tree || data === undefined) return document.createTextNode(pretty(value));
    return tree.render(data, 3);
  }

  // ---- resource list -------------------------------------------------------

  function createItem(uri) {
    return P.resourceItem(uri, {
      badge: el('span', 'badge'),
      stats: [
        P.stat('stat stat-sent', 'Pushes dispatched (resourceupdated events)',
          el('span', 'dot dot-sent'), P.statCount('dispatched'), ' dispatched'),
        P.stat('stat stat-dropped', 'Pushes suppressed because the value had not changed',
          el('span', 'dot dot-dropped'), P.statCount('suppressed'), ' suppressed'),
      ],
      readLabel: `Read ${uri}`,
      read: readInto,
      readOut,
    });
  }

  // readOut is the (hidden) box a Read shows its value in; Hide returns the
  // focus to back.
  function readOut(what, back) {
    const pre = el('div', 'res-value');
    pre.tabIndex = 0;
    pre.setAttribute('aria-label', `Value of ${what}`);
    return P.readOut(what, 'value', back, pre);
  }

  // ---- templates -----------------------------------------------------------

  // A template's card: a Read expands the template and reads the instance
  // with readResource.
  function createTemplateItem(tpl) {
    return P.templateItem(tpl, {
      badgeTitle: 'Read on demand: a template never pushes',
      formLabel: `Read an instance of ${tpl}`,
      readOut,
      invalid: (out, text) => showRead(out, text, '', 'error'),
      read: readInto,
    });
  }

  function renderTemplates(templates) {
    P.keyed(tplEl, templates, 'uriTemplate', createTemplateItem, P.describeItem);
    $('#template-count').textContent = String(templates.length);
  }

  function updateItem(li, r) {
    P.describeItem(li, r);
    const badge = $('.badge', li);
    badge.textContent = r.subscribable ? 'live' : 'pull-only';
    badge.dataset.kind = r.subscribable ? 'live' : 'pull';
    badge.title = r.subscribable ? 'Pushes changes (has subscribe)' : 'Read only on request';
    renderStats(r.uri, li);
  }

  function renderStats(uri, li) {
    li = li || P.itemFor(listEl, uri);
    if (!li) return;
    const s = statFor(uri);
    $('[data-stat="dispatched"]', li).textContent = String(s.dispatched);
    $('[data-stat="suppressed"]', li).textContent = String(s.suppressed);
    li.dataset.dispatched = String(s.dispatched);
    li.dataset.suppressed = String(s.suppressed);
  }

  function renderList(resources) {
    P.keyed(listEl, resources, 'uri', createItem, updateItem);
    $('#resource-count').textContent = String(resources.length);
  }

  // showRead shows what a Read got in out: content is text, or a node (the
  // value's tree).
  function showRead(out, head, content, state) {
    out.hidden = false;
    $('.res-read-time', out).textContent = head;
    const box = $('.res-value', out);
    box.replaceChildren(content);
    box.dataset.state = state;
    box.hidden = content === '';
  }

  // readInto reads uri with readResource and shows the value in li's
  // read-out box.
  function readInto(uri, li) {
    P.readInto(uri, li, {
      busy: 'Reading…',
      call: 'readResource',
      read: () => mc.readResource(uri),
      show: (out, head, result, state) => showRead(out, head,
        state === 'ok' ? valueView(result)
          : state === 'error' ? String(result && result.message ? `${result.name}: ${result.message}` : result)
            : '',
        state),
    });
  }

  function flash(uri, kind) {
    const li = P.itemFor(listEl, uri);
    if (!li) return;
    P.flash(li, kind === 'dispatched' ? 'flash-sent' : 'flash-dropped');
  }

  // ---- push log ------------------------------------------------------------

  // Which top-level fields differ from the last pushed value of the same uri,
  // so a row can say "city" instead of making you spot it in the JSON.
  const lastKeys = new Map(); // uri -> { field: JSON text }
  function changedFields(uri, value) {
    if (!value || typeof value !== 'object' || Array.isArray(value)) { lastKeys.delete(uri); return ''; }
    const now = {};
    for (const k of Object.keys(value)) {
      try { now[k] = JSON.stringify(value[k]); } catch (_) { now[k] = String(Math.random()); }
    }
    const before = lastKeys.get(uri);
    lastKeys.set(uri, now);
    if (!before) return 'first push';
    const keys = new Set(Object.keys(before).concat(Object.keys(now)));
    // Nothing differs: the module re-sent an equal value, which it does after
    // the resource was replaced (its baseline starts over).
    return Array.from(keys).filter((k) => before[k] !== now[k]).join(', ') || 're-sent';
  }

  function logRow(kind, uri, value, changed) {
    const li = el('li', `push push-${kind}`);
    li.dataset.uri = uri;
    li.dataset.kind = kind;
    const t = P.logTime();
    const where = el('span', 'push-where');
    where.append(el('code', 'push-uri', uri));
    if (changed) where.append(el('span', 'push-changed', ` · ${changed}`));
    if (kind === 'suppressed') where.append(el('span', 'push-changed', ' · suppressed'));
    li.append(P.logDot(kind === 'dispatched' ? 'dot-sent' : 'dot-dropped'), t, where);
    if (value) {
      const v = el('span', 'push-value', value.short);
      v.title = value.full;
      li.append(v);
    } else {
      li.setAttribute('aria-label', `${uri}: push suppressed, value unchanged`);
    }
    P.addRow(logEl, li, $('#push-empty'));
  }

  mc.addEventListener('resourceupdated', (e) => {
    const { uri, value } = e.detail;
    const s = statFor(uri);
    s.dispatched++;
    totalDispatched.add();
    logRow('dispatched', uri, compact(value, 200), changedFields(uri, value));
    renderStats(uri);
    flash(uri, 'dispatched');
  });

  mc.addEventListener('resourcelistchanged', (e) => {
    renderList(e.detail && Array.isArray(e.detail.resources) ? e.detail.resources : mc.getResources());
    renderTemplates(mc.getResourceTemplates());
  });

  if (tap) {
    tap.onSuppressed((uri) => {
      const s = statFor(uri);
      s.suppressed++;
      totalSuppressed.add();
      logRow('suppressed', uri, null);
      renderStats(uri);
      flash(uri, 'suppressed');
    });
  }

  // After a failed start every member throws the start error; the status
  // line above already shows it.
  try {
    renderList(mc.getResources());
    renderTemplates(mc.getResourceTemplates());
  } catch (_) { /* shown by the ready handler */ }
}
