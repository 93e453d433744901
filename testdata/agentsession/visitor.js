// visitor.js: the scripted visitor of make bench-agent (wasm/cmd/agentsession),
// who shops in the demo through its own UI: clicks on its links and
// buttons (element.click(), which runs the page's own handlers), keystrokes
// into the checkout form (the field's value and an input event per key, as
// typing makes), a choice in the courier's slot picker (its iframe) and the
// country select. The shop's order service is the demo's own (?tick=manual:
// it moves the order on only when window.__demoPoll() is called, here as
// the "server" steps, so that the run is the same every time).
//
// Visitor.actions lists the steps: {kind, label, settle}, where kind is
// "visitor" or "server" and settle is how long (ms) the agents wait before
// their turn (the courier note is a settled resource: it is pushed 400 ms
// after the visitor pauses). Visitor.act(i) does step i.
(() => {
  'use strict';
  const $ = (sel, root) => {
    const el = (root || document).querySelector(sel);
    if (!el) throw new Error('visitor: no element ' + sel + ' on ' + location.pathname);
    return el;
  };
  const steps = [];
  const step = (kind, label, fn, settle = 0) => steps.push({ kind, label, fn, settle });
  const click = (label, sel) => step('visitor', label, () => $(sel).click());
  const nav = (view) => click('go to ' + view, `a[data-nav="${view}"]`);
  const grid = (what, sku) => click(`${what} ${sku} (shop)`, `[data-focus-key="grid-${what}-${sku}"]`);
  const line = (what, sku) => click(`${what} ${sku} (cart)`, `[data-focus-key="cart-${what}-${sku}"]`);

  // key types one key into a field: its value and an input event.
  function key(sel, ch) {
    const el = $(sel);
    el.focus();
    if (ch === '\b') {
      el.value = el.value.slice(0, -1);
      el.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'deleteContentBackward' }));
    } else {
      el.value += ch;
      el.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText', data: ch }));
    }
  }
  // type: a step per key.
  const type = (field, text) => {
    for (const ch of text) step('visitor', `type ${ch === '\b' ? '⌫' : JSON.stringify(ch)} into ${field}`, () => key('#f-' + field, ch));
  };
  // words: a step per word, typed key by key (a burst), then the pause
  // after which the settled note is pushed.
  const words = (field, text) => {
    for (const [i, w] of text.split(' ').entries()) {
      const burst = (i === 0 ? '' : ' ') + w;
      step('visitor', `type ${JSON.stringify(burst)} into ${field}`, () => { for (const ch of burst) key('#f-' + field, ch); }, 450);
    }
  };
  const select = (value) => step('visitor', 'choose country ' + value, () => {
    const el = $('#f-country');
    el.value = value;
    el.dispatchEvent(new Event('input', { bubbles: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
  });
  const radio = (value) => click('choose ' + value + ' shipping', `input[name="shipping"][value="${value}"]`);
  const slot = (value) => step('visitor', 'pick the slot ' + value, () => $(`input[name="slot"][value="${value}"]`, $('#slot-picker').contentDocument).click());
  const poll = () => step('server', 'the order service reports', () => window.__demoPoll());

  // Browse, fill the cart, change quantities.
  nav('cart');
  nav('shop');
  grid('add', 'MUG-STONE');
  grid('inc', 'MUG-STONE');
  grid('inc', 'MUG-STONE');
  grid('add', 'CANDLE-BEES');
  grid('add', 'BOARD-WALNUT');
  grid('inc', 'BOARD-WALNUT');
  grid('dec', 'BOARD-WALNUT');
  grid('add', 'TOWEL-LINEN');
  nav('cart');
  line('inc', 'CANDLE-BEES');
  line('dec', 'MUG-STONE');
  line('rm', 'TOWEL-LINEN');
  click('back to the shop', 'a.brand');
  grid('add', 'KETTLE-ENAMEL');
  nav('checkout');
  // The checkout form, key by key, with a typo mended.
  type('name', 'Ada Lovelace');
  type('email', 'ada@example.org');
  type('street', 'Keizersgracht 123');
  type('postcode', '1015 cj');
  type('city', 'Amsterdma\b\bam');
  select('BE');
  radio('express');
  slot('14:00–16:00');
  words('note', 'Please ring twice; the bell is broken.');
  select('NL');
  radio('standard');
  // One more look at the cart, then the order.
  nav('cart');
  line('inc', 'KETTLE-ENAMEL');
  nav('checkout');
  // Placing the order clears the form, the settled note too: its push comes 400 ms later.
  step('visitor', 'place the order', () => $('#place-order').click(), 450);
  // The order moves on while the visitor shops on.
  poll();
  poll();
  click('keep shopping', '.order-actions a');
  grid('add', 'THROW-WOOL');
  grid('inc', 'THROW-WOOL');
  poll();
  poll();
  nav('cart');
  poll();
  poll();
  nav('shop');

  window.Visitor = {
    actions: steps.map(({ kind, label, settle }) => ({ kind, label, settle })),
    act(i) {
      steps[i].fn();
      return location.pathname;
    },
  };
})();
