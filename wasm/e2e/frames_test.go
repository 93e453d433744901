package e2e

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
)

// connectFrame (CONTRACT.md §6.1): a page lists the resources of the page in
// an iframe after its own. The parent is testdata/pages/frame-parent.html
// (the module's test build, so that every step can check that the loader's
// cache lists in Go's order); the child is testdata/pages/frame-child.html,
// served from another origin (another server on 127.0.0.1), which loads the
// module and serves its parent with serveMCP({parent}), or plays a server
// written by hand (its ?mode).

// framePage opens the parent page and starts a second origin for the
// child; it returns the tab and the child's origin.
func framePage(t *testing.T) (*browsertest.Tab, string) {
	t.Helper()
	requireTestBuild(t)
	requireMCPBundles(t)
	child := browsertest.NewServer(nil)
	t.Cleanup(child.Close)
	tab := browsertest.NewTab(t)
	tab.Timeout = 60 * time.Second
	tab.Navigate(browsertest.URL(t, "/frame-parent.html?"+testBuild))
	return tab, child.Server.URL
}

// frameRun runs body as an async function with mc, I (the test build's
// internals), H, T (the stock MCP client), FR (the page's helpers), CHILD
// (the child's origin), child(mode) (the child page's URL) and drift() (the
// loader's cache against Go's list, "" when they agree) in scope, and decodes
// what it returns into out.
func frameRun(tab *browsertest.Tab, childOrigin, body string, out any) {
	tab.TB().Helper()
	prelude := `const mc = document.modelContext, I = mc[Symbol.for('modelcontext.internals')], H = window.H, T = window.mcpTest, FR = window.FR;
const CHILD = ` + jsString(childOrigin) + `;
const child = (mode) => CHILD + '/frame-child.html?mode=' + mode + '&parent=' + encodeURIComponent(location.origin);
const drift = () => I.cacheDrift();
`
	tab.Eval("(async () => {\n"+prelude+body+"\n})()", out)
}

// The frame's resources and templates are listed after the page's own, in
// the frame's order, also after the page registers another; reads go to the
// frame (JSON, text, a template's instance); the frame's pushes are the
// page's (one resourceupdated each); a uri the page has stays the page's,
// with a warning; the page's MCP server lists and reads the frame's too.
func TestConnectFrameListsReadsAndPushes(t *testing.T) {
	tab, childOrigin := framePage(t)
	var got struct {
		Listed, AfterLater, Templates []string
		AfterAdd                      []string
		CodeWins                      string
		Count, Item, Shared           any
		Note                          string
		Pushes                        []any
		Warnings                      []string
		MCPList                       []string
		MCPRead                       string
		Drift                         []string
	}
	frameRun(tab, childOrigin, `
const drifts = [];
const step = (name) => { const d = drift(); if (d) drifts.push(name + ': ' + d); };
mc.registerResource({uri: 'page://own', name: 'own', get: () => 'own value'});
mc.registerResource({uri: 'page://shared', name: 'shared', get: () => "the page's"});
mc.registerResource({uriTemplate: 'page://t/{id}', name: 'page-template', get: ({id}) => id});
const iframe = await FR.frame(child('module'));
mc.connectFrame(iframe, {origin: CHILD});
await FR.until(() => FR.uris().includes('child://count'), 'the frame listed');
step('listed');
const listed = FR.uris();
const templates = mc.getResourceTemplates().map((t) => t.uriTemplate);
mc.registerResource({uri: 'page://later', name: 'later', get: () => 1});
step('later');
const afterLater = FR.uris();
const count = await mc.readResource('child://count');
const note = await mc.readResource('child://note');
const item = await mc.readResource('child://items/a%20b');
const shared = await mc.readResource('page://shared');

const from = FR.events.length;
const updates = () => FR.events.slice(from).filter((e) => e.updated === 'child://count');
await FR.command(iframe, 'bump');
await FR.until(() => updates().length >= 1, 'the first push');
await FR.command(iframe, 'bump');
await FR.until(() => updates().length >= 2, 'the second push');

mc.serveMCP();
const c = await T.connect();
const mcpList = (await c.client.listResources()).resources.map((r) => r.uri);
const mcpRead = (await c.client.readResource({uri: 'child://count'})).contents[0].text;
step('mcp');

// Code wins: the page registers one of the frame's uris; the frame's next
// list (it registers another) leaves it the page's.
mc.registerResource({uri: 'child://note', name: 'mine', get: () => 'code wins'});
step('code wins');
const codeWins = await mc.readResource('child://note');
await FR.command(iframe, 'add');
await FR.until(() => FR.uris().includes('child://extra'), 'the frame listed child://extra');
step('add');
return {listed, afterLater, templates, count, note, item, shared, pushes: updates().map((e) => e.value),
  warnings: H.mine('warn'), mcpList, mcpRead, codeWins, afterAdd: FR.uris(), drift: drifts};
`, &got)
	want := func(name string, got, want any) {
		t.Helper()
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		if string(g) != string(w) {
			t.Errorf("%s: got %s, want %s\n%s", name, g, w, tab.ConsoleText())
		}
	}
	want("listed", got.Listed, []string{"page://own", "page://shared", "child://count", "child://note"})
	want("after the page registered another", got.AfterLater, []string{"page://own", "page://shared", "page://later", "child://count", "child://note"})
	want("templates", got.Templates, []string{"page://t/{id}", "child://items/{id}"})
	want("read child://count", got.Count, map[string]any{"n": 0})
	want("read child://note", got.Note, "a note from the frame")
	want("read child://items/a%20b", got.Item, map[string]any{"item": "a b"})
	want("read page://shared", got.Shared, "the page's")
	want("pushes", got.Pushes, []any{map[string]any{"n": 1}, map[string]any{"n": 2}})
	want("the page's MCP server lists", got.MCPList, []string{"page://own", "page://shared", "page://later", "child://count", "child://note"})
	want("the page's MCP server reads", got.MCPRead, `{"n":2}`)
	want("drift", got.Drift, []string{})
	want("a page's registration of the frame's uri", got.CodeWins, "code wins")
	want("listed after the frame registered another", got.AfterAdd, []string{"page://own", "page://shared", "page://later", "child://note", "child://count", "child://extra"})
	if len(got.Warnings) != 2 || !strings.Contains(got.Warnings[0], `"page://shared"`) || !strings.Contains(got.Warnings[1], `"child://note"`) {
		t.Errorf("warnings %q, want one naming page://shared, then one naming child://note", got.Warnings)
	}
}

// A push of an unchanged value from the frame is suppressed on the page as
// any other (the frame written by hand notifies without a change; a change
// after it is the sentinel).
func TestConnectFramePushesAreDeduplicated(t *testing.T) {
	tab, childOrigin := framePage(t)
	var got []any
	frameRun(tab, childOrigin, `
const iframe = await FR.frame(child('hand'));
mc.connectFrame(iframe, {origin: CHILD});
await FR.until(() => FR.uris().includes('frame://ok'), 'the frame listed');
const updates = () => FR.events.filter((e) => e.updated === 'frame://ok').map((e) => e.value);
await FR.command(iframe, 'change');
await FR.until(() => updates().length >= 1, 'the first push');
await FR.command(iframe, 'poke');
await FR.command(iframe, 'change');
await FR.until(() => updates().length >= 2, 'the sentinel push');
return updates();
`, &got)
	if g, _ := json.Marshal(got); string(g) != `["v1","v2"]` {
		t.Errorf("pushes %s, want [\"v1\",\"v2\"] (the poke of an unchanged value suppressed)\n%s", g, tab.ConsoleText())
	}
}

// The frame's resources leave the list, with one resourcelistchanged, and
// reads of them reject with NotFoundError, when the iframe is removed, when
// disconnect() runs, when the frame stops serving, and when it navigates
// (then the new document's are listed again).
func TestConnectFrameEnds(t *testing.T) {
	tab, childOrigin := framePage(t)
	var got map[string]struct {
		Events []any
		Read   map[string]any
		Drift  string
	}
	frameRun(tab, childOrigin, `
mc.registerResource({uri: 'page://own', name: 'own', get: () => 'own value'});
const out = {};
const has = () => FR.uris().includes('child://count');
let sentinels = 0;
// ends runs end, then registers a sentinel resource of the page's: the
// events from end to the sentinel's are what the frame's leaving fired.
const ends = async (name, end) => {
  const iframe = await FR.frame(child('module'));
  const disconnect = mc.connectFrame(iframe, {origin: CHILD});
  await FR.until(has, name + ': the frame listed');
  const from = FR.events.length;
  await end(iframe, disconnect);
  await FR.until(() => !has(), name + ': the frame left');
  const sentinel = 'page://sentinel/' + (++sentinels);
  mc.registerResource({uri: sentinel, name: 'sentinel', get: () => 1});
  const events = FR.events.slice(from);
  const upTo = events.findIndex((e) => e.list && e.list.includes(sentinel));
  out[name] = {events: events.slice(0, upTo).map((e) => e.list ? e.list.length : e), read: H.describeError(await mc.readResource('child://count').catch((e) => e)), drift: drift()};
  return iframe;
};
await ends('removed', async (iframe) => iframe.remove());
await ends('disconnect', async (iframe, disconnect) => { disconnect(); iframe.remove(); });
await ends('stopped', async (iframe) => { await FR.command(iframe, 'stop'); });
const nav = await ends('navigated', async (iframe) => { iframe.contentWindow.postMessage({type: 'child-command', op: 'navigate'}, '*'); });
await FR.until(has, 'the new document listed');
out.again = {events: [], read: {value: await mc.readResource('child://count')}, drift: drift()};
return out;
`, &got)
	for _, name := range []string{"removed", "disconnect", "stopped", "navigated"} {
		g := got[name]
		// One event, listing the page's own resource and the sentinels so far.
		if len(g.Events) != 1 {
			t.Errorf("%s: events %v, want one resourcelistchanged", name, g.Events)
		}
		if g.Read["name"] != "NotFoundError" || !strings.Contains(g.Read["message"].(string), "child://count") {
			t.Errorf("%s: read %v, want a NotFoundError naming child://count", name, g.Read)
		}
		if g.Drift != "" {
			t.Errorf("%s: %s", name, g.Drift)
		}
	}
	if g, _ := json.Marshal(got["again"].Read); string(g) != `{"value":{"n":0}}` {
		t.Errorf("after navigating: read %s, want the new document's {n: 0}", g)
	}
	if t.Failed() {
		t.Log(tab.ConsoleText())
	}
}

// A frame that answers garbage, floods list changes, never answers a read
// (which rejects after 5 s with a TimeoutError), or answers nothing leaves
// the page's own resources listed and read; bad arguments are TypeErrors
// naming them.
func TestConnectFrameBadInput(t *testing.T) {
	tab, childOrigin := framePage(t)
	var got struct {
		Listed, Templates []string
		Own               string
		Lists             float64
		Updated           []string
		Timeout           map[string]any
		OwnMeanwhile      string
		Silent            []string
		SilentOwn         string
		Errors            []map[string]any
		Drift             string
	}
	frameRun(tab, childOrigin, `
mc.registerResource({uri: 'page://own', name: 'own', get: () => 'own value'});
const garbage = await FR.frame(child('garbage'));
const first = FR.reports.length;
mc.connectFrame(garbage, {origin: CHILD});
// The session is open once the frame was listed (in vain) the first time.
await FR.report(garbage, 'listed', first);
await FR.command(garbage, 'flood');
await FR.command(garbage, 'fix');
// frame://ok is listed only after the fix: every message before it was read.
await FR.until(() => FR.uris().includes('frame://ok'), 'the fixed list');
const listed = FR.uris();
const templates = mc.getResourceTemplates().map((t) => t.uriTemplate);
const own = await mc.readResource('page://own');
const lists = (await FR.command(garbage, 'counts')).list;
const updated = FR.events.filter((e) => e.updated).map((e) => e.updated);

garbage.remove();
await FR.until(() => !FR.uris().includes('frame://ok'), 'the garbage frame left');
const mute = await FR.frame(child('mute'));
mc.connectFrame(mute, {origin: CHILD});
await FR.until(() => FR.uris().includes('frame://ok'), 'the mute frame listed');
const silent = await FR.frame(child('silent'));
mc.connectFrame(silent, {origin: CHILD});
const timeout = mc.readResource('frame://ok').catch((e) => e);
const ownMeanwhile = await mc.readResource('page://own');
const silentList = FR.uris();
const silentOwn = await mc.readResource('page://own');
const errors = [
  H.error(() => mc.connectFrame(null, {origin: CHILD})),
  H.error(() => mc.connectFrame(document.body, {origin: CHILD})),
  H.error(() => mc.connectFrame(mute, {origin: CHILD + '/'})),
  H.error(() => mc.connectFrame(mute, {origin: '*'})),
  H.error(() => mc.connectFrame(mute, {})),
  H.error(() => mc.connectFrame(mute)),
];
return {listed, templates, own, lists, updated, timeout: H.describeError(await timeout), ownMeanwhile, silent: silentList, silentOwn, errors, drift: drift()};
`, &got)
	want := func(name string, got, want any) {
		t.Helper()
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		if string(g) != string(w) {
			t.Errorf("%s: got %s, want %s", name, g, w)
		}
	}
	want("listed after the garbage", got.Listed, []string{"page://own", "frame://ok"})
	want("templates after the garbage", got.Templates, []string{})
	want("own read", got.Own, "own value")
	want("resourceupdated events (the garbage frame notified page://own)", got.Updated, []string{})
	want("own read while a read hangs", got.OwnMeanwhile, "own value")
	want("with a silent frame", got.Silent, []string{"page://own", "frame://ok"})
	want("own read with a silent frame", got.SilentOwn, "own value")
	// A list follows the cursor that never ends 100 pages. The flood makes
	// one list and one more after it, the fix another: not a thousand.
	if got.Lists > 4*100 {
		t.Errorf("the garbage frame was listed %v times: list changes are not coalesced", got.Lists)
	}
	frameTimeoutMessage(t, got.Timeout, "frame://ok", childOrigin)
	for i, field := range []string{`"iframe"`, `"iframe"`, `"origin"`, `"origin"`, `"origin"`, "options"} {
		e := got.Errors[i]
		if e == nil || e["typeError"] != true || !strings.Contains(e["message"].(string), field) {
			t.Errorf("bad argument %d: %v, want a TypeError naming %s", i, e, field)
		}
	}
	if got.Drift != "" {
		t.Error(got.Drift)
	}
	if t.Failed() {
		t.Log(tab.ConsoleText())
	}
}

// Connecting a frame is a consumer contact: on a page of the default, lazy
// boot, connectFrame starts the module (the debug line says why), which no
// producer call before it did.
func TestConnectFrameStartsTheModule(t *testing.T) {
	requireImpl(t, "wasm")
	tab := browsertest.NewTab(t)
	tab.Navigate(browsertest.URL(t, "/contract.html?impl=wasm&debug=1"))
	var got struct {
		Before, After []string
	}
	tab.Eval(`(async () => {
  const mc = document.modelContext;
  mc.registerResource({uri: 'page://own', name: 'own', get: () => 1});
  const starts = () => H.logs('debug').filter((l) => l.includes('starting the WebAssembly module'));
  const before = starts();
  const iframe = document.createElement('iframe');
  document.body.appendChild(iframe);
  mc.connectFrame(iframe, {origin: location.origin});
  return {before, after: starts()};
})()`, &got)
	if len(got.Before) != 0 || len(got.After) != 1 || !strings.Contains(got.After[0], "connectFrame was called") {
		t.Errorf("debug lines before connectFrame %q, after %q; want none, then one naming connectFrame", got.Before, got.After)
	}
}

// A frame's own load event is no new document (CONTRACT.md §6.1: only a
// navigation, a stop or removal ends its resources): a same-origin frame
// connected while it loads, whose server answers before its images have
// loaded, keeps its session through its load event, with no list change and
// no error. The frame's image is held by the test's server until its
// resources are listed.
func TestConnectFrameKeepsItsSessionThroughLoad(t *testing.T) {
	requireTestBuild(t)
	requireMCPBundles(t)
	release := make(chan struct{})
	srv := browsertest.NewServer(func(mux *http.ServeMux) {
		mux.HandleFunc("/held.png", func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-release:
			case <-r.Context().Done():
			}
			http.NotFound(w, r)
		})
	})
	t.Cleanup(srv.Close)
	released := false
	defer func() {
		if !released {
			close(release)
		}
	}()
	tab := browsertest.NewTab(t)
	tab.Timeout = 60 * time.Second
	tab.Navigate(srv.URL("/frame-parent.html?" + testBuild))
	var listed []string
	tab.Eval(`(async () => {
  const mc = document.modelContext, FR = window.FR;
  const iframe = document.createElement('iframe');
  iframe.src = '/frame-child.html?mode=module&hold=1&parent=' + encodeURIComponent(location.origin);
  window.frameLoaded = new Promise((resolve) => iframe.addEventListener('load', resolve, {once: true}));
  document.body.appendChild(iframe);
  mc.connectFrame(iframe, {origin: location.origin});
  await FR.until(() => FR.uris().includes('child://count'), 'the frame listed');
  window.eventsFrom = FR.events.length;
  window.loadedYet = false;
  window.frameLoaded.then(() => { window.loadedYet = true; });
  await new Promise((r) => setTimeout(r, 0));
  if (window.loadedYet) throw new Error('the frame loaded before its image was released');
  return FR.uris();
})()`, &listed)
	close(release)
	released = true
	var got struct {
		Events []any
		Read   any
		Errors []string
	}
	tab.Eval(`(async () => {
  const mc = document.modelContext, FR = window.FR, H = window.H;
  await window.frameLoaded;
  // Past the load event's other listeners (connectFrame's is added after
  // the test's), then a sentinel: a list change of the page's own.
  await new Promise((r) => setTimeout(r, 0));
  mc.registerResource({uri: 'page://sentinel', name: 'sentinel', get: () => 1});
  await FR.until(() => FR.uris().includes('page://sentinel'), 'the sentinel listed');
  const events = FR.events.slice(window.eventsFrom);
  const upTo = events.findIndex((e) => e.list && e.list.includes('page://sentinel'));
  return {events: events.slice(0, upTo), read: await mc.readResource('child://count').catch((e) => e.name + ': ' + e.message),
    errors: H.mine('error').filter((l) => l.includes('connectFrame'))};
})()`, &got)
	if len(got.Events) != 0 {
		t.Errorf("the frame's load event fired %v before the sentinel's list change; want nothing (listed before it: %v)", got.Events, listed)
	}
	if b, _ := json.Marshal(got.Read); string(b) != `{"n":0}` {
		t.Errorf("read child://count after the load event: %s, want {\"n\":0}", b)
	}
	if len(got.Errors) != 0 {
		t.Errorf("errors: %q", got.Errors)
	}
	if t.Failed() {
		t.Log(tab.ConsoleText())
	}
}
