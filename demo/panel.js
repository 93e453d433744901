// panel.js — the agent panel: what an agent sees of this page.
//
// This is the Page tab. It uses only the consumer side of
// document.modelContext, exactly as an in-page agent would: getResources(),
// getResourceTemplates(), readResource(uri), and the resourcelistchanged /
// resourceupdated events. It knows nothing about the shop. (The MCP tab,
// mcp-panel.js, sees the same resources through a stock MCP client.)
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
  const tplEl = $('#template-list');
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

    li.append(top, desc, meta, readOut(uri, read));
    return li;
  }

  // readOut is the (hidden) box a Read shows its value in; Hide returns the
  // focus to back.
  function readOut(what, back) {
    const out = el('div', 'res-read');
    out.hidden = true;
    const outHead = el('div', 'res-read-head');
    const outTime = el('span', 'res-read-time');
    const close = el('button', 'link-btn res-read-close', 'Hide');
    close.type = 'button';
    close.setAttribute('aria-label', `Hide the value of ${what}`);
    close.addEventListener('click', () => { out.hidden = true; back.focus(); });
    outHead.append(outTime, close);
    const pre = el('pre', 'res-value');
    pre.tabIndex = 0;
    pre.setAttribute('aria-label', `Value of ${what}`);
    out.append(outHead, pre);
    return out;
  }

  // ---- templates -----------------------------------------------------------

  // templateParts splits "state://order/{id}" into literal text and variables.
  function templateParts(tpl) {
    const parts = [];
    let last = 0;
    for (const m of tpl.matchAll(/\{([^{}]+)\}/g)) {
      if (m.index > last) parts.push({ text: tpl.slice(last, m.index) });
      parts.push({ name: m[1] });
      last = m.index + m[0].length;
    }
    if (last < tpl.length) parts.push({ text: tpl.slice(last) });
    return parts;
  }

  // A template's card: its uriTemplate with a box per variable, and a Read
  // that expands it (RFC 6570 level 1: each value percent-encoded) and reads
  // the instance with readResource.
  function createTemplateItem(tpl) {
    const li = el('li', 'res res-template');
    li.dataset.uriTemplate = tpl;

    const top = el('div', 'res-top');
    const names = el('div', 'res-names');
    const uriLine = el('span', 'res-uri-line');
    uriLine.append(el('code', 'res-uri', tpl), ' ', el('span', 'res-mime'));
    names.append(el('span', 'res-title'), uriLine);
    const badge = el('span', 'badge', 'template');
    badge.dataset.kind = 'template';
    badge.title = 'Read on demand: a template never pushes';
    top.append(names, badge);

    const desc = el('p', 'res-desc');

    const form = el('form', 'tpl-form');
    form.setAttribute('aria-label', `Read an instance of ${tpl}`);
    form.noValidate = true;
    const line = el('div', 'tpl-uri');
    const inputs = [];
    for (const part of templateParts(tpl)) {
      if (part.text !== undefined) {
        line.append(el('code', 'tpl-lit', part.text));
        continue;
      }
      const input = el('input', 'tpl-var');
      input.name = part.name;
      input.placeholder = part.name;
      input.autocomplete = 'off';
      input.spellcheck = false;
      input.setAttribute('aria-label', `${part.name} (in ${tpl})`);
      input.dataset.var = part.name;
      inputs.push(input);
      line.append(input);
    }
    const read = el('button', 'btn-read', 'Read');
    read.type = 'submit';
    read.dataset.action = 'read-template';
    form.append(line, read);

    const out = readOut(tpl, read);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const empty = inputs.find((i) => !i.value.trim());
      if (empty) {
        showRead(out, `Type a value for {${empty.name}} first`, '', 'error');
        empty.focus();
        return;
      }
      let i = 0;
      const uri = templateParts(tpl).map((p) => (p.text !== undefined ? p.text : encodeURIComponent(inputs[i++].value.trim()))).join('');
      readInto(uri, li);
    });

    li.append(top, desc, form, out);
    return li;
  }

  function renderTemplates(templates) {
    const existing = new Map(Array.from(tplEl.children, (li) => [li.dataset.uriTemplate, li]));
    templates.forEach((t, i) => {
      let li = existing.get(t.uriTemplate);
      if (li) existing.delete(t.uriTemplate);
      else li = createTemplateItem(t.uriTemplate);
      $('.res-title', li).textContent = t.title || t.name;
      const desc = $('.res-desc', li);
      desc.textContent = t.description || '';
      desc.title = t.description || '';
      desc.hidden = !t.description;
      $('.res-mime', li).textContent = t.mimeType ? `· ${t.mimeType}` : '';
      if (tplEl.children[i] !== li) tplEl.insertBefore(li, tplEl.children[i] || null);
    });
    for (const li of existing.values()) li.remove();
    $('#template-count').textContent = String(templates.length);
    tplEl.dataset.count = String(templates.length);
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

  function showRead(out, head, text, state) {
    out.hidden = false;
    $('.res-read-time', out).textContent = head;
    const pre = $('.res-value', out);
    pre.textContent = text;
    pre.dataset.state = state;
    pre.hidden = text === '';
  }

  // reveal scrolls the resource list (and only it) so that node shows.
  function reveal(node) {
    const box = node.closest('.res-scroll');
    if (!box || box.scrollHeight <= box.clientHeight) return;
    const r = node.getBoundingClientRect();
    const b = box.getBoundingClientRect();
    if (r.bottom > b.bottom) box.scrollTop += Math.min(r.bottom - b.bottom, r.top - b.top);
    else if (r.top < b.top) box.scrollTop -= b.top - r.top;
  }

  // readInto reads uri and shows the value in li's read-out box. A template's
  // box names the uri it read, since it can be any instance.
  function readInto(uri, li) {
    const out = $('.res-read', li);
    const named = li.classList.contains('res-template') ? ` ${uri}` : '';
    out.dataset.uri = uri;
    showRead(out, 'Reading…', '', 'busy');
    mc.readResource(uri).then(
      (v) => {
        if (out.dataset.uri === uri) {
          showRead(out, `readResource${named} · ${clock(new Date())}`, pretty(v), 'ok');
          reveal(out);
        }
      },
      (err) => {
        if (out.dataset.uri === uri) {
          showRead(out, `readResource${named} failed · ${clock(new Date())}`,
            String(err && err.message ? `${err.name}: ${err.message}` : err), 'error');
        }
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
    $('#tab-count-page b').textContent = String(totalDispatched);
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
    renderTemplates(mc.getResourceTemplates());
  } catch (_) { /* shown by the ready handler */ }
})();
