// slot-frame.js: the checkout embeds the courier's slot picker
// (slots.html) and lists its resource, courier://slot, after the shop's own
// (connectFrame), for the agent panel and every other agent of the page.
'use strict';
{
  const frame = document.getElementById('slot-picker');
  // A module that failed to load throws here, as every consumer does; the
  // shop works on without the widget's resource (ready says why).
  try {
    if (frame instanceof HTMLIFrameElement) document.modelContext.connectFrame(frame, { origin: location.origin });
  } catch (e) {
    console.warn('the slot picker is not shared with agents:', e.message);
  }
}
