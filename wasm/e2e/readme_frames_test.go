package e2e

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
)

// TestREADMEFramesExample runs the README's Frames examples as written,
// with the example origins replaced by the test servers': the child page
// (the tag with data-mcp-parent, or serveMCP({parent})) on another origin,
// and the parent's stock client, bundled with esbuild as a user would,
// which must print the child's resources.
func TestREADMEFramesExample(t *testing.T) {
	requireImpl(t, "wasm")
	requireMCPBundles(t)
	tag := docBlock(t, "frame-child", "html")
	call := docBlock(t, "frame-child", "js")
	client := docBlock(t, "frame-parent", "js")
	srv := browsertest.SharedServer(t)
	parentOrigin := srv.URL("")
	const register = `<script>
  document.modelContext.registerResource({ uri: "widget://slot", name: "slot", get: () => ({ slot: "9-11" }) });
</script>
`
	children := map[string]string{
		"tag":  strings.ReplaceAll(tag, "https://shop.example", parentOrigin) + register,
		"call": `<script src="/static/modelcontext.js"></script>` + "\n" + register + "<script>\n" + strings.ReplaceAll(call, "https://shop.example", parentOrigin) + "</script>\n",
	}
	for _, name := range []string{"tag", "call"} {
		t.Run(name, func(t *testing.T) {
			childHTML := children[name]
			child := browsertest.NewServer(func(mux *http.ServeMux) {
				mux.Handle("/readme-frame-child.html", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					io.WriteString(w, "<!doctype html>\n<meta charset=utf-8>\n"+childHTML)
				}))
			})
			t.Cleanup(child.Close)
			bundle := bundleExample(t, strings.ReplaceAll(client, "https://widget.example", child.URL(""))+"\nwindow.__done = true;\n")
			path := "/readme-frame-parent-" + name
			srv.Handle(path+".js", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/javascript")
				io.WriteString(w, bundle)
			}))
			srv.Handle(path+".html", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				io.WriteString(w, "<!doctype html>\n<meta charset=utf-8>\n"+
					"<script>window.__logs = []; const log = console.log; console.log = (...a) => { window.__logs.push(a.join(' ')); log(...a); };</script>\n"+
					`<iframe id="widget" src="`+child.URL("/readme-frame-child.html")+`"></iframe>`+"\n"+
					`<script type="module" src="`+path+`.js"></script>`+"\n")
			}))
			tab := browsertest.NewTab(t)
			tab.Timeout = 60 * time.Second
			tab.Navigate(srv.URL(path + ".html"))
			p := &parentPage{Tab: tab}
			p.expect(`for (let i = 0; i < 1500 && !window.__done; i++) await new Promise((r) => setTimeout(r, 10));
return window.__logs;`, `["widget resources: widget://slot"]`)
		})
	}
}

// bundleExample bundles a README example's imports with the esbuild and the
// packages of testdata/mcpclient (make mcpclient installs them).
func bundleExample(t *testing.T, src string) string {
	t.Helper()
	dir := filepath.Join(browsertest.RepoRoot(), "testdata", "mcpclient")
	esbuild := filepath.Join(dir, "node_modules", ".bin", "esbuild")
	if _, err := os.Stat(esbuild); err != nil {
		t.Fatalf("%s missing: run make mcpclient", esbuild)
	}
	cmd := exec.Command(esbuild, "--bundle", "--format=esm", "--target=es2022", "--log-level=warning")
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(src)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("bundling a README example: %v\n%s", err, errOut.String())
	}
	return out.String()
}
