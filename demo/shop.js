// shop.js — Fernhill Goods, a small storefront that shares its live state with an
// AI assistant through document.modelContext.
//
// Plain JavaScript, no build step. The page is an ordinary single-page shop; the
// only modelcontext-specific code is six registerResource calls (made through
// share(), below, which keeps the shop working if the module failed to start),
// each next to the state it exposes and to a comment saying WHY that state
// earns a resource: five concrete resources that push their changes (one of
// them settled), and one URI template (state://order/{id}) that reads any
// order on demand. The store notice in index.html is a resource by markup
// alone (data-declarative on the script tag).
(function () {
  'use strict';

  const mc = document.modelContext;

  // share registers a resource. The shop must keep working when the module
  // is missing or failed to start (its .wasm blocked, say): then it simply has
  // nobody to tell, and the agent panel says why.
  function share(descriptor) {
    if (!mc || typeof mc.registerResource !== 'function') return () => {};
    try {
      return mc.registerResource(descriptor);
    } catch (err) {
      console.warn(`Fernhill: could not share ${descriptor.uri || descriptor.uriTemplate} with the assistant:`, err);
      return () => {};
    }
  }

  // ---------------------------------------------------------------------------
  // Catalogue
  //
  // NOT a resource: the catalogue is static while the visitor is on the page.
  // Nothing changes it without the agent acting, so there is nothing to follow;
  // an agent reads it from the page itself (or a plain read, or a tool such as
  // "search_products"). A resource earns its place by changing under the
  // agent's feet: the route, the cart, the form draft, the order status.
  // ---------------------------------------------------------------------------
  const CURRENCY = 'EUR';
  const PRODUCTS = [
    { sku: 'MUG-STONE', name: 'Stoneware mug', blurb: 'Hand-thrown, speckled glaze, 350 ml.', cents: 1800, art: 'mug' },
    { sku: 'TOWEL-LINEN', name: 'Linen tea towel', blurb: 'Stonewashed linen, 50 × 70 cm.', cents: 1400, art: 'towel' },
    { sku: 'CANDLE-BEES', name: 'Beeswax candle', blurb: 'Pure beeswax pillar, burns about 40 hours.', cents: 2200, art: 'candle' },
    { sku: 'BOARD-WALNUT', name: 'Walnut serving board', blurb: 'Oiled solid walnut, 40 × 20 cm.', cents: 4800, art: 'board' },
    { sku: 'KETTLE-ENAMEL', name: 'Enamel kettle', blurb: '1.6 litres, works on every hob.', cents: 5600, art: 'kettle' },
    { sku: 'THROW-WOOL', name: 'Wool throw', blurb: 'Undyed wool, 130 × 180 cm.', cents: 8900, art: 'throw' },
  ];
  const bySku = new Map(PRODUCTS.map((p) => [p.sku, p]));
  const SHIPPING = {
    standard: { label: 'Standard', cents: 0, days: 4 },
    express: { label: 'Express', cents: 650, days: 1 },
  };

  const money = new Intl.NumberFormat('en-IE', { style: 'currency', currency: CURRENCY });
  const fmt = (cents) => money.format(cents / 100);

  // A tiny change notifier: each piece of state below owns one, and its
  // resource's subscribe() hands onChange to it. watch() returns the teardown.
  function notifier() {
    const fns = new Set();
    return {
      watch(fn) { fns.add(fn); return () => fns.delete(fn); },
      notify() {
        for (const fn of Array.from(fns)) {
          try { fn(); } catch (err) { console.warn('Fernhill: change notification failed:', err); }
        }
      },
    };
  }

  const $ = (sel, root) => (root || document).querySelector(sel);
  function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === false || v == null) continue;
      if (k === 'class') el.className = v;
      else if (k === 'html') el.innerHTML = v;
      else if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
      else el.setAttribute(k, v === true ? '' : v);
    }
    for (const c of children.flat()) {
      if (c == null || c === false) continue;
      el.append(c.nodeType ? c : document.createTextNode(String(c)));
    }
    return el;
  }

  // Re-rendering a region replaces its buttons; keep keyboard focus where it was.
  function keepFocus(render) {
    const key = document.activeElement && document.activeElement.getAttribute('data-focus-key');
    render();
    if (key) {
      const again = document.querySelector(`[data-focus-key="${CSS.escape(key)}"]`);
      if (again) again.focus();
    }
  }

  // ---------------------------------------------------------------------------
  // Router: client-side navigation with history.pushState / popstate.
  // ---------------------------------------------------------------------------
  const page = notifier();
  const VIEW_TITLES = { shop: 'Shop', cart: 'Cart', checkout: 'Checkout', order: 'Order' };

  function route(path) {
    const m = /^\/order\/([^/]+)\/?$/.exec(path);
    if (m) {
      let orderId = m[1];
      try { orderId = decodeURIComponent(orderId); } catch (_) { /* keep it as typed */ }
      return { view: 'order', orderId };
    }
    if (path === '/cart' || path === '/cart/') return { view: 'cart' };
    if (path === '/checkout' || path === '/checkout/') return { view: 'checkout' };
    return { view: 'shop' };
  }

  function pageSnapshot() {
    const r = route(location.pathname);
    const snap = { path: location.pathname, view: r.view, title: VIEW_TITLES[r.view] };
    if (r.orderId) {
      snap.title = `Order ${r.orderId}`;
      snap.orderId = r.orderId;
    }
    return snap;
  }

  // Every navigation notifies, including a click on the link of the page the
  // visitor is already on. The module drops that push as unchanged, so the
  // router does not have to be clever about it.
  function navigate(path, opts) {
    if (path !== location.pathname) history.pushState(null, '', path);
    render();
    if (!opts || opts.focus !== false) {
      const heading = $('.view:not([hidden]) h1');
      if (heading) { heading.setAttribute('tabindex', '-1'); heading.focus({ preventScroll: true }); }
      window.scrollTo(0, 0);
    }
    page.notify();
  }

  document.addEventListener('click', (e) => {
    const a = e.target.closest('a[data-link]');
    if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(new URL(a.href).pathname);
  });
  window.addEventListener('popstate', () => { render(); page.notify(); });

  // WHY a resource: the visitor moves between pages on their own (links, the
  // back button), so where they are changes without the agent acting. An agent
  // that helps "on this page" has to follow it.
  share({
    uri: 'state://page',
    name: 'page',
    title: 'Current page',
    description: 'The view the visitor is on in the shop (shop, cart, checkout or order), its path and title.',
    get: pageSnapshot,
    subscribe: (onChange) => page.watch(onChange),
  });

  // ---------------------------------------------------------------------------
  // Cart
  // ---------------------------------------------------------------------------
  const cart = new Map(); // sku -> quantity
  const cartChanged = notifier();

  function setQty(sku, qty) {
    if (qty <= 0) cart.delete(sku);
    else cart.set(sku, qty);
    renderCartEverywhere();
    cartChanged.notify();
  }
  const cartCount = () => Array.from(cart.values()).reduce((a, b) => a + b, 0);
  const cartCents = () => Array.from(cart).reduce((sum, [sku, qty]) => sum + bySku.get(sku).cents * qty, 0);

  function cartSnapshot() {
    return {
      items: Array.from(cart, ([sku, qty]) => {
        const p = bySku.get(sku);
        return { sku, name: p.name, qty, unitPrice: p.cents / 100 };
      }),
      count: cartCount(),
      subtotal: cartCents() / 100,
      currency: CURRENCY,
    };
  }

  // WHY a resource: the visitor fills and empties the cart by hand, at any
  // moment. An agent that answers "what's in my basket?" or suggests a matching
  // item must see those changes as they happen, not guess when to re-read.
  share({
    uri: 'state://cart',
    name: 'cart',
    title: 'Shopping cart',
    description: 'Items in the visitor\'s cart with quantity and unit price, the item count and the subtotal (EUR, before shipping).',
    get: cartSnapshot,
    subscribe: (onChange) => cartChanged.watch(onChange),
  });

  // ---------------------------------------------------------------------------
  // Checkout draft
  // ---------------------------------------------------------------------------
  const form = $('#checkout-form');
  const draftChanged = notifier();
  const REQUIRED = ['name', 'email', 'street', 'postcode', 'city'];

  // The draft is normalised the way the order service would store it: trimmed,
  // runs of spaces collapsed, postcodes upper-cased. So a keystroke that only
  // adds a trailing space, or types "ab" where "AB" was, leaves it unchanged.
  const tidy = (s) => s.replace(/\s+/g, ' ').trim();
  function draftSnapshot() {
    const f = new FormData(form);
    const d = {
      name: tidy(f.get('name') || ''),
      email: tidy(f.get('email') || ''),
      street: tidy(f.get('street') || ''),
      postcode: tidy(f.get('postcode') || '').toUpperCase(),
      city: tidy(f.get('city') || ''),
      country: f.get('country') || '',
      shipping: f.get('shipping') || 'standard',
    };
    d.missing = REQUIRED.filter((k) => !d[k] || (k === 'email' && !/^\S+@\S+\.\S+$/.test(d[k])));
    return d;
  }

  // Every input event notifies; the module compares the new draft with the last
  // one it sent and drops the push when nothing changed. That is the point of
  // de-duplication: the page can report every keystroke without thinking, and
  // the agent only hears about real changes.
  form.addEventListener('input', (e) => {
    renderSummary();
    markInvalid(e.target.name);
    draftChanged.notify();
  });

  // After a failed "Place order", fields still missing stay marked; each one
  // clears as soon as it is filled in.
  function markInvalid(only) {
    const missing = draftSnapshot().missing;
    for (const k of REQUIRED) {
      if (only && only !== k) continue;
      const input = form.elements[k];
      if (missing.includes(k)) {
        if (!only) input.setAttribute('aria-invalid', 'true');
      } else {
        input.removeAttribute('aria-invalid');
      }
    }
  }

  // WHY a resource: the visitor types the draft themselves, keystroke by
  // keystroke. An assistant helping to fill the form (or spotting a typo in the
  // postcode) must follow it live.
  share({
    uri: 'state://checkout-draft',
    name: 'checkout-draft',
    title: 'Checkout form draft',
    description: 'What the visitor has typed into the checkout form so far (normalised), and which required fields are still missing.',
    get: draftSnapshot,
    subscribe: (onChange) => draftChanged.watch(onChange),
  });

  // WHY a settled resource: the note for the courier is free text, typed a
  // key at a time. The assistant wants the sentence, not forty drafts of it:
  // with settle, a burst of keystrokes makes one push, 400 ms after the
  // visitor pauses (and at least every 1.6 s while they keep typing).
  const note = form.elements.note;
  share({
    uri: 'state://courier-note',
    name: 'courier-note',
    title: 'Note for the courier',
    description: 'The note the visitor is writing for the courier; pushed once they pause typing.',
    settle: 400,
    get: () => tidy(note.value),
    subscribe: (onChange) => {
      note.addEventListener('input', onChange);
      return () => note.removeEventListener('input', onChange);
    },
  });

  // ---------------------------------------------------------------------------
  // Orders
  // ---------------------------------------------------------------------------
  const orders = new Map(); // id -> order: the shop's order store
  let nextOrderNumber = 1042;

  // The order service, faked: what each poll of GET /orders/<id> answers. Like a
  // real status feed, most polls report what the last one did; the module drops
  // those pushes, so the page can push after every poll.
  const STATUS_FEED = ['placed', 'packed', 'packed', 'shipped', 'shipped', 'out_for_delivery', 'delivered'];
  const STATUS_LABEL = {
    placed: 'Order placed',
    packed: 'Packed',
    shipped: 'Shipped',
    out_for_delivery: 'Out for delivery',
    delivered: 'Delivered',
  };
  const STEPS = ['placed', 'packed', 'shipped', 'out_for_delivery', 'delivered'];
  // Poll interval in ms; ?tick=200 speeds the story up. ?tick=manual polls
  // only when window.__demoPoll() is called: the demo's MCP test uses it to
  // move the order on once its client has subscribed, instead of racing it.
  const TICK = new URLSearchParams(location.search).get('tick');
  const POLL_MS = Math.max(50, Number(TICK) || 3000);
  if (TICK === 'manual') {
    window.__demoPoll = () => {
      for (const o of orders.values()) if (o.timer) pollOrder(o);
    };
  }

  function orderSnapshot(o) {
    // Deliberately no "checkedAt" here: a value that carried the poll time would
    // differ on every poll and no push would ever be suppressed.
    return {
      id: o.id,
      status: o.status,
      statusLabel: STATUS_LABEL[o.status],
      items: o.items.reduce((n, i) => n + i.qty, 0),
      total: o.totalCents / 100,
      currency: CURRENCY,
      shipping: o.shipping,
      estimatedDelivery: o.eta,
    };
  }

  // The order store starts with the visitor's earlier order, as the order
  // service would list it for a returning visitor. It is delivered and will
  // not change again, so it gets no resource of its own: the template below
  // is how an agent reads it.
  const PAST_ORDER_DAYS = 9;
  orders.set('FH-1041', {
    id: 'FH-1041',
    status: 'delivered',
    items: [{ sku: 'TOWEL-LINEN', name: 'Linen tea towel', qty: 2, unitPrice: 14 }],
    totalCents: 2800,
    shipCents: 0,
    shipping: 'standard',
    email: 'you@example.com',
    address: 'the address on file',
    eta: new Date(Date.now() - PAST_ORDER_DAYS * 86400e3).toISOString().slice(0, 10),
    polls: STATUS_FEED.length,
    checkedAt: new Date(),
    changed: notifier(),
    timer: 0,
  });

  // WHY a template: the visitor (or the agent) may ask about any order by its
  // id, including ones placed before this page was opened. A URI template
  // answers every state://order/<id> from the order store, without one
  // registration per order.
  //
  // Templates are read on demand: they take no subscribe, so they never push.
  // The order that is on its way gets its own concrete registration as well
  // (in placeOrder, below), and that is what pushes its status changes. For
  // its uri the concrete registration wins over the template; both answer the
  // same snapshot from the same store.
  share({
    uriTemplate: 'state://order/{id}',
    name: 'order',
    title: 'Order by id',
    description: 'Any of the visitor\'s orders by its id (such as FH-1041): status, item count, total (EUR) and estimated delivery. Read on demand; the order on its way is also listed on its own and pushes its changes.',
    mimeType: 'application/json',
    get: ({ id }) => {
      const o = orders.get(id);
      if (!o) throw new DOMException(`There is no order "${id}" for this visitor`, 'NotFoundError');
      return orderSnapshot(o);
    },
  });

  function placeOrder(draft) {
    const id = `FH-${nextOrderNumber++}`;
    const ship = SHIPPING[draft.shipping] || SHIPPING.standard;
    const eta = new Date(Date.now() + ship.days * 86400e3).toISOString().slice(0, 10);
    const o = {
      id,
      status: 'placed',
      items: cartSnapshot().items,
      totalCents: cartCents() + ship.cents,
      shipCents: ship.cents,
      shipping: SHIPPING[draft.shipping] ? draft.shipping : 'standard',
      email: draft.email,
      address: `${draft.street}, ${draft.postcode} ${draft.city}`,
      eta,
      polls: 0,
      checkedAt: null,
      changed: notifier(),
      timer: 0,
    };
    orders.set(id, o);

    // WHY a resource: the order status moves on the server's schedule (packed,
    // shipped, out for delivery) while the visitor and the agent do nothing.
    // Only a push can tell the agent "it shipped".
    //
    // The state://order/{id} template above already reads this order, but a
    // template is read on demand and cannot push. So the live order is also
    // registered under its concrete uri, with a subscribe: this registration
    // is what pushes, and it wins over the template for this uri.
    share({
      uri: `state://order/${id}`,
      name: `order-${id}`,
      title: `Order ${id}`,
      description: `Delivery status of order ${id}: placed, packed, shipped, out_for_delivery or delivered, with the item count, total (EUR) and estimated delivery date.`,
      get: () => orderSnapshot(o),
      subscribe: (onChange) => o.changed.watch(onChange),
    });

    o.timer = TICK === 'manual' ? -1 : setInterval(() => pollOrder(o), POLL_MS);
    return o;
  }

  function pollOrder(o) {
    o.status = STATUS_FEED[Math.min(o.polls, STATUS_FEED.length - 1)];
    o.polls++;
    o.checkedAt = new Date();
    if (o.status === 'delivered') {
      clearInterval(o.timer);
      o.timer = 0;
    }
    if (route(location.pathname).orderId === o.id) keepFocus(renderOrder);
    o.changed.notify();
  }

  // ---------------------------------------------------------------------------
  // Rendering
  // ---------------------------------------------------------------------------
  const ART = {
    mug: '<rect x="22" y="26" width="40" height="46" rx="7" fill="#c9835a"/><path d="M62 36h6a10 10 0 0 1 0 20h-6" fill="none" stroke="#c9835a" stroke-width="6"/><rect x="22" y="26" width="40" height="9" rx="4" fill="#b06d46"/><circle cx="33" cy="50" r="1.6" fill="#f3e3d3"/><circle cx="45" cy="58" r="1.4" fill="#f3e3d3"/><circle cx="51" cy="44" r="1.2" fill="#f3e3d3"/>',
    towel: '<rect x="24" y="18" width="52" height="64" rx="3" fill="#f7f4ee"/><rect x="24" y="28" width="52" height="6" fill="#6f9178"/><rect x="24" y="38" width="52" height="3" fill="#6f9178"/><rect x="24" y="66" width="52" height="6" fill="#6f9178"/><rect x="44" y="12" width="12" height="8" rx="3" fill="none" stroke="#6f9178" stroke-width="2.5"/>',
    candle: '<rect x="34" y="38" width="32" height="44" rx="4" fill="#e7b84f"/><rect x="34" y="38" width="32" height="6" rx="3" fill="#d6a23b"/><path d="M50 18c6 7 7 12 0 17c-7-5-6-10 0-17z" fill="#ef7d32"/><path d="M50 25c2.5 3 3 6 0 8c-3-2-2.5-5 0-8z" fill="#ffd66b"/><rect x="49" y="33" width="2" height="6" fill="#6a4b2a"/>',
    board: '<rect x="14" y="34" width="62" height="32" rx="10" fill="#8a5a3b"/><rect x="74" y="44" width="16" height="12" rx="6" fill="#8a5a3b"/><circle cx="84" cy="50" r="3" fill="#eadfd6"/><path d="M24 44c10 3 30 3 42 0M24 56c12 2 28 2 40 0" stroke="#74492e" stroke-width="2" fill="none"/>',
    kettle: '<path d="M26 78h48l-4-34a20 20 0 0 0-40 0z" fill="#5b7fa8"/><path d="M26 50l-12-10" stroke="#5b7fa8" stroke-width="6" stroke-linecap="round"/><path d="M34 30c4-14 28-14 32 0" fill="none" stroke="#2f3e52" stroke-width="4"/><rect x="44" y="20" width="12" height="6" rx="3" fill="#2f3e52"/><rect x="26" y="74" width="48" height="5" rx="2" fill="#47678c"/>',
    throw: '<rect x="16" y="30" width="68" height="40" rx="6" fill="#b9ad98"/><path d="M16 44h68M16 56h68" stroke="#a39680" stroke-width="3"/><path d="M22 70v8M30 70v8M38 70v8M46 70v8M54 70v8M62 70v8M70 70v8M78 70v8" stroke="#a39680" stroke-width="2"/>',
  };
  const art = (p, size) =>
    `<svg viewBox="0 0 100 100" width="${size}" height="${size}" aria-hidden="true" focusable="false">${ART[p.art]}</svg>`;

  function renderProducts() {
    const grid = $('#product-grid');
    grid.textContent = '';
    for (const p of PRODUCTS) {
      grid.append(h('li', { class: 'product', id: `product-${p.sku}`, 'data-sku': p.sku },
        h('div', { class: `product-art tint-${p.art}`, html: art(p, 120) }),
        h('div', { class: 'product-info' },
          h('h2', { class: 'product-name' }, p.name),
          h('p', { class: 'product-blurb' }, p.blurb),
        ),
        h('div', { class: 'product-buy' },
          h('span', { class: 'price' }, fmt(p.cents)),
          h('div', { class: 'buy-controls' }),
        ),
      ));
    }
    renderProductControls();
  }

  function stepper(p, qty, scope) {
    return h('div', { class: 'stepper', role: 'group', 'aria-label': `Quantity of ${p.name}` },
      h('button', {
        type: 'button', class: 'step', 'data-action': 'decrease', 'data-focus-key': `${scope}-dec-${p.sku}`,
        'aria-label': qty === 1 ? `Remove ${p.name} from cart` : `Remove one ${p.name}`,
        onclick: () => setQty(p.sku, qty - 1),
      }, '−'),
      h('span', { class: 'qty', 'data-qty': qty, 'aria-live': 'polite' }, String(qty)),
      h('button', {
        type: 'button', class: 'step', 'data-action': 'increase', 'data-focus-key': `${scope}-inc-${p.sku}`,
        'aria-label': `Add one more ${p.name}`,
        onclick: () => setQty(p.sku, qty + 1),
      }, '+'),
    );
  }

  function renderProductControls() {
    const before = document.activeElement;
    const key = before && before.getAttribute('data-focus-key');
    for (const p of PRODUCTS) {
      const box = $(`#product-${p.sku} .buy-controls`);
      const qty = cart.get(p.sku) || 0;
      box.textContent = '';
      if (qty === 0) {
        box.append(h('button', {
          type: 'button', class: 'btn btn-add', 'data-action': 'add-to-cart', 'data-focus-key': `grid-add-${p.sku}`,
          'aria-label': `Add ${p.name} to cart`,
          onclick: () => setQty(p.sku, 1),
        }, 'Add to cart'));
      } else {
        box.append(stepper(p, qty, 'grid'));
      }
    }
    if (key) {
      // Add ↔ stepper swap: land on the control that now does the same job.
      const sku = key.replace(/^grid-(add|inc|dec)-/, '');
      const qty = cart.get(sku) || 0;
      const target = qty === 0 ? `grid-add-${sku}` : key.startsWith('grid-add-') ? `grid-inc-${sku}` : key;
      const el = document.querySelector(`[data-focus-key="${CSS.escape(target)}"]`);
      if (el) el.focus();
    }
  }

  function renderNavCount() {
    const n = cartCount();
    const pill = $('#nav-cart-count');
    pill.textContent = String(n);
    pill.setAttribute('aria-label', `${n} item${n === 1 ? '' : 's'}`);
    pill.dataset.empty = n === 0 ? 'true' : 'false';
  }

  function renderCart() {
    const body = $('#cart-body');
    body.textContent = '';
    if (cart.size === 0) {
      body.append(h('div', { class: 'empty' },
        h('p', {}, 'Your cart is empty.'),
        h('a', { href: '/', 'data-link': true, class: 'btn btn-secondary' }, 'Browse the shop'),
      ));
      return;
    }
    const list = h('ul', { class: 'cart-lines', 'aria-label': 'Items in your cart' });
    for (const [sku, qty] of cart) {
      const p = bySku.get(sku);
      list.append(h('li', { class: 'cart-line', 'data-sku': sku },
        h('div', { class: `cart-art tint-${p.art}`, html: art(p, 56) }),
        h('div', { class: 'cart-name' }, h('strong', {}, p.name), h('span', { class: 'muted' }, `${fmt(p.cents)} each`)),
        stepper(p, qty, 'cart'),
        h('span', { class: 'line-total' }, fmt(p.cents * qty)),
        h('button', {
          type: 'button', class: 'link-btn', 'data-action': 'remove-line', 'data-focus-key': `cart-rm-${sku}`,
          'aria-label': `Remove all ${p.name} from cart`, onclick: () => setQty(sku, 0),
        }, 'Remove'),
      ));
    }
    body.append(list, h('div', { class: 'cart-foot' },
      h('p', { class: 'cart-subtotal' }, 'Subtotal ', h('strong', {}, fmt(cartCents()))),
      h('p', { class: 'muted' }, 'Shipping is calculated at checkout.'),
      h('a', { href: '/checkout', 'data-link': true, class: 'btn btn-primary' }, 'Continue to checkout'),
    ));
  }

  function renderSummary() {
    const body = $('#summary-body');
    body.textContent = '';
    if (cart.size === 0) {
      body.append(h('p', { class: 'muted' }, 'Your cart is empty. ', h('a', { href: '/', 'data-link': true }, 'Add something first.')));
      return;
    }
    const ship = SHIPPING[new FormData(form).get('shipping')] || SHIPPING.standard;
    const ul = h('ul', { class: 'summary-lines' });
    for (const [sku, qty] of cart) {
      const p = bySku.get(sku);
      ul.append(h('li', {}, h('span', {}, `${qty} × ${p.name}`), h('span', {}, fmt(p.cents * qty))));
    }
    body.append(ul, h('dl', { class: 'summary-totals' },
      h('div', {}, h('dt', {}, 'Subtotal'), h('dd', {}, fmt(cartCents()))),
      h('div', {}, h('dt', {}, `Shipping (${ship.label})`), h('dd', {}, ship.cents ? fmt(ship.cents) : 'Free')),
      h('div', { class: 'grand' }, h('dt', {}, 'Total'), h('dd', {}, fmt(cartCents() + ship.cents))),
    ));
  }

  function renderOrder() {
    const body = $('#order-body');
    body.textContent = '';
    const id = route(location.pathname).orderId;
    const o = orders.get(id);
    if (!o) {
      body.append(h('h1', { id: 'order-title' }, `Order ${id}`),
        h('div', { class: 'empty' },
          h('p', {}, 'We can\'t find this order in this tab. Orders in this demo live only as long as the page.'),
          h('a', { href: '/', 'data-link': true, class: 'btn btn-secondary' }, 'Back to the shop')));
      return;
    }
    const current = STEPS.indexOf(o.status);
    body.append(
      h('p', { class: 'eyebrow' }, 'Thank you — your order is in'),
      h('h1', { id: 'order-title' }, `Order ${o.id}`),
      h('div', { class: 'order-card' },
        h('ol', { class: 'timeline', 'aria-label': 'Delivery progress' },
          STEPS.map((s, i) => h('li', {
            class: i < current ? 'done' : i === current ? 'current' : 'todo',
            'aria-current': i === current ? 'step' : false,
          }, h('span', { class: 'tl-dot', 'aria-hidden': 'true' }), h('span', { class: 'tl-label' }, STATUS_LABEL[s])))),
        h('p', { class: 'order-status', id: 'order-status', 'data-status': o.status, role: 'status' },
          h('strong', {}, STATUS_LABEL[o.status]),
          o.status === 'delivered' ? ' — enjoy!' : ` — estimated delivery ${o.eta}`),
        h('p', { class: 'muted small' }, o.checkedAt
          ? `Status checked ${o.checkedAt.toLocaleTimeString()}${o.status === 'delivered' ? '' : `, every ${Math.round(POLL_MS / 100) / 10} s`}`
          : 'Checking status…'),
      ),
      h('section', { class: 'order-card order-items', 'aria-labelledby': 'order-items-title' },
        h('h2', { id: 'order-items-title' }, 'Items'),
        h('ul', { class: 'summary-lines' },
          o.items.map((i) => h('li', {}, h('span', {}, `${i.qty} × ${i.name}`), h('span', {}, fmt(i.unitPrice * 100 * i.qty))))),
        h('dl', { class: 'summary-totals' },
          h('div', {}, h('dt', {}, `Shipping (${SHIPPING[o.shipping].label})`), h('dd', {}, o.shipCents ? fmt(o.shipCents) : 'Free')),
          h('div', { class: 'grand' }, h('dt', {}, 'Total paid'), h('dd', {}, fmt(o.totalCents)))),
        h('p', { class: 'muted small' }, `Receipt sent to ${o.email}. Delivering to ${o.address}.`),
      ),
      h('div', { class: 'order-actions' },
        h('a', { href: '/', 'data-link': true, class: 'btn btn-secondary' }, 'Keep shopping')),
    );
  }

  function renderCartEverywhere() {
    renderNavCount();
    renderProductControls();
    keepFocus(renderCart);
    renderSummary();
  }

  function render() {
    const r = route(location.pathname);
    for (const v of document.querySelectorAll('.view')) v.hidden = v.dataset.view !== r.view;
    for (const a of document.querySelectorAll('[data-nav]')) {
      if (a.dataset.nav === r.view) a.setAttribute('aria-current', 'page');
      else a.removeAttribute('aria-current');
    }
    if (r.view === 'cart') renderCart();
    if (r.view === 'checkout') renderSummary();
    if (r.view === 'order') renderOrder();
    const snap = pageSnapshot();
    document.title = snap.view === 'shop' ? 'Fernhill Goods' : `${snap.title} · Fernhill Goods`;
  }

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const d = draftSnapshot();
    const err = $('#checkout-error');
    markInvalid();
    const missing = cart.size === 0 ? ['cart'].concat(d.missing) : d.missing;
    if (missing.length) {
      const names = { cart: 'something in your cart', name: 'your name', email: 'a valid email', street: 'a street', postcode: 'a postcode', city: 'a city' };
      const list = new Intl.ListFormat('en', { type: 'conjunction' }).format(missing.map((k) => names[k]));
      err.textContent = `Almost there — please add ${list}.`;
      err.hidden = false;
      const first = form.elements[d.missing[0]];
      if (first && first.focus) first.focus();
      return;
    }
    err.hidden = true;
    const o = placeOrder(d);
    cart.clear();
    renderCartEverywhere();
    cartChanged.notify();
    form.reset();
    draftChanged.notify();
    navigate(`/order/${o.id}`);
  });

  renderProducts();
  renderNavCount();
  render();
})();
