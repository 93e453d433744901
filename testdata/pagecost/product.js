// The product page's own script, the same file on every variant of
// testdata/pagecost: the cart and its "Add to cart" button and, where the
// page loads an agent API (<html data-agent>), the cart registered as a
// resource, the way a page author writes it for that API:
//
//   modelcontext  the module (/static/modelcontext.js): a getter and a
//                 subscribe, so that an agent can read and follow the cart
//   mcpb          MCP-B's @mcp-b/global: registerResource with read(), which
//                 returns the MCP contents (it has no subscribe)
(() => {
  'use strict';

  const cart = { items: [], count: 0, total: 0, currency: 'EUR' };
  const listeners = new Set();
  const countEl = document.getElementById('cart-count');

  document.getElementById('add').addEventListener('click', () => {
    cart.items.push({ sku: 'TEA-SENCHA-100', name: 'Sencha, 100 g', price: 12.5 });
    cart.count = cart.items.length;
    cart.total = Math.round(cart.items.reduce((n, it) => n + it.price, 0) * 100) / 100;
    countEl.textContent = String(cart.count);
    listeners.forEach((f) => f());
  });

  const uri = 'state://cart';
  const name = 'cart';
  const description = 'What the visitor is about to buy: items, count and total';
  const mimeType = 'application/json';
  const mc = document.modelContext;
  switch (document.documentElement.dataset.agent) {
    case 'modelcontext':
      mc.registerResource({
        uri, name, description, mimeType,
        get: () => cart,
        subscribe: (onChange) => (listeners.add(onChange), () => listeners.delete(onChange)),
      });
      break;
    case 'mcpb':
      mc.registerResource({
        uri, name, description, mimeType,
        read: async (url) => ({ contents: [{ uri: url.href, mimeType, text: JSON.stringify(cart) }] }),
      });
      break;
  }
})();
