# workerd configuration that serves the Worker of this folder locally, the way
# make edge runs it:
#
#   workerd serve workerd.capnp --socket-addr http=127.0.0.1:8787
#
# (run from this folder after make edge-build). The Worker gets no network:
# its only outbound service allows no address.
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "main", worker = .demo),
    (name = "offline", network = (allow = [])),
  ],
  sockets = [
    (name = "http", address = "127.0.0.1:8787", http = (), service = "main"),
  ],
);

const demo :Workerd.Worker = (
  modules = [
    (name = "worker.mjs", esModule = embed "worker.mjs"),
    (name = "build/wasm_exec.js", esModule = embed "build/wasm_exec.js"),
    (name = "build/app.wasm", wasm = embed "build/app.wasm"),
  ],
  compatibilityDate = "2026-11-01",
  globalOutbound = "offline",
);
