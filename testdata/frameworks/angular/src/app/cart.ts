import { DestroyRef, Injectable, effect, inject, signal, untracked } from "@angular/core";
import { registerResource } from "modelcontext";

@Injectable({ providedIn: "root" })
export class Cart {
  readonly items = signal<string[]>([]);

  add(sku: string) {
    this.items.update((items) => [...items, sku]);
  }

  constructor() {
    let changed = () => {};
    const unregister = registerResource({
      uri: "state://cart",
      name: "cart",
      description: "What the visitor is about to buy",
      get: () => this.items(),
      subscribe(onChange) {
        changed = onChange;
        return () => (changed = () => {});
      },
    });
    effect(() => {
      this.items(); // each change of the signal...
      untracked(changed); // ...says so
    });
    inject(DestroyRef).onDestroy(unregister);
  }
}
