package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
	"github.com/modelcontext-go/modelcontext/wasm/serve"
)

var pagesDir = filepath.Join(browsertest.RepoRoot(), "testdata", "pagecost")

// The variants are one page: they differ from the baseline only in the
// <html> tag (data-agent), the comment that names the variant, and their
// own lines: the agent API's script tag before the page's own script (and
// for lazy-prefetch, the hint).
func TestVariantsAlike(t *testing.T) {
	read := func(name string) []string {
		b, err := os.ReadFile(filepath.Join(pagesDir, name+".html"))
		if err != nil {
			t.Fatal(err)
		}
		return strings.Split(string(b), "\n")
	}
	normalize := func(lines []string, own []string) string {
		var out []string
		for _, l := range lines {
			switch {
			case slices.Contains(own, l):
			case strings.HasPrefix(l, "<html"), strings.HasPrefix(l, "<!-- "):
				out = append(out, "(variant)")
			default:
				out = append(out, l)
			}
		}
		return strings.Join(out, "\n")
	}
	module := `<script src="/static/modelcontext.js"></script>`
	own := map[string][]string{
		"lazy":           {module},
		"eager":          {`<script src="/static/modelcontext.js" data-boot="eager"></script>`},
		"idle":           {`<script src="/static/modelcontext.js" data-boot="idle"></script>`},
		"lazy-prefetch":  {module, `<link rel="prefetch" href="/static/modelcontext.wasm">`},
		"lazy-immutable": {`<script src="/static/modelcontext.js" data-wasm="` + HashedWasm + `"></script>`},
		"mcpb":           {`<script src="/vendor/mcpb-global.js"></script>`},
	}
	base := read(Variants[0])
	want := normalize(base, nil)
	for _, name := range append(slices.Clone(Variants[1:]), Extras...) {
		lines := read(name)
		if normalize(lines, own[name]) != want || len(lines) != len(base)+len(own[name]) {
			t.Errorf("%s.html differs from %s.html in more than its variant lines and %q", name, Variants[0], own[name])
		}
	}
}

// No page has an inline script (the handler's Content-Security-Policy would
// block it) or loads anything from another origin.
func TestNoInlineScript(t *testing.T) {
	script := regexp.MustCompile(`<script[^>]*>`)
	for _, name := range append(slices.Clone(Variants), Extras...) {
		b, err := os.ReadFile(filepath.Join(pagesDir, name+".html"))
		if err != nil {
			t.Fatal(err)
		}
		for _, tag := range script.FindAllString(string(b), -1) {
			if !strings.Contains(tag, ` src="/`) {
				t.Errorf("%s.html: %s is not a script of this origin", name, tag)
			}
		}
		if strings.Contains(string(b), "://") {
			t.Errorf("%s.html names another origin", name)
		}
	}
}

// The handler serves the pages, the module and MCP-B's script through
// wasm/serve, compressed.
func TestHandler(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"dist", "testdata"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	loader := "/* the loader */ " + strings.Repeat("document.modelContext; ", 50)
	if err := os.WriteFile(filepath.Join(root, "dist", "modelcontext.js"), []byte(loader), 0o644); err != nil {
		t.Fatal(err)
	}
	wasm := append([]byte("\x00asm\x01\x00\x00\x00"), make([]byte, 4096)...)
	if err := os.WriteFile(filepath.Join(root, "dist", "modelcontext.wasm"), wasm, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(pagesDir, filepath.Join(root, "testdata", "pagecost")); err != nil {
		t.Fatal(err)
	}
	mcpb := filepath.Join(root, "mcpb.iife.js")
	if err := os.WriteFile(mcpb, []byte("var WebMCP = (function () { return {}; })();"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := handler(root, filepath.Join(root, "missing.js")); err == nil || !strings.Contains(err.Error(), "make mcpclient") {
		t.Errorf("without MCP-B's script: %v", err)
	}
	h, err := handler(root, mcpb)
	if err != nil {
		t.Fatal(err)
	}
	for path, ct := range map[string]string{
		"/plain.html": "text/html", "/lazy.html": "text/html", "/product.js": "text/javascript", "/product.css": "text/css",
		"/static/modelcontext.js": "text/javascript", "/vendor/mcpb-global.js": "text/javascript",
		"/static/modelcontext.wasm": "application/wasm", HashedWasm: "application/wasm",
	} {
		cache := serve.CacheRevalidate
		if path == HashedWasm {
			cache = serve.CacheImmutable
		}
		req := httptest.NewRequest("GET", path, nil)
		req.Header.Set("Accept-Encoding", "br, gzip")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		res := rec.Result()
		if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), ct) ||
			res.Header.Get("Content-Security-Policy") != serve.DefaultCSP || res.Header.Get("Cache-Control") != cache {
			t.Errorf("GET %s: %d %v", path, res.StatusCode, res.Header)
		}
		if path != "/vendor/mcpb-global.js" && res.Header.Get("Content-Encoding") != "br" {
			t.Errorf("GET %s: not brotli: %v", path, res.Header)
		}
	}
	empty := t.TempDir()
	if _, err := handler(empty, mcpb); err == nil || !strings.Contains(err.Error(), "make build") {
		t.Errorf("without dist: %v", err)
	}
}
