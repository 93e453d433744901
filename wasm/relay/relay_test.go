package relay

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The relay's browser tests serve testdata/pages/relay.html from
// browsertest's server on 127.0.0.1. A relay either launches its own
// headless Chromium (--url) or attaches (--attach) to a tab the test opened
// in browsertest's shared browser, which the test then drives: it moves the
// page's resources on, reloads it, and reads what the page's MCP server
// posted on the relay's sub-channels (relayTest.wire in the page).

func TestMain(m *testing.M) {
	os.Exit(browsertest.Main(m, nil))
}

const (
	legacy = "2025-11-25"
	modern = "2026-07-28"
)

// timeout bounds every wait of these tests; the machine they run on is
// shared and often loaded.
const timeout = 90 * time.Second

// requireBuild fails t unless make build has run.
func requireBuild(t testing.TB) {
	t.Helper()
	for _, f := range []string{"modelcontext.js", "modelcontext.wasm"} {
		if _, err := os.Stat(browsertest.RepoRoot() + "/dist/" + f); err != nil {
			t.Fatalf("dist/%s missing: run make build", f)
		}
	}
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// relayRun is a relay run by Run in this process.
type relayRun struct {
	t      testing.TB
	cancel context.CancelFunc
	done   chan error
	stdin  *io.PipeWriter // the client's side of the relay's stdin
	stdout *io.PipeReader // and of its stdout
	stderr *syncBuffer
	url    string // with --http: the URL it printed
	err    error
	ended  bool
}

// startRelay runs the relay with args and stops it when t ends (it must
// then return no error). With --http it waits for the URL.
func startRelay(t testing.TB, args ...string) *relayRun {
	t.Helper()
	return startRelayOpts(t, options{limits: defaultConnLimits}, args...)
}

// startRelayOpts is startRelay with the run's options (lower limits, hooks).
func startRelayOpts(t testing.TB, opts options, args ...string) *relayRun {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	r := &relayRun{t: t, cancel: cancel, done: make(chan error, 1), stdin: inW, stdout: outR, stderr: &syncBuffer{}}
	go func() {
		err := run(ctx, args, inR, outW, r.stderr, opts)
		outW.CloseWithError(io.EOF)
		inR.Close()
		r.done <- err
	}()
	t.Cleanup(func() {
		if err := r.stop(); err != nil {
			t.Errorf("the relay ended with: %v\n%s", err, r.stderr)
		} else if t.Failed() {
			t.Logf("the relay's stderr:\n%s", r.stderr)
		}
	})
	for _, a := range args {
		if a == "--http" {
			line, err := readLine(r.stdout, r.done)
			if err != nil {
				t.Fatalf("the relay printed no URL: %v\n%s", err, r.stderr)
			}
			r.url = line
		}
	}
	return r
}

// readLine reads one line of out, or fails when done delivers first.
func readLine(out io.Reader, done chan error) (string, error) {
	got := make(chan string, 1)
	failed := make(chan error, 1)
	go func() {
		line, err := bufio.NewReader(out).ReadString('\n')
		if err != nil {
			failed <- err
			return
		}
		got <- strings.TrimSpace(line)
	}()
	select {
	case line := <-got:
		return line, nil
	case err := <-failed:
		return "", err
	case err := <-done:
		done <- err
		return "", fmt.Errorf("the relay returned %v", err)
	case <-time.After(timeout):
		return "", errors.New("no line within " + timeout.String())
	}
}

// stop cancels the relay and waits for Run to return.
func (r *relayRun) stop() error {
	if r.ended {
		return r.err
	}
	r.cancel()
	r.stdin.Close()
	select {
	case r.err = <-r.done:
	case <-time.After(timeout):
		r.err = errors.New("Run did not return within " + timeout.String())
	}
	r.ended = true
	return r.err
}

// wait waits for Run to return by itself.
func (r *relayRun) wait() error {
	select {
	case r.err = <-r.done:
	case <-time.After(timeout):
		r.t.Fatalf("Run did not return within %v\n%s", timeout, r.stderr)
	}
	r.ended = true
	return r.err
}

// page is a tab of browsertest's shared browser showing relay.html.
type page struct {
	*browsertest.Tab
	t   testing.TB
	url string
}

// openPage opens relay.html with query in a new tab; its URL is unique to
// the test, so that --tab picks it among the other tests' tabs.
func openPage(t testing.TB, query string) *page {
	t.Helper()
	requireBuild(t)
	u := browsertest.URL(t, "/relay.html?test="+url.QueryEscape(t.Name()))
	if query != "" {
		u += "&" + query
	}
	tab := browsertest.NewTab(t)
	tab.Timeout = timeout
	tab.Navigate(u)
	return &page{Tab: tab, t: t, url: u}
}

// attachArgs are the relay's flags to attach to p.
func (p *page) attachArgs() []string {
	p.t.Helper()
	devtools, err := browsertest.SharedBrowser(p.t).DevToolsURL()
	if err != nil {
		p.t.Fatal(err)
	}
	return []string{"--attach", devtools, "--tab", p.url}
}

// mark returns how many envelopes the page has seen on the relay's sub-channels.
func (p *page) mark() int {
	p.t.Helper()
	var n int
	p.Eval(`relayTest.wire.length`, &n)
	return n
}

// waitSeen waits until the page saw, from mark on, an envelope in direction
// whose payload satisfies pred (a JavaScript function), and returns their count.
func (p *page) waitSeen(mark int, direction, pred string) int {
	p.t.Helper()
	var n int
	p.Eval(fmt.Sprintf(`(async () => {
  const pred = %s;
  for (;;) {
    const n = relayTest.seen(%d, %q, pred).length;
    if (n > 0) return n;
    await new Promise((r) => setTimeout(r, 10));
  }
})()`, pred, mark, direction), &n)
	return n
}

// count returns how many envelopes from mark on in direction satisfy pred.
func (p *page) count(mark int, direction, pred string) int {
	p.t.Helper()
	var n int
	p.Eval(fmt.Sprintf(`relayTest.seen(%d, %q, %s).length`, mark, direction, pred), &n)
	return n
}

func (p *page) bump(name string) {
	p.t.Helper()
	p.Eval(fmt.Sprintf(`relayTest.bump(%q)`, name), nil)
}

// client is a Go SDK client of the relay.
type client struct {
	*mcp.ClientSession
	t       testing.TB
	updates chan string // the uris of notifications/resources/updated, in order
}

func newClient(t testing.TB, name string) (*mcp.Client, chan string) {
	updates := make(chan string, 1000)
	return mcp.NewClient(&mcp.Implementation{Name: name, Version: "1.0.0"}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			updates <- req.Params.URI
		},
	}), updates
}

// connectStdio connects a Go SDK client to r's stdin and stdout.
func connectStdio(t testing.TB, r *relayRun, version string) *client {
	t.Helper()
	c, updates := newClient(t, "stdio-"+version)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cs, err := c.Connect(ctx, &mcp.IOTransport{Reader: r.stdout, Writer: r.stdin}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connecting over stdio (%s): %v\n%s", version, err, r.stderr)
	}
	t.Cleanup(func() { cs.Close() })
	return &client{ClientSession: cs, t: t, updates: updates}
}

// connectHTTP connects a Go SDK client to the URL the relay printed.
func connectHTTP(t testing.TB, r *relayRun, version string) *client {
	t.Helper()
	c, updates := newClient(t, "http-"+version)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var tr mcp.Transport = &mcp.StreamableClientTransport{Endpoint: r.url, MaxRetries: -1}
	if debugRelay {
		tr = &mcp.LoggingTransport{Transport: tr, Writer: os.Stderr}
	}
	cs, err := c.Connect(ctx, tr, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connecting over HTTP (%s): %v\n%s", version, err, r.stderr)
	}
	t.Cleanup(func() { cs.Close() })
	return &client{ClientSession: cs, t: t, updates: updates}
}

func (c *client) ctx() context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	c.t.Cleanup(cancel)
	return ctx
}

// nextUpdate waits for the next notifications/resources/updated.
func (c *client) nextUpdate() string {
	c.t.Helper()
	select {
	case u := <-c.updates:
		return u
	case <-time.After(timeout):
		c.t.Fatalf("no notifications/resources/updated within %v", timeout)
		return ""
	}
}

// uris lists the resources (resources/list, one page) and returns their uris,
// in order.
func (c *client) uris() []string {
	c.t.Helper()
	res, err := c.ListResources(c.ctx(), nil)
	if err != nil {
		c.t.Fatalf("resources/list: %v", err)
	}
	var uris []string
	for _, r := range res.Resources {
		uris = append(uris, r.URI)
	}
	return uris
}

// read returns the text of uri's first content.
func (c *client) read(uri string) string {
	c.t.Helper()
	res, err := c.ReadResource(c.ctx(), &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		c.t.Fatalf("reading %s: %v", uri, err)
	}
	if len(res.Contents) != 1 {
		c.t.Fatalf("reading %s: %d contents", uri, len(res.Contents))
	}
	return res.Contents[0].Text
}

// chromiumFor returns the Chromium the tests run (CHROMIUM, or the usual places).
func chromiumFor(t testing.TB) (string, error) { return browsertest.ChromiumPath() }

func browsertestURL(t testing.TB, path string) string { return browsertest.URL(t, path) }
