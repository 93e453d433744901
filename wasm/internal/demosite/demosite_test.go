package demosite

import (
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/modelcontext-go/modelcontext/wasm/serve"
)

func TestOnly(t *testing.T) {
	fsys := Only(fstest.MapFS{
		"mcpclient.js": {Data: []byte("client")},
		"bench.json":   {Data: []byte("{}")},
		"sub/x.js":     {Data: []byte("x")},
	}, "mcpclient.js", "missing.js")
	var names []string
	if err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		names = append(names, name)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if strings.Join(names, " ") != ". mcpclient.js" {
		t.Errorf("walk lists %q, want [. mcpclient.js]", names)
	}
	for _, name := range []string{"bench.json", "sub/x.js", "missing.js"} {
		if _, err := fsys.Open(name); err == nil {
			t.Errorf("Open(%q) succeeded; only the named files may be opened", name)
		}
	}
}

func TestHandler(t *testing.T) {
	demo := fstest.MapFS{"index.html": {Data: []byte("<!doctype html>page")}, "shop.js": {Data: []byte("shop")}}
	dist := fstest.MapFS{"modelcontext.js": {Data: []byte("loader")}, "modelcontext.wasm": {Data: []byte("\x00asm")}}
	vendor := fstest.MapFS{"mcpclient.js": {Data: []byte("client")}, "mcpserver.js": {Data: []byte("server")}}
	h, err := Handler(demo, dist, vendor, serve.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for target, want := range map[string]string{
		"/":                        "200 <!doctype html>page",
		"/cart":                    "200 <!doctype html>page",
		"/shop.js":                 "200 shop",
		"/static/modelcontext.js":  "200 loader",
		"/static/cart":             "404 modelcontext: /cart: no such file",
		"/vendor/mcpclient.js":     "200 client",
		"/vendor/mcpserver.js":     "404 modelcontext: /mcpserver.js: no such file",
		"/static/modelcontext.mjs": "404 modelcontext: /modelcontext.mjs: no such file",
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, target, nil))
		if g := strconv.Itoa(rec.Code) + " " + strings.TrimSpace(rec.Body.String()); g != want {
			t.Errorf("GET %s: %q, want %q", target, g, want)
		}
	}

	h, err = Handler(demo, dist, nil, serve.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/vendor/mcpclient.js", nil))
	if rec.Code != 404 || strings.TrimSpace(rec.Body.String()) != NoVendor {
		t.Errorf("without vendor: %d %q, want 404 %q", rec.Code, rec.Body.String(), NoVendor)
	}

	if _, err := Handler(fstest.MapFS{}, dist, nil, serve.Options{}); err == nil || !strings.HasPrefix(err.Error(), "modelcontext: the demo folder has no index.html") {
		t.Errorf("demo without index.html: %v", err)
	}
	if _, err := Handler(demo, fstest.MapFS{}, nil, serve.Options{}); err == nil || !strings.HasPrefix(err.Error(), "modelcontext: the module folder has no modelcontext.js (run make build)") {
		t.Errorf("dist without modelcontext.js: %v", err)
	}
}
