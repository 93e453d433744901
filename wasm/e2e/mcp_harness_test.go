package e2e

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
)

// The MCP tests drive the module's MCP server (wasm/CONTRACT.md §6) with a
// stock client: the TypeScript SDK's Client over @mcp-b/transports'
// TabClientTransport, at the versions pinned in
// testdata/mcpclient/package-lock.json and bundled by `make mcpclient` into
// testdata/out/mcpclient.js (served at /out/). The pages are
// testdata/pages/mcp*.html; testdata/pages/mcp-helpers.js gives scenarios M
// (helpers) and F (a fixture that registers resources on the page's server).
// Scenarios also have T (window.mcpTest, the client bundle, see
// testdata/mcpclient/src/mcpclient.js) and H (harness.js).
//
// The module has an MCP server only in its wasm build (the JavaScript
// reference in testdata/reference/ has none), so these tests run against
// dist/ only. mcp_reference_test.go runs the scenarios that do not depend on
// the module against servers we did not write, to check the tests themselves.

var mcpOutRoute sync.Once

// mcpOutHandler serves testdata/out/ (the bundles `make mcpclient` writes).
func mcpOutHandler() http.Handler {
	return http.StripPrefix("/out/", http.FileServer(http.Dir(filepath.Join(browsertest.RepoRoot(), "testdata", "out"))))
}

// requireMCPBundles fails t unless the bundles exist, and adds /out/ to the
// shared server.
func requireMCPBundles(t *testing.T, names ...string) {
	t.Helper()
	root := browsertest.RepoRoot()
	for _, n := range append([]string{"mcpclient.js"}, names...) {
		if _, err := os.Stat(filepath.Join(root, "testdata", "out", n)); err != nil {
			t.Fatalf("testdata/out/%s missing: run `make mcpclient` (npm ci + esbuild in testdata/mcpclient)", n)
		}
	}
	srv := browsertest.SharedServer(t)
	mcpOutRoute.Do(func() {
		// Handle panics if TestMain's routes already serve /out/; then they do.
		defer func() { recover() }()
		srv.Handle("/out/", mcpOutHandler())
	})
}

// mcpPage is a tab showing one of the MCP pages. It belongs to the test
// that opened it (Tab.TB): open one per subtest.
type mcpPage struct {
	*browsertest.Tab
}

// mcpPrelude gives every MCP scenario H, T, M and F.
const mcpPrelude = `const H = window.H, T = window.mcpTest, M = window.MCP;
if (!T) throw new Error('testdata/out/mcpclient.js did not load: run make mcpclient');
const F = await M.fixture();
`

// openMCP loads path in a fresh tab. For the module's pages (target
// "wasm") dist/ must exist.
func openMCP(t *testing.T, path string, bundles ...string) *mcpPage {
	t.Helper()
	if strings.Contains(path, testBuild) {
		requireTestBuild(t)
	} else if !strings.HasPrefix(path, "/mcp-ref") && !strings.HasPrefix(path, "/mcp-mcpb") {
		requireImpl(t, "wasm")
	}
	requireMCPBundles(t, bundles...)
	tab := browsertest.NewTab(t)
	// Longer than the page's own deadlines (mcpTest.patience), so that a
	// wait that fails says what it waited for.
	tab.Timeout = 60 * time.Second
	tab.Navigate(browsertest.URL(t, path))
	return &mcpPage{Tab: tab}
}

// run evaluates body as the body of an async function with H, T, M and F in
// scope and decodes what it returns into out.
func (p *mcpPage) run(body string, out any) {
	p.TB().Helper()
	p.Eval("(async () => {\n"+mcpPrelude+body+"\n})()", out)
}

// expect runs body and fails the test unless it returns the JSON want.
func (p *mcpPage) expect(body, want string) {
	p.TB().Helper()
	var got json.RawMessage
	p.run(body, &got)
	if diff := jsonDiff(got, want); diff != "" {
		p.TB().Errorf("%s\n%s", diff, p.ConsoleText())
	}
}

// mcpScenario is one MCP check: page JavaScript and the JSON it must return
// against the module; sdk and mcpb, when set, are what it must return against
// the SDK's McpServer and against MCP-B's @mcp-b/global ("=" for the same as
// want), and the scenario runs there too (mcp_reference_test.go).
type mcpScenario struct {
	name      string
	js        string
	want      string
	sdk, mcpb string
}

// secondOrigin starts another server on 127.0.0.1 (another port, so another
// origin) serving the test pages and the bundles; closed when t ends.
func secondOrigin(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle("/out/", mcpOutHandler())
	mux.Handle("/", http.FileServer(http.Dir(filepath.Join(browsertest.RepoRoot(), "testdata", "pages"))))
	s := httptest.NewServer(browsertest.NoCache(mux))
	t.Cleanup(s.Close)
	return s
}
