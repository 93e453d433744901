// panel-common.js — what the agent panel's two tabs build the same way.
//
// The Page tab (panel.js) and the MCP tab (mcp-panel.js) show the same
// resources through different APIs, in the same cards and log rows. This
// script holds the pieces they share, as plain functions on
// globalThis.AgentPanel; index.html loads it before both. It knows nothing
// about document.modelContext or MCP: each tab passes in how it reads and what
// its cards say.
'use strict';

{
  const LOG_LIMIT = 300; // rows a log keeps, newest first

  const $ = (sel, root) => (root || document).querySelector(sel);

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }

  const clock = (d) => d.toLocaleTimeString('en-GB', { hour12: false }) + '.' + String(d.getMilliseconds()).padStart(3, '0');

  // ---- cards -----------------------------------------------------------------

  // cardTop is the head of a card: its title, its uri (or uriTemplate) and
  // mimeType, and badge.
  function cardTop(uri, badge) {
    const top = el('div', 'res-top');
    const names = el('div', 'res-names');
    const uriLine = el('span', 'res-uri-line');
    uriLine.append(el('code', 'res-uri', uri), ' ', el('span', 'res-mime'));
    names.append(el('span', 'res-title'), uriLine);
    top.append(names, badge);
    return top;
  }

  // describeItem fills in a card's title, description and mimeType from a
  // resource or template descriptor.
  function describeItem(li, r) {
    $('.res-title', li).textContent = r.title || r.name;
    const desc = $('.res-desc', li);
    desc.textContent = r.description || '';
    desc.title = r.description || '';
    desc.hidden = !r.description;
    $('.res-mime', li).textContent = r.mimeType ? `· ${r.mimeType}` : '';
  }

  // keyed re-renders ul from items (by key), creating cards with create and
  // filling them in with update.
  function keyed(ul, items, key, create, update) {
    const existing = new Map(Array.from(ul.children, (li) => [li.dataset[key], li]));
    items.forEach((item, i) => {
      const k = item[key];
      let li = existing.get(k);
      if (li) existing.delete(k);
      else li = create(k);
      update(li, item);
      if (ul.children[i] !== li) ul.insertBefore(li, ul.children[i] || null);
    });
    for (const li of existing.values()) li.remove();
    ul.dataset.count = String(items.length);
  }

  // itemFor is the card of uri in list, or null.
  function itemFor(list, uri) {
    return list.querySelector(`li[data-uri="${CSS.escape(uri)}"]`);
  }

  // statCount is the number of a card's stat, found by its data-stat name.
  function statCount(name) {
    const n = el('b', null, '0');
    n.dataset.stat = name;
    return n;
  }

  // stat is one count on a card: a span of class cls, explained by title,
  // holding parts (text, a dot, a statCount).
  function stat(cls, title, ...parts) {
    const s = el('span', cls);
    s.title = title;
    s.append(...parts);
    return s;
  }

  function readButton(type, action) {
    const read = el('button', 'btn-read', 'Read');
    read.type = type;
    read.dataset.action = action;
    return read;
  }

  // readOut is the (hidden) box a Read shows its result in: a head line (the
  // .res-read-time the tab fills in, and Hide, which returns the focus to
  // back) above body. noun says what Hide hides.
  function readOut(what, noun, back, body) {
    const out = el('div', 'res-read');
    out.hidden = true;
    const head = el('div', 'res-read-head');
    const close = el('button', 'link-btn res-read-close', 'Hide');
    close.type = 'button';
    close.setAttribute('aria-label', `Hide the ${noun} of ${what}`);
    close.addEventListener('click', () => { out.hidden = true; back.focus(); });
    head.append(el('span', 'res-read-time'), close);
    out.append(head, body);
    return out;
  }

  // resourceItem is a resource's card: cardTop with o.badge, the description,
  // a line of o.stats and a Read button (labelled o.readLabel) that calls
  // o.read(uri, li), and the read-out box o.readOut(uri, button) builds.
  function resourceItem(uri, o) {
    const li = el('li', 'res');
    li.dataset.uri = uri;

    const read = readButton('button', 'read');
    read.setAttribute('aria-label', o.readLabel);
    read.addEventListener('click', () => o.read(uri, li));
    const meta = el('div', 'res-meta');
    meta.append(...o.stats, read);

    li.append(cardTop(uri, o.badge), el('p', 'res-desc'), meta, o.readOut(uri, read));
    return li;
  }

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

  // templateItem is a template's card: its uriTemplate with a box per
  // variable, and a Read that expands it (RFC 6570 level 1: each value
  // percent-encoded) and calls o.read(uri, li) with the instance. o.badgeTitle
  // and o.formLabel explain the card, o.readOut builds its read-out box as for
  // resourceItem, and o.invalid(out, text) says in it that a box is empty.
  // With o.complete(tpl, name, value, args) → Promise<string[]>, each box
  // offers the values it answers as the visitor types (a datalist).
  function offerCompletions(tpl, input, inputs, complete) {
    const list = el('datalist');
    list.id = `complete-${++completionLists}`;
    input.setAttribute('list', list.id);
    let asked = 0;
    input.addEventListener('input', () => {
      const mine = ++asked;
      const args = {};
      for (const i of inputs) if (i !== input && i.value.trim()) args[i.name] = i.value.trim();
      complete(tpl, input.name, input.value, args).then((values) => {
        if (mine !== asked) return; // a later keystroke asked again
        list.replaceChildren(...values.map((v) => Object.assign(el('option'), { value: v })));
        input.dataset.completions = String(values.length);
      }, () => list.replaceChildren());
    });
    return list;
  }
  let completionLists = 0;

  function templateItem(tpl, o) {
    const li = el('li', 'res res-template');
    li.dataset.uriTemplate = tpl;

    const badge = el('span', 'badge', 'template');
    badge.dataset.kind = 'template';
    badge.title = o.badgeTitle;

    const form = el('form', 'tpl-form');
    form.setAttribute('aria-label', o.formLabel);
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
      if (o.complete) line.append(offerCompletions(tpl, input, inputs, o.complete));
    }
    const read = readButton('submit', 'read-template');
    form.append(line, read);

    const out = o.readOut(tpl, read);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const empty = inputs.find((i) => !i.value.trim());
      if (empty) {
        o.invalid(out, `Type a value for {${empty.name}} first`);
        empty.focus();
        return;
      }
      let i = 0;
      const uri = templateParts(tpl).map((p) => (p.text !== undefined ? p.text : encodeURIComponent(inputs[i++].value.trim()))).join('');
      o.read(uri, li);
    });

    li.append(cardTop(tpl, badge), el('p', 'res-desc'), form, out);
    return li;
  }

  // ---- reading ---------------------------------------------------------------

  // reveal scrolls the panel (or, below the shop, the page) so that node
  // shows.
  function reveal(node) {
    node.scrollIntoView({ block: 'nearest' });
  }

  // readInto reads uri into the read-out box of card li. It shows o.busy at
  // once, then what o.read(uri, out) resolves to (and scrolls it into view)
  // or why it failed, under a head naming the call (o.call; on a template's
  // card also the uri, since it can be any instance) and the time. o.show(out,
  // head, result, state) draws the box for state 'busy', 'ok' (result: the
  // value) or 'error' (result: the error). o.read returns null when it has
  // shown itself why it cannot read. A read overtaken by a later one into the
  // same box shows nothing.
  async function readInto(uri, li, o) {
    const out = $('.res-read', li);
    const named = li.classList.contains('res-template') ? ` ${uri}` : '';
    out.dataset.uri = uri;
    o.show(out, o.busy, null, 'busy');
    let result;
    try {
      const reading = o.read(uri, out);
      if (!reading) return;
      result = await reading;
    } catch (err) {
      if (out.dataset.uri === uri) o.show(out, `${o.call}${named} failed · ${clock(new Date())}`, err, 'error');
      return;
    }
    if (out.dataset.uri === uri) {
      o.show(out, `${o.call}${named} · ${clock(new Date())}`, result, 'ok');
      reveal(out);
    }
  }

  // ---- logs and counts -------------------------------------------------------

  // logTime is a log row's time stamp: now, to the millisecond.
  function logTime() {
    const now = new Date();
    const t = el('time', 'push-time', clock(now));
    t.dateTime = now.toISOString();
    return t;
  }

  // logDot is a log row's coloured dot, of class cls.
  function logDot(cls) {
    const dot = el('span', `dot ${cls}`);
    dot.setAttribute('aria-hidden', 'true');
    return dot;
  }

  // addRow puts li at the top of log, drops the oldest rows past LOG_LIMIT,
  // and hides the log's empty note.
  function addRow(log, li, empty) {
    log.prepend(li);
    while (log.children.length > LOG_LIMIT) log.lastElementChild.remove();
    empty.hidden = true;
  }

  // flash restarts a card's flash animation, of class cls.
  function flash(li, cls) {
    li.classList.remove('flash-sent', 'flash-dropped');
    void li.offsetWidth; // restart the animation
    li.classList.add(cls);
  }

  // total is a running count shown in every element sels select; add counts
  // one more.
  function total(...sels) {
    let n = 0;
    return {
      add() {
        n++;
        for (const sel of sels) $(sel).textContent = String(n);
      },
    };
  }

  globalThis.AgentPanel = Object.freeze({
    $, el,
    describeItem, keyed, itemFor, statCount, stat, readOut, resourceItem, templateItem,
    readInto,
    logTime, logDot, addRow, flash, total,
  });
}
