package serve

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/andybalholm/brotli"
)

var (
	wasmBytes = "\x00asm\x01\x00\x00\x00" + strings.Repeat("\x00\x01\x02\x03", 2048)
	jsText    = "/* loader */" + strings.Repeat(" void 0;", 400)
	pageText  = "<!doctype html><title>shop</title>" + strings.Repeat("<p>shop</p>", 100)
)

func site() fstest.MapFS {
	return fstest.MapFS{
		"index.html":                   {Data: []byte(pageText)},
		"styles.css":                   {Data: []byte("body{margin:0}" + strings.Repeat(" p{margin:0}", 50))},
		"static/modelcontext.js":       {Data: []byte(jsText)},
		"static/modelcontext.mjs":      {Data: []byte("export {};" + jsText)},
		"static/modelcontext.wasm":     {Data: []byte(wasmBytes)},
		"static/app.3f9a2b1c.wasm":     {Data: []byte(wasmBytes)},
		"static/app.0a1b2c3d4e5f.js":   {Data: []byte(jsText)},
		"static/app.3f9a2b1.js":        {Data: []byte(jsText)}, // 7 hex digits: not a hash
		"static/tiny.js":               {Data: []byte("x()")},  // compression would not make it smaller
		"static/logo.png":              {Data: []byte("\x89PNG\r\n\x1a\n" + strings.Repeat("\x00", 500))},
		"static/data.json":             {Data: []byte(`{"a":` + strings.Repeat(`[1,2,3],`, 100) + `0}`)},
		"static/unknown.zzz":           {Data: []byte("<html><script>alert(1)</script>")},
		"docs/index.html":              {Data: []byte(pageText)},
		"docs/guide/notes.txt":         {Data: []byte("notes")},
		"static/nested/deep/mod.wasm":  {Data: []byte(wasmBytes)},
		"static/module.3f9a2b1c.mjs":   {Data: []byte(jsText)},
		"static/modelcontext.wasm.map": {Data: []byte(`{"version":3}`)},
	}
}

func newHandler(t *testing.T, opt *Options) *Handler {
	t.Helper()
	h, err := New(site(), opt)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func do(h http.Handler, method, target string, header ...string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, target, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// body undoes the response's Content-Encoding.
func body(t *testing.T, rec *httptest.ResponseRecorder) string {
	t.Helper()
	var r io.Reader
	switch enc := rec.Header().Get("Content-Encoding"); enc {
	case "":
		return rec.Body.String()
	case "br":
		r = brotli.NewReader(bytes.NewReader(rec.Body.Bytes()))
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(rec.Body.Bytes()))
		if err != nil {
			t.Fatalf("gzip: %v", err)
		}
		r = zr
	default:
		t.Fatalf("Content-Encoding %q", enc)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("decoding %s: %v", rec.Header().Get("Content-Encoding"), err)
	}
	return string(b)
}

func TestTypesEncodingsAndCaching(t *testing.T) {
	for _, lazy := range []bool{false, true} {
		h := newHandler(t, &Options{Fallback: "index.html", Lazy: lazy})
		const all = "gzip, deflate, br, zstd"
		tests := []struct {
			target, accept string
			code           int
			ctype, enc     string
			cache          string
			want           string // the decoded body, or its prefix for 404s
		}{
			{"/static/modelcontext.wasm", all, 200, "application/wasm", "br", CacheRevalidate, wasmBytes},
			{"/static/modelcontext.wasm", "gzip", 200, "application/wasm", "gzip", CacheRevalidate, wasmBytes},
			{"/static/modelcontext.wasm", "", 200, "application/wasm", "", CacheRevalidate, wasmBytes},
			{"/static/modelcontext.wasm", "identity", 200, "application/wasm", "", CacheRevalidate, wasmBytes},
			{"/static/modelcontext.wasm", "br;q=0, gzip", 200, "application/wasm", "gzip", CacheRevalidate, wasmBytes},
			{"/static/modelcontext.wasm", "*", 200, "application/wasm", "br", CacheRevalidate, wasmBytes},
			{"/static/modelcontext.wasm", "gzip;q=1, br;q=0.5", 200, "application/wasm", "gzip", CacheRevalidate, wasmBytes},
			{"/static/modelcontext.js", all, 200, "text/javascript; charset=utf-8", "br", CacheRevalidate, jsText},
			{"/static/modelcontext.mjs", "gzip", 200, "text/javascript; charset=utf-8", "gzip", CacheRevalidate, "export {};" + jsText},
			{"/static/app.3f9a2b1c.wasm", all, 200, "application/wasm", "br", CacheImmutable, wasmBytes},
			{"/static/app.0a1b2c3d4e5f.js", all, 200, "text/javascript; charset=utf-8", "br", CacheImmutable, jsText},
			{"/static/module.3f9a2b1c.mjs", all, 200, "text/javascript; charset=utf-8", "br", CacheImmutable, jsText},
			{"/static/app.3f9a2b1.js", all, 200, "text/javascript; charset=utf-8", "br", CacheRevalidate, jsText},
			{"/static/tiny.js", all, 200, "text/javascript; charset=utf-8", "", CacheRevalidate, "x()"},
			{"/static/logo.png", all, 200, "image/png", "", CacheRevalidate, "\x89PNG"},
			{"/static/data.json", all, 200, "application/json", "br", CacheRevalidate, `{"a":`},
			{"/static/modelcontext.wasm.map", "", 200, "application/json", "", CacheRevalidate, `{"version":3}`},
			{"/static/unknown.zzz", all, 200, "application/octet-stream", "", CacheRevalidate, "<html>"},
			{"/styles.css", all, 200, "text/css; charset=utf-8", "br", CacheRevalidate, "body{margin:0}"},
			{"/", all, 200, "text/html; charset=utf-8", "br", CacheRevalidate, pageText},
			{"/index.html", "", 200, "text/html; charset=utf-8", "", CacheRevalidate, pageText},
			{"/cart", all, 200, "text/html; charset=utf-8", "br", CacheRevalidate, pageText},
			{"/order/FH-1042", "", 200, "text/html; charset=utf-8", "", CacheRevalidate, pageText},
			{"/docs/", "", 200, "text/html; charset=utf-8", "", CacheRevalidate, pageText},
			{"/docs/guide/notes.txt", "", 200, "text/plain; charset=utf-8", "", CacheRevalidate, "notes"},
			{"/static/nested/deep/mod.wasm", "gzip", 200, "application/wasm", "gzip", CacheRevalidate, wasmBytes},
			{"/missing.js", all, 404, "text/plain; charset=utf-8", "", "no-store", "modelcontext: /missing.js: no such file"},
			{"/static/nope.wasm", "", 404, "text/plain; charset=utf-8", "", "no-store", "modelcontext: /static/nope.wasm: no such file"},
			{"/../static/modelcontext.js", "", 200, "text/javascript; charset=utf-8", "", CacheRevalidate, jsText},
		}
		for _, tt := range tests {
			rec := do(h, http.MethodGet, tt.target, "Accept-Encoding", tt.accept)
			where := tt.target + " (Accept-Encoding: " + tt.accept + ")"
			if lazy {
				where += " (lazy)"
			}
			hdr := rec.Header()
			if rec.Code != tt.code {
				t.Errorf("GET %s: status %d, want %d", where, rec.Code, tt.code)
				continue
			}
			if got := hdr.Get("Content-Type"); got != tt.ctype {
				t.Errorf("GET %s: Content-Type %q, want %q", where, got, tt.ctype)
			}
			if got := hdr.Get("Content-Encoding"); got != tt.enc {
				t.Errorf("GET %s: Content-Encoding %q, want %q", where, got, tt.enc)
			}
			if got := hdr.Get("Cache-Control"); got != tt.cache {
				t.Errorf("GET %s: Cache-Control %q, want %q", where, got, tt.cache)
			}
			if got := hdr.Get("X-Content-Type-Options"); got != "nosniff" {
				t.Errorf("GET %s: X-Content-Type-Options %q, want nosniff", where, got)
			}
			if got := hdr.Get("Content-Security-Policy"); got != DefaultCSP {
				t.Errorf("GET %s: Content-Security-Policy %q, want DefaultCSP", where, got)
			}
			got := body(t, rec)
			if (tt.code == 200 && tt.want == wasmBytes && got != tt.want) || !strings.HasPrefix(got, tt.want) {
				t.Errorf("GET %s: body %.40q, want %.40q", where, got, tt.want)
			}
			if tt.code != 200 {
				if hdr.Get("ETag") != "" {
					t.Errorf("GET %s: a %d carries ETag %q", where, tt.code, hdr.Get("ETag"))
				}
				continue
			}
			etag := hdr.Get("ETag")
			if !strings.HasPrefix(etag, `"`) || !strings.HasSuffix(etag, `"`) || len(etag) < 34 {
				t.Errorf("GET %s: ETag %q, want a strong ETag", where, etag)
			}
			compressible := Compressible(tt.ctype) && len(got) >= 64 // smaller files gain nothing
			if vary := hdr.Get("Vary"); (vary == "Accept-Encoding") != compressible {
				t.Errorf("GET %s: Vary %q (compressible: %v)", where, vary, compressible)
			}
			if tt.enc != "" && rec.Body.Len() >= len(got) {
				t.Errorf("GET %s: %d bytes sent for %d, not smaller", where, rec.Body.Len(), len(got))
			}
			if hdr.Get("Content-Length") != "" && hdr.Get("Content-Length") != strconv.Itoa(rec.Body.Len()) {
				t.Errorf("GET %s: Content-Length %s for %d bytes", where, hdr.Get("Content-Length"), rec.Body.Len())
			}
		}
	}
}

// TestConditional: each encoding has its own strong ETag; If-None-Match with
// it is a 304 without a body (keeping ETag, Vary and Cache-Control), with a
// stale or another encoding's ETag a full 200.
func TestConditional(t *testing.T) {
	h := newHandler(t, nil)
	const target = "/static/modelcontext.wasm"
	tags := map[string]string{}
	for _, accept := range []string{"br", "gzip", ""} {
		rec := do(h, http.MethodGet, target, "Accept-Encoding", accept)
		tags[accept] = rec.Header().Get("ETag")
	}
	if tags["br"] == tags["gzip"] || tags["br"] == tags[""] || tags["gzip"] == tags[""] {
		t.Fatalf("ETags per encoding are not distinct: %q", tags)
	}
	for accept, tag := range tags {
		rec := do(h, http.MethodGet, target, "Accept-Encoding", accept, "If-None-Match", tag)
		if rec.Code != http.StatusNotModified || rec.Body.Len() != 0 {
			t.Errorf("If-None-Match %s (Accept-Encoding %q): status %d with %d bytes, want 304 and none", tag, accept, rec.Code, rec.Body.Len())
		}
		for _, k := range []string{"ETag", "Cache-Control", "Vary"} {
			if rec.Header().Get(k) == "" {
				t.Errorf("304 for %q: no %s", accept, k)
			}
		}
		if rec.Header().Get("Content-Encoding") != "" || rec.Header().Get("Content-Length") != "" {
			t.Errorf("304 for %q: Content-Encoding %q, Content-Length %q", accept, rec.Header().Get("Content-Encoding"), rec.Header().Get("Content-Length"))
		}
		// A list of tags, and the weak form of the same tag, also match.
		for _, inm := range []string{`"stale", ` + tag, "W/" + tag, "*"} {
			if rec := do(h, http.MethodGet, target, "Accept-Encoding", accept, "If-None-Match", inm); rec.Code != http.StatusNotModified {
				t.Errorf("If-None-Match %s: status %d, want 304", inm, rec.Code)
			}
		}
	}
	if rec := do(h, http.MethodGet, target, "Accept-Encoding", "br", "If-None-Match", tags["gzip"]); rec.Code != 200 || rec.Header().Get("Content-Encoding") != "br" {
		t.Errorf("br request with the gzip copy's ETag: status %d, encoding %q; want 200 br", rec.Code, rec.Header().Get("Content-Encoding"))
	}
	if rec := do(h, http.MethodGet, target, "If-None-Match", `"0123"`); rec.Code != 200 || body(t, rec) != wasmBytes {
		t.Errorf("stale ETag: status %d, want 200 with the file", rec.Code)
	}
	// The same bytes under another name have the same ETag; other bytes not.
	a := do(h, http.MethodGet, "/static/modelcontext.wasm").Header().Get("ETag")
	b := do(h, http.MethodGet, "/static/app.3f9a2b1c.wasm").Header().Get("ETag")
	c := do(h, http.MethodGet, "/static/modelcontext.js").Header().Get("ETag")
	if a != b || a == c {
		t.Errorf("ETags: same bytes %q / %q, other bytes %q", a, b, c)
	}
}

func TestMethodsHeadAndRange(t *testing.T) {
	h := newHandler(t, nil)
	head := do(h, http.MethodHead, "/static/modelcontext.wasm", "Accept-Encoding", "br")
	if head.Code != 200 || head.Body.Len() != 0 || head.Header().Get("Content-Type") != "application/wasm" || head.Header().Get("ETag") == "" {
		t.Errorf("HEAD: status %d, %d body bytes, type %q, ETag %q", head.Code, head.Body.Len(), head.Header().Get("Content-Type"), head.Header().Get("ETag"))
	}
	for _, m := range []string{http.MethodPost, http.MethodPut, http.MethodDelete, "PATCH", http.MethodOptions} {
		rec := do(h, m, "/static/modelcontext.js")
		if rec.Code != http.StatusMethodNotAllowed || rec.Header().Get("Allow") != "GET, HEAD" || !strings.HasPrefix(rec.Body.String(), "modelcontext: "+m+" /static/modelcontext.js") {
			t.Errorf("%s: status %d, Allow %q, body %q", m, rec.Code, rec.Header().Get("Allow"), rec.Body.String())
		}
	}
	rng := do(h, http.MethodGet, "/static/modelcontext.wasm", "Range", "bytes=0-3")
	if rng.Code != http.StatusPartialContent || rng.Body.String() != "\x00asm" {
		t.Errorf("Range bytes=0-3: status %d, body %q", rng.Code, rng.Body.String())
	}
}

func TestNoFallback(t *testing.T) {
	h := newHandler(t, nil)
	for _, target := range []string{"/cart", "/static/", "/static", "/nope/"} {
		if rec := do(h, http.MethodGet, target); rec.Code != http.StatusNotFound {
			t.Errorf("GET %s without a fallback: status %d, want 404", target, rec.Code)
		}
	}
	if rec := do(h, http.MethodGet, "/"); rec.Code != 200 {
		t.Errorf("GET /: status %d; index.html is the folder's page even without a fallback", rec.Code)
	}
}

func TestOptions(t *testing.T) {
	const csp = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval' https://cdn.example"
	h := newHandler(t, &Options{Compression: Uncompressed, ContentSecurityPolicy: csp})
	rec := do(h, http.MethodGet, "/static/modelcontext.wasm", "Accept-Encoding", "gzip, br")
	if rec.Header().Get("Content-Encoding") != "" || rec.Header().Get("Vary") != "" || rec.Body.String() != wasmBytes {
		t.Errorf("Uncompressed: Content-Encoding %q, Vary %q, %d bytes", rec.Header().Get("Content-Encoding"), rec.Header().Get("Vary"), rec.Body.Len())
	}
	if rec.Header().Get("Content-Security-Policy") != csp {
		t.Errorf("CSP %q, want %q", rec.Header().Get("Content-Security-Policy"), csp)
	}

	for _, tc := range []struct {
		opt  Options
		want string
	}{
		{Options{Fallback: "app.html"}, `modelcontext: serve: Options.Fallback "app.html" is not a file of the folder served`},
		{Options{Compression: 7}, "modelcontext: serve: Options.Compression 7 is not Precompressed or Uncompressed"},
	} {
		if _, err := New(site(), &tc.opt); err == nil || err.Error() != tc.want {
			t.Errorf("New(%+v): %v, want %q", tc.opt, err, tc.want)
		}
	}
}

// TestUnreadable: a file that cannot be read fails New, or (Lazy) its own
// requests with a 500 that names it, and nothing else.
func TestUnreadable(t *testing.T) {
	fsys := brokenFS{site()}
	if _, err := New(fsys, nil); err == nil || !strings.HasPrefix(err.Error(), "modelcontext: serve: reading static/modelcontext.wasm: ") {
		t.Errorf("New over an unreadable file: %v", err)
	}
	h, err := New(fsys, &Options{Lazy: true})
	if err != nil {
		t.Fatal(err)
	}
	rec := do(h, http.MethodGet, "/static/modelcontext.wasm")
	if rec.Code != 500 || !strings.HasPrefix(rec.Body.String(), "modelcontext: serve: reading static/modelcontext.wasm: ") {
		t.Errorf("lazy, unreadable file: status %d, body %q", rec.Code, rec.Body.String())
	}
	if rec := do(h, http.MethodGet, "/static/modelcontext.js"); rec.Code != 200 {
		t.Errorf("lazy, another file: status %d", rec.Code)
	}
}

// brokenFS is a MapFS whose static/modelcontext.wasm fails to read.
type brokenFS struct{ m fstest.MapFS }

func (b brokenFS) Open(name string) (fs.File, error) {
	f, err := b.m.Open(name)
	if err != nil || name != "static/modelcontext.wasm" {
		return f, err
	}
	return brokenFile{f}, nil
}

type brokenFile struct{ fs.File }

func (brokenFile) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

// TestConcurrentLazy: many first requests at once load each file once and
// all get the same bytes (run with -race).
func TestConcurrentLazy(t *testing.T) {
	h := newHandler(t, &Options{Lazy: true})
	var wg sync.WaitGroup
	tags := make([]string, 32)
	for i := range tags {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rec := do(h, http.MethodGet, "/static/modelcontext.wasm", "Accept-Encoding", "br")
			if rec.Code == 200 {
				tags[i] = rec.Header().Get("ETag")
			}
		}()
	}
	wg.Wait()
	for _, tag := range tags {
		if tag == "" || tag != tags[0] {
			t.Fatalf("concurrent first requests: ETags %q", tags)
		}
	}
}

func TestHashed(t *testing.T) {
	for name, want := range map[string]bool{
		"modelcontext.3f9a2b1c.wasm":           true,
		"static/modelcontext.3F9A2B1C.js":      true,
		"app.0a1b2c3d4e5f6a7b.min.js":          true,
		"chunk.deadbeef.mjs":                   true,
		"modelcontext.wasm":                    false,
		"modelcontext.3f9a2b1.wasm":            false, // 7 digits
		"modelcontext.3f9a2b1g.wasm":           false, // not hex
		"3f9a2b1c.wasm":                        false, // no name before the hash
		"deadbeef12/modelcontext.wasm":         false, // a hashed folder is not a hashed file
		"modelcontext-3f9a2b1c.wasm":           false, // the convention is a dot
		"modelcontext.3f9a2b1c":                false, // no extension after the hash
		"static/v1/modelcontext.0123456789.js": true,
	} {
		if got := Hashed(name); got != want {
			t.Errorf("Hashed(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestNegotiate(t *testing.T) {
	for _, tc := range []struct {
		header        string
		haveBr, haveG bool
		want          string
	}{
		{"", true, true, ""},
		{"gzip", true, true, "gzip"},
		{"GZIP", true, true, "gzip"},
		{"x-gzip", true, true, "gzip"},
		{"br", true, true, "br"},
		{"gzip, deflate, br, zstd", true, true, "br"},
		{"gzip, br", false, true, "gzip"},
		{"br", false, true, ""},
		{"gzip", true, false, ""},
		{"gzip;q=0", true, true, ""},
		{"gzip; q=0.0, br;q=0", true, true, ""},
		{"gzip;q=0.5", true, true, "gzip"},
		{"gzip;q=1, br;q=0.5", true, true, "gzip"},
		{"gzip;q=0.5, br;q=0.5", true, true, "br"},
		{"*", true, true, "br"},
		{"*;q=0", true, true, ""},
		{"*, br;q=0", true, true, "gzip"},
		{"identity", true, true, ""},
		{"deflate", true, true, ""},
		{"br;q=abc, gzip", true, true, "gzip"},
		{"br;q=2", true, true, ""},
		{" , ,br", true, true, "br"},
	} {
		if got := Negotiate(tc.header, tc.haveBr, tc.haveG); got != tc.want {
			t.Errorf("Negotiate(%q, br %v, gzip %v) = %q, want %q", tc.header, tc.haveBr, tc.haveG, got, tc.want)
		}
	}
}

func TestContentType(t *testing.T) {
	for name, want := range map[string]string{
		"a.wasm":  "application/wasm",
		"a.WASM":  "application/wasm",
		"a.js":    "text/javascript; charset=utf-8",
		"a.mjs":   "text/javascript; charset=utf-8",
		"a.html":  "text/html; charset=utf-8",
		"a.css":   "text/css; charset=utf-8",
		"a.json":  "application/json",
		"a.svg":   "image/svg+xml",
		"a.woff2": "font/woff2",
		"a":       "application/octet-stream",
		"a.zzz":   "application/octet-stream",
	} {
		if got := ContentType(name); got != want {
			t.Errorf("ContentType(%q) = %q, want %q", name, got, want)
		}
	}
}
