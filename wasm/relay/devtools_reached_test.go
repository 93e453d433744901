package relay

import (
	"encoding/json"
	"fmt"
	"testing"
)

// pushReached is a condition on the panel: the last push of uri on the
// timeline says whom it reached, exactly want.
func pushReached(uri, want string) string {
	return fmt.Sprintf(`(() => { const rows = [...document.querySelectorAll('#events li[data-type="push"]')].filter((li) => li.querySelector(".body").textContent.startsWith(%q + " "));
  const r = rows.length ? rows[rows.length - 1].querySelector(".reached") : null;
  return r !== null && r.textContent === %q; })()`, uri, want)
}

// TestDevToolsPanelReached: the timeline says which consumers each
// dispatched push reached. On a page with the module and an MCP server with
// sessions (testdata/pages/mcp-sessions.html) and no consumer of its own, a
// push no one consumes reached nobody; then with one resourceupdated
// listener, two subscribeResource handlers, the MCP server's client (its
// channel, no session) and a session subscribed (and another session
// subscribed to another resource), a push reached
// exactly those, and a push the second handler makes, queued behind that
// delivery, reached the listener alone.
func TestDevToolsPanelReached(t *testing.T) {
	b := newExtBrowser(t)
	page := b.page("/mcp-sessions.html")
	page.Eval(`(async () => {
  const mc = document.modelContext;
  window.pokes = {};
  for (const uri of ["test://alone", "test://reach", "test://queued"]) {
    let v = 0;
    mc.registerResource({ uri, name: uri.slice(7), get: () => ({ v }),
      subscribe(on) { pokes[uri] = () => { v++; on(); }; return () => {}; } });
  }
  await mc.readResource("test://alone"); // a consumer contact: the module runs
  while (!pokes["test://queued"]) await new Promise((r) => setTimeout(r, 10));
})()`, nil)
	panel := openPanel(t, b, page.Tab)
	waitFor(panel, "the panel lists test://queued", `document.querySelector('#resources [data-uri="test://queued"]')`)

	page.Eval(`pokes["test://alone"]()`, nil)
	waitFor(panel, "a push no one consumes", pushReached("test://alone", "reached nobody"))

	// The consumers, the MCP sessions' subscriptions answered before the push.
	page.Eval(`(async () => {
  const mc = document.modelContext;
  mc.addEventListener("resourceupdated", () => {});
  mc.subscribeResource("test://reach", () => {});
  let once = true;
  mc.subscribeResource("test://reach", () => { if (once) { once = false; pokes["test://queued"](); } });
  const subscribe = (session, uri) => new Promise((resolve) => {
    const channel = session ? "mcp-default/" + session : "mcp-default";
    addEventListener("message", function answer(ev) {
      if (ev.data && ev.data.channel === channel && ev.data.direction === "server-to-client" && ev.data.payload.id === 1) {
        removeEventListener("message", answer);
        resolve(ev.data.payload);
      }
    });
    postMessage({ channel, type: "mcp", direction: "client-to-server",
      payload: { jsonrpc: "2.0", id: 1, method: "resources/subscribe", params: { uri } } }, location.origin);
  });
  const answers = [await subscribe("", "test://reach"), await subscribe("s1", "test://reach"), await subscribe("s2", "test://alone")];
  if (answers.some((a) => a.error)) throw new Error(JSON.stringify(answers));
})()`, nil)
	page.Eval(`pokes["test://reach"]()`, nil)
	waitFor(panel, "a push's consumers", pushReached("test://reach", "reached: 1 resourceupdated listener, 2 subscribers, MCP client on mcp-default, MCP session s1 on mcp-default"))
	waitFor(panel, "a queued push's consumers", pushReached("test://queued", "reached: 1 resourceupdated listener"))

	// What the hook sent for the queued push: queued, then reached.
	var rows []map[string]any
	panel.Eval(`[...document.querySelectorAll('#events li[data-type="push"]')].map((li) => ({ text: li.querySelector(".body").textContent.split(" ")[0], reached: li.querySelector(".reached").textContent }))`, &rows)
	got, _ := json.Marshal(rows)
	want := `[{"reached":"reached nobody","text":"test://alone"},{"reached":"reached: 1 resourceupdated listener","text":"test://queued"},` +
		`{"reached":"reached: 1 resourceupdated listener, 2 subscribers, MCP client on mcp-default, MCP session s1 on mcp-default","text":"test://reach"}]`
	if string(got) != want {
		t.Errorf("the timeline's pushes:\n%s\nwant\n%s", got, want)
	}
}
