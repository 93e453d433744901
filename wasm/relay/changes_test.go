package relay

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modelcontext-go/modelcontext/wasm/internal/jsonpatch"
)

// A desktop client that declares capabilities.experimental
// ["modelcontext/changes"] follows a resource through the relay by its
// updates alone (wasm/CONTRACT.md §11): the first carries the contents, the
// next ones RFC 6902 patches, and applying them rebuilds the page's value
// without one resources/read. The Go SDK's client speaks 2025-11-25 here,
// over stdio and Streamable HTTP.

// followPage registers test://follow, a cart that the test changes with
// followTest.set(n): n lines beside a long note, so that a patch is shorter
// than the value.
const followPage = `(() => {
  let cart = {lines: [], note: 'x'.repeat(400)}, ping = () => {};
  document.modelContext.registerResource({uri: 'test://follow', name: 'follow', get: () => cart,
    subscribe: (f) => { ping = f; return () => {}; }});
  window.followTest = {
    set(n) { cart = {lines: Array.from({length: n}, (_, i) => ({sku: 's' + i, qty: i % 3 + 1})), note: cart.note}; ping(); },
    json() { return JSON.stringify(cart); },
  };
})()`

// following is what a client that follows changes saw of one uri.
type following struct {
	updates chan *mcp.ResourceUpdatedNotificationParams
}

func newFollowingClient(name string) (*mcp.Client, *following) {
	f := &following{updates: make(chan *mcp.ResourceUpdatedNotificationParams, 100)}
	c := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1.0.0"}, &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{Experimental: map[string]any{"modelcontext/changes": map[string]any{}}},
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			f.updates <- req.Params
		},
	})
	return c, f
}

// apply takes one update into v: a patch, or the contents; it says which.
func (f *following) apply(t *testing.T, v any, p *mcp.ResourceUpdatedNotificationParams) (any, string) {
	t.Helper()
	if raw, ok := p.Meta["modelcontext/patch"]; ok {
		b, _ := json.Marshal(raw)
		var ops []jsonpatch.Op
		if err := json.Unmarshal(b, &ops); err != nil {
			t.Fatalf("_meta[\"modelcontext/patch\"] is not a JSON Patch: %v: %s", err, b)
		}
		out, err := jsonpatch.Apply(v, ops)
		if err != nil {
			t.Fatalf("applying %s: %v", b, err)
		}
		return out, "patch"
	}
	if raw, ok := p.Meta["modelcontext/contents"]; ok {
		b, _ := json.Marshal(raw)
		var contents []struct{ Text string }
		if err := json.Unmarshal(b, &contents); err != nil || len(contents) != 1 {
			t.Fatalf("_meta[\"modelcontext/contents\"] = %s (%v)", b, err)
		}
		var out any
		if err := json.Unmarshal([]byte(contents[0].Text), &out); err != nil {
			t.Fatalf("contents text %q: %v", contents[0].Text, err)
		}
		return out, "contents"
	}
	t.Fatalf("an update of a JSON resource for a client that follows changes carries neither a patch nor the contents: %+v", p.Meta)
	return nil, ""
}

// connectFollowing connects a client that follows changes to the relay r
// (stdio, or Streamable HTTP when r printed a URL).
func connectFollowing(t *testing.T, r *relayRun, name string) (*mcp.ClientSession, *following) {
	t.Helper()
	c, f := newFollowingClient(name)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var transport mcp.Transport = &mcp.IOTransport{Reader: r.stdout, Writer: r.stdin}
	if r.url != "" {
		transport = &mcp.StreamableClientTransport{Endpoint: r.url, MaxRetries: -1}
	}
	cs, err := c.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: legacy})
	if err != nil {
		t.Fatalf("connecting: %v\n%s", err, r.stderr)
	}
	t.Cleanup(func() { cs.Close() })
	if _, ok := cs.InitializeResult().Capabilities.Experimental["modelcontext/changes"]; !ok {
		t.Errorf("the server's capabilities %+v lack experimental[\"modelcontext/changes\"]", cs.InitializeResult().Capabilities)
	}
	return cs, f
}

// follow subscribes cs to test://follow on p's page, changes it six times,
// and checks that the updates alone rebuild it: the contents, then patches.
func follow(t *testing.T, p *page, cs *mcp.ClientSession, f *following) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "test://follow"}); err != nil {
		t.Fatal(err)
	}
	var v any
	var kinds []string
	lastRevision := -1.0
	for n := 1; n <= 6; n++ {
		p.Eval(fmt.Sprintf("followTest.set(%d)", n), nil)
		var u *mcp.ResourceUpdatedNotificationParams
		select {
		case u = <-f.updates:
		case <-ctx.Done():
			t.Fatalf("no update after change %d", n)
		}
		if u.URI != "test://follow" {
			t.Fatalf("update of %s", u.URI)
		}
		if rev, _ := u.Meta["modelcontext/revision"].(float64); rev <= lastRevision {
			t.Errorf("update %d: revision %v after %v", n, u.Meta["modelcontext/revision"], lastRevision)
		} else {
			lastRevision = rev
		}
		var kind string
		v, kind = f.apply(t, v, u)
		kinds = append(kinds, kind)
		var page string
		p.Eval(`followTest.json()`, &page)
		var want any
		json.Unmarshal([]byte(page), &want)
		got, _ := json.Marshal(v)
		wantJSON, _ := json.Marshal(want)
		if string(got) != string(wantJSON) {
			t.Fatalf("after change %d the client has %s, the page %s", n, got, wantJSON)
		}
	}
	if fmt.Sprint(kinds) != "[contents patch patch patch patch patch]" {
		t.Errorf("updates carried %v, want the contents, then patches", kinds)
	}
}

func TestFollowByPatchesThroughTheRelay(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			p := openPage(t, "")
			p.Eval(followPage, nil)
			r := startRelay(t, append(p.attachArgs(), tr.args...)...)
			cs, f := connectFollowing(t, r, "follow-"+tr.name)
			follow(t, p, cs, f)
		})
	}
}

// The same through the browser extension and its native host, over stdio.
func TestFollowByPatchesThroughTheExtension(t *testing.T) {
	b := newExtBrowser(t)
	pop := b.popup()
	waitPopup(pop, `!document.getElementById("no-sites").hidden`)
	allowSite(pop, b.page("/blank.html?test="+url.QueryEscape(t.Name())))
	p := b.page("/relay.html?test=" + url.QueryEscape(t.Name()))
	waitPopup(pop, listed(p.url))
	p.Eval(followPage, nil)
	expose(pop, p.url)
	r := startRelay(t, "--extension", "--config-dir", b.cfg)
	cs, f := connectFollowing(t, r, "follow-extension")
	follow(t, p, cs, f)
}
