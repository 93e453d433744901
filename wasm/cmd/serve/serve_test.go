package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"

	"github.com/modelcontext-go/modelcontext/wasm/serve"
)

// fixture makes a demo folder and a dist folder with small stand-in files.
func fixture(t *testing.T) (demoDir, distDir string) {
	t.Helper()
	root := t.TempDir()
	demoDir = filepath.Join(root, "demo")
	distDir = filepath.Join(root, "dist")
	write := func(path, content string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(demoDir, "index.html"), "<!doctype html><title>shop</title>"+strings.Repeat("<p>shop</p>", 100))
	write(filepath.Join(demoDir, "shop.js"), "console.log('shop');"+strings.Repeat(" void 0;", 100))
	write(filepath.Join(distDir, "modelcontext.js"), "/* loader */"+strings.Repeat(" void 0;", 200))
	write(filepath.Join(distDir, "modelcontext.wasm"), "\x00asm\x01\x00\x00\x00"+strings.Repeat("\x00", 4096))
	return demoDir, distDir
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

func gunzip(t *testing.T, b []byte) string {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("body is not gzip: %v", err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// decode undoes a response's Content-Encoding.
func decode(t *testing.T, rec *httptest.ResponseRecorder) string {
	t.Helper()
	switch enc := rec.Header().Get("Content-Encoding"); enc {
	case "":
		return rec.Body.String()
	case "gzip":
		return gunzip(t, rec.Body.Bytes())
	case "br":
		out, err := io.ReadAll(brotli.NewReader(bytes.NewReader(rec.Body.Bytes())))
		if err != nil {
			t.Fatalf("body is not brotli: %v", err)
		}
		return string(out)
	default:
		t.Fatalf("unexpected Content-Encoding %q", enc)
		return ""
	}
}

func TestHandler(t *testing.T) {
	demoDir, distDir := fixture(t)
	h, err := newHandler(demoDir, distDir, "")
	if err != nil {
		t.Fatal(err)
	}
	all := map[string]string{"Accept-Encoding": "gzip, deflate, br"}
	gz := map[string]string{"Accept-Encoding": "gzip"}

	tests := []struct {
		name, target string
		header       map[string]string
		wantCode     int
		wantType     string
		wantEncoding string
		wantBody     string // prefix of the (decompressed) body
	}{
		{"wasm as application/wasm, brotli", "/static/modelcontext.wasm", all, 200, "application/wasm", "br", "\x00asm"},
		{"wasm gzipped", "/static/modelcontext.wasm", gz, 200, "application/wasm", "gzip", "\x00asm"},
		{"wasm without compression", "/static/modelcontext.wasm", nil, 200, "application/wasm", "", "\x00asm"},
		{"loader", "/static/modelcontext.js", all, 200, "text/javascript; charset=utf-8", "br", "/* loader */"},
		{"gzip;q=0 is a refusal", "/static/modelcontext.js", map[string]string{"Accept-Encoding": "gzip;q=0"}, 200, "text/javascript; charset=utf-8", "", "/* loader */"},
		{"page at /", "/", all, 200, "text/html; charset=utf-8", "br", "<!doctype html>"},
		{"client-side route /checkout gets the page", "/checkout", gz, 200, "text/html; charset=utf-8", "gzip", "<!doctype html>"},
		{"client-side route /order/FH-1042 gets the page", "/order/FH-1042", nil, 200, "text/html; charset=utf-8", "", "<!doctype html>"},
		{"demo script", "/shop.js", gz, 200, "text/javascript; charset=utf-8", "gzip", "console.log"},
		{"missing asset is 404, not the page", "/missing.js", gz, 404, "", "", "modelcontext: /missing.js: no such file"},
		{"missing module file is 404", "/static/nope.wasm", nil, 404, "", "", "modelcontext: /nope.wasm: no such file"},
		{"no folder listing", "/static/", nil, 404, "", "", "modelcontext: /: no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := get(t, h, http.MethodGet, tt.target, tt.header)
			if rec.Code != tt.wantCode {
				t.Fatalf("GET %s: status %d, want %d", tt.target, rec.Code, tt.wantCode)
			}
			if tt.wantType != "" && rec.Header().Get("Content-Type") != tt.wantType {
				t.Errorf("Content-Type %q, want %q", rec.Header().Get("Content-Type"), tt.wantType)
			}
			if got := rec.Header().Get("Content-Encoding"); got != tt.wantEncoding {
				t.Errorf("Content-Encoding %q, want %q", got, tt.wantEncoding)
			}
			if body := decode(t, rec); !strings.HasPrefix(body, tt.wantBody) {
				t.Errorf("body starts %q, want prefix %q", abbrev(body), tt.wantBody)
			}
			if rec.Header().Get("X-Content-Type-Options") != "nosniff" {
				t.Errorf("X-Content-Type-Options %q, want nosniff", rec.Header().Get("X-Content-Type-Options"))
			}
			if tt.wantCode == 200 && !strings.Contains(rec.Header().Get("Vary"), "Accept-Encoding") {
				t.Errorf("missing Vary: Accept-Encoding")
			}
		})
	}
}

func TestFilesStayInFolder(t *testing.T) {
	_, distDir := fixture(t)
	h, err := serve.New(os.DirFS(distDir), &serve.Options{Fallback: "modelcontext.js"})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/../demo/index.html", "/../../demo/shop.js", "../demo/shop.js"} {
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		req.URL.Path = p // as if the mux had not cleaned it
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusNotFound {
			t.Errorf("GET %s from %s: status %d, want 404", p, distDir, rec.Code)
		}
	}
}

func TestHandlerConditionalAndHead(t *testing.T) {
	demoDir, distDir := fixture(t)
	h, err := newHandler(demoDir, distDir, "")
	if err != nil {
		t.Fatal(err)
	}
	first := get(t, h, http.MethodGet, "/static/modelcontext.js", map[string]string{"Accept-Encoding": "gzip"})
	etag := first.Header().Get("ETag")
	if etag == "" || first.Header().Get("Cache-Control") != "no-cache" {
		t.Fatalf("first GET: ETag %q, Cache-Control %q; want an ETag and no-cache", etag, first.Header().Get("Cache-Control"))
	}
	again := get(t, h, http.MethodGet, "/static/modelcontext.js", map[string]string{"Accept-Encoding": "gzip", "If-None-Match": etag})
	if again.Code != http.StatusNotModified || again.Body.Len() != 0 || again.Header().Get("Content-Encoding") != "" {
		t.Errorf("revalidation: status %d, %d body bytes, Content-Encoding %q; want 304, empty, none",
			again.Code, again.Body.Len(), again.Header().Get("Content-Encoding"))
	}
	head := get(t, h, http.MethodHead, "/static/modelcontext.wasm", map[string]string{"Accept-Encoding": "gzip"})
	if head.Code != 200 || head.Body.Len() != 0 || head.Header().Get("Content-Type") != "application/wasm" {
		t.Errorf("HEAD: status %d, %d body bytes, type %q", head.Code, head.Body.Len(), head.Header().Get("Content-Type"))
	}
	post := get(t, h, http.MethodPost, "/", nil)
	if post.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST: status %d, want 405", post.Code)
	}
}

func TestRunWithoutBuild(t *testing.T) {
	demoDir, _ := fixture(t)
	empty := t.TempDir()
	var out bytes.Buffer
	err := run(context.Background(), []string{"-addr", "127.0.0.1:0", "-demo", demoDir, "-dist", empty}, &out)
	if err == nil || !strings.Contains(err.Error(), "modelcontext.js not found: run `make build` first") {
		t.Fatalf("run without dist/modelcontext.js: %v; want an error telling to run make build", err)
	}
	if out.Len() != 0 {
		t.Errorf("printed %q before failing", out.String())
	}
}

// TestHandlerVendor: -vendor serves the MCP client bundle at
// /vendor/mcpclient.js, and nothing else of its folder (testdata/out also
// holds test output); without -vendor, /vendor/ answers 404 saying how to
// get it.
func TestHandlerVendor(t *testing.T) {
	demoDir, distDir := fixture(t)
	vendorDir := t.TempDir()
	for name, content := range map[string]string{
		"mcpclient.js": "/* bundle */" + strings.Repeat(" void 0;", 200),
		"bench.json":   `{"secret": true}`,
		"mcpserver.js": "/* another bundle */",
	} {
		if err := os.WriteFile(filepath.Join(vendorDir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h, err := newHandler(demoDir, distDir, vendorDir)
	if err != nil {
		t.Fatal(err)
	}
	rec := get(t, h, http.MethodGet, "/vendor/mcpclient.js", map[string]string{"Accept-Encoding": "gzip"})
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "text/javascript; charset=utf-8" || rec.Header().Get("Content-Encoding") != "gzip" {
		t.Fatalf("GET /vendor/mcpclient.js: status %d, type %q, encoding %q; want 200, text/javascript, gzip",
			rec.Code, rec.Header().Get("Content-Type"), rec.Header().Get("Content-Encoding"))
	}
	if body := gunzip(t, rec.Body.Bytes()); !strings.HasPrefix(body, "/* bundle */") {
		t.Errorf("GET /vendor/mcpclient.js: body %q", abbrev(body))
	}
	for _, target := range []string{"/vendor/bench.json", "/vendor/mcpserver.js", "/vendor/", "/vendor/nope.js"} {
		if rec := get(t, h, http.MethodGet, target, nil); rec.Code != http.StatusNotFound {
			t.Errorf("GET %s: status %d, want 404", target, rec.Code)
		}
	}

	h, err = newHandler(demoDir, distDir, "")
	if err != nil {
		t.Fatal(err)
	}
	rec = get(t, h, http.MethodGet, "/vendor/mcpclient.js", nil)
	if rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), "make mcpclient") || !strings.Contains(rec.Body.String(), "-vendor") {
		t.Errorf("GET /vendor/mcpclient.js without -vendor: status %d, body %q; want 404 telling to run make mcpclient and pass -vendor", rec.Code, rec.Body.String())
	}
}

func TestRunWithoutMCPClientBundle(t *testing.T) {
	demoDir, distDir := fixture(t)
	empty := t.TempDir()
	var out bytes.Buffer
	err := run(context.Background(), []string{"-addr", "127.0.0.1:0", "-demo", demoDir, "-dist", distDir, "-vendor", empty}, &out)
	if err == nil || !strings.Contains(err.Error(), "mcpclient.js not found: run `make mcpclient` first") {
		t.Fatalf("run -vendor <folder without mcpclient.js>: %v; want an error telling to run make mcpclient", err)
	}
	if out.Len() != 0 {
		t.Errorf("printed %q before failing", out.String())
	}
}

func TestRunBadFlags(t *testing.T) {
	if err := run(context.Background(), []string{"-nope"}, io.Discard); err == nil {
		t.Error("unknown flag: no error")
	}
	if err := run(context.Background(), []string{"extra"}, io.Discard); err == nil {
		t.Error("stray argument: no error")
	}
}

// TestRunServesAndStops runs the command as main does, fetches the page and
// the module through a real connection, and checks that cancelling the
// context (what Ctrl-C and SIGTERM do) shuts it down cleanly.
func TestRunServesAndStops(t *testing.T) {
	demoDir, distDir := fixture(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := run(ctx, []string{"-addr", "127.0.0.1:0", "-demo", demoDir, "-dist", distDir}, pw)
		pw.Close()
		done <- err
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the address line: %v (run: %v)", err, <-done)
	}
	go io.Copy(io.Discard, pr)
	base, ok := strings.CutPrefix(strings.TrimSpace(line), "demo: ")
	if !ok || !strings.HasPrefix(base, "http://127.0.0.1:") || !strings.HasSuffix(base, "/") {
		t.Fatalf("printed %q, want \"demo: http://127.0.0.1:<port>/\"", line)
	}

	// Go's client asks for gzip and decompresses transparently.
	resp, err := http.Get(base + "static/modelcontext.wasm")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !resp.Uncompressed || !bytes.HasPrefix(body, []byte("\x00asm")) {
		t.Fatalf("GET wasm: status %d, uncompressed by client %v, body %q", resp.StatusCode, resp.Uncompressed, abbrev(string(body)))
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run after cancel: %v, want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("run did not return within 10s of cancel")
	}
	if _, err := http.Get(base); err == nil {
		t.Error("server still answers after shutdown")
	}
}

func abbrev(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}
