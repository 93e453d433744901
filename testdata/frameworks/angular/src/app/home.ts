import { Component, afterNextRender, inject, input } from "@angular/core";
import { Cart } from "./cart";
import { Agent } from "./agent";

// The page: the cart's buttons, and at /agent an agent panel. "#same" sets
// the cart to an equal copy: the effect runs, the module reads the same
// value and pushes nothing. Once rendered in the browser (hydrated, after
// server-side rendering), the page marks <html data-mounted> for the tests.
@Component({
  selector: "app-home",
  imports: [Agent],
  template: `
    <button id="add" (click)="cart.add('tea')">Add tea ({{ cart.items().length }} in the cart)</button>
    <button id="same" (click)="cart.items.set([...cart.items()])">Change nothing</button>
    @if (agent()) {
      <app-agent />
    }
  `,
})
export class Home {
  protected readonly cart = inject(Cart);
  readonly agent = input(false);

  constructor() {
    afterNextRender(() => (document.documentElement.dataset["mounted"] = ""));
  }
}
