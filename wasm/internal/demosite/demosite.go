// Package demosite lays out the demo shop for both of its servers, the
// net/http one of make demo (wasm/cmd/serve) and the Cloudflare Worker of
// make edge (wasm/cmd/edge): the demo page at /, the module at /static/ and
// the stock MCP client bundle at /vendor/mcpclient.js, each through the
// handler of wasm/serve.
package demosite

import (
	"fmt"
	"io/fs"
	"net/http"

	"github.com/modelcontext-go/modelcontext/wasm/serve"
)

// VendorFiles are the files of the vendor folder the demo loads: only these
// are served from it (testdata/out, where make mcpclient writes them, also
// holds test output).
var VendorFiles = []string{"mcpclient.js"}

// NoVendor is the body of a request under /vendor/ when the site has no
// vendor folder.
const NoVendor = "modelcontext: the MCP client bundle is not served; run `make mcpclient` and start serve with -vendor testdata/out (make demo does both)"

// Handler serves demo at / (its index.html for the page's client-side routes
// such as /cart; a page that holds NoncePlaceholder with a fresh nonce in
// each response), dist at /static/ and, when vendor is not nil, the files
// named by VendorFiles at /vendor/. opt applies to all three (its Fallback
// only to demo). It fails if demo has no index.html or dist no
// modelcontext.js.
func Handler(demo, dist, vendor fs.FS, opt serve.Options) (http.Handler, error) {
	if _, err := fs.Stat(demo, "index.html"); err != nil {
		return nil, fmt.Errorf("modelcontext: the demo folder has no index.html: %w", err)
	}
	if _, err := fs.Stat(dist, "modelcontext.js"); err != nil {
		return nil, fmt.Errorf("modelcontext: the module folder has no modelcontext.js (run make build): %w", err)
	}
	mux := http.NewServeMux()
	files := opt
	files.Fallback = ""
	static, err := serve.New(dist, &files)
	if err != nil {
		return nil, err
	}
	mux.Handle("/static/", http.StripPrefix("/static", static))
	if vendor != nil {
		v, err := serve.New(Only(vendor, VendorFiles...), &files)
		if err != nil {
			return nil, err
		}
		mux.Handle("/vendor/", http.StripPrefix("/vendor", v))
	} else {
		// Without it the panel's MCP tab explains that its client did not
		// load; this says why to anyone who opens the URL.
		mux.HandleFunc("/vendor/", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Cache-Control", "no-store")
			http.Error(w, NoVendor, http.StatusNotFound)
		})
	}
	page := opt
	page.Fallback = "index.html"
	site, err := serve.New(demo, &page)
	if err != nil {
		return nil, err
	}
	mux.Handle("/", withNonce(site, opt.Compression != serve.Uncompressed))
	return mux, nil
}

// Only is fsys restricted to the named files at its root.
func Only(fsys fs.FS, names ...string) fs.FS { return only{fsys, names} }

type only struct {
	fsys  fs.FS
	names []string
}

func (o only) Open(name string) (fs.File, error) {
	if name == "." {
		return o.fsys.Open(name)
	}
	for _, n := range o.names {
		if n == name {
			return o.fsys.Open(name)
		}
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

// ReadDir lists only the named files (fs.WalkDir reads the root through it).
func (o only) ReadDir(name string) ([]fs.DirEntry, error) {
	if name != "." {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	var out []fs.DirEntry
	for _, n := range o.names {
		info, err := fs.Stat(o.fsys, n)
		if err != nil {
			continue
		}
		out = append(out, fs.FileInfoToDirEntry(info))
	}
	return out, nil
}
