"use client";

import { useEffect, useRef, useState } from "react";
import { registerResource } from "modelcontext";

export default function Clicks() {
  const [clicks, setClicks] = useState(0);
  const latest = useRef(clicks);
  const changed = useRef<() => void>(undefined);

  useEffect(
    () =>
      registerResource({
        uri: "state://clicks",
        name: "clicks",
        description: "How many times the visitor clicked the button",
        get: () => latest.current,
        subscribe(onChange) {
          changed.current = onChange;
          return () => (changed.current = undefined);
        },
      }),
    [],
  );

  useEffect(() => {
    latest.current = clicks;
    changed.current?.();
  }, [clicks]);

  return <button onClick={() => setClicks((n) => n + 1)}>Clicked {clicks} times</button>;
}
