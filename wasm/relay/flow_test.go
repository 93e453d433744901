package relay

import (
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// transports are the relay's two, with how a Go SDK client connects to each.
var transports = []struct {
	name    string
	args    []string
	connect func(testing.TB, *relayRun, string) *client
}{
	{"stdio", nil, connectStdio},
	{"http", []string{"--http", "127.0.0.1:0"}, connectHTTP},
}

// TestClient drives the relay with the Go SDK's client over both transports
// and both revisions: list, templates, read (text, JSON, binary, template),
// errors, subscribe → update → unsubscribe → silence, and a page reload.
func TestClient(t *testing.T) {
	for _, tr := range transports {
		for _, version := range []string{legacy, modern} {
			t.Run(tr.name+"/"+version, func(t *testing.T) {
				p := openPage(t, "")
				r := startRelay(t, append(p.attachArgs(), tr.args...)...)
				c := tr.connect(t, r, version)
				if got := c.InitializeResult().ProtocolVersion; got != version {
					t.Errorf("negotiated %s, want %s", got, version)
				}
				checkReads(t, c)
				subscriptions(t, p, c, version)
				reload(t, p, c, version)
			})
		}
	}
}

func checkReads(t *testing.T, c *client) {
	uris := c.uris()
	if want := "test://static-text test://static-binary test://watched-resource test://a test://b test://never"; strings.Join(uris, " ") != want {
		t.Errorf("resources/list: %v, want %s", uris, want)
	}
	tpl, err := c.ListResourceTemplates(c.ctx(), nil)
	if err != nil || len(tpl.ResourceTemplates) != 1 || tpl.ResourceTemplates[0].URITemplate != "test://template/{id}/data" {
		t.Errorf("resources/templates/list: %+v, %v", tpl, err)
	}
	if got := c.read("test://static-text"); got != "This is the content of the static text resource." {
		t.Errorf("static-text: %q", got)
	}
	if got := c.read("test://template/123/data"); got != `{"id":"123","templateTest":true,"data":"Data for ID: 123"}` {
		t.Errorf("template: %q", got)
	}
	bin, err := c.ReadResource(c.ctx(), &mcp.ReadResourceParams{URI: "test://static-binary"})
	if err != nil || len(bin.Contents) != 1 || string(bin.Contents[0].Blob) != "\x89PNG\r\n\x1a\n" || bin.Contents[0].MIMEType != "image/png" {
		t.Errorf("static-binary: %+v, %v", bin, err)
	}
	_, err = c.ReadResource(c.ctx(), &mcp.ReadResourceParams{URI: "test://nope"})
	if err == nil || !strings.Contains(err.Error(), "test://nope") {
		t.Errorf("reading an unknown uri: %v", err)
	}
}

// isListen and friends are JavaScript predicates on payloads, for page.waitSeen.
const (
	isAck    = `(p) => p && p.method === 'notifications/subscriptions/acknowledged' && (p.params.notifications.resourceSubscriptions || []).includes(%q)`
	isUpdate = `(p) => p && p.method === 'notifications/resources/updated' && p.params.uri === %q`
	isCancel = `(p) => p && p.method === 'notifications/cancelled'`
)

// subscriptions: subscribe to a, see its update; subscribe to b; unsubscribe
// from a; move a on, then b: b's update must come first and alone (the
// sentinel), and the page must not have posted a's.
func subscriptions(t *testing.T, p *page, c *client, version string) {
	subscribe := func(uri string) {
		mark := p.mark()
		if err := c.Subscribe(c.ctx(), &mcp.SubscribeParams{URI: uri}); err != nil {
			t.Fatalf("subscribe %s: %v", uri, err)
		}
		if version == modern { // the SDK opens the listen stream and returns at once
			p.waitSeen(mark, "server-to-client", fmt.Sprintf(isAck, uri))
		}
	}
	subscribe("test://a")
	p.bump("a")
	if got := c.nextUpdate(); got != "test://a" {
		t.Fatalf("after moving a on: updated %s", got)
	}
	if got := c.read("test://a"); got != `{"a":1}` {
		t.Errorf("a after its update: %s", got)
	}
	subscribe("test://b")
	mark := p.mark()
	if err := c.Unsubscribe(c.ctx(), &mcp.UnsubscribeParams{URI: "test://a"}); err != nil {
		t.Fatal(err)
	}
	if version == modern { // the SDK ends the listen stream and returns at once
		p.waitSeen(mark, "client-to-server", isCancel)
	}
	p.bump("a")
	p.bump("b")
	if got := c.nextUpdate(); got != "test://b" {
		t.Fatalf("after unsubscribing from a, moving a then b on: updated %s first, want test://b", got)
	}
	if n := p.count(mark, "server-to-client", fmt.Sprintf(isUpdate, "test://a")); n != 0 {
		t.Errorf("the page posted %d updates of a after the unsubscription", n)
	}
}

// reload: the page reloads; the relay tells the client (updated for what
// it follows), the subscription to b keeps working, and a request the old
// page never answered gets an error.
func reload(t *testing.T, p *page, c *client, version string) {
	// A read that never settles is in flight when the page goes.
	mark := p.mark()
	failed := make(chan error, 1)
	go func() {
		_, err := c.ReadResource(c.ctx(), &mcp.ReadResourceParams{URI: "test://never"})
		failed <- err
	}()
	p.waitSeen(mark, "client-to-server", `(p) => p && p.method === 'resources/read' && p.params.uri === 'test://never'`)
	p.Navigate(p.url)
	if err := <-failed; err == nil || !strings.Contains(err.Error(), "modelcontext: the page reloaded") {
		t.Errorf("the read in flight during the reload: %v", err)
	}
	if got := c.nextUpdate(); got != "test://b" {
		t.Errorf("after the reload the client was told %s, want test://b", got)
	}
	p.bump("b")
	if got := c.nextUpdate(); got != "test://b" {
		t.Errorf("after the reload, moving b on: updated %s", got)
	}
	if got := c.read("test://b"); got != `{"b":1}` {
		t.Errorf("b in the reloaded page: %s", got)
	}
}

// TestTwoClients: two HTTP clients at once each have their own session in
// the page: their subscriptions do not mix.
func TestTwoClients(t *testing.T) {
	for _, version := range []string{legacy, modern} {
		t.Run(version, func(t *testing.T) {
			p := openPage(t, "")
			r := startRelay(t, append(p.attachArgs(), "--http", "127.0.0.1:0")...)
			one, two := connectHTTP(t, r, version), connectHTTP(t, r, version)
			for c, uri := range map[*client]string{one: "test://a", two: "test://b"} {
				mark := p.mark()
				if err := c.Subscribe(c.ctx(), &mcp.SubscribeParams{URI: uri}); err != nil {
					t.Fatal(err)
				}
				if version == modern {
					p.waitSeen(mark, "server-to-client", fmt.Sprintf(isAck, uri))
				}
			}
			// a, b, a, b: each sees its own twice and, in between, nothing else.
			for range 2 {
				p.bump("a")
				p.bump("b")
			}
			got := []string{one.nextUpdate(), one.nextUpdate(), two.nextUpdate(), two.nextUpdate()}
			if want := []string{"test://a", "test://a", "test://b", "test://b"}; strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("updates: %v, want %v", got, want)
			}
			var lanes int
			p.Eval(`new Set(relayTest.wire.filter((e) => e.payload && e.payload.method === 'notifications/resources/updated').map((e) => e.channel)).size`, &lanes)
			if lanes != 2 {
				t.Errorf("the updates went out on %d sub-channels, want 2", lanes)
			}
		})
	}
}
