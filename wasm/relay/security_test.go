package relay

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}`

// post sends body to u with headers (Host is set as the request's host),
// and returns the status and the body.
func post(t *testing.T, method, u, body string, headers map[string]string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest(method, u, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range headers {
		if k == "Host" {
			req.Host = v
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

// TestHTTPRefusals: only requests that hold the secret (in the path or as a
// bearer token), name the relay's own loopback Host, and come from no web
// page or an allowed one are answered.
func TestHTTPRefusals(t *testing.T) {
	p := openPage(t, "")
	r := startRelay(t, append(p.attachArgs(), "--http", "127.0.0.1:0", "--allow-origin", "http://allowed.example")...)
	u, err := url.Parse(r.url)
	if err != nil {
		t.Fatal(err)
	}
	secret := strings.TrimPrefix(u.Path, "/mcp/")
	base := u.Scheme + "://" + u.Host + "/mcp"
	for _, tc := range []struct {
		name    string
		method  string
		url     string
		headers map[string]string
		status  int
		message string // in the body
	}{
		{"the printed URL", "POST", r.url, nil, 200, `"protocolVersion":"2025-11-25"`},
		{"a bearer token", "POST", base, map[string]string{"Authorization": "Bearer " + secret}, 200, `"protocolVersion"`},
		{"localhost as the Host", "POST", r.url, map[string]string{"Host": "localhost:" + u.Port()}, 200, `"protocolVersion"`},
		{"the relay's own origin", "POST", r.url, map[string]string{"Origin": "http://127.0.0.1:" + u.Port()}, 200, `"protocolVersion"`},
		{"an origin allowed with --allow-origin", "POST", r.url, map[string]string{"Origin": "http://allowed.example"}, 200, `"protocolVersion"`},
		{"no secret", "POST", base, nil, 401, "modelcontext: missing or wrong secret"},
		{"a wrong secret in the path", "POST", base + "/" + strings.Repeat("0", len(secret)), nil, 401, "modelcontext: missing or wrong secret"},
		{"a wrong bearer token", "POST", base, map[string]string{"Authorization": "Bearer nope"}, 401, "modelcontext: missing or wrong secret"},
		{"another path", "POST", u.Scheme + "://" + u.Host + "/", nil, 404, "modelcontext: not found"},
		{"a foreign Host (DNS rebinding)", "POST", r.url, map[string]string{"Host": "evil.example.com"}, 403, `modelcontext: the Host \"evil.example.com\" is not allowed`},
		{"a foreign Host with the right port", "POST", r.url, map[string]string{"Host": "evil.example.com:" + u.Port()}, 403, "is not allowed"},
		{"a web page's origin", "POST", r.url, map[string]string{"Origin": "http://evil.example.com"}, 403, `modelcontext: the Origin \"http://evil.example.com\" is not allowed; start the relay with --allow-origin`},
		{"a null origin", "POST", r.url, map[string]string{"Origin": "null"}, 403, "is not allowed"},
		{"an unknown session", "POST", r.url, map[string]string{"Mcp-Session-Id": "nope"}, 404, "modelcontext: unknown or expired session"},
		{"a GET without a session", "GET", r.url, nil, 405, "modelcontext: GET needs an Mcp-Session-Id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := initBody
			if tc.method == "GET" {
				body = ""
			}
			status, _, got := post(t, tc.method, tc.url, body, tc.headers)
			if status != tc.status || !strings.Contains(got, tc.message) {
				t.Errorf("%d %s\nwant %d and %s", status, got, tc.status, tc.message)
			}
		})
	}
	t.Run("not JSON", func(t *testing.T) {
		status, _, got := post(t, "POST", r.url, "{", nil)
		if status != 400 || !strings.Contains(got, `"code":-32700`) {
			t.Errorf("%d %s", status, got)
		}
	})
	t.Run("DELETE ends a session", func(t *testing.T) {
		status, h, _ := post(t, "POST", r.url, initBody, nil)
		sid := h.Get("Mcp-Session-Id")
		if status != 200 || sid == "" {
			t.Fatalf("initialize: %d, session %q", status, sid)
		}
		if status, _, got := post(t, "DELETE", r.url, "", map[string]string{"Mcp-Session-Id": sid}); status != 204 {
			t.Errorf("DELETE: %d %s", status, got)
		}
		ping := `{"jsonrpc":"2.0","id":2,"method":"ping"}`
		if status, _, got := post(t, "POST", r.url, ping, map[string]string{"Mcp-Session-Id": sid}); status != 404 || !strings.Contains(got, "initialize again") {
			t.Errorf("after DELETE: %d %s", status, got)
		}
	})
}

// TestHTTPSessionsEnd: at --max-sessions, a new client's session ends the
// one unused the longest, in the page too; clients that close end theirs.
func TestHTTPSessionsEnd(t *testing.T) {
	p := openPage(t, "")
	r := startRelay(t, append(p.attachArgs(), "--http", "127.0.0.1:0", "--max-sessions", "2")...)
	one := connectHTTP(t, r, legacy)
	two := connectHTTP(t, r, legacy)
	if _, err := one.ListResources(one.ctx(), nil); err != nil { // one is now used more recently than two
		t.Fatal(err)
	}
	three := connectHTTP(t, r, legacy)
	if _, err := two.ListResources(two.ctx(), nil); err == nil {
		t.Error("the session unused the longest still answers")
	}
	for _, c := range []*client{one, three} {
		if _, err := c.ListResources(c.ctx(), nil); err != nil {
			t.Errorf("a recent session: %v", err)
		}
	}
	var sessions int
	p.Eval(`relayTest.sessions()`, &sessions)
	if sessions != 2 {
		t.Errorf("the page holds %d sessions, want 2", sessions)
	}
	one.Close()
	three.Close()
	p.Eval(`(async () => { while (relayTest.sessions() !== 0) await new Promise((r) => setTimeout(r, 10)); return 0; })()`, &sessions)
}
