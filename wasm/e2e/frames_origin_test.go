package e2e

import (
	"encoding/json"
	"strings"
	"testing"
)

// Where a frame's resource comes from stays visible (CONTRACT.md §6.1): a
// frame (frame-child.html's hand server, 'describe') whose description
// speaks as the page and whose icon is a path of the page's own
// (/account/delete?confirm=1) is listed with its origin in getResources,
// getResourceTemplates, resourcelistchanged, the MCP lists (_meta) and the
// tool bridge's list_resources; the page's own carry none; the icon paths
// resolve against the frame's URL.
func TestConnectFrameOrigin(t *testing.T) {
	tab, childOrigin := framePage(t)
	var got struct {
		Resources, Templates, Event []map[string]any
		MCP, MCPTemplates           []map[string]any
		Tool                        []map[string]any
		Page                        string
	}
	frameRun(tab, childOrigin, `
mc.registerResource({uri: 'page://own', name: 'own', icons: [{src: '/own.png'}], get: () => 1});
mc.registerResource({uriTemplate: 'page://t/{id}', name: 'page-template', get: ({id}) => id});
const iframe = await FR.frame(child('hand'));
mc.connectFrame(iframe, {origin: CHILD});
await FR.until(() => FR.uris().includes('frame://ok'), 'the frame listed');
let event = null;
mc.addEventListener('resourcelistchanged', (ev) => { event = ev.detail.resources; });
await FR.command(iframe, 'describe');
await FR.until(() => mc.getResourceTemplates().some((t) => t.uriTemplate === 'frame://items/{id}'), 'the frame described itself');

mc.serveMCP();
const c = await T.connect();
const mcp = (await c.client.listResources()).resources;
const mcpTemplates = (await c.client.listResourceTemplates()).resourceTemplates;

const tools = {};
mc.registerTool = (tool) => { tools[tool.name] = tool; return {unregister() {}}; };
mc.registerResourceTools();
const tool = JSON.parse((await tools.list_resources.execute({})).content[0].text);
return {resources: mc.getResources(), templates: mc.getResourceTemplates(), event, mcp, mcpTemplates, tool, page: location.origin};
`, &got)
	if t.Failed() {
		return
	}
	frameIcons := []any{
		map[string]any{"src": childOrigin + "/account/delete?confirm=1"},
		map[string]any{"src": childOrigin + "/img/icon.png", "sizes": []any{"48x48"}},
	}
	// check finds key's entry in list and compares its origin (a field, or
	// MCP's _meta) and its icons with want.
	check := func(name string, list []map[string]any, key, id string, meta bool, origin any, icons []any) {
		t.Helper()
		var e map[string]any
		for _, x := range list {
			if x[key] == id {
				e = x
			}
		}
		if e == nil {
			t.Errorf("%s: no %s %q in %v", name, key, id, list)
			return
		}
		var o any
		if meta {
			if m, ok := e["_meta"].(map[string]any); ok {
				o = m["modelcontext/origin"]
			} else if e["_meta"] != nil {
				o = e["_meta"]
			}
			if _, ok := e["origin"]; ok {
				t.Errorf("%s: %s carries origin outside _meta: %v", name, id, e)
			}
		} else {
			o = e["origin"]
			if _, ok := e["_meta"]; ok {
				t.Errorf("%s: %s carries _meta: %v", name, id, e)
			}
		}
		if o != origin {
			t.Errorf("%s: %s's origin is %v, want %v", name, id, o, origin)
		}
		if icons != nil {
			g, _ := json.Marshal(e["icons"])
			w, _ := json.Marshal(icons)
			if string(g) != string(w) {
				t.Errorf("%s: %s's icons %s, want %s (paths resolved against the frame's URL)", name, id, g, w)
			}
		}
	}
	own := []any{map[string]any{"src": got.Page + "/own.png"}}
	for _, c := range []struct {
		name   string
		list   []map[string]any
		meta   bool
		noTmpl bool
	}{
		{"getResources", got.Resources, false, true},
		{"resourcelistchanged", got.Event, false, true},
		{"MCP resources/list", got.MCP, true, true},
		{"list_resources", got.Tool, false, false},
	} {
		check(c.name, c.list, "uri", "frame://ok", c.meta, childOrigin, frameIcons)
		check(c.name, c.list, "uri", "page://own", c.meta, nil, own)
		if !c.noTmpl {
			check(c.name, c.list, "uriTemplate", "frame://items/{id}", c.meta, childOrigin, frameIcons)
			check(c.name, c.list, "uriTemplate", "page://t/{id}", c.meta, nil, nil)
		}
	}
	check("getResourceTemplates", got.Templates, "uriTemplate", "frame://items/{id}", false, childOrigin, frameIcons)
	check("getResourceTemplates", got.Templates, "uriTemplate", "page://t/{id}", false, nil, nil)
	check("MCP resources/templates/list", got.MCPTemplates, "uriTemplate", "frame://items/{id}", true, childOrigin, frameIcons)
	check("MCP resources/templates/list", got.MCPTemplates, "uriTemplate", "page://t/{id}", true, nil, nil)
	for _, e := range got.Tool {
		if _, ok := e["subscribable"]; ok {
			t.Errorf("list_resources lists subscribable: %v", e)
		}
	}
	if t.Failed() {
		t.Log(tab.ConsoleText())
	}
}

// A frame's pushes are read at the pace the frame answers: a burst of 100
// update notifications while a read is in flight makes that read and one
// after it, and 10,000 reads of the page's at once wait for the same read
// (all answered, with the latest value); the pushes dispatch the latest
// value once, de-duplicated as ever. The hand server holds reads until
// 'release'; the frame's messages and the page's arrive in order, so the
// counts it reports after the burst are complete.
func TestConnectFrameReadsCoalesce(t *testing.T) {
	tab, childOrigin := framePage(t)
	var got struct {
		ReadsAfterBurst, ReadsAfterAll float64
		Answered                       float64
		Values                         map[string]int
		Pushes                         []any
	}
	frameRun(tab, childOrigin, `
const iframe = await FR.frame(child('hand'));
mc.connectFrame(iframe, {origin: CHILD});
await FR.until(() => FR.uris().includes('frame://ok'), 'the frame listed');
const reads0 = (await FR.command(iframe, 'counts')).read;
await FR.command(iframe, 'hold');
await FR.command(iframe, 'burst');
const reads = Array.from({length: 10000}, () => mc.readResource('frame://ok'));
const readsAfterBurst = (await FR.command(iframe, 'counts')).read - reads0;
const answered = (await FR.command(iframe, 'release')).answered;
const values = {};
for (const v of await Promise.all(reads)) values[v] = (values[v] || 0) + 1;
const pushes = () => FR.events.filter((e) => e.updated === 'frame://ok').map((e) => e.value);
await FR.until(() => pushes().includes('v100'), 'the burst pushed');
// The sentinel: a change after the burst.
await FR.command(iframe, 'change');
await FR.until(() => pushes().includes('v101'), 'the change after the burst pushed');
return {readsAfterBurst, readsAfterAll: (await FR.command(iframe, 'counts')).read - reads0, answered, values, pushes: pushes()};
`, &got)
	if got.ReadsAfterBurst != 1 || got.Answered != 1 {
		t.Errorf("a burst of 100 updates and 10,000 reads made %v reads in flight (%v answered at release), want 1", got.ReadsAfterBurst, got.Answered)
	}
	// The burst's read, one after it, 1 or 2 for the change.
	if got.ReadsAfterAll > 4 {
		t.Errorf("%v reads in all, want at most 4", got.ReadsAfterAll)
	}
	if g, _ := json.Marshal(got.Values); string(g) != `{"v100":10000}` {
		t.Errorf("the 10,000 reads answered %s, want v100 each", g)
	}
	if g, _ := json.Marshal(got.Pushes); string(g) != `["v100","v101"]` {
		t.Errorf("pushes %s, want [\"v100\",\"v101\"]", g)
	}
	if t.Failed() {
		t.Log(tab.ConsoleText())
	}
}

// frameTimeoutMessage checks the error of a read the frame never answers:
// a TimeoutError naming the uri and the frame.
func frameTimeoutMessage(t *testing.T, e map[string]any, uri, childOrigin string) {
	t.Helper()
	msg, _ := e["message"].(string)
	if e["name"] != "TimeoutError" || !strings.Contains(msg, `"`+uri+`"`) || !strings.Contains(msg, childOrigin) || !strings.HasPrefix(msg, "modelcontext:") {
		t.Errorf("a read the frame never answers: %v, want a TimeoutError naming %s and the frame", e, uri)
	}
}
