package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"path/filepath"
	"sort"
	"strings"
)

// goFunc is a function of the bridge with its directive's name.
type goFunc struct {
	sig    string   // "func hostDeliver(sub, v int32) int32"
	params int      // wasm parameters: a string is two
	names  []string // their names: a string s is s and sLen
	result bool     // it returns a value
	// testOnly: it is in a file built only into the test build
	// (testBuildOnly), an export only the test hooks call.
	testOnly bool
}

// bridgeFuncs parses the Go files of the bridge in dir (tests aside) and
// returns its functions marked with directive ("//go:wasmimport
// modelcontext" or "//go:wasmexport"), by the name the directive gives,
// those of the test build's files (testBuildOnly) with testOnly set.
func bridgeFuncs(dir, directive string) (map[string]goFunc, error) {
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	out := map[string]goFunc{}
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		testOnly, err := testBuildOnly(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Doc == nil {
				continue
			}
			for _, c := range fd.Doc.List {
				name, ok := strings.CutPrefix(c.Text, directive+" ")
				if !ok {
					continue
				}
				var b bytes.Buffer
				printer.Fprint(&b, fset, &ast.FuncDecl{Name: fd.Name, Type: fd.Type})
				g := goFunc{sig: b.String(), result: fd.Type.Results != nil && len(fd.Type.Results.List) > 0, testOnly: testOnly}
				for _, p := range fd.Type.Params.List {
					str := false
					if id, ok := p.Type.(*ast.Ident); ok && id.Name == "string" {
						str = true
					}
					for _, n := range p.Names {
						g.names = append(g.names, n.Name)
						if str {
							g.names = append(g.names, n.Name+"Len")
						}
					}
				}
				g.params = len(g.names)
				out[strings.TrimSpace(name)] = g
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no %s functions found in %s", directive, dir)
	}
	return out, nil
}

// exportsTypedef renders the types of the module's exports for tsc: the
// bridge's //go:wasmexport functions, each with as many parameters as it
// takes, and the memory (ModuleExports), and apart the test build's own
// (TestModuleExports, which only the test hooks use). The loader's ex has
// the first type, so that a call of an export that does not exist, or
// that only the test build has, or with a wrong number of arguments, fails
// make check-loader.
func exportsTypedef(exports map[string]goFunc) string {
	names := make([]string, 0, len(exports))
	for name := range exports {
		names = append(names, name)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("/**\n * @typedef {object} ModuleExports the module's exports (wasm/bridge's //go:wasmexport functions but the test build's own), generated from Go\n")
	b.WriteString(" * @property {WebAssembly.Memory} mem\n")
	writeExports(&b, exports, names, false)
	b.WriteString(" */\n")
	b.WriteString("/**\n * @typedef {object} TestModuleExports the test build's exports besides ModuleExports (wasm/bridge's " + testBuildPrefix + "*.go, -tags " + testBuildTag + "), generated from Go\n")
	writeExports(&b, exports, names, true)
	b.WriteString(" */\n")
	return b.String()
}

// writeExports writes a @property line for each of names whose testOnly is
// test.
func writeExports(b *strings.Builder, exports map[string]goFunc, names []string, test bool) {
	for _, name := range names {
		f := exports[name]
		if f.testOnly != test {
			continue
		}
		params := make([]string, len(f.names))
		for i, p := range f.names {
			params[i] = p + ": number"
		}
		result := "void"
		if f.result {
			result = "number"
		}
		fmt.Fprintf(b, " * @property {(%s) => %s} %s %s\n", strings.Join(params, ", "), result, name, f.sig)
	}
}
