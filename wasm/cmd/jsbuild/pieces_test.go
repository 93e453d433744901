package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGoInSmallPieces holds the repository's Go, tests and testdata aside, to
// functions (declarations and literals) of at most 100 lines, from the line
// of func to the line of its closing brace, and files of at most 600 lines,
// as wasm/README.md promises: a longer file holds more than one concept. (make
// check-loader checks the JavaScript's functions, with
// testdata/types/pieces.mjs.)
func TestGoInSmallPieces(t *testing.T) {
	const longFile, maxFunction = 600, 100
	root := "../../.."
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".") || name == "dist") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		files++
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if n := strings.Count(string(src), "\n"); n > longFile {
			t.Errorf("%s: %d lines (at most %d): split it by concept", rel, n, longFile)
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			var name string
			switch fn := n.(type) {
			case *ast.FuncDecl:
				if fn.Body == nil {
					return true
				}
				name = fn.Name.Name
			case *ast.FuncLit:
				name = "a function literal"
			default:
				return true
			}
			first, last := fset.Position(n.Pos()).Line, fset.Position(n.End()).Line
			if last-first+1 > maxFunction {
				t.Errorf("%s:%d: %s is %d lines (at most %d)", rel, first, name, last-first+1, maxFunction)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 50 {
		t.Fatalf("found %d Go files under %s: is the walk looking at the repository?", files, root)
	}
}
