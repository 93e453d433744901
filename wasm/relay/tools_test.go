package relay

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
)

// The official MCP conformance suite and the MCP Inspector's CLI, at the
// versions testdata/relay/package-lock.json pins, run against the relay.
// They need Node.js 22, which that lock file pins too (the npm package
// "node"); `make relay-tools` installs all of it with npm ci.

// npmTool returns the command that runs the package binary bin with the
// pinned Node.js.
func npmTool(t *testing.T, bin string, args ...string) *exec.Cmd {
	t.Helper()
	dir := filepath.Join(browsertest.RepoRoot(), "testdata", "relay", "node_modules")
	node := filepath.Join(dir, ".bin", "node")
	script := filepath.Join(dir, ".bin", bin)
	for _, f := range []string{node, script} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("%s missing: run `make relay-tools` (npm ci in testdata/relay)", f)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*timeout)
	t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, node, append([]string{script}, args...)...)
	cmd.Env = append(os.Environ(), "NO_COLOR=1", "FORCE_COLOR=0")
	return cmd
}

// conformanceScenarios are the suite's resources scenarios (and the
// handshake and transport ones they stand on), as `conformance list` names them.
var conformanceScenarios = []string{
	"server-initialize", "ping",
	"resources-list", "resources-read-text", "resources-read-binary", "resources-templates-read",
	"resources-subscribe", "resources-unsubscribe",
	"dns-rebinding-protection",
}

// TestConformance runs @modelcontextprotocol/conformance's server scenarios
// against the relay over Streamable HTTP, with the URL it printed; every
// check must pass.
func TestConformance(t *testing.T) {
	p := openPage(t, "")
	r := startRelay(t, append(p.attachArgs(), "--http", "127.0.0.1:0")...)
	for _, sc := range conformanceScenarios {
		t.Run(sc, func(t *testing.T) { runConformance(t, r.url, sc) })
	}
}

// runConformance runs the scenario sc against the MCP endpoint u; every
// check must pass.
func runConformance(t *testing.T, u, sc string) {
	out := t.TempDir()
	cmd := npmTool(t, "conformance", "server", "--url", u, "--scenario", sc, "-o", out)
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	runErr := cmd.Run()
	checks, err := readChecks(out)
	if err != nil {
		t.Fatalf("%v (exit: %v)\n%s", err, runErr, log.String())
	}
	passed := 0
	for _, c := range checks {
		if c.Status == "SUCCESS" {
			passed++
		} else {
			t.Errorf("check %s: %s %s", c.ID, c.Status, c.ErrorMessage)
		}
	}
	if runErr != nil || len(checks) == 0 {
		t.Errorf("conformance %s: %v, %d checks\n%s", sc, runErr, len(checks), log.String())
	}
	t.Logf("%s: %d/%d checks passed", sc, passed, len(checks))
}

type check struct {
	ID           string `json:"id"`
	Status       string `json:"status"`
	ErrorMessage string `json:"errorMessage"`
}

// readChecks reads every checks.json the suite wrote under dir.
func readChecks(dir string) ([]check, error) {
	var all []check
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() != "checks.json" {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var cs []check
		if err := json.Unmarshal(b, &cs); err != nil {
			return err
		}
		all = append(all, cs...)
		return nil
	})
	if err == nil && len(all) == 0 {
		err = os.ErrNotExist
	}
	return all, err
}

// TestInspectorCLI: the MCP Inspector's CLI starts the relay itself, as a
// desktop agent would (stdio), and lists and reads. The relay's log reaches
// the terminal (the CLI passes the server's stderr through), and the CLI
// prints nothing else there.
func TestInspectorCLI(t *testing.T) {
	p := openPage(t, "")
	p.Eval(`window.marker = 42`, nil)
	bin := filepath.Join(t.TempDir(), "relay")
	build := exec.Command("go", "build", "-o", bin, "./wasm/cmd/relay")
	build.Dir = browsertest.RepoRoot()
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./wasm/cmd/relay: %v\n%s", err, out)
	}
	inspect := func(args ...string) string {
		t.Helper()
		cmd := npmTool(t, "mcp-inspector", append(append([]string{"--cli"}, args...), append([]string{"--", bin}, p.attachArgs()...)...)...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("inspector %v: %v\n%s\n%s", args, err, stdout.String(), stderr.String())
		}
		for _, line := range strings.Split(strings.TrimSpace(stderr.String()), "\n") {
			if !strings.HasPrefix(line, "modelcontext: relay: ") {
				t.Errorf("inspector %v printed on stderr: %q", args, line)
			}
		}
		if !strings.Contains(stderr.String(), "modelcontext: relay: serving MCP over stdio") {
			t.Errorf("inspector %v: the relay's log did not reach stderr:\n%s", args, stderr.String())
		}
		return stdout.String()
	}
	var list struct {
		Resources []struct{ URI string }
	}
	if err := json.Unmarshal([]byte(inspect("--method", "resources/list")), &list); err != nil || len(list.Resources) != 6 || list.Resources[0].URI != "test://static-text" {
		t.Errorf("resources/list: %+v, %v", list, err)
	}
	var read struct {
		Contents []struct{ URI, MimeType, Text string }
	}
	if err := json.Unmarshal([]byte(inspect("--method", "resources/read", "--uri", "test://template/7/data")), &read); err != nil ||
		len(read.Contents) != 1 || !strings.Contains(read.Contents[0].Text, `"id":"7"`) {
		t.Errorf("resources/read: %+v, %v", read, err)
	}
	var templates struct {
		ResourceTemplates []struct{ URITemplate string }
	}
	if err := json.Unmarshal([]byte(inspect("--method", "resources/templates/list")), &templates); err != nil ||
		len(templates.ResourceTemplates) != 1 || templates.ResourceTemplates[0].URITemplate != "test://template/{id}/data" {
		t.Errorf("resources/templates/list: %+v, %v", templates, err)
	}
	var sessions int
	p.Eval(`(async () => { while (relayTest.sessions() !== 0) await new Promise((r) => setTimeout(r, 10)); return 0; })()`, &sessions)
	untouched(t, p) // three relays came and went
}
