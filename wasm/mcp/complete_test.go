package mcp

import (
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/registry"
)

// completeEnv is a server with one template, app://orders/{id}/{line}.
func completeEnv(t *testing.T) (*env, registry.ID) {
	e := setup(t, 0)
	id := e.reg.RegisterTemplate("app://orders/{id}/{line}", "application/json", func([]registry.Param) (any, error) { return nil, nil })
	e.h.take()
	return e, id
}

func completeRequest(params string) string {
	return `{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":` + params + `}`
}

const orderRef = `"ref":{"type":"ref/resource","uri":"app://orders/{id}/{line}"}`

func strs(items ...string) registry.Field {
	f := registry.Field{Kind: registry.KindArray}
	for _, s := range items {
		f.Items = append(f.Items, registry.Field{Kind: registry.KindString, Str: s})
	}
	return f
}

func TestCompletionAsksTheHostAndAnswers(t *testing.T) {
	for _, tc := range []struct {
		name, params string
		want         fakeComplete
	}{
		{"no context", `{` + orderRef + `,"argument":{"name":"id","value":"4"}}`, fakeComplete{name: "id", value: "4", args: "{}"}},
		{"context arguments", `{` + orderRef + `,"argument":{"name":"line","value":""},"context":{"arguments":{"id":"42"}}}`, fakeComplete{name: "line", value: "", args: `{"id":"42"}`}},
		{"2026-07-28", `{` + orderRef + `,"argument":{"name":"id","value":"4"},` + meta + `}`, fakeComplete{name: "id", value: "4", args: "{}"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, id := completeEnv(t)
			e.handle(t, completeRequest(tc.params))
			if got := e.h.take(); got != "" {
				t.Fatalf("answered before the completer: %s", got)
			}
			if len(e.h.completes) != 1 {
				t.Fatalf("Complete called %d times", len(e.h.completes))
			}
			c := e.h.completes[0]
			tc.want.req, tc.want.id = c.req, id
			if c != tc.want {
				t.Errorf("Complete(%+v), want %+v", c, tc.want)
			}
			e.s.CompleteDone(c.req, strs("41", "42"), false, "")
			want := `{"jsonrpc":"2.0","id":1,"result":{"completion":{"values":["41","42"],"total":2,"hasMore":false}}}`
			if strings.Contains(tc.params, "_meta") {
				want = `{"jsonrpc":"2.0","id":1,"result":{"completion":{"values":["41","42"],"total":2,"hasMore":false},"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"modelcontext","version":"` + Version + `"}}}}`
			}
			if got := e.h.take(); got != want {
				t.Errorf("\n got %s\nwant %s", got, want)
			}
		})
	}
}

// TestCompletionCutsAt100 holds the answer to MCP's limit: at most 100
// values, the total the completer gave, and hasMore when it cut.
func TestCompletionCutsAt100(t *testing.T) {
	for _, n := range []int{0, 1, 100, 101, 250} {
		e, _ := completeEnv(t)
		e.handle(t, completeRequest(`{`+orderRef+`,"argument":{"name":"id","value":""}}`))
		items := make([]string, n)
		for i := range items {
			items[i] = fmt.Sprint(i)
		}
		e.s.CompleteDone(e.h.completes[0].req, strs(items...), false, "")
		shown := items[:min(n, 100)]
		values := `[]`
		if len(shown) > 0 {
			values = `["` + strings.Join(shown, `","`) + `"]`
		}
		want := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"result":{"completion":{"values":%s,"total":%d,"hasMore":%v}}}`, values, n, n > 100)
		if got := e.h.take(); got != want {
			t.Errorf("%d values:\n got %s\nwant %s", n, got, want)
		}
	}
}

func TestCompletionErrors(t *testing.T) {
	const invalid = `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid params: `
	for _, tc := range []struct{ name, params, want string }{
		{"unknown template", `{"ref":{"type":"ref/resource","uri":"app://nope/{id}"},"argument":{"name":"id","value":""}}`,
			invalid + `no resource template \"app://nope/{id}\" (resources/templates/list lists them)"}}`},
		{"a concrete uri is no template", `{"ref":{"type":"ref/resource","uri":"app://orders/1/2"},"argument":{"name":"id","value":""}}`,
			invalid + `no resource template \"app://orders/1/2\" (resources/templates/list lists them)"}}`},
		{"ref/prompt", `{"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"id","value":""}}`,
			invalid + `this server completes \"ref/resource\" only (resource template variables), not \"ref/prompt\""}}`},
		{"no ref", `{"argument":{"name":"id","value":""}}`,
			invalid + `\"ref\" must be {\"type\": \"ref/resource\", \"uri\": \u003ca uriTemplate from resources/templates/list\u003e}"}}`},
		{"no argument", `{` + orderRef + `}`, invalid + `\"argument\" must be {\"name\": string, \"value\": string}"}}`},
		{"a value that is a number", `{` + orderRef + `,"argument":{"name":"id","value":4}}`, invalid + `\"argument\" must be {\"name\": string, \"value\": string}"}}`},
		{"context arguments not strings", `{` + orderRef + `,"argument":{"name":"id","value":""},"context":{"arguments":{"line":1}}}`,
			invalid + `\"context.arguments\" must map variable names to strings"}}`},
		{"2026-07-28 unknown template", `{"ref":{"type":"ref/resource","uri":"app://nope"},"argument":{"name":"id","value":""},` + meta + `}`,
			invalid + `no resource template \"app://nope\" (resources/templates/list lists them)"}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, _ := completeEnv(t)
			e.handle(t, completeRequest(tc.params))
			want := strings.ReplaceAll(tc.want, `\u003c`, "<")
			want = strings.ReplaceAll(want, `\u003e`, ">")
			if got := e.h.take(); got != want {
				t.Errorf("\n got %s\nwant %s", got, want)
			}
			if len(e.h.completes) != 0 {
				t.Errorf("the host was asked: %+v", e.h.completes)
			}
		})
	}
}

// TestCompletionFailures: what a completer throws, or gives that is not an
// array of strings, is an error naming the template and the variable; the
// next completion works.
func TestCompletionFailures(t *testing.T) {
	const head = `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"completing \"line\" of \"app://orders/{id}/{line}\" failed: `
	for _, tc := range []struct {
		name   string
		values registry.Field
		failed bool
		msg    string
		want   string
	}{
		{"threw", registry.Field{}, true, "Error: no lines", head + `Error: no lines"}}`},
		{"timed out", registry.Field{}, true, "the completer did not answer within 5000 ms", head + `the completer did not answer within 5000 ms"}}`},
		{"a number", registry.Field{Kind: registry.KindNumber, Num: 3}, false, "", head + `the completer must return an array of strings (or a Promise of one), got number"}}`},
		{"an array with a number", registry.Field{Kind: registry.KindArray, Items: []registry.Field{{Kind: registry.KindString, Str: "a"}, {Kind: registry.KindNumber}}}, false, "",
			head + `the completer must return an array of strings (or a Promise of one), got an array with an item that is not a string"}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, _ := completeEnv(t)
			e.handle(t, completeRequest(`{`+orderRef+`,"argument":{"name":"line","value":""}}`))
			e.s.CompleteDone(e.h.completes[0].req, tc.values, tc.failed, tc.msg)
			if got := e.h.take(); got != tc.want {
				t.Errorf("\n got %s\nwant %s", got, tc.want)
			}
			e.handle(t, completeRequest(`{`+orderRef+`,"argument":{"name":"id","value":""}}`))
			e.s.CompleteDone(e.h.completes[1].req, strs("1"), false, "")
			if got := e.h.take(); !strings.Contains(got, `"values":["1"]`) {
				t.Errorf("the next completion: %s", got)
			}
		})
	}
}

// TestCompletionsWaitApart: a completion that has not answered holds back
// no other request, and one answered after the server stopped is dropped.
func TestCompletionsWaitApart(t *testing.T) {
	e, _ := completeEnv(t)
	e.handle(t, completeRequest(`{`+orderRef+`,"argument":{"name":"id","value":""}}`))
	e.handle(t, `{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	if got := e.h.take(); got != `{"jsonrpc":"2.0","id":2,"result":{}}` {
		t.Errorf("ping behind a waiting completion: %s", got)
	}
	e.s.Stop()
	e.h.take()
	e.s.CompleteDone(e.h.completes[0].req, strs("late"), false, "")
	e.s.CompleteDone(99, strs("unknown"), false, "")
	if got := e.h.take(); got != "" {
		t.Errorf("answered after Stop: %s", got)
	}
}
