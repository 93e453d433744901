//go:build !(js && wasm)

package modelcontext

import (
	"go/build/constraint"
	"go/parser"
	"go/token"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestBrowserFilesAreTagged: a file that uses syscall/js (or dom/v2) builds
// only for the browser, `//go:build js && wasm`, and every other file builds
// on the host too, so that the pure logic keeps its host tests (-race).
func TestBrowserFilesAreTagged(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files: %v", err)
	}
	browser := func(tag string) bool { return tag == "js" || tag == "wasm" }
	host := func(tag string) bool { return tag == runtime.GOOS || tag == runtime.GOARCH }
	for _, name := range files {
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		usesJS := false
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if p == "syscall/js" || strings.HasPrefix(p, "honnef.co/go/js/dom") {
				usesJS = true
			}
		}
		var expr constraint.Expr
		for _, c := range f.Comments {
			if c.Pos() > f.Package {
				break
			}
			for _, l := range c.List {
				if constraint.IsGoBuild(l.Text) {
					if expr, err = constraint.Parse(l.Text); err != nil {
						t.Fatalf("%s: %v", name, err)
					}
				}
			}
		}
		inBrowser, onHost := expr == nil || expr.Eval(browser), expr == nil || expr.Eval(host)
		switch {
		case usesJS && (expr == nil || onHost || !inBrowser):
			t.Errorf("%s imports syscall/js but is not tagged //go:build js && wasm", name)
		case usesJS && !strings.HasSuffix(strings.TrimSuffix(name, "_test.go"), "_js") && !strings.HasSuffix(name, "_js.go"):
			t.Errorf("%s uses syscall/js: name it *_js.go (or *_js_test.go), so that its name says so too", name)
		case !usesJS && !onHost && !strings.HasSuffix(name, "_test.go"):
			t.Errorf("%s has no syscall/js but does not build on the host: its logic would lose the host tests", name)
		}
	}
}
