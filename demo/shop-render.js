// shop-render.js — how Fernhill Goods draws itself: the product grid, the cart,
// the order summary and the order page, and which view of the single-page
// shop is showing.
//
// Plain JavaScript, no build step, no modelcontext: the shop's state and the
// resources that share it are in shop.js, which calls ShopRender once its
// state exists and passes in what the drawing reads (the catalogue, the cart,
// the orders, the checkout form, the router) and setQty, which the cart's
// buttons call. index.html loads this script before shop.js. Its functions
// live in one block, private to the file; ShopRender hands them the shop.
'use strict';

{
  // What the drawing reads of the shop, given once by ShopRender.
  let CURRENCY, PRODUCTS, bySku, SHIPPING, STATUS_LABEL, STEPS, POLL_MS,
    cart, cartCount, cartCents, setQty, form, orders, route, pageSnapshot;
  let money = null;
  const fmt = (cents) => money.format(cents / 100);

  globalThis.ShopRender = function (shop) {
    ({
      CURRENCY, PRODUCTS, bySku, SHIPPING, STATUS_LABEL, STEPS, POLL_MS,
      cart, cartCount, cartCents, setQty, form, orders, route, pageSnapshot,
    } = shop);
    money = new Intl.NumberFormat('en-IE', { style: 'currency', currency: CURRENCY });
    return Object.freeze({ render, renderProducts, renderNavCount, renderCartEverywhere, renderSummary, renderOrder, keepFocus });
  };

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

}
