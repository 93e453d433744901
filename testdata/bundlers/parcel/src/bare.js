// A side-effect import and nothing else: the bundler must keep the module,
// which installs document.modelContext (package.json "sideEffects").
import "modelcontext";

document.modelContext.registerResource({ uri: "state://bare", name: "bare", get: () => "bare" });
