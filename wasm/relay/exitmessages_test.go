package relay

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// notExitMessages are errors of the relay's code that never end it, and why.
var notExitMessages = map[string]string{
	"removing the browser profile %s: %v": "only logged, as the relay ends",
}

// verb matches a fmt verb: what varies in a message.
var verb = regexp.MustCompile(`%[-+# 0]*[0-9]*(\.[0-9]+)?[a-zA-Z]`)

// TestExitMessagesDocumented: every error the relay's code makes (with
// fmt.Errorf or errors.New; any of them can be what Run returns, and what
// the command prints as it exits) is written, word for word, in the Errors
// section of wasm/cmd/relay/README.md, in one table row or paragraph; what
// a verb fills in may be written any way there (<url>, 30s, "mcp-default").
// A message of its own, not only a wrapper of others ("modelcontext: %w"),
// must be there; so must what it wraps.
func TestExitMessagesDocumented(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "cmd", "relay", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	start := strings.Index(text, "\n## Errors\n")
	if start < 0 {
		t.Fatal("wasm/cmd/relay/README.md has no ## Errors section")
	}
	section := text[start+1:]
	if end := strings.Index(section[3:], "\n## "); end >= 0 {
		section = section[:end+3]
	}
	// The blocks a message may be in: each table row, each paragraph.
	var blocks []string
	for _, para := range strings.Split(section, "\n\n") {
		if strings.HasPrefix(strings.TrimSpace(para), "|") {
			blocks = append(blocks, strings.Split(para, "\n")...)
		} else {
			blocks = append(blocks, para)
		}
	}
	for i, b := range blocks {
		blocks[i] = normalize(strings.ReplaceAll(b, `\|`, "|"))
	}

	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(node ast.Node) bool {
			call, ok := node.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			pkg, ok := sel.X.(*ast.Ident)
			if !ok || !(pkg.Name == "fmt" && sel.Sel.Name == "Errorf" || pkg.Name == "errors" && sel.Sel.Name == "New") {
				return true
			}
			lit, ok := call.Args[0].(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				t.Errorf("%s: an error whose message is not a literal; write it as one, so that this test finds it", fset.Position(call.Pos()))
				return true
			}
			format, err := strconv.Unquote(lit.Value)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := notExitMessages[format]; ok {
				return true
			}
			format, _, _ = strings.Cut(format, "\n") // the usage that follows
			own := strings.TrimPrefix(format, "modelcontext: ")
			if !regexp.MustCompile(`[a-zA-Z]`).MatchString(verb.ReplaceAllString(own, "")) {
				return true // a wrapper: what it wraps is checked where it is made
			}
			n++
			parts := verb.Split(normalize(format), -1)
			for i, p := range parts {
				parts[i] = regexp.QuoteMeta(p)
			}
			re := regexp.MustCompile(strings.Join(parts, ".*?"))
			for _, b := range blocks {
				if re.MatchString(b) {
					return true
				}
			}
			t.Errorf("%s: the message %q is not in the Errors section of wasm/cmd/relay/README.md", fset.Position(call.Pos()), format)
			return true
		})
	}
	t.Logf("%d messages checked", n)
	if n < 50 {
		t.Errorf("found %d messages in the relay's code; the test no longer finds them", n)
	}
}

// normalize drops Markdown's code quotes and folds white space.
func normalize(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "`", "")), " ")
}
