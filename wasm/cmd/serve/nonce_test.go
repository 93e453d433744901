package main

import (
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/serve"
)

// TestPageNonce: the demo page gets a fresh nonce in each response, in the
// markup and in the policy's script-src, and is never cached; a page
// without the placeholder, and every other file, is served as before.
func TestPageNonce(t *testing.T) {
	demoDir, distDir := fixture(t)
	page := `<!doctype html><script nonce="{{nonce}}" src="/static/modelcontext.js" data-declarative="main"></script>` +
		`<main><p nonce="{{nonce}}" data-resource="shop://notice" data-name="notice">hi</p></main>` + strings.Repeat("<p>shop</p>", 100)
	if err := os.WriteFile(filepath.Join(demoDir, "index.html"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(demoDir, "plain.html"), []byte("<!doctype html><p>no nonce here</p>"), 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := newHandler(demoDir, distDir, "")
	if err != nil {
		t.Fatal(err)
	}
	nonceAttr := regexp.MustCompile(`nonce="([A-Za-z0-9+/=]{24})"`)
	seen := map[string]bool{}
	for _, tt := range []struct{ target, encoding string }{{"/", "br"}, {"/", "gzip"}, {"/index.html", ""}, {"/cart", "gzip"}} {
		rec := get(t, h, http.MethodGet, tt.target, map[string]string{"Accept-Encoding": tt.encoding, "If-None-Match": `"anything"`})
		hdr := rec.Header()
		body := decode(t, rec)
		if rec.Code != 200 || hdr.Get("Content-Encoding") != tt.encoding || hdr.Get("Content-Type") != "text/html; charset=utf-8" {
			t.Fatalf("GET %s (%s): status %d, encoding %q, type %q", tt.target, tt.encoding, rec.Code, hdr.Get("Content-Encoding"), hdr.Get("Content-Type"))
		}
		found := nonceAttr.FindAllStringSubmatch(body, -1)
		if len(found) != 2 || found[0][1] != found[1][1] || strings.Contains(body, noncePlaceholder) {
			t.Fatalf("GET %s: nonces %q in %q, want one nonce twice and no placeholder", tt.target, found, abbrev(body))
		}
		n := found[0][1]
		if seen[n] {
			t.Errorf("GET %s: the nonce %q was sent before", tt.target, n)
		}
		seen[n] = true
		want := strings.Replace(serve.DefaultCSP, "script-src 'self' 'wasm-unsafe-eval'", "script-src 'self' 'wasm-unsafe-eval' 'nonce-"+n+"'", 1)
		if got := hdr.Get("Content-Security-Policy"); got != want {
			t.Errorf("GET %s: Content-Security-Policy %q, want %q", tt.target, got, want)
		}
		if hdr.Get("Cache-Control") != "no-store" || hdr.Get("ETag") != "" || !strings.Contains(hdr.Get("Vary"), "Accept-Encoding") || hdr.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("GET %s: Cache-Control %q, ETag %q, Vary %q, nosniff %q; want no-store, none, Accept-Encoding, nosniff",
				tt.target, hdr.Get("Cache-Control"), hdr.Get("ETag"), hdr.Get("Vary"), hdr.Get("X-Content-Type-Options"))
		}
	}
	plain := get(t, h, http.MethodGet, "/plain.html", nil)
	if plain.Header().Get("ETag") == "" || plain.Header().Get("Content-Security-Policy") != serve.DefaultCSP {
		t.Errorf("GET /plain.html: ETag %q, policy %q; want the file as wasm/serve sends it", plain.Header().Get("ETag"), plain.Header().Get("Content-Security-Policy"))
	}
	head := get(t, h, http.MethodHead, "/", nil)
	if head.Code != 200 || head.Body.Len() != 0 {
		t.Errorf("HEAD /: status %d, %d body bytes", head.Code, head.Body.Len())
	}
}
