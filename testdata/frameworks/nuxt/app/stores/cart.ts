import { defineStore } from "pinia";

export const useCart = defineStore("cart", {
  state: () => ({ items: [] as string[] }),
  actions: {
    add(sku: string) {
      this.items.push(sku);
    },
  },
});
