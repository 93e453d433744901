package relay

import (
	"fmt"
	"testing"
)

// pushReceived is a condition on the panel: the last push of uri on the
// timeline whose size is size bytes says what the agents that follow changes
// received of it, exactly want.
func pushReceived(uri string, size int, want string) string {
	return fmt.Sprintf(`(() => { const rows = [...document.querySelectorAll('#events li[data-type="push"]')].filter((li) => li.querySelector(".body").textContent.startsWith(%q));
  const r = rows.length ? rows[rows.length - 1].querySelector(".received") : null;
  return r !== null && r.textContent === %q; })()`, fmt.Sprintf("%s · %d bytes", uri, size), want)
}

// savedIs is a condition on the panel: Resources says that the agents of uri
// were spared dedup bytes by de-duplication and patches by patches.
func savedIs(uri string, dedup, patches int) string {
	return fmt.Sprintf(`(() => { const s = document.querySelector('#resources [data-uri=%q] dd.saved');
  return s !== null && s.dataset.dedup === "%d" && s.dataset.patches === "%d" && s.dataset.total === "%d"; })()`, uri, dedup, patches, dedup+patches)
}

// TestDevToolsPanelChanges: the timeline says what each agent that follows
// changes received of a push, and Resources what de-duplication and patches
// spared them. On a page with an MCP server with sessions
// (testdata/pages/mcp-sessions.html), a {patch: true} subscriber and an MCP
// session that declared modelcontext/changes follow test://cart: the first
// push hands them the value and the contents, the second a patch each, whose
// sizes (as they arrived) the row shows beside the push's JSON size; the
// patches' savings (value − patch, for each) and then an unchanged push's
// (its JSON size) add up in Resources.
func TestDevToolsPanelChanges(t *testing.T) {
	b := newExtBrowser(t)
	page := b.page("/mcp-sessions.html")
	page.Eval(`(async () => {
  const mc = document.modelContext;
  window.cart = { items: [], pad: "x".repeat(400) };
  mc.registerResource({ uri: "test://cart", name: "cart", mimeType: "application/json", get: () => cart,
    subscribe(on) { window.pokeCart = on; return () => {}; } });
  await mc.readResource("test://cart"); // a consumer contact: the module runs
  while (!window.pokeCart) await new Promise((r) => setTimeout(r, 10));
})()`, nil)
	panel := openPanel(t, b, page.Tab)
	waitFor(panel, "the panel lists test://cart", `document.querySelector('#resources [data-uri="test://cart"]')`)

	// The followers: a patch subscriber, and session s1, which declares the
	// capability in its initialize (2025-11-25) and subscribes.
	page.Eval(`(async () => {
  const mc = document.modelContext;
  window.patches = [];
  mc.subscribeResource("test://cart", (v, uri, info) => patches.push(info.patch), { patch: true });
  const channel = "mcp-default/s1";
  window.updates = [];
  addEventListener("message", (ev) => {
    const d = ev.data;
    if (d && d.channel === channel && d.direction === "server-to-client" && d.payload.method === "notifications/resources/updated") updates.push(d.payload.params);
  });
  const call = (id, method, params) => new Promise((resolve) => {
    addEventListener("message", function answer(ev) {
      if (ev.data && ev.data.channel === channel && ev.data.direction === "server-to-client" && ev.data.payload.id === id) {
        removeEventListener("message", answer);
        resolve(ev.data.payload);
      }
    });
    postMessage({ channel, type: "mcp", direction: "client-to-server", payload: { jsonrpc: "2.0", id, method, params } }, location.origin);
  });
  const init = await call(1, "initialize", { protocolVersion: "2025-11-25", capabilities: { experimental: { "modelcontext/changes": {} } }, clientInfo: { name: "follower", version: "1" } });
  postMessage({ channel, type: "mcp", direction: "client-to-server", payload: { jsonrpc: "2.0", method: "notifications/initialized" } }, location.origin);
  const sub = await call(2, "resources/subscribe", { uri: "test://cart" });
  if (init.error || sub.error || !init.result.capabilities.experimental["modelcontext/changes"]) throw new Error(JSON.stringify([init, sub]));
})()`, nil)

	// What the followers got of each push, as they got it.
	type got struct {
		Size, Patch, Session int // the value's JSON size; the patches' (-1: none)
		Kinds                []string
	}
	push := func(change string) got {
		t.Helper()
		var g got
		page.Eval(`(async () => {
  const before = updates.length;
  `+change+`;
  pokeCart();
  while (updates.length === before) await new Promise((r) => setTimeout(r, 10));
  const meta = updates[updates.length - 1]._meta || {};
  const p = patches[patches.length - 1];
  return { size: JSON.stringify(cart).length, patch: p ? JSON.stringify(p).length : -1,
    session: meta["modelcontext/patch"] ? JSON.stringify(meta["modelcontext/patch"]).length : -1,
    kinds: [p ? "patch" : "value", meta["modelcontext/patch"] ? "patch" : meta["modelcontext/contents"] ? "contents" : "neither"] };
})()`, &g)
		return g
	}
	first := push(`cart = { items: [{ sku: "a", qty: 1 }], pad: cart.pad }`)
	if fmt.Sprint(first.Kinds) != "[value contents]" {
		t.Fatalf("the first push handed the followers %v, want the value and the contents", first.Kinds)
	}
	waitFor(panel, "what the followers received of the first push", pushReceived("test://cart", first.Size,
		fmt.Sprintf("received: subscriber 1: value %s; MCP session s1 on mcp-default: contents %s", sizeText(first.Size), sizeText(first.Size))))

	second := push(`cart = { items: [{ sku: "a", qty: 2 }], pad: cart.pad }`)
	if fmt.Sprint(second.Kinds) != "[patch patch]" || second.Patch <= 0 || second.Session <= 0 {
		t.Fatalf("the second push handed the followers %+v, want a patch each", second)
	}
	waitFor(panel, "the followers' patches", pushReceived("test://cart", second.Size,
		fmt.Sprintf("received: subscriber 1: patch %d B; MCP session s1 on mcp-default: patch %d B", second.Patch, second.Session)))
	patched := second.Size - second.Patch + second.Size - second.Session
	if patched <= 0 {
		t.Fatalf("the patches (%d, %d bytes) are no shorter than the value (%d bytes)", second.Patch, second.Session, second.Size)
	}
	waitFor(panel, "what the patches saved", savedIs("test://cart", 0, patched))

	// An unchanged push: suppressed, it spares its JSON size.
	page.Eval(`pokeCart()`, nil)
	waitFor(panel, "a suppressed push", timelineHas("push", "suppressed", "test://cart"))
	waitFor(panel, "what de-duplication saved", savedIs("test://cart", second.Size, patched))
	var text string
	panel.Eval(`document.querySelector('#resources [data-uri="test://cart"] dd.saved').textContent`, &text)
	want := fmt.Sprintf("%s: %s by de-duplication (1 push suppressed), %s by patches (2 patches)", sizeText(second.Size+patched), sizeText(second.Size), sizeText(patched))
	if text != want {
		t.Errorf("Resources says test://cart saved %q, want %q", text, want)
	}
}

// TestDevToolsPanelChangesTool: on Chromium's own WebMCP, an agent calls
// read_changes (registerResourceTools) for every value, then, after a push,
// for what changed since: the panel shows each answer and what it gave of
// each uri (the value, then a patch), and Resources counts the patch's
// saving.
func TestDevToolsPanelChangesTool(t *testing.T) {
	b := newExtBrowser(t, "WebMCP")
	demo := serveDemoWith(t, testDemoDist(t))
	inspected := b.Tab(t)
	inspected.Timeout = timeout
	inspected.Navigate(demo)
	waitFor(inspected, "the demo boots", `document.modelContext.getResources().length > 0`)
	panel := openPanel(t, b, inspected)
	waitFor(panel, "the panel lists the demo's cart", `document.querySelector('#resources [data-uri="state://cart"]')`)

	var answer struct {
		First, Second int    // the revisions answered
		Value, Patch  int    // the JSON sizes of test://notes' value and of its patch
		Kinds         string // what each answer gave of test://notes
	}
	inspected.Eval(`(async () => {
  const mc = document.modelContext;
  let notes = { lines: ["one"], pad: "y".repeat(300) };
  let poke = null;
  mc.registerResource({ uri: "test://notes", name: "notes", get: () => notes, subscribe(on) { poke = on; return () => {}; } });
  mc.registerResourceTools();
  const call = async (input) => {
    for (;;) {
      const tool = (await mc.getTools()).find((t) => t.name === "read_changes");
      if (tool) return JSON.parse(await mc.executeTool(tool, input));
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const first = await call({});
  while (!poke) await new Promise((r) => setTimeout(r, 10));
  notes = { lines: ["one", "two"], pad: notes.pad };
  poke();
  const second = await call({ since: first.revision });
  const a = first.changes.find((c) => c.uri === "test://notes");
  const b = second.changes.find((c) => c.uri === "test://notes");
  return { first: first.revision, second: second.revision, value: JSON.stringify(notes).length,
    patch: b && b.patch ? JSON.stringify(b.patch).length : -1, kinds: [a, b].map((c) => (c ? (c.patch ? "patch" : "value" in c ? "value" : "?") : "none")).join(" ") };
})()`, &answer)
	if answer.Kinds != "value patch" || answer.Patch <= 0 || answer.Patch >= answer.Value {
		t.Fatalf("read_changes answered %+v, want the value, then a shorter patch", answer)
	}
	waitFor(panel, "the second answer's patch", timelineHas("received", "", fmt.Sprintf("read_changes answered revision %d since %d", answer.Second, answer.First),
		fmt.Sprintf("test://notes: patch %d B", answer.Patch)))
	waitFor(panel, "the first answer, every value", timelineHas("received", "", fmt.Sprintf("read_changes answered revision %d, every value", answer.First), "test://notes: value "))
	waitFor(panel, "what the tool's patch saved", savedIs("test://notes", 0, answer.Value-answer.Patch))
}

// sizeText writes n bytes as the panel does: "84 B", "2.1 KB".
func sizeText(n int) string {
	if n < 1024 {
		return fmt.Sprintf("%d B", n)
	}
	return fmt.Sprintf("%.1f KB", float64(n)/1024)
}
