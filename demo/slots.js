// slots.js: the courier's slot picker (slots.html, in an iframe of the
// shop). Its choice is the resource courier://slot, pushed on every change,
// and the page serves it to the shop around it: the shop's connectFrame
// (slot-frame.js) lists it as the shop's own, so every agent of the shop
// sees it.
'use strict';
{
  const mc = document.modelContext;
  const form = document.getElementById('slots');
  const chosen = () => {
    const input = form ? form.querySelector('input[name="slot"]:checked') : null;
    return { courier: 'Kurier Rad & Co', slot: input ? input.value : null };
  };
  mc.registerResource({
    uri: 'courier://slot',
    name: 'delivery-slot',
    title: 'Delivery slot',
    description: "The delivery window the customer picked in the courier's widget.",
    get: chosen,
    subscribe(onChange) {
      if (!form) return () => {};
      form.addEventListener('change', onChange);
      return () => form.removeEventListener('change', onChange);
    },
  });
  if (window.parent !== window) mc.serveMCP({ parent: [location.origin] });
}
