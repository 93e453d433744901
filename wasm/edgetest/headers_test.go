package edgetest

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
	"github.com/modelcontext-go/modelcontext/wasm/internal/demosite"
	"github.com/modelcontext-go/modelcontext/wasm/serve"
)

// TestWorkerServes fetches the demo and the module through the Worker and
// checks every rule of wasm/serve as the platform passes it on (the page
// aside, which gets a nonce of its own: checkPageNonce): the bytes of
// the repository's files (a stale make edge-build fails here), their types,
// plain bytes whatever Accept-Encoding says (Workers compresses at the edge),
// strong ETags equal to the net/http handler's, 304 on If-None-Match, the
// cache policy, the Content-Security-Policy and nosniff.
func TestWorkerServes(t *testing.T) {
	base := startWorker(t)
	root := browsertest.RepoRoot()
	read := func(rel string) []byte {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	// The net/http handler over the same folders, for its ETags.
	local, err := serve.New(os.DirFS(filepath.Join(root, "dist")), nil)
	if err != nil {
		t.Fatal(err)
	}
	localTag := func(name string) string {
		rec := httptest.NewRecorder()
		local.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/"+name, nil))
		return rec.Header().Get("ETag")
	}

	checkPageNonce(t, base, read("demo/index.html"))
	tests := []struct {
		path  string
		ctype string
		want  []byte
		etag  string // the net/http handler's ETag for the same bytes, when checked
	}{
		{"styles.css", "text/css; charset=utf-8", read("demo/styles.css"), ""},
		{"shop.js", "text/javascript; charset=utf-8", read("demo/shop.js"), ""},
		{"static/modelcontext.js", "text/javascript; charset=utf-8", read("dist/modelcontext.js"), localTag("modelcontext.js")},
		{"static/modelcontext.wasm", "application/wasm", read("dist/modelcontext.wasm"), localTag("modelcontext.wasm")},
		{"vendor/mcpclient.js", "text/javascript; charset=utf-8", read("testdata/out/mcpclient.js"), ""},
	}
	for _, tt := range tests {
		url := base + tt.path
		resp, body := fetch(t, http.MethodGet, url, "Accept-Encoding", "gzip, deflate, br, zstd")
		hdr := resp.Header
		if resp.StatusCode != 200 {
			t.Errorf("GET %s: status %d: %.200s\n%s", url, resp.StatusCode, body, workerLog())
			continue
		}
		if !bytes.Equal(body, tt.want) {
			t.Errorf("GET %s: %d bytes that differ from the repository's %d: run make edge-build", url, len(body), len(tt.want))
		}
		for k, want := range map[string]string{
			"Content-Type":            tt.ctype,
			"Content-Encoding":        "",
			"Content-Length":          strconv.Itoa(len(tt.want)),
			"Cache-Control":           serve.CacheRevalidate,
			"X-Content-Type-Options":  "nosniff",
			"Content-Security-Policy": serve.DefaultCSP,
		} {
			if got := hdr.Get(k); got != want {
				t.Errorf("GET %s: %s %q, want %q", url, k, got, want)
			}
		}
		etag := hdr.Get("ETag")
		if !strings.HasPrefix(etag, `"`) || len(etag) < 34 {
			t.Errorf("GET %s: ETag %q, want a strong ETag", url, etag)
			continue
		}
		if tt.etag != "" && etag != tt.etag {
			t.Errorf("GET %s: ETag %q, the net/http handler's %q", url, etag, tt.etag)
		}

		resp, body = fetch(t, http.MethodGet, url, "If-None-Match", etag)
		if resp.StatusCode != http.StatusNotModified || len(body) != 0 || resp.Header.Get("ETag") != etag || resp.Header.Get("Cache-Control") != serve.CacheRevalidate {
			t.Errorf("GET %s with If-None-Match %s: status %d, %d body bytes, ETag %q, Cache-Control %q; want 304, none, the same ETag, no-cache",
				url, etag, resp.StatusCode, len(body), resp.Header.Get("ETag"), resp.Header.Get("Cache-Control"))
		}
		resp, body = fetch(t, http.MethodGet, url, "If-None-Match", `"stale"`)
		if resp.StatusCode != 200 || !bytes.Equal(body, tt.want) {
			t.Errorf("GET %s with a stale ETag: status %d, %d bytes; want 200 and the file", url, resp.StatusCode, len(body))
		}
	}

	resp, body := fetch(t, http.MethodHead, base+"static/modelcontext.wasm")
	if resp.StatusCode != 200 || len(body) != 0 || resp.Header.Get("Content-Type") != "application/wasm" {
		t.Errorf("HEAD the wasm: status %d, %d body bytes, type %q", resp.StatusCode, len(body), resp.Header.Get("Content-Type"))
	}
	for _, path := range []string{"missing.js", "static/nope.wasm", "vendor/mcpserver.js"} {
		resp, body := fetch(t, http.MethodGet, base+path)
		if resp.StatusCode != 404 || !strings.HasPrefix(string(body), "modelcontext: ") || resp.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("GET /%s: status %d, body %q, nosniff %q; want 404 with a modelcontext: message", path, resp.StatusCode, body, resp.Header.Get("X-Content-Type-Options"))
		}
	}
	resp, body = fetch(t, http.MethodPost, base+"static/modelcontext.js")
	if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "GET, HEAD" {
		t.Errorf("POST: status %d, Allow %q, body %q; want 405, GET, HEAD", resp.StatusCode, resp.Header.Get("Allow"), body)
	}
}

// nonceAttr is a nonce attribute as the demo's servers fill it in.
var nonceAttr = regexp.MustCompile(`nonce="([A-Za-z0-9+/=]{24})"`)

// checkPageNonce fetches the demo page at its routes through the Worker:
// each response is the page with a fresh nonce in place of every
// placeholder, named in the policy's script-src, plain bytes, never cached.
func checkPageNonce(t *testing.T, base string, page []byte) {
	t.Helper()
	seen := map[string]bool{}
	parts := bytes.Split(page, []byte(demosite.NoncePlaceholder))
	for _, path := range []string{"", "cart", "order/FH-1042"} {
		resp, body := fetch(t, http.MethodGet, base+path, "Accept-Encoding", "gzip, deflate, br, zstd")
		found := nonceAttr.FindSubmatch(body)
		if resp.StatusCode != 200 || found == nil {
			t.Errorf("GET /%s: status %d, no nonce in %.200s\n%s", path, resp.StatusCode, body, workerLog())
			continue
		}
		nonce := string(found[1])
		if want := bytes.Join(parts, found[1]); !bytes.Equal(body, want) || len(parts) < 2 {
			t.Errorf("GET /%s: %d bytes, want demo/index.html (%d placeholders) with the nonce %s in each placeholder's place", path, len(body), len(parts)-1, nonce)
		}
		if seen[nonce] {
			t.Errorf("GET /%s: the nonce %s was sent before", path, nonce)
		}
		seen[nonce] = true
		csp := strings.Replace(serve.DefaultCSP, "script-src 'self' 'wasm-unsafe-eval'", "script-src 'self' 'wasm-unsafe-eval' 'nonce-"+nonce+"'", 1)
		for k, want := range map[string]string{
			"Content-Type":            "text/html; charset=utf-8",
			"Content-Encoding":        "",
			"Cache-Control":           "no-store",
			"ETag":                    "",
			"X-Content-Type-Options":  "nosniff",
			"Content-Security-Policy": csp,
		} {
			if got := resp.Header.Get(k); got != want {
				t.Errorf("GET /%s: %s %q, want %q", path, k, got, want)
			}
		}
	}
}

// TestWorkerConcurrent sends overlapping requests for different files to the
// one Go program that serves them all in the Worker's isolate: each must get
// its own file whole, and workerd must report nothing (such as I/O done on
// behalf of another request).
func TestWorkerConcurrent(t *testing.T) {
	base := startWorker(t)
	root := browsertest.RepoRoot()
	files := map[string]string{
		"static/modelcontext.wasm": "dist/modelcontext.wasm",
		"static/modelcontext.js":   "dist/modelcontext.js",
		"":                         "demo/index.html",
		"shop.js":                  "demo/shop.js",
		"vendor/mcpclient.js":      "testdata/out/mcpclient.js",
	}
	want := map[string][]byte{}
	for path, file := range files {
		b, err := os.ReadFile(filepath.Join(root, file))
		if err != nil {
			t.Fatal(err)
		}
		want[path] = b
	}
	logBefore := workerLog()
	type result struct {
		path string
		code int
		body []byte
		err  error
	}
	client := &http.Client{Timeout: 90 * time.Second, Transport: &http.Transport{DisableCompression: true}}
	results := make(chan result)
	const rounds = 4
	for i := 0; i < rounds; i++ {
		for path := range files {
			go func() {
				resp, err := client.Get(base + path)
				if err != nil {
					results <- result{path: path, err: err}
					return
				}
				defer resp.Body.Close()
				body, err := io.ReadAll(resp.Body)
				results <- result{path, resp.StatusCode, body, err}
			}()
		}
	}
	for i := 0; i < rounds*len(files); i++ {
		r := <-results
		if r.err != nil {
			t.Errorf("GET /%s among concurrent requests: %v", r.path, r.err)
			continue
		}
		if r.path == "" { // the page, with a nonce of its own in each placeholder's place
			r.body = nonceAttr.ReplaceAll(r.body, []byte(`nonce="`+demosite.NoncePlaceholder+`"`))
		}
		if r.code != 200 || !bytes.Equal(r.body, want[r.path]) {
			t.Errorf("GET /%s among concurrent requests: status %d, %d bytes; want 200 and the %d bytes of %s", r.path, r.code, len(r.body), len(want[r.path]), files[r.path])
		}
	}
	if after := workerLog(); after != logBefore {
		t.Errorf("workerd reported something during concurrent requests:\n%s", after)
	}
}
