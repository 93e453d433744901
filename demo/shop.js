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
// alone (data-declarative on the script tag). The drawing of the page (the
// product grid, the cart, the summary, the order page) is in shop-render.js,
// which index.html loads first.
'use strict';

{
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
    ui.render();
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
  window.addEventListener('popstate', () => { ui.render(); page.notify(); });

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
    ui.renderCartEverywhere();
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
    ui.renderSummary();
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
    // An MCP client completes {id} as it is typed (completion/complete).
    complete: {
      id: (value) => [...orders.keys()].filter((id) => id.toLowerCase().startsWith(value.trim().toLowerCase())),
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
    if (route(location.pathname).orderId === o.id) ui.keepFocus(ui.renderOrder);
    o.changed.notify();
  }

  // The drawing (shop-render.js), handed the state it draws. The functions
  // and handlers above that use ui run only after this script has run.
  const ui = globalThis.ShopRender({
    CURRENCY, PRODUCTS, bySku, SHIPPING, STATUS_LABEL, STEPS, POLL_MS,
    cart, cartCount, cartCents, setQty, form, orders, route, pageSnapshot,
  });

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
    ui.renderCartEverywhere();
    cartChanged.notify();
    const hadNote = form.elements.note.value !== '';
    form.reset();
    draftChanged.notify();
    // reset() fires no input event: tell the courier note's subscribers it was cleared.
    if (hadNote) form.elements.note.dispatchEvent(new Event('input'));
    navigate(`/order/${o.id}`);
  });

  ui.renderProducts();
  ui.renderNavCount();
  ui.render();
}
