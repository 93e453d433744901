// A page author's module: the cart, and the resource that shows it to an
// agent. The tests import it as an app's unit tests would.
import { registerResource } from "modelcontext";

export const cart = { items: [] };
const listeners = new Set();

export const unregisterCart = registerResource({
  uri: "state://cart",
  name: "cart",
  description: "What the visitor is about to buy",
  get: () => cart,
  subscribe: (onChange) => (listeners.add(onChange), () => listeners.delete(onChange)),
});

export function addToCart(sku) {
  cart.items.push({ sku, qty: 1 });
  listeners.forEach((f) => f());
}
