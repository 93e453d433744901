// panel.js — the agent panel: what an agent sees of this page.
//
// It uses only the consumer side of document.modelContext, exactly as an agent
// (or an MCP bridge) would: getResources(), readResource(uri), and the
// resourcelistchanged / resourceupdated events. It knows nothing about the shop.
// The one exception is the suppressed-push counter, which comes from the
// module's debug log through debug-tap.js (the module has no counter API).
(function () {
  'use strict';

  const LOG_LIMIT = 300;
  const mc = document.modelContext;
  const tap = globalThis.__agentPanelTap;

  const $ = (sel, root) => (root || document).querySelector(sel);
  const statusEl = $('#agent-status');
  const listEl = $('#resource-list');
  const logEl = $('#push-log');

  const stats = new Map(); // uri -> { dispatched, suppressed }
  const statFor = (uri) => {
    let s = stats.get(uri);
    if (!s) stats.set(uri, (s = { dispatched: 0, suppressed: 0 }));
    return s;
  };
  let totalDispatched = 0;
  let totalSuppressed = 0;

  function setStatus(state, text) {
    statusEl.dataset.state = state;
    statusEl.textContent = text;
  }

  if (!mc || typeof mc.getResources !== 'function') {
    setStatus('error', 'modelcontext.js did not load: is /static/modelcontext.js served? (run make build)');
    return;
  }

  // First thing: hear how the start went (and never leave a rejected ready
  // unhandled).
  Promise.resolve(mc.ready).then(
    () => setStatus('ready', 'Connected · live resources on document.modelContext'),
    (err) => setStatus('error', `Module failed: ${err && err.message ? err.message : err}`),
  );

  const clock = (d) => d.toLocaleTimeString('en-GB', { hour12: false }) + '.' + String(d.getMilliseconds()).padStart(3, '0');

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

  // ---- resource list -------------------------------------------------------

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }

  function createItem(uri) {
    const li = el('li', 'res');
    li.dataset.uri = uri;

    const top = el('div', 'res-top');
    const names = el('div', 'res-names');
    const uriLine = el('span', 'res-uri-line');
    uriLine.append(el('code', 'res-uri', uri), ' ', el('span', 'res-mime'));
    names.append(el('span', 'res-title'), uriLine);
    top.append(names, el('span', 'badge'));

    const desc = el('p', 'res-desc');

    const meta = el('div', 'res-meta');
    const sent = el('span', 'stat stat-sent');
    sent.title = 'Pushes dispatched (resourceupdated events)';
    const sentN = el('b', null, '0');
    sentN.dataset.stat = 'dispatched';
    sent.append(el('span', 'dot dot-sent'), sentN, ' dispatched');
    const dropped = el('span', 'stat stat-dropped');
    dropped.title = 'Pushes suppressed because the value had not changed';
    const droppedN = el('b', null, '0');
    droppedN.dataset.stat = 'suppressed';
    dropped.append(el('span', 'dot dot-dropped'), droppedN, ' suppressed');
    const read = el('button', 'btn-read', 'Read');
    read.type = 'button';
    read.dataset.action = 'read';
    read.setAttribute('aria-label', `Read ${uri}`);
    read.addEventListener('click', () => readInto(uri, li));
    meta.append(sent, dropped, read);

    const out = el('div', 'res-read');
    out.hidden = true;
    const outHead = el('div', 'res-read-head');
    const outTime = el('span', 'res-read-time');
    const close = el('button', 'link-btn res-read-close', 'Hide');
    close.type = 'button';
    close.setAttribute('aria-label', `Hide the value of ${uri}`);
    close.addEventListener('click', () => { out.hidden = true; read.focus(); });
    outHead.append(outTime, close);
    const pre = el('pre', 'res-value');
    pre.tabIndex = 0;
    pre.setAttribute('aria-label', `Value of ${uri}`);
    out.append(outHead, pre);

    li.append(top, desc, meta, out);
    return li;
  }

  function updateItem(li, r) {
    $('.res-title', li).textContent = r.title || r.name;
    const badge = $('.badge', li);
    badge.textContent = r.subscribable ? 'live' : 'pull-only';
    badge.dataset.kind = r.subscribable ? 'live' : 'pull';
    badge.title = r.subscribable ? 'Pushes changes (has subscribe)' : 'Read only on request';
    const desc = $('.res-desc', li);
    desc.textContent = r.description || '';
    desc.title = r.description || '';
    desc.hidden = !r.description;
    $('.res-mime', li).textContent = r.mimeType ? `· ${r.mimeType}` : '';
    renderStats(r.uri, li);
  }

  function renderStats(uri, li) {
    li = li || listEl.querySelector(`li[data-uri="${CSS.escape(uri)}"]`);
    if (!li) return;
    const s = statFor(uri);
    $('[data-stat="dispatched"]', li).textContent = String(s.dispatched);
    $('[data-stat="suppressed"]', li).textContent = String(s.suppressed);
    li.dataset.dispatched = String(s.dispatched);
    li.dataset.suppressed = String(s.suppressed);
  }

  function renderList(resources) {
    const existing = new Map(Array.from(listEl.children, (li) => [li.dataset.uri, li]));
    resources.forEach((r, i) => {
      let li = existing.get(r.uri);
      if (li) existing.delete(r.uri);
      else li = createItem(r.uri);
      updateItem(li, r);
      if (listEl.children[i] !== li) listEl.insertBefore(li, listEl.children[i] || null);
    });
    for (const li of existing.values()) li.remove();
    $('#resource-count').textContent = String(resources.length);
    listEl.dataset.count = String(resources.length);
  }

  function readInto(uri, li) {
    const out = $('.res-read', li);
    const pre = $('.res-value', li);
    const time = $('.res-read-time', li);
    out.hidden = false;
    time.textContent = 'Reading…';
    mc.readResource(uri).then(
      (v) => {
        pre.textContent = pretty(v);
        pre.dataset.state = 'ok';
        time.textContent = `readResource · ${clock(new Date())}`;
      },
      (err) => {
        pre.textContent = String(err && err.message ? `${err.name}: ${err.message}` : err);
        pre.dataset.state = 'error';
        time.textContent = `readResource failed · ${clock(new Date())}`;
      },
    );
  }

  function flash(uri, kind) {
    const li = listEl.querySelector(`li[data-uri="${CSS.escape(uri)}"]`);
    if (!li) return;
    li.classList.remove('flash-sent', 'flash-dropped');
    void li.offsetWidth; // restart the animation
    li.classList.add(kind === 'dispatched' ? 'flash-sent' : 'flash-dropped');
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
    const now = new Date();
    const t = el('time', 'push-time', clock(now));
    t.dateTime = now.toISOString();
    const where = el('span', 'push-where');
    where.append(el('code', 'push-uri', uri));
    if (changed) where.append(el('span', 'push-changed', ` · ${changed}`));
    if (kind === 'suppressed') where.append(el('span', 'push-changed', ' · suppressed'));
    const dot = el('span', `dot ${kind === 'dispatched' ? 'dot-sent' : 'dot-dropped'}`);
    dot.setAttribute('aria-hidden', 'true');
    li.append(dot, t, where);
    if (value) {
      const v = el('span', 'push-value', value.short);
      v.title = value.full;
      li.append(v);
    } else {
      li.setAttribute('aria-label', `${uri}: push suppressed, value unchanged`);
    }
    logEl.prepend(li);
    while (logEl.children.length > LOG_LIMIT) logEl.lastElementChild.remove();
    $('#push-empty').hidden = true;
  }

  mc.addEventListener('resourceupdated', (e) => {
    const { uri, value } = e.detail;
    const s = statFor(uri);
    s.dispatched++;
    totalDispatched++;
    $('#total-dispatched').textContent = String(totalDispatched);
    logRow('dispatched', uri, compact(value, 200), changedFields(uri, value));
    renderStats(uri);
    flash(uri, 'dispatched');
  });

  mc.addEventListener('resourcelistchanged', (e) => {
    renderList(e.detail && Array.isArray(e.detail.resources) ? e.detail.resources : mc.getResources());
  });

  if (tap) {
    tap.onSuppressed((uri) => {
      const s = statFor(uri);
      s.suppressed++;
      totalSuppressed++;
      $('#total-suppressed').textContent = String(totalSuppressed);
      logRow('suppressed', uri, null);
      renderStats(uri);
      flash(uri, 'suppressed');
    });
  }

  // After a failed start every member throws the start error; the status
  // line above already shows it.
  try {
    renderList(mc.getResources());
  } catch (_) { /* shown by the ready handler */ }
})();
