// The page of wasm/frameworks' TestPushCost (make bench): the cost of a push
// from a React state change through useResource, against the same push
// through a hand-written registerResource in effects, and against a push
// with no React at all. window.Bench.run(kind, n) makes n commits (or n
// onChange calls), each with a value that differs from the last, waits for
// their n resourceupdated events and returns the milliseconds.
import { useEffect, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { createRoot } from "react-dom/client";
import { registerResource, ready } from "modelcontext";
import { useResource } from "modelcontext/react";

const values = [
  { rev: 0, route: "/cart", count: 3 },
  { rev: 1, route: "/cart", count: 3 },
];

function WithHook({ value }) {
  useResource({ uri: "bench://hook", name: "hook", description: "pushed through useResource" }, value);
  return null;
}

// HandWritten is what an app writes without the binding.
function HandWritten({ value }) {
  const latest = useRef(value);
  const onChange = useRef(null);
  useEffect(
    () =>
      registerResource({
        uri: "bench://hand",
        name: "hand",
        description: "pushed through a hand-written registerResource",
        get: () => latest.current,
        subscribe: (push) => ((onChange.current = push), () => (onChange.current = null)),
      }),
    [],
  );
  useEffect(() => {
    if (latest.current === value) return;
    latest.current = value;
    if (onChange.current) onChange.current();
  }, [value]);
  return null;
}

const setters = {};
function Harness({ kind, Component }) {
  const [i, setI] = useState(0);
  setters[kind] = setI;
  return <Component value={values[i % 2]} />;
}

for (const [kind, Component] of [["hook", WithHook], ["hand", HandWritten]]) {
  const el = document.body.appendChild(document.createElement("div"));
  createRoot(el).render(<Harness kind={kind} Component={Component} />);
}

// The same push without React: onChange called by hand.
let plainValue = values[0];
let plainPush = null;
registerResource({
  uri: "bench://plain",
  name: "plain",
  description: "pushed by calling onChange",
  get: () => plainValue,
  subscribe: (push) => ((plainPush = push), () => (plainPush = null)),
});

const updates = { "bench://hook": 0, "bench://hand": 0, "bench://plain": 0 };
document.modelContext.addEventListener("resourceupdated", (e) => updates[e.detail.uri]++);

let step = 0;
window.Bench = {
  ready: ready.then(() => true),
  async run(kind, n) {
    const uri = "bench://" + kind;
    const want = updates[uri] + n;
    const start = performance.now();
    for (let k = 0; k < n; k++) {
      step++;
      if (kind === "plain") {
        plainValue = values[step % 2];
        plainPush();
      } else {
        flushSync(() => setters[kind](step));
      }
    }
    while (updates[uri] < want) await new Promise((r) => setTimeout(r, 0));
    const ms = performance.now() - start;
    if (updates[uri] !== want) throw new Error(`${kind}: ${updates[uri] - want + n} resourceupdated events for ${n} pushes`);
    return ms;
  },
};
