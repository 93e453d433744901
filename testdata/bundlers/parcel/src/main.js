// The sample app: what a page author writes after `npm install modelcontext`.
// It registers a resource, waits until the module is ready, pushes a change,
// and shows in the page what an agent in the page receives.
import { registerResource, subscribeResource, readResource, ready } from "modelcontext";

const log = document.getElementById("log");
const show = (line) => log.append(Object.assign(document.createElement("li"), { textContent: line }));

let clicks = 0;
const changed = new Set();
registerResource({
  uri: "state://clicks",
  name: "clicks",
  description: "How often the visitor clicked the button",
  get: () => ({ clicks }),
  subscribe: (onChange) => (changed.add(onChange), () => changed.delete(onChange)),
});

document.getElementById("click").addEventListener("click", () => {
  clicks++;
  changed.forEach((onChange) => onChange());
});

document.modelContext.addEventListener("resourceupdated", (e) => show(`resourceupdated ${e.detail.uri} ${e.detail.value.clicks}`));
subscribeResource("state://clicks", (value) => show(`subscribeResource ${value.clicks}`));

ready.then(
  async () => {
    show(`ready, read ${JSON.stringify(await readResource("state://clicks"))}`);
    document.getElementById("click").click();
  },
  (err) => show(`failed: ${err.message}`),
);
