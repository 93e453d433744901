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

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
)

// TestREADMECompletionExample runs the README's Completion section as
// written: its template (TypeScript, types stripped) on a page that serves
// MCP, and its client (bundled with the stock SDK of testdata/mcpclient),
// which must print the ids the README says.
func TestREADMECompletionExample(t *testing.T) {
	requireImpl(t, "wasm")
	template := stripTypes(t, docBlock(t, "completion", "ts"))
	dir := filepath.Join(browsertest.RepoRoot(), "testdata", "mcpclient")
	esbuild := filepath.Join(dir, "node_modules", ".bin", "esbuild")
	if _, err := os.Stat(esbuild); err != nil {
		t.Fatalf("%s missing: run make mcpclient", esbuild)
	}
	cmd := exec.Command(esbuild, "--bundle", "--format=esm", "--target=es2022", "--log-level=warning")
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(docBlock(t, "completion-client", "js") + "\nwindow.__done = true;\n")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("bundling the README's completion client: %v\n%s", err, errOut.String())
	}
	bundle := out.String()
	srv := browsertest.SharedServer(t)
	srv.Handle("/readme-complete.js", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		io.WriteString(w, bundle)
	}))
	srv.Handle("/readme-complete.html", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "<!doctype html>\n<meta charset=utf-8>\n<script src=\"/harness.js\"></script>\n"+
			"<script src=\"/static/modelcontext.js\" data-mcp></script>\n"+
			"<script>window.__logs = []; const log = console.log; console.log = (...a) => { window.__logs.push(a.join(' ')); log(...a); };</script>\n"+
			"<script>\n"+template+"</script>\n"+
			"<script type=\"module\" src=\"/readme-complete.js\"></script>\n")
	}))
	tab := browsertest.NewTab(t)
	tab.Navigate(srv.URL("/readme-complete.html"))
	p := &page{Tab: tab}
	p.expect(`for (let i = 0; i < 1500 && !window.__done; i++) await new Promise((r) => setTimeout(r, 10));
const t = document.modelContext.getResourceTemplates()[0];
return {logs: window.__logs, icon: t.icons[0].src === new URL('/icons/order.svg', location.href).href};`,
		`{"logs": ["ids: 41 42"], "icon": true}`)
}
