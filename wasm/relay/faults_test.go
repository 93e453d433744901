package relay

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Faults on the visitor's machine: a renderer crash, a reload and a
// navigation within the site never end the relay. What the tests count:
// every push the page makes once the client has heard that the tab is back
// (notifications/resources/list_changed, and updated for each subscription)
// reaches the client, once. Pushes made while the tab is down (crashed,
// unloading, loading) may be lost: those notes tell the client to read again.

// faultClient is a Go SDK client of the relay that records, in the order the
// SDK hands them over, "list_changed" and "updated <uri>".
type faultClient struct {
	*mcp.ClientSession
	t      *testing.T
	events chan string
}

func connectFault(t *testing.T, r *relayRun, transport, version string) *faultClient {
	t.Helper()
	events := make(chan string, 10000)
	c := mcp.NewClient(&mcp.Implementation{Name: "faults", Version: "1.0.0"}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			events <- "updated " + req.Params.URI
		},
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) {
			events <- "list_changed"
		},
	})
	var tr mcp.Transport = &mcp.IOTransport{Reader: r.stdout, Writer: r.stdin}
	if transport == "http" {
		tr = &mcp.StreamableClientTransport{Endpoint: r.url, MaxRetries: -1}
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cs, err := c.Connect(ctx, tr, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connecting over %s (%s): %v\n%s", transport, version, err, r.stderr)
	}
	t.Cleanup(func() { cs.Close() })
	return &faultClient{ClientSession: cs, t: t, events: events}
}

// next returns the next event, failing the test after timeout.
func (c *faultClient) next(what string) string {
	c.t.Helper()
	select {
	case e := <-c.events:
		return e
	case <-time.After(timeout):
		c.t.Fatalf("no notification within %v, waiting for %s", timeout, what)
		return ""
	}
}

// pushPage is the page the tests push from: a tab of the tests' browser, or
// the one a launched relay drives.
type pushPage interface {
	mark() int
	bump(name string)
	count(mark int, direction, pred string) int
}

// isUpdateOn matches the page's notifications/resources/updated for a uri.
const isUpdateOn = `(p) => p && p.method === 'notifications/resources/updated' && p.params.uri === %q`

// recovered waits until the client heard that the tab is back: list_changed,
// and updated for test://a and test://b (in any order across streams).
func recovered(t *testing.T, c *faultClient, fault string) {
	t.Helper()
	want := map[string]bool{"list_changed": true, "updated test://a": true, "updated test://b": true}
	for len(want) > 0 {
		e := c.next(fmt.Sprintf("the notes after the %s (still missing %v)", fault, want))
		delete(want, e)
	}
}

// pushes moves a on n times, then b once (the sentinel), and checks that
// the client got each push the page made, once: n updates of a, then b's.
// ordered: the client's notifications come on one stream, so a's all come
// before b's.
func pushes(t *testing.T, p pushPage, c *faultClient, when string, n int, ordered bool) {
	t.Helper()
	mark := p.mark()
	for range n {
		p.bump("a")
	}
	p.bump("b")
	got := map[string]int{}
	for got["updated test://a"] < n || got["updated test://b"] < 1 {
		e := c.next(fmt.Sprintf("the pushes %s (%d of a, %d of b so far)", when, got["updated test://a"], got["updated test://b"]))
		got[e]++
		if ordered && e == "updated test://b" && got["updated test://a"] < n {
			t.Errorf("%s: b's update came after %d of a's %d", when, got["updated test://a"], n)
		}
	}
	// Anything more (a duplicate) would be here by now on ordered streams;
	// on others give it a moment.
	if !ordered {
		time.Sleep(200 * time.Millisecond)
	}
	for extra := true; extra; {
		select {
		case e := <-c.events:
			got[e]++
		default:
			extra = false
		}
	}
	sentA := p.count(mark, "server-to-client", fmt.Sprintf(isUpdateOn, "test://a"))
	sentB := p.count(mark, "server-to-client", fmt.Sprintf(isUpdateOn, "test://b"))
	t.Logf("%s: the page pushed %d updates of a and %d of b; the client got %d and %d", when, sentA, sentB, got["updated test://a"], got["updated test://b"])
	if sentA != n || sentB != 1 || got["updated test://a"] != n || got["updated test://b"] != 1 || len(got) != 2 {
		t.Errorf("%s: the page pushed %d of a and %d of b, the client got %v; want %d and 1 both ways", when, sentA, sentB, got, n)
	}
}

// subscribeAB subscribes c to test://a and test://b.
func subscribeAB(t *testing.T, p *page, c *faultClient, version string) {
	t.Helper()
	for _, uri := range []string{"test://a", "test://b"} {
		mark := p.mark()
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		err := c.Subscribe(ctx, &mcp.SubscribeParams{URI: uri})
		cancel()
		if err != nil {
			t.Fatalf("subscribe %s: %v", uri, err)
		}
		if version == modern { // the SDK opens the listen stream and returns at once
			p.waitSeen(mark, "server-to-client", fmt.Sprintf(isAck, uri))
		}
	}
}

// waitLog waits until the relay's stderr, after its first from bytes, says
// s; it fails the test if the relay ends first.
func waitLog(t *testing.T, r *relayRun, from int, s string) {
	t.Helper()
	for deadline := time.Now().Add(timeout); !strings.Contains(r.stderr.String()[from:], s); {
		select {
		case err := <-r.done:
			r.done <- err
			t.Fatalf("the relay ended (%v) before it said %q:\n%s", err, s, r.stderr)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("the relay did not say %q within %v:\n%s", s, timeout, r.stderr)
		}
	}
}

// running fails the test if the relay r has ended.
func running(t *testing.T, r *relayRun) {
	t.Helper()
	select {
	case err := <-r.done:
		r.done <- err
		t.Fatalf("the relay ended: %v\n%s", err, r.stderr)
	default:
	}
}

// crashTab crashes the renderer of p's tab (Page.crash, which never answers).
func crashTab(t *testing.T, p *page) {
	t.Helper()
	ctx, cancel := context.WithTimeout(p.Ctx, time.Second)
	defer cancel()
	chromedp.Run(ctx, chromedp.ActionFunc(func(ctx context.Context) error { return cdppage.Crash().Do(ctx) }))
}

// reloadTab reloads p's tab (Page.reload; a crashed tab has no load event
// to wait for before).
func reloadTab(t *testing.T, p *page) {
	t.Helper()
	ctx, cancel := context.WithTimeout(p.Ctx, timeout)
	defer cancel()
	if err := chromedp.Run(ctx, chromedp.ActionFunc(func(ctx context.Context) error { return cdppage.Reload().Do(ctx) })); err != nil {
		t.Fatalf("reloading the tab: %v", err)
	}
}

// TestFaults: with --attach, over both transports and in both revisions,
// the tab's renderer crashes (and the visitor reloads it), the tab reloads,
// and it navigates within the site: the relay keeps running, tells the
// client each time, keeps its subscriptions, and every push the page makes
// after that reaches the client.
func TestFaults(t *testing.T) {
	const n = 25 // pushes after each fault
	for _, tr := range transports {
		for _, version := range []string{legacy, modern} {
			t.Run(tr.name+"/"+version, func(t *testing.T) {
				p := openPage(t, "")
				r := startRelay(t, append(p.attachArgs(), tr.args...)...)
				c := connectFault(t, r, tr.name, version)
				ordered := tr.name == "stdio" || version == legacy // one stream carries every notification
				subscribeAB(t, p, c, version)
				pushes(t, p, c, "before any fault", n, ordered)
				for _, fault := range []struct {
					name string
					do   func()
				}{
					{"crash", func() {
						from := len(r.stderr.String())
						crashTab(t, p)
						waitLog(t, r, from, "the tab crashed; waiting for it to be reloaded")
						reloadTab(t, p) // the visitor's reload
					}},
					{"reload", func() { p.Navigate(p.url) }},
					{"navigation within the site", func() { p.Navigate(p.url + "&moved=1") }},
				} {
					fault.do()
					recovered(t, c, fault.name)
					pushes(t, p, c, "after the "+fault.name, n, ordered)
				}
				running(t, r)
			})
		}
	}
}

// launchedPage is the tab a relay launched (--url), driven over the relay's
// own DevTools connection.
type launchedPage struct {
	t   *testing.T
	tab *Tab
}

func (p *launchedPage) eval(expr string, out any) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var res struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		Exception *struct {
			Text string `json:"text"`
		} `json:"exceptionDetails"`
	}
	if err := p.tab.cdp.call(ctx, p.tab.session(), "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true}, &res); err != nil {
		p.t.Fatalf("%s: %v", expr, err)
	}
	if res.Exception != nil {
		p.t.Fatalf("%s: %s", expr, res.Exception.Text)
	}
	if out != nil {
		if err := json.Unmarshal(res.Result.Value, out); err != nil {
			p.t.Fatalf("%s: %s: %v", expr, res.Result.Value, err)
		}
	}
}

func (p *launchedPage) mark() int {
	var n int
	p.eval(`relayTest.wire.length`, &n)
	return n
}

func (p *launchedPage) bump(name string) { p.eval(fmt.Sprintf(`relayTest.bump(%q)`, name), nil) }

func (p *launchedPage) count(mark int, direction, pred string) int {
	var n int
	p.eval(fmt.Sprintf(`relayTest.seen(%d, %q, %s).length`, mark, direction, pred), &n)
	return n
}

// TestCrashLaunched: the renderer of the tab a relay launched (--url)
// crashes (Page.crash on the relay's own tab) twice: the relay reloads it
// each time, tells the client, and every push after that reaches it.
func TestCrashLaunched(t *testing.T) {
	requireBuild(t)
	exe, err := chromiumFor(t)
	if err != nil {
		t.Fatal(err)
	}
	tabs := make(chan *Tab, 1)
	r := startRelayOpts(t, options{limits: defaultConnLimits, onTab: func(tab *Tab) { tabs <- tab }},
		"--url", pageURL(t), "--chromium", exe, "--http", "127.0.0.1:0")
	p := &launchedPage{t: t, tab: <-tabs}
	c := connectFault(t, r, "http", legacy)
	for _, uri := range []string{"test://a", "test://b"} {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		err := c.Subscribe(ctx, &mcp.SubscribeParams{URI: uri})
		cancel()
		if err != nil {
			t.Fatalf("subscribe %s: %v", uri, err)
		}
	}
	const n = 25
	pushes(t, p, c, "before the crash", n, true)
	for i := range 2 {
		from := len(r.stderr.String())
		p.tab.cdp.send(p.tab.session(), "Page.crash", nil, nil)
		waitLog(t, r, from, "the tab crashed; reloading it")
		recovered(t, c, "crash")
		pushes(t, p, c, fmt.Sprintf("after crash %d", i+1), n, true)
	}
	running(t, r)
}

// TestCrashNotReloaded: while an attached tab stays crashed, a request
// waits --wait and is then answered with an error that says to reload the
// tab; once the visitor does, the client is told, and reads and pushes work.
func TestCrashNotReloaded(t *testing.T) {
	p := openPage(t, "")
	r := startRelay(t, append(p.attachArgs(), "--wait", "2s")...)
	c := connectFault(t, r, "stdio", legacy)
	subscribeAB(t, p, c, legacy)
	from := len(r.stderr.String())
	crashTab(t, p)
	waitLog(t, r, from, "the tab crashed; waiting for it to be reloaded")
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	_, err := c.ReadResource(ctx, &mcp.ReadResourceParams{URI: "test://a"})
	if want := "modelcontext: the tab crashed, and has not been reloaded (waited 2s): reload it in the browser"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("a read while the tab stays crashed: %v\nwant %s", err, want)
	}
	reloadTab(t, p)
	recovered(t, c, "crash and the reload")
	if res, err := c.ReadResource(ctx, &mcp.ReadResourceParams{URI: "test://a"}); err != nil || res.Contents[0].Text != `{"a":0}` {
		t.Errorf("a read after the reload: %v, %v", res, err)
	}
	pushes(t, p, c, "after the reload", 5, true)
	running(t, r)
}

// echoTransport plays a browser that answers every command with an empty
// result, and records the commands' methods.
type echoTransport struct {
	answers *queue[*cdproto.Message]
	methods chan string
}

func (e *echoTransport) Write(_ context.Context, m *cdproto.Message) error {
	e.answers.push(&cdproto.Message{ID: m.ID, Result: []byte("{}")})
	e.methods <- string(m.Method)
	return nil
}

func (e *echoTransport) Read(ctx context.Context, m *cdproto.Message) error {
	a, ok := e.answers.pop()
	if !ok {
		return io.EOF
	}
	*m = *a
	return nil
}

func (e *echoTransport) Close() error {
	e.answers.close()
	return nil
}

// TestCrashLoop: a tab the relay launched is reloaded after each crash, up
// to maxCrashReloads in a row before its page serves again; one more ends
// the relay with a message that says so.
func TestCrashLoop(t *testing.T) {
	tr := &echoTransport{answers: newQueue[*cdproto.Message](), methods: make(chan string, 100)}
	c := newCDPConn(tr, func(*cdproto.Message) {})
	defer c.close()
	tab := newTab(c, "T", "mcp-default", time.Minute, t.Logf)
	tab.reloadOnCrash = true
	for i := range maxCrashReloads {
		tab.crash()
		select {
		case m := <-tr.methods:
			if m != "Page.reload" {
				t.Errorf("after crash %d the relay sent %s, want Page.reload", i+1, m)
			}
		case <-time.After(timeout):
			t.Fatalf("no reload after crash %d", i+1)
		}
	}
	select {
	case <-tab.goneCh:
		t.Fatalf("the relay ended after %d crashes: %v", maxCrashReloads, tab.gone)
	default:
	}
	tab.crash()
	<-tab.goneCh
	if want := fmt.Sprintf("modelcontext: the tab crashed %d times in a row, each time before its page served MCP again", maxCrashReloads+1); !strings.HasPrefix(tab.gone.Error(), want) {
		t.Errorf("after %d crashes: %v\nwant %s...", maxCrashReloads+1, tab.gone, want)
	}
}
