package demosite

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/andybalholm/brotli"

	"github.com/modelcontext-go/modelcontext/wasm/serve"
)

// TestPageNonce: the demo page gets a fresh nonce in each response, in the
// markup and in the policy's script-src, and is never cached; a page
// without the placeholder, and every other file, is served as before.
func TestPageNonce(t *testing.T) {
	h := nonceSite(t, serve.Options{})
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
		if len(found) != 2 || found[0][1] != found[1][1] || strings.Contains(body, NoncePlaceholder) {
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

// TestPageNonceUncompressed: for a platform that compresses itself (the
// Worker), the page with its nonce is sent as plain bytes whatever the
// request accepts.
func TestPageNonceUncompressed(t *testing.T) {
	h := nonceSite(t, serve.Options{Compression: serve.Uncompressed})
	rec := get(t, h, http.MethodGet, "/cart", map[string]string{"Accept-Encoding": "br, gzip"})
	body := rec.Body.String()
	if rec.Code != 200 || rec.Header().Get("Content-Encoding") != "" || strings.Contains(body, NoncePlaceholder) || !strings.Contains(body, `nonce="`) {
		t.Fatalf("GET /cart: status %d, encoding %q, body %q; want 200, plain bytes, a nonce in place of the placeholder", rec.Code, rec.Header().Get("Content-Encoding"), abbrev(body))
	}
	if !strings.Contains(rec.Header().Get("Content-Security-Policy"), "'nonce-") || rec.Header().Get("Cache-Control") != "no-store" {
		t.Errorf("GET /cart: policy %q, Cache-Control %q; want the nonce in script-src, no-store", rec.Header().Get("Content-Security-Policy"), rec.Header().Get("Cache-Control"))
	}
}

// nonceSite is the demo's handler over a page with the placeholder twice
// (index.html), one without it (plain.html) and the module's files.
func nonceSite(t *testing.T, opt serve.Options) http.Handler {
	t.Helper()
	page := `<!doctype html><script nonce="{{nonce}}" src="/static/modelcontext.js" data-declarative="main"></script>` +
		`<main><p nonce="{{nonce}}" data-resource="shop://notice" data-name="notice">hi</p></main>` + strings.Repeat("<p>shop</p>", 100)
	demo := fstest.MapFS{
		"index.html": {Data: []byte(page)},
		"plain.html": {Data: []byte("<!doctype html><p>no nonce here</p>")},
	}
	dist := fstest.MapFS{"modelcontext.js": {Data: []byte("/* loader */" + strings.Repeat(" void 0;", 200))}}
	h, err := Handler(demo, dist, nil, opt)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func get(t *testing.T, h http.Handler, method, target string, header map[string]string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, target, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// decode undoes a response's Content-Encoding.
func decode(t *testing.T, rec *httptest.ResponseRecorder) string {
	t.Helper()
	var r io.Reader = bytes.NewReader(rec.Body.Bytes())
	switch enc := rec.Header().Get("Content-Encoding"); enc {
	case "":
		return rec.Body.String()
	case "gzip":
		zr, err := gzip.NewReader(r)
		if err != nil {
			t.Fatalf("body is not gzip: %v", err)
		}
		r = zr
	case "br":
		r = brotli.NewReader(r)
	default:
		t.Fatalf("unexpected Content-Encoding %q", enc)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("body is not %s: %v", rec.Header().Get("Content-Encoding"), err)
	}
	return string(out)
}

func abbrev(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}
