"use client";

import { useEffect, useState } from "react";
import { getResources, readResource, ready } from "modelcontext";

// What an agent in the page sees: the list, a read of state://clicks, and
// every resourceupdated event, rendered as JSON for the tests to read.
type Seen = { error?: string; list?: unknown; read?: unknown; pushes: unknown[] };

export default function Agent() {
  const [seen, setSeen] = useState<Seen>({ pushes: [] });

  useEffect(() => {
    const onUpdated = (e: CustomEvent<{ uri: string; value: unknown }>) =>
      setSeen((s) => ({ ...s, pushes: [...s.pushes, e.detail] }));
    document.modelContext.addEventListener("resourceupdated", onUpdated);
    ready
      .then(async () => {
        const list = getResources();
        const read = await readResource("state://clicks");
        setSeen((s) => ({ ...s, list, read }));
      })
      .catch((err: Error) => setSeen((s) => ({ ...s, error: String(err) })));
    return () => document.modelContext.removeEventListener("resourceupdated", onUpdated);
  }, []);

  return <pre id="agent">{JSON.stringify(seen)}</pre>;
}
