package mcp

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/modelcontext-go/modelcontext/wasm/registry"
	"github.com/modelcontext-go/modelcontext/wasm/registry/registrytest"
)

var update = flag.Bool("update", false, "rewrite the server sections of testdata/transcripts/*.txtar from what the server said")

// TestTranscripts plays each testdata/transcripts/*.txtar against a Server
// and compares what it posted with the file's server section. A file has:
//
//	-- page --    the page's registrations, one a line:
//	              resource <uri> <JSON value>
//	              template <uri template> <MIME type>
//	              completer <uri template> <variable> <JSON array of strings>
//	              completer <uri template> <variable> throws <message>
//	-- client --  one JSON-RPC message a line, sent from the page's own
//	              window; "page: change <uri> <JSON value>" changes a
//	              resource's value; "#" lines are comments
//	-- server --  every message the server posted, in order, one a line
//
// The fake host plays the loader: it inserts the list entries a response
// attaches (only "uri", or "uriTemplate" and "mimeType") and a read's text
// (the value as JSON). The server's start message, "mcp-server-ready", is
// not shown.
func TestTranscripts(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "transcripts", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no transcripts in testdata/transcripts (%v)", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			a := parseTxtar(string(data))
			got := play(t, a.section("page"), a.section("client"))
			want := a.section("server")
			if got == want {
				return
			}
			if *update {
				a.set("server", got)
				if err := os.WriteFile(file, []byte(a.format()), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			t.Errorf("%s: the server said otherwise (-want +got; go test ./wasm/mcp -run TestTranscripts -update rewrites it):\n%s", file, lineDiff(want, got))
		})
	}
}

// play registers the page, sends the client's lines and returns the server's
// posts, one a line.
func play(t *testing.T, page, client string) string {
	t.Helper()
	h := &transcriptHost{reg: registrytest.New(), values: map[string]any{}, onChange: map[string]func(){},
		templates: map[registry.ID]string{}, completers: map[string]string{}, texts: map[registry.Value]string{}}
	for _, line := range lines(page) {
		h.declare(t, line)
	}
	h.s = New(1, h, h.reg.R, Options{PageSize: 2, AllowedOrigins: []string{origin}})
	if len(h.out) != 1 || h.out[0] != `"mcp-server-ready"` {
		t.Fatalf("start announced %q", h.out)
	}
	h.out = nil
	for _, line := range lines(client) {
		if rest, ok := strings.CutPrefix(line, "page: change "); ok {
			uri, value, _ := strings.Cut(rest, " ")
			h.values[uri] = decode(t, value)
			change := h.onChange[uri]
			if change == nil {
				t.Fatalf("page: change %s: no resource %s with a subscribe function in the page section", uri, uri)
			}
			h.changes++
			change()
			continue
		}
		m := message(t, line, h.reg.Resolve)
		h.s.Handle(&m, true)
		h.finish(t)
	}
	return strings.Join(h.out, "\n")
}

// transcriptHost is the Host of a transcript: it answers reads and
// completions as soon as the server's Handle returns, as a quick page would.
type transcriptHost struct {
	s          *Server
	reg        *registrytest.Host
	out        []string
	resources  []string // the loader's entries, in order
	tmplList   [][2]string
	values     map[string]any
	onChange   map[string]func()
	templates  map[registry.ID]string // template id → its text
	completers map[string]string      // "<template> <variable>" → its JSON array or "throws <message>"
	texts      map[registry.Value]string
	lastText   registry.Value
	changes    int // "page: change" lines so far: the page's revision
	reads      []fakeRead
	completes  []fakeComplete
}

func (h *transcriptHost) declare(t *testing.T, line string) {
	kind, rest, _ := strings.Cut(line, " ")
	switch kind {
	case "resource":
		uri, value, _ := strings.Cut(rest, " ")
		h.values[uri] = decode(t, value)
		h.resources = append(h.resources, uri)
		h.reg.Register(uri, func() (any, error) { return h.values[uri], nil },
			func(f func()) any { h.onChange[uri] = f; return registrytest.Teardown(func() {}) })
	case "template":
		tmpl, mime, _ := strings.Cut(rest, " ")
		h.tmplList = append(h.tmplList, [2]string{tmpl, mime})
		id := h.reg.RegisterTemplate(tmpl, mime, func(ps []registry.Param) (any, error) {
			v := map[string]string{}
			for _, p := range ps {
				v[p.Name] = p.Value
			}
			return v, nil
		})
		h.templates[id] = tmpl
	case "completer":
		tmpl, rest, _ := strings.Cut(rest, " ")
		variable, answer, _ := strings.Cut(rest, " ")
		h.completers[tmpl+" "+variable] = answer
	default:
		t.Fatalf("page section: %q is not resource, template or completer", line)
	}
}

func (h *transcriptHost) Post(server int32, session, msg string, attach Attachment, first, count int, v registry.Value) {
	msg = strings.Clone(msg) // msg is valid only during the call
	var entries []string
	switch attach {
	case AttachResources:
		for _, uri := range h.resources[first : first+count] {
			entries = append(entries, `{"uri":`+quoteJSON(uri)+`}`)
		}
		msg = insertAfter(msg, `"result":{`, `"resources":[`+strings.Join(entries, ",")+`]`)
	case AttachTemplates:
		for _, tm := range h.tmplList[first : first+count] {
			entries = append(entries, `{"uriTemplate":`+quoteJSON(tm[0])+`,"mimeType":`+quoteJSON(tm[1])+`}`)
		}
		msg = insertAfter(msg, `"result":{`, `"resourceTemplates":[`+strings.Join(entries, ",")+`]`)
	case AttachText, AttachTextKept:
		i := strings.Index(msg, `"contents":[`)
		j := strings.Index(msg[i:], "}]") + i
		msg = msg[:j] + `,"text":` + quoteJSON(h.texts[v]) + msg[j:]
		h.Release(v)
		if attach == AttachTextKept {
			msg += " +kept"
		}
	case AttachChanges:
		msg += " +changes"
	}
	if session != "" {
		msg = session + ": " + msg
	}
	h.out = append(h.out, msg)
}

// insertAfter inserts member at the start of the object that opens with
// prefix in msg.
func insertAfter(msg, prefix, member string) string {
	i := strings.Index(msg, prefix) + len(prefix)
	if msg[i] != '}' {
		member += ","
	}
	return msg[:i] + member + msg[i:]
}

func (h *transcriptHost) Read(server, req int32, id registry.ID, params string) {
	h.reads = append(h.reads, fakeRead{req, id, params})
}

func (h *transcriptHost) Complete(server, req int32, id registry.ID, name, value, args string) {
	h.completes = append(h.completes, fakeComplete{req, id, name, value, args})
}

func (h *transcriptHost) TextBytes(v registry.Value) int { return len(h.texts[v]) }

// Revision counts the page's changes so far.
func (h *transcriptHost) Revision() float64 { return float64(h.changes) }

// Forget shows that the host dropped what a session received.
func (h *transcriptHost) Forget(server int32, session string) {
	h.out = append(h.out, "(forget "+strconv.Quote(session)+")")
}
func (h *transcriptHost) Release(v registry.Value) { delete(h.texts, v) }

// finish answers the reads and completions the last message asked for.
func (h *transcriptHost) finish(t *testing.T) {
	for len(h.reads) > 0 {
		r := h.reads[0]
		h.reads = h.reads[1:]
		var ps []registry.Param
		if r.params != "" {
			var m map[string]string
			if err := json.Unmarshal([]byte(r.params), &m); err != nil {
				t.Fatalf("read params %s: %v", r.params, err)
			}
			for k, v := range m {
				ps = append(ps, registry.Param{Name: k, Value: v})
			}
		}
		v, err := h.reg.Read(r.id, ps)
		if err != nil {
			h.s.ReadDone(r.req, ContentFailed, 0, 0, err.Error())
			continue
		}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		h.lastText++
		h.texts[h.lastText] = string(b)
		h.s.ReadDone(r.req, ContentText, h.lastText, len(utf16.Encode([]rune(string(b)))), "")
	}
	for len(h.completes) > 0 {
		c := h.completes[0]
		h.completes = h.completes[1:]
		answer, ok := h.completers[h.templates[c.id]+" "+c.name]
		if msg, throws := strings.CutPrefix(answer, "throws "); throws {
			h.s.CompleteDone(c.req, registry.Field{}, true, msg)
			continue
		}
		var values []string
		if ok {
			if err := json.Unmarshal([]byte(answer), &values); err != nil {
				t.Fatalf("completer %s %s: %v", h.templates[c.id], c.name, err)
			}
		}
		h.s.CompleteDone(c.req, strs(values...), false, "")
	}
}

func decode(t *testing.T, s string) any {
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("value %s: %v", s, err)
	}
	return v
}

// lines returns the lines of s that are neither empty nor comments.
func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

// lineDiff shows want and got line by line: "  " where they agree, "-" and
// "+" where they differ.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := 0; i < max(len(w), len(g)); i++ {
		switch {
		case i < len(w) && i < len(g) && w[i] == g[i]:
			fmt.Fprintf(&b, "  %s\n", w[i])
		default:
			if i < len(w) {
				fmt.Fprintf(&b, "- %s\n", w[i])
			}
			if i < len(g) {
				fmt.Fprintf(&b, "+ %s\n", g[i])
			}
		}
	}
	return b.String()
}

// txtar is a txtar archive (golang.org/x/tools/txtar's format): a comment,
// then sections that each start with a line "-- name --".
type txtar struct {
	comment  string
	names    []string
	contents []string
}

func parseTxtar(s string) *txtar {
	a := &txtar{}
	cur := &a.comment
	for _, line := range strings.SplitAfter(s, "\n") {
		l := strings.TrimRight(line, "\n")
		if strings.HasPrefix(l, "-- ") && strings.HasSuffix(l, " --") && len(l) > 6 {
			a.names = append(a.names, strings.TrimSpace(l[3:len(l)-3]))
			a.contents = append(a.contents, "")
			cur = &a.contents[len(a.contents)-1]
			continue
		}
		*cur += line
	}
	return a
}

// section returns the content of section name without its final newline.
func (a *txtar) section(name string) string {
	for i, n := range a.names {
		if n == name {
			return strings.TrimRight(a.contents[i], "\n")
		}
	}
	return ""
}

func (a *txtar) set(name, content string) {
	for i, n := range a.names {
		if n == name {
			a.contents[i] = content + "\n"
			return
		}
	}
	a.names = append(a.names, name)
	a.contents = append(a.contents, content+"\n")
}

func (a *txtar) format() string {
	var b strings.Builder
	b.WriteString(a.comment)
	for i, n := range a.names {
		fmt.Fprintf(&b, "-- %s --\n%s", n, a.contents[i])
	}
	return b.String()
}
