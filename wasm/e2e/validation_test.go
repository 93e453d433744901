package e2e

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// wasm/CONTRACT.md §3 (invalid descriptor → TypeError naming field and uri;
// nothing registered; an existing registration untouched) with the exact
// messages of js/GUIDE.md's Errors table, including their order of
// precedence.

const regPrefix = "modelcontext: registerResource: "

// validationCases is the validation table: the loader and the reference
// follow it (TestRegisterResourceValidation), and the model test's invalid
// descriptors are its cases, its messages the model's predictions
// (TestModel). desc is a JavaScript expression; U is the case's uri (a
// string) and G a valid get function. want is the message after regPrefix;
// a trailing "@" stands for ` (uri "<U>")`.
var validationCases = []struct {
	name string
	desc string
	want string
}{
	// The descriptor itself.
	{"descriptor undefined", `undefined`, `the descriptor must be an object, got undefined`},
	{"descriptor null", `null`, `the descriptor must be an object, got null`},
	{"descriptor array", `[{uri: U, name: 'n', get: G}]`, `the descriptor must be an object, got array`},
	{"descriptor string", `'state://cart'`, `the descriptor must be an object, got string`},
	{"descriptor number", `42`, `the descriptor must be an object, got number`},
	{"descriptor boolean", `true`, `the descriptor must be an object, got boolean`},
	{"descriptor function", `function () {}`, `the descriptor must be an object, got function`},
	{"descriptor symbol", `Symbol('x')`, `the descriptor must be an object, got symbol`},
	{"descriptor bigint", `10n`, `the descriptor must be an object, got bigint`},

	// uri.
	{"uri absent", `{name: 'n', get: G}`, `"uri" is required (a string like "state://cart")`},
	{"uri undefined", `{uri: undefined, name: 'n', get: G}`, `"uri" is required (a string like "state://cart")`},
	{"uri number", `{uri: 42, name: 'n', get: G}`, `"uri" must be a string, got number`},
	{"uri null", `{uri: null, name: 'n', get: G}`, `"uri" must be a string, got null`},
	{"uri array", `{uri: ['a:b'], name: 'n', get: G}`, `"uri" must be a string, got array`},
	{"uri object", `{uri: {}, name: 'n', get: G}`, `"uri" must be a string, got object`},
	{"uri String object", `{uri: new String('a:b'), name: 'n', get: G}`, `"uri" must be a string, got object`},
	{"uri empty", `{uri: '', name: 'n', get: G}`, `"uri" must not be empty`},
	{"uri plain word", `{uri: 'cart', name: 'n', get: G}`, `"uri" "cart" has no scheme; write it like "state://cart"`},
	{"uri path", `{uri: '/cart', name: 'n', get: G}`, `"uri" "/cart" has no scheme; write it like "state://cart"`},
	{"uri scheme only", `{uri: 'state:', name: 'n', get: G}`, `"uri" "state:" has no scheme; write it like "state://cart"`},
	{"uri digit first", `{uri: '1state://x', name: 'n', get: G}`, `"uri" "1state://x" has no scheme; write it like "state://cart"`},
	{"uri colon first", `{uri: '://x', name: 'n', get: G}`, `"uri" "://x" has no scheme; write it like "state://cart"`},
	{"uri space in scheme", `{uri: 'sta te://x', name: 'n', get: G}`, `"uri" "sta te://x" has no scheme; write it like "state://cart"`},
	{"uri underscore in scheme", `{uri: 'my_app://x', name: 'n', get: G}`, `"uri" "my_app://x" has no scheme; write it like "state://cart"`},

	// name.
	{"name absent", `{uri: U, get: G}`, `"name" is required@`},
	{"name undefined", `{uri: U, name: undefined, get: G}`, `"name" is required@`},
	{"name number", `{uri: U, name: 7, get: G}`, `"name" must be a string, got number@`},
	{"name null", `{uri: U, name: null, get: G}`, `"name" must be a string, got null@`},
	{"name array", `{uri: U, name: ['n'], get: G}`, `"name" must be a string, got array@`},
	{"name empty", `{uri: U, name: '', get: G}`, `"name" must not be empty@`},

	// get.
	{"get absent", `{uri: U, name: 'n'}`, `"get" is required, a function that returns the current value@`},
	{"get undefined", `{uri: U, name: 'n', get: undefined}`, `"get" is required, a function that returns the current value@`},
	{"get string", `{uri: U, name: 'n', get: 'value'}`, `"get" must be a function, got string@`},
	{"get null", `{uri: U, name: 'n', get: null}`, `"get" must be a function, got null@`},
	{"get object", `{uri: U, name: 'n', get: {}}`, `"get" must be a function, got object@`},
	{"get array", `{uri: U, name: 'n', get: [G]}`, `"get" must be a function, got array@`},

	// subscribe.
	{"subscribe number", `{uri: U, name: 'n', get: G, subscribe: 1}`, `"subscribe" must be a function, got number@`},
	{"subscribe null", `{uri: U, name: 'n', get: G, subscribe: null}`, `"subscribe" must be a function, got null@`},
	{"subscribe object", `{uri: U, name: 'n', get: G, subscribe: {}}`, `"subscribe" must be a function, got object@`},
	{"subscribe true", `{uri: U, name: 'n', get: G, subscribe: true}`, `"subscribe" must be a function, got boolean@`},

	// title, description, mimeType.
	{"title number", `{uri: U, name: 'n', get: G, title: 1}`, `"title" must be a string, got number@`},
	{"title null", `{uri: U, name: 'n', get: G, title: null}`, `"title" must be a string, got null@`},
	{"description boolean", `{uri: U, name: 'n', get: G, description: false}`, `"description" must be a string, got boolean@`},
	{"description array", `{uri: U, name: 'n', get: G, description: ['d']}`, `"description" must be a string, got array@`},
	{"mimeType null", `{uri: U, name: 'n', get: G, mimeType: null}`, `"mimeType" must be a string, got null@`},
	{"mimeType object", `{uri: U, name: 'n', get: G, mimeType: {}}`, `"mimeType" must be a string, got object@`},

	// annotations.
	{"annotations null", `{uri: U, name: 'n', get: G, annotations: null}`, `"annotations" must be an object, got null@`},
	{"annotations array", `{uri: U, name: 'n', get: G, annotations: []}`, `"annotations" must be an object, got array@`},
	{"annotations string", `{uri: U, name: 'n', get: G, annotations: 'user'}`, `"annotations" must be an object, got string@`},
	{"annotations number", `{uri: U, name: 'n', get: G, annotations: 1}`, `"annotations" must be an object, got number@`},
	{"audience string", `{uri: U, name: 'n', get: G, annotations: {audience: 'user'}}`, `"annotations.audience" must be an array, got string@`},
	{"audience null", `{uri: U, name: 'n', get: G, annotations: {audience: null}}`, `"annotations.audience" must be an array, got null@`},
	{"audience object", `{uri: U, name: 'n', get: G, annotations: {audience: {}}}`, `"annotations.audience" must be an array, got object@`},
	{"audience entry unknown", `{uri: U, name: 'n', get: G, annotations: {audience: ['user', 'bot']}}`, `"annotations.audience[1]" must be "user" or "assistant"@`},
	{"audience entry number", `{uri: U, name: 'n', get: G, annotations: {audience: [1]}}`, `"annotations.audience[0]" must be "user" or "assistant"@`},
	{"audience entry case", `{uri: U, name: 'n', get: G, annotations: {audience: ['assistant', 'User']}}`, `"annotations.audience[1]" must be "user" or "assistant"@`},
	{"priority above 1", `{uri: U, name: 'n', get: G, annotations: {priority: 1.5}}`, `"annotations.priority" must be a number from 0 to 1@`},
	{"priority negative", `{uri: U, name: 'n', get: G, annotations: {priority: -0.1}}`, `"annotations.priority" must be a number from 0 to 1@`},
	{"priority NaN", `{uri: U, name: 'n', get: G, annotations: {priority: NaN}}`, `"annotations.priority" must be a number from 0 to 1@`},
	{"priority string", `{uri: U, name: 'n', get: G, annotations: {priority: '0.5'}}`, `"annotations.priority" must be a number from 0 to 1@`},
	{"priority null", `{uri: U, name: 'n', get: G, annotations: {priority: null}}`, `"annotations.priority" must be a number from 0 to 1@`},
	{"lastModified word", `{uri: U, name: 'n', get: G, annotations: {lastModified: 'yesterday'}}`, `"annotations.lastModified" must be an ISO 8601 date string@`},
	{"lastModified number", `{uri: U, name: 'n', get: G, annotations: {lastModified: 1736899200000}}`, `"annotations.lastModified" must be an ISO 8601 date string@`},
	{"lastModified Date", `{uri: U, name: 'n', get: G, annotations: {lastModified: new Date(0)}}`, `"annotations.lastModified" must be an ISO 8601 date string@`},
	{"lastModified short", `{uri: U, name: 'n', get: G, annotations: {lastModified: '2025-1-5'}}`, `"annotations.lastModified" must be an ISO 8601 date string@`},
	{"lastModified other order", `{uri: U, name: 'n', get: G, annotations: {lastModified: '15/01/2025'}}`, `"annotations.lastModified" must be an ISO 8601 date string@`},
	{"lastModified garbage after T", `{uri: U, name: 'n', get: G, annotations: {lastModified: '2025-01-15Tgarbage'}}`, `"annotations.lastModified" must be an ISO 8601 date string@`},
	{"lastModified not a calendar date", `{uri: U, name: 'n', get: G, annotations: {lastModified: '2025-02-30'}}`, `"annotations.lastModified" must be an ISO 8601 date string@`},
	{"lastModified hour 24", `{uri: U, name: 'n', get: G, annotations: {lastModified: '2025-01-15T24:00Z'}}`, `"annotations.lastModified" must be an ISO 8601 date string@`},

	// Precedence: the first failure in the documented order wins.
	{"uri before name", `{uri: 5, name: 5}`, `"uri" must be a string, got number`},
	{"name before get", `{uri: U, get: 5}`, `"name" is required@`},
	{"get before subscribe", `{uri: U, name: 'n', get: 5, subscribe: 5}`, `"get" must be a function, got number@`},
	{"subscribe before title", `{uri: U, name: 'n', get: G, subscribe: 5, title: 5}`, `"subscribe" must be a function, got number@`},
	{"title before description", `{uri: U, name: 'n', get: G, title: 5, description: 5}`, `"title" must be a string, got number@`},
	{"description before mimeType", `{uri: U, name: 'n', get: G, description: 5, mimeType: 5}`, `"description" must be a string, got number@`},
	{"mimeType before annotations", `{uri: U, name: 'n', get: G, mimeType: 5, annotations: 5}`, `"mimeType" must be a string, got number@`},
	{"audience before priority", `{uri: U, name: 'n', get: G, annotations: {priority: 5, audience: 5}}`, `"annotations.audience" must be an array, got number@`},
	{"priority before lastModified", `{uri: U, name: 'n', get: G, annotations: {lastModified: 5, priority: 5}}`, `"annotations.priority" must be a number from 0 to 1@`},
}

// validationTableJSON is validationCases as the model page takes them:
// [{desc, want}, ...].
func validationTableJSON() string {
	type tableCase struct {
		Desc string `json:"desc"`
		Want string `json:"want"`
	}
	cases := make([]tableCase, len(validationCases))
	for i, c := range validationCases {
		cases[i] = tableCase{c.desc, c.want}
	}
	b, err := json.Marshal(cases)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func TestRegisterResourceValidation(t *testing.T) {
	cases := validationCases
	eachImpl(t, func(t *testing.T, impl string) {
		for i, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				p := open(t, impl, "", "")
				uri := fmt.Sprintf("test://invalid/%d", i)
				want := regPrefix + strings.Replace(c.want, "@", ` (uri "`+uri+`")`, 1)
				var got struct {
					Err                      map[string]any
					Before, After            []string
					ListChanges, Teardowns   int
					Read                     string
					ExistingPushesAfterwards int
				}
				// An existing registration under the same uri must survive
				// the failed attempt untouched.
				p.run(lines(
					`const U = `+jsString(uri)+`, G = () => 'new';`,
					`let onChange, teardowns = 0, listChanges = 0;`,
					`mc.registerResource({uri: U, name: 'existing', get: () => 'old',`,
					`  subscribe: (cb) => { onChange = cb; return () => { teardowns++; }; }});`,
					`const rec = H.record(mc, U);`,
					`const before = mc.getResources().map((d) => d.uri + ' ' + d.name);`,
					`const count = () => { listChanges++; };`,
					`mc.addEventListener('resourcelistchanged', count);`,
					`const err = H.error(() => mc.registerResource(`+c.desc+`));`,
					`mc.removeEventListener('resourcelistchanged', count);`,
					`const after = mc.getResources().map((d) => d.uri + ' ' + d.name);`,
					`const read = await mc.readResource(U);`,
					`onChange();`,
					`await H.settle();`,
					`return {err, before, after, listChanges, teardowns, read, existingPushesAfterwards: rec.handler.length};`,
				), &got)
				wantErr := map[string]any{"name": "TypeError", "message": want, "typeError": true, "domException": false, "error": true}
				errJSON, _ := json.Marshal(got.Err)
				wantJSON, _ := json.Marshal(wantErr)
				if d := jsonDiff(errJSON, string(wantJSON)); d != "" {
					t.Errorf("thrown error:\n%s", d)
				}
				if strings.Join(got.Before, ",") != strings.Join(got.After, ",") {
					t.Errorf("registrations changed:\nbefore %q\nafter  %q", got.Before, got.After)
				}
				if got.ListChanges != 0 || got.Teardowns != 0 || got.Read != "old" || got.ExistingPushesAfterwards != 1 {
					t.Errorf("the existing registration was disturbed: %d resourcelistchanged, %d teardowns, read %q, %d pushes (want 0, 0, \"old\", 1)",
						got.ListChanges, got.Teardowns, got.Read, got.ExistingPushesAfterwards)
				}
			})
		}
	})
}

// Valid descriptors at the edges of the rules register.
func TestRegisterResourceAccepts(t *testing.T) {
	cases := []struct{ name, desc string }{
		{"minimal", `{uri: 'a:b', name: 'n', get: G}`},
		{"scheme with + - .", `{uri: 'x+y-z.w:1', name: 'n', get: G}`},
		{"uppercase scheme", `{uri: 'STATE://cart', name: 'n', get: G}`},
		{"urn", `{uri: 'urn:isbn:0451450523', name: 'n', get: G}`},
		{"https", `{uri: 'https://example.com/x?y#z', name: 'n', get: G}`},
		{"optional fields undefined", `{uri: 'state://u', name: 'n', get: G, subscribe: undefined, title: undefined, description: undefined, mimeType: undefined, annotations: undefined}`},
		{"annotation fields undefined", `{uri: 'state://au', name: 'n', get: G, annotations: {audience: undefined, priority: undefined, lastModified: undefined}}`},
		{"empty annotations", `{uri: 'state://ea', name: 'n', get: G, annotations: {}}`},
		{"empty audience", `{uri: 'state://aa', name: 'n', get: G, annotations: {audience: []}}`},
		{"priority 0 and 1", `{uri: 'state://p0', name: 'n', get: G, annotations: {priority: 0, audience: ['user', 'assistant']}}`},
		{"priority 1", `{uri: 'state://p1', name: 'n', get: G, annotations: {priority: 1}}`},
		{"lastModified date", `{uri: 'state://d', name: 'n', get: G, annotations: {lastModified: '2025-01-15'}}`},
		{"lastModified UTC", `{uri: 'state://dt', name: 'n', get: G, annotations: {lastModified: '2025-01-15T10:20:30Z'}}`},
		{"lastModified offset", `{uri: 'state://do', name: 'n', get: G, annotations: {lastModified: '2025-01-15T10:20:30.123+02:00'}}`},
		{"lastModified leap day", `{uri: 'state://dl', name: 'n', get: G, annotations: {lastModified: '2024-02-29T23:59'}}`},
		{"unknown fields ignored", `{uri: 'state://x', name: 'n', get: G, color: 'red', uriTemplate: undefined, annotations: {audience: ['user'], other: 1}}`},
		{"async get", `{uri: 'state://async', name: 'n', get: async () => 1}`},
		{"class instance descriptor", `new (class { constructor() { this.uri = 'state://cls'; this.name = 'n'; this.get = G; } })()`},
		{"empty title", `{uri: 'state://et', name: 'n', get: G, title: '', description: '', mimeType: 'text/plain'}`},
	}
	eachImpl(t, func(t *testing.T, impl string) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				p := open(t, impl, "", "")
				var got json.RawMessage
				p.run(lines(
					`const G = () => 1;`,
					`let unregister;`,
					`const err = H.error(() => { unregister = mc.registerResource(`+c.desc+`); });`,
					`const listed = mc.getResources().length;`,
					`if (unregister) unregister();`,
					`return {err, listed, unregisterType: typeof unregister, afterUnregister: mc.getResources().length};`,
				), &got)
				p.compare(got, `{"err": null, "listed": 1, "unregisterType": "function", "afterUnregister": 0}`)
			})
		}
	})
}
