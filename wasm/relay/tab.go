package relay

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto"
	"github.com/chromedp/cdproto/target"
)

// A Tab is the relay's connection to one page: a script in an isolated
// world (like an extension's content script, invisible to the page's own
// scripts) that carries MCP messages between the page's window.postMessage
// server and the relay through a DevTools binding. It is injected into the
// current document and into every document the tab loads later, so that a
// reload is noticed, and the page's server found again.
//
// Each client gets a lane: a sub-channel "<channel>/<name>" of the page's
// server, which serves it as a session of its own when the page opted in
// (data-mcp-sessions, or serveMCP({sessions: true})).
type Tab struct {
	cdp      *cdpConn
	targetID target.ID
	channel  string
	wait     time.Duration
	logf     func(string, ...any)

	prefix   string // the relay's sub-channel names start with it
	binding  string // the binding the isolated script calls
	sendFn   string // the isolated script's function the relay calls
	stopFn   string
	world    string
	scriptID string
	// postFn, when set, carries what post sends to the document ctxID
	// instead of the DevTools protocol (the extension's native host).
	postFn func(ctxID int64, channel string, payload []byte)
	// pinned: the tab is served for one origin, the first it shows (or the
	// one --url names); a document of another origin ends the relay. The
	// extension's path pins in the extension instead, per exposure.
	pinned bool
	// reloadOnCrash: the relay launched the tab (--url), so it reloads it
	// when its renderer crashes; another tab waits for the visitor's reload.
	reloadOnCrash bool

	mu        sync.Mutex
	sid       target.SessionID // the relay's DevTools session with the tab, once attached
	ctxID     int64            // the current document's isolated world, 0 when none
	ctxUnique string           // and its unique id, when known
	uniques   map[int64]string // unique ids of the isolated worlds, from Runtime.executionContextCreated
	url       string           // the current document's URL
	origin    string           // the origin served, when pinned and known
	gen       int              // document generation: timers of older ones do nothing
	state     tabState         // of the current document
	failure   error            // why the page does not serve MCP, when state is tabFailed
	probe     string           // the sub-channel that probes for sessions in this document
	lanes     map[string]*tabLane
	nextLane  int
	changed   chan struct{} // closed and replaced at every change of state
	gone      error         // the tab or the browser went away
	goneCh    chan struct{}
	crashed   bool // the renderer crashed, and no document has come since
	crashes   int  // crashes since the page last served MCP
}

type tabState int

const (
	tabNoPage  tabState = iota // no document runs the relay's script yet
	tabWaiting                 // waiting for the page's MCP server
	tabProbing                 // the server answered; does it serve sessions?
	tabUp                      // it does: lanes carry messages
	tabFailed                  // it does not serve MCP (sessions); see failure
)

// probeWait bounds how long a server that announced itself may take to
// answer on a sub-channel before the relay concludes it serves no sessions.
const probeWait = 5 * time.Second

// debugRelay (MODELCONTEXT_RELAY_DEBUG=1) logs DevTools traffic to stderr.
var debugRelay = os.Getenv("MODELCONTEXT_RELAY_DEBUG") != ""

// laneHandler receives what happens on a lane.
type laneHandler interface {
	fromPage(raw []byte)
	pageUp()
	pageDown()
	pageFailed(err error)
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// newTab prepares the relay's connection to the tab targetID of the browser
// on c; the browser's events must reach handle from then on, and inject
// attaches.
func newTab(c *cdpConn, targetID target.ID, channel string, wait time.Duration, logf func(string, ...any)) *Tab {
	r := randomHex(6)
	return &Tab{
		cdp: c, targetID: targetID, channel: channel, wait: wait, logf: logf,
		prefix: "relay-" + r, binding: "__modelcontextRelay_" + r, sendFn: "__modelcontextRelaySend_" + r,
		stopFn: "__modelcontextRelayStop_" + r, world: "modelcontext-relay-" + r,
		uniques: map[int64]string{}, lanes: map[string]*tabLane{}, changed: make(chan struct{}), goneCh: make(chan struct{}),
	}
}

// inject attaches to the tab and injects the relay's script into its
// current document and every later one. It never navigates or closes the
// tab.
func (t *Tab) inject(ctx context.Context) error {
	c := t.cdp
	var attached struct {
		SessionID target.SessionID `json:"sessionId"`
	}
	if err := c.call(ctx, "", "Target.attachToTarget", map[string]any{"targetId": t.targetID, "flatten": true}, &attached); err != nil {
		return err
	}
	t.mu.Lock()
	t.sid = attached.SessionID
	t.mu.Unlock()
	sid := attached.SessionID
	if err := c.call(ctx, sid, "Runtime.enable", nil, nil); err != nil {
		return err
	}
	// Scripts added for new documents run only while the Page domain is on.
	if err := c.call(ctx, sid, "Page.enable", nil, nil); err != nil {
		return err
	}
	if err := c.call(ctx, sid, "Runtime.addBinding", map[string]any{"name": t.binding, "executionContextName": t.world}, nil); err != nil {
		return err
	}
	var added struct {
		Identifier string `json:"identifier"`
	}
	if err := c.call(ctx, sid, "Page.addScriptToEvaluateOnNewDocument", map[string]any{"source": t.script(), "worldName": t.world}, &added); err != nil {
		return err
	}
	t.scriptID = added.Identifier
	var tree struct {
		FrameTree struct {
			Frame struct {
				ID string `json:"id"`
			} `json:"frame"`
		} `json:"frameTree"`
	}
	if err := c.call(ctx, sid, "Page.getFrameTree", nil, &tree); err != nil {
		return err
	}
	var world struct {
		ID int64 `json:"executionContextId"`
	}
	if err := c.call(ctx, sid, "Page.createIsolatedWorld", map[string]any{"frameId": tree.FrameTree.Frame.ID, "worldName": t.world}, &world); err != nil {
		return err
	}
	var res struct {
		Exception *struct {
			Text string `json:"text"`
		} `json:"exceptionDetails"`
	}
	if err := c.call(ctx, sid, "Runtime.evaluate", map[string]any{"expression": t.script(), "contextId": world.ID}, &res); err != nil {
		return err
	}
	if res.Exception != nil {
		return fmt.Errorf("injecting the relay's script: %s", res.Exception.Text)
	}
	return nil
}

// script is the isolated world's side of the relay. It forwards what the
// page's server posts on the relay's sub-channels (and the control strings
// it posts on its channel), says hello once per document, and posts what the
// relay sends as the page's own window would.
func (t *Tab) script() string {
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	return `(() => {
  if (window !== window.top || globalThis[` + q(t.sendFn) + `]) return;
  // In a new document the binding may appear only after this script ran.
  const binding = (s) => globalThis[` + q(t.binding) + `](s);
  const CH = ` + q(t.channel) + `, PRE = CH + "/" + ` + q(t.prefix) + `;
  const listener = (ev) => {
    if (ev.source !== window) return;
    const d = ev.data;
    if (d === null || typeof d !== "object" || d.type !== "mcp" || d.direction !== "server-to-client") return;
    const c = d.channel;
    if (c === CH ? typeof d.payload !== "string" : typeof c !== "string" || !c.startsWith(PRE)) return;
    let text;
    try { text = JSON.stringify(d.payload); } catch { return; }
    if (text !== undefined) binding(c + "\n" + text);
  };
  addEventListener("message", listener);
  globalThis[` + q(t.sendFn) + `] = (c, text) => postMessage({channel: c, type: "mcp", direction: "client-to-server", payload: JSON.parse(text)}, "/");
  globalThis[` + q(t.stopFn) + `] = () => { removeEventListener("message", listener); delete globalThis[` + q(t.sendFn) + `]; };
  const hello = () => {
    if (typeof globalThis[` + q(t.binding) + `] === "function") binding("\n" + JSON.stringify({hello: location.href}));
    else setTimeout(hello, 5);
  };
  hello();
})()`
}

// handle takes one DevTools event (on the event goroutine, in order).
func (t *Tab) handle(ev *cdproto.Message) {
	sid := t.session()
	if ev.SessionID != sid {
		if ev.Method == "Target.detachedFromTarget" || ev.Method == "Target.targetDestroyed" {
			var p struct {
				SessionID target.SessionID `json:"sessionId"`
				TargetID  target.ID        `json:"targetId"`
			}
			if json.Unmarshal(ev.Params, &p) == nil && (p.SessionID == sid || p.TargetID == t.targetID) {
				t.lost(fmt.Errorf("modelcontext: the tab was closed (or the browser detached the relay from it)"))
			}
		}
		return
	}
	switch ev.Method {
	case "Runtime.bindingCalled":
		var p struct {
			Name    string `json:"name"`
			Payload string `json:"payload"`
			Context int64  `json:"executionContextId"`
		}
		if json.Unmarshal(ev.Params, &p) == nil && p.Name == t.binding {
			t.onBinding(p.Context, p.Payload)
		}
	case "Runtime.executionContextCreated":
		var p struct {
			Context struct {
				ID       int64  `json:"id"`
				Name     string `json:"name"`
				UniqueID string `json:"uniqueId"`
			} `json:"context"`
		}
		if json.Unmarshal(ev.Params, &p) == nil && p.Context.Name == t.world {
			t.mu.Lock()
			t.uniques[p.Context.ID] = p.Context.UniqueID
			t.mu.Unlock()
		}
	case "Runtime.executionContextDestroyed":
		var p struct {
			ID int64 `json:"executionContextId"`
		}
		if json.Unmarshal(ev.Params, &p) == nil {
			t.mu.Lock()
			delete(t.uniques, p.ID)
			current := p.ID == t.ctxID
			t.mu.Unlock()
			if current {
				t.documentGone()
			}
		}
	case "Runtime.executionContextsCleared":
		t.mu.Lock()
		clear(t.uniques)
		had := t.ctxID != 0
		t.mu.Unlock()
		if had {
			t.documentGone()
		}
	case "Inspector.detached":
		var p struct {
			Reason string `json:"reason"`
		}
		json.Unmarshal(ev.Params, &p)
		t.lost(fmt.Errorf("modelcontext: the tab was closed (or the browser detached the relay from it: %s)", p.Reason))
	case "Inspector.targetCrashed":
		t.crash()
	case "Inspector.targetReloadedAfterCrash":
		t.logf("the tab was reloaded after its crash; waiting for its page's MCP server")
	}
}

// maxCrashReloads bounds the reloads of a launched tab whose page crashes
// again each time before it serves MCP.
const maxCrashReloads = 3

func (t *Tab) onBinding(ctxID int64, payload string) {
	ch, text, _ := strings.Cut(payload, "\n")
	if ch == "" {
		var hello struct {
			URL string `json:"hello"`
		}
		if json.Unmarshal([]byte(text), &hello) == nil {
			t.newDocument(ctxID, hello.URL)
		}
		return
	}
	t.mu.Lock()
	if ctxID != t.ctxID {
		t.mu.Unlock()
		return // a document that is gone
	}
	if ch == t.channel {
		t.mu.Unlock()
		switch text {
		case `"mcp-server-ready"`:
			t.serverReady()
		case `"mcp-server-stopped"`:
			t.logf("the page's MCP server stopped; waiting for it to start again")
			t.documentGone()
			t.newDocumentState(ctxID)
		}
		return
	}
	name := strings.TrimPrefix(ch, t.channel+"/")
	if name == t.probe {
		t.mu.Unlock()
		t.probeAnswered(text)
		return
	}
	l := t.lanes[name]
	t.mu.Unlock()
	if l != nil {
		l.h.fromPage([]byte(text))
	}
}

func (t *Tab) describe() string {
	if t.url == "" {
		return "the page"
	}
	return "the page " + t.url
}

func (t *Tab) noSessions() error {
	return fmt.Errorf("modelcontext: %s serves MCP on the channel %q but not per-client sessions: add data-mcp-sessions to its script tag next to data-mcp, or pass sessions: true to serveMCP", t.describe(), t.channel)
}

// fail records err as the reason the page does not serve MCP; t.mu is held
// and released.
func (t *Tab) fail(err error) {
	t.setState(tabFailed, err)
	lanes := t.laneList()
	t.mu.Unlock()
	for _, l := range lanes {
		l.h.pageFailed(err)
	}
}

// serverReady: the page's server announced itself or answered; probe a
// sub-channel to learn whether it serves sessions.
func (t *Tab) serverReady() {
	t.mu.Lock()
	if t.state != tabWaiting && t.state != tabFailed && t.state != tabNoPage {
		t.mu.Unlock()
		return
	}
	t.setState(tabProbing, nil)
	gen, probe := t.gen, t.probe
	t.mu.Unlock()
	t.post(t.channel+"/"+probe, []byte(`"mcp-check-ready"`))
	time.AfterFunc(probeWait, func() {
		t.mu.Lock()
		if gen != t.gen || t.state != tabProbing {
			t.mu.Unlock()
			return
		}
		t.fail(t.noSessions())
	})
}

func (t *Tab) probeAnswered(text string) {
	t.mu.Lock()
	probe := t.channel + "/" + t.probe
	if text != `"mcp-server-ready"` {
		var m struct {
			Error *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal([]byte(text), &m) != nil || m.Error == nil || t.state != tabProbing {
			t.mu.Unlock() // the answer to closing the probe's session, say
			return
		}
		t.fail(fmt.Errorf("modelcontext: %s refused the relay a session: %s", t.describe(), m.Error.Message))
		return
	}
	if t.state == tabUp {
		t.mu.Unlock()
		return
	}
	t.logf("the page %s serves MCP with sessions on the channel %q", t.url, t.channel)
	t.setState(tabUp, nil)
	t.crashes = 0
	lanes := t.laneList()
	t.mu.Unlock()
	t.post(probe, []byte(`"mcp-session-close"`))
	for _, l := range lanes {
		l.h.pageUp()
	}
}

// lost: the tab or the browser is gone for good.
func (t *Tab) lost(err error) {
	t.mu.Lock()
	if t.gone != nil {
		t.mu.Unlock()
		return
	}
	t.gone = err
	close(t.goneCh)
	t.fail(err)
}

// setState changes the state; t.mu is held.
func (t *Tab) setState(s tabState, err error) {
	t.state, t.failure = s, err
	close(t.changed)
	t.changed = make(chan struct{})
}

func (t *Tab) laneList() []*tabLane {
	out := make([]*tabLane, 0, len(t.lanes))
	for _, l := range t.lanes {
		out = append(out, l)
	}
	return out
}

// session is the tab's DevTools session.
func (t *Tab) session() target.SessionID {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.sid
}

// waitReady waits until the page serves MCP with sessions, or until it is
// known that it does not (the error names the fix).
func (t *Tab) waitReady(ctx context.Context) error {
	for {
		t.mu.Lock()
		state, err, ch, gone := t.state, t.failure, t.changed, t.gone
		t.mu.Unlock()
		switch {
		case gone != nil:
			return gone
		case state == tabUp:
			return nil
		case state == tabFailed:
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-ch:
		}
	}
}

// post sends payload (JSON text) on channel in the current document; it is
// dropped when there is none (the sessions have heard that the page is
// down).
func (t *Tab) post(channel string, payload []byte) {
	t.mu.Lock()
	ctxID, unique := t.ctxID, t.ctxUnique
	t.mu.Unlock()
	if ctxID == 0 {
		return
	}
	if t.postFn != nil {
		t.postFn(ctxID, channel, payload)
		return
	}
	c, _ := json.Marshal(channel)
	p, _ := json.Marshal(string(payload))
	params := map[string]any{"expression": "globalThis[" + string(mustJSON(t.sendFn)) + "](" + string(c) + "," + string(p) + ")", "silent": true}
	if unique != "" {
		params["uniqueContextId"] = unique
	} else {
		params["contextId"] = ctxID
	}
	if debugRelay {
		t.logf("post %s %.200s", channel, payload)
	}
	t.cdp.send(t.session(), "Runtime.evaluate", params, t.checkPost)
}

// checkPost logs a post that failed; the page is gone then, or going.
func (t *Tab) checkPost(m *cdproto.Message) {
	if m == nil {
		return
	}
	if debugRelay {
		t.logf("post answered %s %v", m.Result, m.Error)
	}
	var res struct {
		Exception *struct {
			Text      string `json:"text"`
			Exception *struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	switch {
	case m.Error != nil:
		// The document went away under it (its sessions hear that the page
		// is down, and answer what it took with it).
		if debugRelay {
			t.logf("a message for the page was lost: %s", m.Error.Message)
		}
	case json.Unmarshal(m.Result, &res) == nil && res.Exception != nil:
		desc := res.Exception.Text
		if res.Exception.Exception != nil {
			desc = res.Exception.Exception.Description
		}
		t.logf("a message for the page was lost: %s", desc)
	}
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}
