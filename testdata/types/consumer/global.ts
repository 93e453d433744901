// No import: "modelcontext" in compilerOptions.types is enough to type
// document.modelContext (for a page that loads the script with a tag).
const unregister: () => void = document.modelContext.registerResource({ uri: "state://route", name: "route", get: () => location.pathname });
document.modelContext.ready.then(unregister);
// @ts-expect-error a template takes no subscribe
document.modelContext.registerResource({ uriTemplate: "app://orders/{id}", name: "order", get: () => 1, subscribe: () => () => {} });
export {};
