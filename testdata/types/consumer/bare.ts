// A side-effect import types document.modelContext, as it installs it.
import "modelcontext";

const unregister: () => void = document.modelContext.registerResource({ uri: "state://route", name: "route", get: () => location.pathname });
document.modelContext.ready.then(unregister);
// @ts-expect-error a descriptor has a uri or a uriTemplate, not both
document.modelContext.registerResource({ uri: "app://orders/1", uriTemplate: "app://orders/{id}", name: "order", get: () => 1 });
