package e2e

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
)

// TestValidationBeforeReady: before Go is ready the loader checks
// descriptors itself (so that registerResource still throws at the call
// site); Go checks them again at replay. Every case of the validation table
// must give, before ready, the very message Go gives after it.
func TestValidationBeforeReady(t *testing.T) {
	requireImpl(t, "wasm")
	// A .wasm that never arrives keeps the module loading for the whole test.
	browsertest.SharedServer(t).Handle("/stall/modelcontext.wasm", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(30 * time.Second):
		}
	}))
	p := open(t, "wasm", "", "wasm=/stall/modelcontext.wasm")
	var calls []string
	for i, c := range append(validationCases, templateCases...) {
		uri := fmt.Sprintf("test://invalid/%d", i)
		calls = append(calls, `(() => { const U = `+jsString(uri)+`, G = () => 'new';
  try { document.modelContext.registerResource(`+c.desc+`); return 'registered'; }
  catch (e) { return (e instanceof TypeError ? 'TypeError: ' : 'other: ') + e.message; } })()`)
	}
	var got []string
	p.runRaw("const out = [\n"+strings.Join(calls, ",\n")+"];\nout.push(document.modelContext.getResources().length);\nreturn out.map(String);", &got)
	all := append(validationCases, templateCases...)
	if len(got) != len(all)+1 {
		t.Fatalf("got %d results for %d cases", len(got), len(all))
	}
	for i, c := range all {
		uri := fmt.Sprintf("test://invalid/%d", i)
		want := "TypeError: " + regPrefix + strings.Replace(c.want, "@", ` (uri "`+uri+`")`, 1)
		if got[i] != want {
			t.Errorf("%s, before ready:\n got %s\nwant %s", c.name, got[i], want)
		}
	}
	if got[len(got)-1] != "0" {
		t.Errorf("invalid descriptors were queued: getResources() lists %s", got[len(got)-1])
	}
}

// templateCases are the uriTemplate rules (registry.ParseTemplate and
// Validate), checked before ready above and after it below.
var templateCases = []struct{ name, desc, want string }{
	{"template brace not closed", `{uriTemplate: 'app://x/{id', name: 'n', get: G}`, `"uriTemplate" "app://x/{id" has a "{" without "}"`},
	{"template closing brace alone", `{uriTemplate: 'app://x/id}', name: 'n', get: G}`, `"uriTemplate" "app://x/id}" has a "}" without "{"`},
	{"template level 2 operator", `{uriTemplate: 'app://x/{+p}', name: 'n', get: G}`, `"uriTemplate" "app://x/{+p}" has the expression {+p}; only simple {name} expressions (RFC 6570 level 1) are supported`},
	{"template adjacent expressions", `{uriTemplate: 'app://x/{a}{b}', name: 'n', get: G}`, `"uriTemplate" "app://x/{a}{b}" has two expressions next to each other; separate them with a literal`},
	{"template without scheme", `{uriTemplate: 'orders/{id}', name: 'n', get: G}`, `"uriTemplate" "orders/{id}" has no scheme; write it like "state://cart"`},
	{"template with subscribe", `{uriTemplate: 'app://x/{id}', name: 'n', get: G, subscribe: () => () => {}}`, `"subscribe" is not supported with a uriTemplate: templates are read on demand; register a concrete uri to push it (uriTemplate "app://x/{id}")`},
	{"template and uri", `{uri: 'a:b', uriTemplate: 'app://x/{id}', name: 'n', get: G}`, `"uriTemplate" must not be given together with "uri" (uri "a:b")`},
	{"template name missing", `{uriTemplate: 'app://x/{id}', get: G}`, `"name" is required (uriTemplate "app://x/{id}")`},
}

func TestTemplateValidationAfterReady(t *testing.T) {
	requireImpl(t, "wasm")
	p := open(t, "wasm", "", "")
	for _, c := range templateCases {
		var got string
		p.run(`const G = () => 1;
try { mc.registerResource(`+c.desc+`); return 'registered'; }
catch (e) { return (e instanceof TypeError ? 'TypeError: ' : 'other: ') + e.message; }`, &got)
		if want := "TypeError: " + regPrefix + c.want; got != want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, want)
		}
	}
}
