// slot-frame.js: the checkout embeds the courier's slot picker
// (slots.html) and lists its resource, courier://slot, after the shop's own
// (connectFrame), for the agent panel and every other agent of the page.
'use strict';
{
  const frame = document.getElementById('slot-picker');
  if (frame instanceof HTMLIFrameElement) document.modelContext.connectFrame(frame, { origin: location.origin });
}
