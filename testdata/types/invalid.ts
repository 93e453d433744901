// Descriptors that must not compile. Each line below is an error the types
// must report: when one stops being an error, @ts-expect-error fails the build.
import { registerResource } from "../../js/modelcontext";

// @ts-expect-error a template takes no subscribe: templates are read on demand
registerResource({ uriTemplate: "app://orders/{id}", name: "order", get: ({ id }) => id, subscribe: () => () => {} });

// @ts-expect-error a descriptor has a uri or a uriTemplate, not both
registerResource({ uri: "app://orders/1", uriTemplate: "app://orders/{id}", name: "order", get: () => 1 });

// @ts-expect-error the same through document.modelContext
document.modelContext.registerResource({ uriTemplate: "app://orders/{id}", name: "order", get: () => 1, subscribe: () => () => {} });

// @ts-expect-error complete is for templates' variables
registerResource({ uri: "state://x", name: "x", get: () => 1, complete: { x: () => [] } });

// @ts-expect-error a completer returns strings
registerResource({ uriTemplate: "app://orders/{id}", name: "order", get: () => 1, complete: { id: () => [1] } });

// @ts-expect-error an icon's theme is "light" or "dark"
registerResource({ uri: "state://x", name: "x", get: () => 1, icons: [{ src: "/x.png", theme: "blue" }] });

// @ts-expect-error a descriptor needs get
registerResource({ uri: "state://x", name: "x" });

// @ts-expect-error a descriptor needs a uri or a uriTemplate
registerResource({ name: "x", get: () => 1 });

// @ts-expect-error subscribe returns its teardown
registerResource({ uri: "state://x", name: "x", get: () => 1, subscribe: (onChange: () => void) => 1 });

// @ts-expect-error options.signal is an AbortSignal
registerResource({ uri: "state://x", name: "x", get: () => 1 }, { signal: 42 });

// @ts-expect-error data-boot's values only
globalThis.__MODELCONTEXT_BOOT__ = "soon";

// @ts-expect-error settle is a number of milliseconds
registerResource({ uri: "state://x", name: "x", get: () => 1, settle: "300" });

// @ts-expect-error connectFrame needs the frame's origin
document.modelContext.connectFrame(document.createElement("iframe"), {});

// @ts-expect-error patch is a boolean
document.modelContext.subscribeResource("state://x", () => {}, { patch: "yes" });

// @ts-expect-error a revision is a number
void document.modelContext.changesSince("3");

// @ts-expect-error the revision is read-only
document.modelContext.revision = 3;
