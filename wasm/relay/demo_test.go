package relay

import (
	"bufio"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestDemo is what a new user does: serve the demo shop (wasm/cmd/serve,
// what make demo runs), open it in a browser, run the relay against that
// tab, list and read the cart, subscribe, add an item in the page, and see
// the update arrive.
func TestDemo(t *testing.T) {
	requireBuild(t)
	root := browsertest.RepoRoot()
	bin := filepath.Join(t.TempDir(), "serve")
	build := exec.Command("go", "build", "-o", bin, "./wasm/cmd/serve")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./wasm/cmd/serve: %v\n%s", err, out)
	}
	serve := exec.Command(bin, "-addr", "127.0.0.1:0", "-demo", filepath.Join(root, "demo"), "-dist", filepath.Join(root, "dist"))
	out, err := serve.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { serve.Process.Kill(); serve.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	demo, ok := strings.CutPrefix(strings.TrimSpace(line), "demo: ")
	if err != nil || !ok {
		t.Fatalf("serve printed %q (%v)", line, err)
	}

	tab := browsertest.NewTab(t)
	tab.Timeout = timeout
	tab.Navigate(demo)
	p := &page{Tab: tab, t: t, url: demo}
	r := startRelay(t, p.attachArgs()...)
	c := connectStdio(t, r, legacy)
	res, err := c.ListResources(c.ctx(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, x := range res.Resources {
		uris = append(uris, x.URI)
	}
	if !strings.Contains(strings.Join(uris, " "), "state://cart") {
		t.Fatalf("the demo's resources: %v", uris)
	}
	if got := c.read("state://cart"); !strings.Contains(got, `"items":[]`) {
		t.Errorf("the empty cart: %s", got)
	}
	if err := c.Subscribe(c.ctx(), &mcp.SubscribeParams{URI: "state://cart"}); err != nil {
		t.Fatal(err)
	}
	p.Eval(`document.querySelector('[data-action="add-to-cart"]').click()`, nil)
	for {
		if u := c.nextUpdate(); u == "state://cart" {
			break
		}
	}
	if got := c.read("state://cart"); !strings.Contains(got, `"count":1`) {
		t.Errorf("the cart after adding an item in the page: %s", got)
	}
}
