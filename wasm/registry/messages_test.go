package registry_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/registry"
)

// TestMessagesListsEveryMsgConstant: Messages lists each Msg constant of
// messages.go once, in order, under MSG_ and the rest of its Go name in
// capitals (MsgURIRequired: MSG_URI_REQUIRED), and no phrase twice.
func TestMessagesListsEveryMsgConstant(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "messages.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var declared, listed []string
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ValueSpec:
			for _, id := range n.Names {
				if strings.HasPrefix(id.Name, "Msg") {
					declared = append(declared, id.Name)
				}
			}
		case *ast.CompositeLit:
			if len(n.Elts) == 2 {
				name, _ := n.Elts[0].(*ast.BasicLit)
				id, _ := n.Elts[1].(*ast.Ident)
				if name != nil && id != nil {
					s, _ := strconv.Unquote(name.Value)
					if want := "MSG_" + capitals(strings.TrimPrefix(id.Name, "Msg")); s != want {
						t.Errorf("Messages lists %s as %s; want %s", id.Name, s, want)
					}
					listed = append(listed, id.Name)
				}
			}
		}
		return true
	})
	if strings.Join(listed, " ") != strings.Join(declared, " ") {
		t.Errorf("Messages lists\n %v\nmessages.go declares\n %v", listed, declared)
	}
	seen := map[string]string{}
	for _, m := range registry.Messages() {
		if m.Text == "" || seen[m.Text] != "" {
			t.Errorf("%s is empty or the text of %s too: %q", m.Name, seen[m.Text], m.Text)
		}
		seen[m.Text] = m.Name
	}
}

var wordStart = regexp.MustCompile(`([a-z0-9])([A-Z])|([A-Z])([A-Z][a-z])`)

// capitals spells a Go name in capitals, its words joined by "_".
func capitals(name string) string {
	return strings.ToUpper(wordStart.ReplaceAllString(name, "${1}${3}_${2}${4}"))
}
