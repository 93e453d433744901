package relay

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
	"github.com/modelcontext-go/modelcontext/wasm/internal/docs"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestDemo is what a new user does: serve the demo shop (wasm/cmd/serve,
// what make demo runs), open it in a browser, run the relay against that
// tab, list and read the cart, subscribe, add an item in the page, and see
// the update arrive.
func TestDemo(t *testing.T) {
	requireBuild(t)
	demo := serveDemo(t)
	tab := browsertest.NewTab(t)
	tab.Timeout = timeout
	tab.Navigate(demo)
	p := &page{Tab: tab, t: t, url: demo}
	r := startRelay(t, p.attachArgs()...)
	c := connectStdio(t, r, legacy)
	uris := c.uris()
	if !strings.Contains(strings.Join(uris, " "), "state://cart") {
		t.Fatalf("the demo's resources: %v", uris)
	}
	if got := c.read("state://cart"); !strings.Contains(got, `"items":[]`) {
		t.Errorf("the empty cart: %s", got)
	}
	addToCartByHand(t, p, c)
}

// addToCartByHand subscribes c to the demo's cart, adds an item in the
// page as a visitor would, and waits for the cart's update to reach c,
// which then reads the item.
func addToCartByHand(t *testing.T, p *page, c *client) {
	t.Helper()
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

// serveDemo serves the demo shop as make demo does (wasm/cmd/serve, built
// here), until t ends, and returns its URL.
func serveDemo(t *testing.T) string {
	t.Helper()
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
	return demo
}

// replaceAll replaces each old (which must occur in s) by its new.
func replaceAll(t *testing.T, s string, oldnew ...string) string {
	t.Helper()
	for i := 0; i < len(oldnew); i += 2 {
		if !strings.Contains(s, oldnew[i]) {
			t.Fatalf("README's commands no longer hold %q:\n%s", oldnew[i], s)
		}
		s = strings.ReplaceAll(s, oldnew[i], oldnew[i+1])
	}
	return s
}

// bash runs script with bash in the checkout and returns its stdout and
// stderr.
func bash(t *testing.T, script string) (stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-euo", "pipefail", "-c", script)
	cmd.Dir = browsertest.RepoRoot()
	cmd.Env = append(os.Environ(), "NO_COLOR=1", "FORCE_COLOR=0")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("README's commands: %v\n%s\nstdout:\n%s\nstderr:\n%s", err, script, out.String(), errOut.String())
	}
	return out.String(), errOut.String()
}

// jsonValues decodes the JSON values printed one after another in out,
// from its first line that opens one (make's own lines come before).
func jsonValues(t *testing.T, out string) []map[string]any {
	t.Helper()
	var vs []map[string]any
	start := strings.Index(out, "\n{") + 1
	if strings.HasPrefix(out, "{") {
		start = 0
	}
	dec := json.NewDecoder(strings.NewReader(out[start:]))
	for {
		var v map[string]any
		if err := dec.Decode(&v); err == io.EOF {
			return vs
		} else if err != nil {
			t.Fatalf("%v in the output:\n%s", err, out)
		}
		vs = append(vs, v)
	}
}

// cartText is the text of the state://cart contents of a resources/read
// result, or "".
func cartText(v map[string]any) string {
	contents, _ := v["contents"].([]any)
	if len(contents) != 1 {
		return ""
	}
	c, _ := contents[0].(map[string]any)
	if c["uri"] != "state://cart" {
		return ""
	}
	text, _ := c["text"].(string)
	return text
}

// TestREADMEWalkthrough runs the relay guide's terminal walkthrough of the relay
// as written, against the demo (served as make demo serves it, on a port of
// its own instead of 8080): the stdio block (go build, make relay-tools,
// the Inspector's CLI starting the relay for a list and a read), then the
// relay over HTTP and the Inspector's CLI with the URL it printed.
func TestREADMEWalkthrough(t *testing.T) {
	requireBuild(t)
	demo := serveDemo(t)
	bin := filepath.Join(t.TempDir(), "relay")
	const readmeURL = "http://127.0.0.1:8080/"

	stdio := docs.Example(t, "relay-stdio", "sh").Text
	httpRelay := docs.Example(t, "relay-http", "sh").Text
	httpClient := docs.Example(t, "relay-http-client", "sh").Text

	out, errOut := bash(t, replaceAll(t, stdio, "go build -o relay", "go build -o "+bin, " ./relay ", " "+bin+" ", readmeURL, demo))
	vs := jsonValues(t, out)
	if len(vs) != 2 {
		t.Fatalf("the stdio block printed %d JSON values, want 2 (a list and a read):\n%s", len(vs), out)
	}
	if list, _ := json.Marshal(vs[0]["resources"]); !strings.Contains(string(list), `"uri":"state://cart"`) {
		t.Errorf("resources/list over stdio: %s", list)
	}
	if text := cartText(vs[1]); !strings.Contains(text, `"items":[]`) {
		t.Errorf("resources/read over stdio: %v", vs[1])
	}
	if n := strings.Count(errOut, "modelcontext: relay: serving MCP over stdio"); n != 2 {
		t.Errorf("the relay's log reached the terminal %d times, want 2 (once a call):\n%s", n, errOut)
	}

	// The relay over HTTP, on a free port instead of 8765, until the test
	// ends; then the client block with the URL it printed.
	args := strings.Fields(replaceAll(t, strings.TrimSpace(httpRelay), readmeURL, demo, "127.0.0.1:8765", "127.0.0.1:0"))
	if len(args) == 0 || args[0] != "./relay" {
		t.Fatalf("README's HTTP relay command: %q", httpRelay)
	}
	relay := exec.Command(bin, args[1:]...)
	stdout, err := relay.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	relayLog := &syncBuffer{}
	relay.Stderr = relayLog
	if err := relay.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		relay.Process.Signal(os.Interrupt)
		if err := relay.Wait(); err != nil {
			t.Errorf("the HTTP relay: %v\n%s", err, relayLog)
		}
	})
	done := make(chan error, 1)
	url, err := readLine(stdout, done)
	if err != nil || !strings.Contains(url, "/mcp/") {
		t.Fatalf("the HTTP relay printed %q (%v)\n%s", url, err, relayLog)
	}
	const readmeSecretURL = "URL=http://127.0.0.1:8765/mcp/3f9c0e5a7b1d42c8a06e1f2b9d7c4e11"
	out, _ = bash(t, replaceAll(t, httpClient, readmeSecretURL, "URL="+url))
	vs = jsonValues(t, out)
	if len(vs) != 1 || !strings.Contains(cartText(vs[0]), `"items":[]`) {
		t.Errorf("resources/read over HTTP: %s", out)
	}
}
