import { Component, afterNextRender, signal } from "@angular/core";
import { getResources, readResource, ready, type ResourceUpdatedDetail } from "modelcontext";

// What an agent in the page sees: the list, a read of state://cart, and
// every resourceupdated event, rendered as JSON for the tests to read. Only
// in the browser (afterNextRender): nothing runs on the server.
type Seen = { error?: string; list?: unknown; read?: unknown; pushes: ResourceUpdatedDetail[] };

@Component({
  selector: "app-agent",
  template: `<pre id="agent">{{ json() }}</pre>`,
})
export class Agent {
  private readonly seen = signal<Seen>({ pushes: [] });
  protected readonly json = () => JSON.stringify(this.seen());

  constructor() {
    afterNextRender(() => {
      // document.modelContext is Angular's WebMCP.ModelContext, optional
      // there, with this package's members and events added to it.
      document.modelContext?.addEventListener("resourceupdated", (e) =>
        this.seen.update((s) => ({ ...s, pushes: [...s.pushes, e.detail] })),
      );
      ready
        .then(async () => {
          const list = getResources();
          const read = await readResource<string[]>("state://cart");
          this.seen.update((s) => ({ ...s, list, read }));
        })
        .catch((err: Error) => this.seen.update((s) => ({ ...s, error: String(err) })));
    });
  }
}
