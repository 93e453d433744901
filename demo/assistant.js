// assistant.js — the shop's assistant: a small agent in the page, scripted.
//
// There is no language model here, only the rules below, written for this
// shop's products; the assistant says so in its first message. What makes it
// an agent is what it can see: it uses only the consumer side of
// document.modelContext (getResources, readResource, subscribeResource and
// the resourcelistchanged event), the way any agent in the page would. It
// never calls the shop's code, never reads the shop's DOM and registers
// nothing: everything it says comes from a resource it read or was pushed.
'use strict';

assistant: {
  const mc = document.modelContext;
  const box = document.getElementById('assistant');
  const logEl = document.getElementById('assistant-log');
  if (!box || !logEl) break assistant;
  const LOG_LIMIT = 60; // messages kept, oldest dropped first

  const money = new Intl.NumberFormat('en-IE', { style: 'currency', currency: 'EUR' });
  const list = (items) => new Intl.ListFormat('en', { type: 'conjunction' }).format(items);

  // What goes with what, in this shop. A rule table is all the "taste" a
  // scripted assistant has.
  const GOES_WITH = {
    'KETTLE-ENAMEL': { sku: 'MUG-STONE', name: 'Stoneware mug', ask: 'want a Stoneware mug to go with it?' },
    'MUG-STONE': { sku: 'KETTLE-ENAMEL', name: 'Enamel kettle', ask: 'want the Enamel kettle to boil the water for it?' },
    'BOARD-WALNUT': { sku: 'TOWEL-LINEN', name: 'Linen tea towel', ask: 'want a Linen tea towel to go with it?' },
    'TOWEL-LINEN': { sku: 'BOARD-WALNUT', name: 'Walnut serving board', ask: 'want the Walnut serving board to go with it?' },
    'CANDLE-BEES': { sku: 'THROW-WOOL', name: 'Wool throw', ask: 'for a slow evening, want the Wool throw with it?' },
    'THROW-WOOL': { sku: 'CANDLE-BEES', name: 'Beeswax candle', ask: 'want a Beeswax candle to go with it?' },
  };
  const FIELD_NAMES = { name: 'your name', email: 'a valid email', street: 'a street', postcode: 'a postcode', city: 'a city' };
  const COUNTRIES = { NL: 'the Netherlands', BE: 'Belgium', DE: 'Germany', FR: 'France', GB: 'the United Kingdom' };

  // ---- the conversation ------------------------------------------------------

  // say adds a message from "assistant" or "visitor"; via names the call the
  // assistant's knowledge came from, shown under its message.
  function say(from, text, via) {
    const li = document.createElement('li');
    li.className = 'assistant-msg';
    li.dataset.from = from;
    const p = document.createElement('p');
    p.textContent = text;
    li.append(p);
    if (via) {
      const src = document.createElement('code');
      src.className = 'assistant-via';
      src.textContent = via;
      li.append(src);
    }
    logEl.append(li);
    while (logEl.children.length > LOG_LIMIT) logEl.firstElementChild.remove();
    logEl.scrollTop = logEl.scrollHeight;
  }

  function setState(state) {
    box.dataset.state = state;
  }

  if (!mc || typeof mc.readResource !== 'function') {
    setState('error');
    say('assistant', 'I cannot see this page: modelcontext.js did not load.');
    break assistant;
  }

  // ---- what it knows: the last value of each resource it follows -----------

  const last = new Map(); // uri -> last value read or pushed
  const followed = new Set(); // uris with a subscribeResource handler

  const basket = (cart) => cart.items.map((i) => `${i.qty} × ${i.name}`);

  // ---- reactions: one rule per resource the shop shares ---------------------

  const reactions = {
    'state://cart'(cart, before) {
      if (!before || !cart || !Array.isArray(cart.items)) return;
      const had = new Map(before.items.map((i) => [i.sku, i.qty]));
      const added = cart.items.find((i) => !had.has(i.sku));
      if (!added) return;
      const pair = GOES_WITH[added.sku];
      const via = 'subscribeResource("state://cart")';
      if (!pair) say('assistant', `I see you added the ${added.name}.`, via);
      else if (cart.items.some((i) => i.sku === pair.sku)) {
        say('assistant', `I see you added the ${added.name} — it goes well with the ${pair.name} already in your basket.`, via);
      } else say('assistant', `I see you added the ${added.name} — ${pair.ask}`, via);
    },
    'state://page'(page, before) {
      if (!page || (before && before.view === page.view && before.orderId === page.orderId)) return;
      const via = 'subscribeResource("state://page")';
      if (page.view === 'checkout') say('assistant', 'You are at the checkout. Ask me what is still missing, whenever you like.', via);
      else if (page.view === 'cart') {
        const cart = last.get('state://cart');
        if (cart && cart.count > 0) say('assistant', `Your basket: ${list(basket(cart))}, ${money.format(cart.subtotal)} before shipping.`, via);
      } else if (page.view === 'order' && page.orderId) {
        say('assistant', `This is order ${page.orderId}. I will tell you when it moves.`, via);
      }
    },
    'state://checkout-draft'(draft, before) {
      if (!draft || !before || !Array.isArray(draft.missing)) return;
      if (draft.missing.length === 0 && before.missing.length > 0) {
        say('assistant', 'That is everything the form needs: ready when you are.', 'subscribeResource("state://checkout-draft")');
      }
    },
    'state://courier-note'(note) {
      if (typeof note !== 'string' || note === '') return;
      // A settled resource: this push came once the visitor paused typing.
      say('assistant', `I read your note for the courier: “${note}”.`, 'subscribeResource("state://courier-note")');
    },
    'state://delivery'(estimate, before) {
      if (!estimate || !before || (before.country === estimate.country && before.shipping === estimate.shipping)) return;
      const days = estimate.minDays === estimate.maxDays ? `${estimate.minDays}` : `${estimate.minDays}–${estimate.maxDays}`;
      const cost = estimate.shippingCents ? money.format(estimate.shippingCents / 100) : 'free';
      say('assistant', `Delivery to ${COUNTRIES[estimate.country] || estimate.country}: ${days} working day${estimate.maxDays === 1 ? '' : 's'}, shipping ${cost}.`,
        'subscribeResource("state://delivery")');
    },
  };

  function reactToOrder(uri, order, before) {
    if (!order || (before && before.status === order.status)) return;
    if (!before) return; // its first value: the page view already said so
    const text = order.status === 'delivered' ? `Order ${order.id} was delivered. Enjoy!` : `Order ${order.id}: ${order.statusLabel}.`;
    say('assistant', text, `subscribeResource("${uri}")`);
  }

  function react(uri, value) {
    const before = last.get(uri);
    last.set(uri, value);
    if (reactions[uri]) reactions[uri](value, before);
    else if (uri.startsWith('state://order/')) reactToOrder(uri, value, before);
  }

  // follow subscribes to each listed resource that pushes and reads its
  // current value once, so that the first push has something to compare
  // with. A resource that goes away ends its subscription; if it comes back
  // it is followed again.
  function follow(resources) {
    const listed = new Set(resources.map((r) => r.uri));
    for (const uri of followed) {
      if (!listed.has(uri)) {
        followed.delete(uri);
        last.delete(uri);
      }
    }
    for (const r of resources) {
      if (!r.subscribable || followed.has(r.uri)) continue;
      followed.add(r.uri);
      let pushed = false;
      try {
        mc.subscribeResource(r.uri, (value) => { pushed = true; react(r.uri, value); });
      } catch (_) {
        followed.delete(r.uri); // gone again before we got to it
        continue;
      }
      mc.readResource(r.uri).then((value) => { if (!pushed) last.set(r.uri, value); }, () => {});
    }
  }

  // ---- questions -------------------------------------------------------------

  const answers = {
    async basket() {
      const cart = await mc.readResource('state://cart');
      if (!cart.count) return 'Your basket is empty.';
      return `In your basket: ${list(basket(cart))}, ${money.format(cart.subtotal)} before shipping.`;
    },
    async missing() {
      const draft = await mc.readResource('state://checkout-draft');
      if (!draft.missing.length) return 'Nothing: the checkout form has all it needs.';
      return `Still missing in the checkout form: ${list(draft.missing.map((k) => FIELD_NAMES[k] || k))}.`;
    },
    async order() {
      const uris = mc.getResources().map((r) => r.uri).filter((u) => u.startsWith('state://order/'));
      if (!uris.length) return 'No order is on its way from this visit yet.';
      const orders = await Promise.all(uris.map((u) => mc.readResource(u)));
      return orders.map((o) => `Order ${o.id}: ${o.statusLabel}${o.status === 'delivered' ? '' : `, expected ${o.estimatedDelivery}`}.`).join(' ');
    },
  };
  const VIA = {
    basket: 'readResource("state://cart")',
    missing: 'readResource("state://checkout-draft")',
    order: 'getResources() and readResource("state://order/…")',
  };

  box.addEventListener('click', (e) => {
    const button = e.target.closest('button[data-ask]');
    if (!button || !answers[button.dataset.ask]) return;
    const ask = button.dataset.ask;
    say('visitor', button.textContent);
    answers[ask]().then(
      (text) => say('assistant', text, VIA[ask]),
      (err) => say('assistant', `I could not read that: ${err && err.message ? err.message : err}`, VIA[ask]),
    );
  });

  // ---- start -----------------------------------------------------------------

  mc.addEventListener('resourcelistchanged', (e) => follow(e.detail.resources));
  Promise.resolve(mc.ready).then(async () => {
    setState('ready');
    say('assistant', 'Hello! I am scripted: a few rules in demo/assistant.js, no language model. ' +
      'I see what you see through document.modelContext. Add something to your basket and I will notice.',
      'getResources()');
    follow(mc.getResources());
    try {
      const notice = await mc.readResource('state://store-notice');
      if (typeof notice === 'string' && notice) say('assistant', `Today's notice, from the page: “${notice}”`, 'readResource("state://store-notice")');
    } catch (_) { /* no notice today */ }
  }, (err) => {
    setState('error');
    say('assistant', `I cannot see this page: ${err && err.message ? err.message : err}`);
  });
}
