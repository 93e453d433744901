package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
)

// The MCP tests, checked against servers we did not write: where the
// behaviour overlaps, the same scenario code must pass against
//
//	sdk   the TypeScript SDK's McpServer on @mcp-b/transports'
//	      TabServerTransport (testdata/pages/mcp-ref.html), and
//	mcpb  MCP-B's own in-page server, @mcp-b/global (mcp-mcpb.html).
//
// These tests do not involve the module: they show that the stock client
// bundle, the fixtures and the expectations are sound, so that a failure of
// the same scenario against the module is the module's.

var mcpReferenceTargets = []struct {
	name, path, bundle string
	want               func(mcpScenario) string
}{
	{"sdk", "/mcp-ref.html", "mcpserver.js", func(s mcpScenario) string { return s.sdk }},
	{"mcpb", "/mcp-mcpb.html", "mcpb-global.js", func(s mcpScenario) string { return s.mcpb }},
}

func TestMCPReferenceServers(t *testing.T) {
	for _, target := range mcpReferenceTargets {
		t.Run(target.name, func(t *testing.T) {
			for _, sc := range mcpScenarios {
				want := target.want(sc)
				if want == "" {
					continue
				}
				if want == "=" {
					want = sc.want
				}
				t.Run(sc.name, func(t *testing.T) {
					openMCP(t, target.path, target.bundle).expect(sc.js, want)
				})
			}
		})
	}
	t.Run("sdk/frames of another and of the same origin", func(t *testing.T) {
		other := secondOrigin(t)
		p := openMCP(t, "/mcp-ref.html", "mcpserver.js")
		p.expect("const ORIGIN = "+jsString(other.URL)+";\n"+mcpFramesJS, mcpFramesWant)
	})
	t.Run("sdk/malformed messages", func(t *testing.T) {
		p := openMCP(t, "/mcp-ref.html", "mcpserver.js")
		var raw json.RawMessage
		p.run(mcpMalformedJS, &raw)
		// TabServerTransport drops a message that fails the SDK's schema
		// before the server sees it, so a malformed request goes unanswered
		// even when it carries an id; the module must answer it.
		checkMalformed(t, p, raw, true)
	})
}

// TestMCPCoexistWithMCPB: a page that loads MCP-B's @mcp-b/global first
// (serving its tools on channel "mcp-b"), then the module. The module adds its
// members to MCP-B's document.modelContext (wasm/CONTRACT.md §2), which keeps
// its registerTool and its MCP server; the module's own server takes
// mcp-default. Both registerResource cannot live under one name: the module's
// shadows MCP-B's, which stays reachable through its prototype.
func TestMCPCoexistWithMCPB(t *testing.T) {
	t.Run("MCP-B keeps working", func(t *testing.T) {
		p := openMCP(t, "/mcp-coexist.html", "mcpb-global.js")
		p.expect(`const mc = document.modelContext;
await mc.registerTool({name: 'echo', description: 'Echoes x', inputSchema: {type: 'object', properties: {x: {type: 'string'}}},
  execute: async ({x}) => ({content: [{type: 'text', text: 'echo ' + x}]})});
const b = await T.connect({channel: 'mcp-b'});
const tools = (await b.client.listTools()).tools.map((t) => t.name);
const called = await b.client.callTool({name: 'echo', arguments: {x: 'hi'}});
window.__mcpbRegisterResource.call(mc, {uri: 'mcpb://r', name: 'r', mimeType: 'text/plain',
  read: async (u) => ({contents: [{uri: u.href, mimeType: 'text/plain', text: 'from MCP-B'}]})});
const read = await M.read(b, 'mcpb://r');
F.resource({uri: 'test://ours', name: 'ours', value: 1});
return {
  sameObject: mc === window.__mcpbObject,
  tools, echo: called.content[0].text,
  mcpbRead: read,
  ours: mc.getResources().map((r) => r.uri),
  oursRead: await mc.readResource('test://ours'),
  errors: b.errors,
};`,
			`{"sameObject": true, "tools": ["echo"], "echo": "echo hi",
			  "mcpbRead": {"contents": [{"uri": "mcpb://r", "mimeType": "text/plain", "text": "from MCP-B"}]},
			  "ours": ["test://ours"], "oursRead": 1, "errors": []}`)
	})
	t.Run("both servers", func(t *testing.T) {
		p := openMCP(t, "/mcp-coexist.html", "mcpb-global.js")
		p.expect(mcpRequireServe+`
const mc = document.modelContext;
const server = mc.serveMCP();
F.resource({uri: 'test://ours', name: 'ours', mimeType: 'text/plain', value: 'from the module'});
const c = await T.connect();
const b = await T.connect({channel: 'mcp-b'});
const r = {
  ours: (await M.listAll(c)).items.map((x) => x.uri),
  oursRead: await M.read(c, 'test://ours'),
  mcpbResources: (await M.listAll(b)).items.map((x) => x.uri),
  errors: [...c.errors, ...b.errors],
};
server.stop();
return r;`,
			`{"ours": ["test://ours"], "oursRead": {"contents": [{"uri": "test://ours", "mimeType": "text/plain", "text": "from the module"}]},
			  "mcpbResources": [], "errors": []}`)
	})
}

// TestMCPClientBundle: the bundle in testdata/out/ was built from the
// versions package.json pins (a stale bundle would test another client).
func TestMCPClientBundle(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(browsertest.RepoRoot(), "testdata", "mcpclient", "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct{ DevDependencies map[string]string }
	if err := json.Unmarshal(b, &pkg); err != nil {
		t.Fatal(err)
	}
	p := openMCP(t, "/mcp-ref.html", "mcpserver.js")
	var got map[string]any
	p.Eval(`window.mcpTest.versions`, &got)
	t.Logf("stock client: %v", got)
	for _, name := range []string{"@modelcontextprotocol/sdk", "@mcp-b/transports", "@modelcontextprotocol/core"} {
		if got[name] != pkg.DevDependencies[name] {
			t.Errorf("testdata/out/mcpclient.js has %s %v, package.json pins %s: run make mcpclient", name, got[name], pkg.DevDependencies[name])
		}
	}
}
