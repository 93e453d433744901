import { Component, useState } from "react";
import { useResource, useResourceValue, useResources } from "modelcontext/react";

// Counter makes its state a resource: listed while it is mounted, and each
// click pushes the new value to the agent.
function Counter({ title }) {
  const [state, setState] = useState({ clicks: 0 });
  const [, setOther] = useState(0);
  useResource({ uri: "state://clicks", name: "clicks", title, description: "How often the visitor clicked the button" }, state);
  return (
    <>
      <button id="click" onClick={() => setState((s) => ({ clicks: s.clicks + 1 }))}>click</button>
      {/* A new object with the same content: one push, which the module suppresses. */}
      <button id="same" onClick={() => setState((s) => ({ ...s }))}>same</button>
      {/* A render that leaves the value as it was: no push. */}
      <button id="rerender" onClick={() => setOther((n) => n + 1)}>rerender</button>
    </>
  );
}

// AgentView shows in the page what an agent sees.
function AgentView() {
  const clicks = useResourceValue("state://clicks");
  const resources = useResources();
  return (
    <>
      <p id="listed">{resources.map((r) => `${r.uri} ${r.title ?? ""}`).join(", ")}</p>
      <p id="value">{clicks === undefined ? "unknown" : JSON.stringify(clicks)}</p>
    </>
  );
}

// Invalid names its uri but gives a number for its name.
function Invalid() {
  useResource({ uri: "state://invalid", name: 42 }, 0);
  globalThis.renderedPastInvalid = true; // never: the hook throws at render
  return <p>not shown</p>;
}

class Catch extends Component {
  state = { error: null };
  static getDerivedStateFromError(error) {
    return { error };
  }
  render() {
    const e = this.state.error;
    return e ? <p id="error">{`${e.name}: ${e.message}`}</p> : this.props.children;
  }
}

export function App() {
  const [shown, setShown] = useState(true);
  const [title, setTitle] = useState("Clicks");
  const [invalid, setInvalid] = useState(false);
  useResource({ uri: "state://shown", name: "shown" }, shown);
  return (
    <>
      <button id="toggle" onClick={() => setShown((s) => !s)}>mount or unmount the counter</button>
      <button id="retitle" onClick={() => setTitle("Clicks so far")}>retitle</button>
      <button id="invalid" onClick={() => setInvalid(true)}>invalid</button>
      {/* Before the counter: it subscribes before the resource is registered. */}
      <AgentView />
      {shown && <Counter title={title} />}
      {invalid && (
        <Catch>
          <Invalid />
        </Catch>
      )}
    </>
  );
}
