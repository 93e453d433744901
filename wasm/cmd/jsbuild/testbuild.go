package main

import (
	"encoding/binary"
	"errors"
	"fmt"
	"go/ast"
	"go/build/constraint"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// The test build's own exports: the //go:wasmexport functions only the test
// hooks call (js/testhooks) are in files of the bridge named testbuild*.go,
// built only with this tag (make build-test: .cache/testdist/modelcontext.wasm),
// so that dist/'s .wasm, the one pages download, lacks them. The tests hold
// every such file to the tag, the loader to calling none of them, and the
// built .wasm files to their exports; run checks the .wasm it hashes.
const (
	testBuildTag    = "modelcontext_test"
	testBuildPrefix = "testbuild" // the names of the bridge's files for the test build alone
)

// testBuildOnly reports whether f's //go:build line keeps it out of the
// module (js, wasm) and puts it into the test build (js, wasm and
// testBuildTag).
func testBuildOnly(f *ast.File) (bool, error) {
	for _, g := range f.Comments {
		if g.Pos() > f.Package {
			break
		}
		for _, c := range g.List {
			if !constraint.IsGoBuild(c.Text) {
				continue
			}
			expr, err := constraint.Parse(c.Text)
			if err != nil {
				return false, err
			}
			with := func(test bool) bool {
				return expr.Eval(func(tag string) bool { return tag == "js" || tag == "wasm" || test && tag == testBuildTag })
			}
			return !with(false) && with(true), nil
		}
	}
	return false, nil
}

// wasmExports returns the names a .wasm exports: its export section's.
func wasmExports(b []byte) ([]string, error) {
	if len(b) < 8 || string(b[:4]) != "\x00asm" {
		return nil, errors.New("not a WebAssembly module")
	}
	bad := errors.New("a malformed WebAssembly module")
	i := 8
	// uleb reads an unsigned LEB128 number (Go's uvarint) at b[*i:]: a
	// size or a count, so at most len(b), or (any) an index.
	uleb := func(b []byte, i *int, any bool) (int, error) {
		v, n := binary.Uvarint(b[*i:])
		if n <= 0 || v > uint64(len(b)) && !any || v > 1<<32 {
			return 0, bad
		}
		*i += n
		return int(v), nil
	}
	for i < len(b) {
		id := b[i]
		i++
		size, err := uleb(b, &i, false)
		if err != nil || i+size > len(b) {
			return nil, bad
		}
		if id != 7 { // the export section
			i += size
			continue
		}
		sec, j := b[i:i+size], 0
		count, err := uleb(sec, &j, false)
		if err != nil {
			return nil, err
		}
		var names []string
		for range count {
			n, err := uleb(sec, &j, false)
			if err != nil || j+n+1 > len(sec) {
				return nil, bad
			}
			names = append(names, string(sec[j:j+n]))
			j += n + 1 // the name, the kind
			if _, err := uleb(sec, &j, true); err != nil {
				return nil, err
			}
		}
		return names, nil
	}
	return nil, nil
}

// checkWasmExports checks the .wasm at wasmFile against the bridge in
// bridge: the test build's (test) exports every //go:wasmexport function,
// any other none of the test build's own.
func checkWasmExports(wasmFile, bridge string, test bool) error {
	b, err := os.ReadFile(wasmFile)
	if err != nil {
		return fmt.Errorf("-wasm: %w (build the .wasm before the loader: make dist/modelcontext.wasm)", err)
	}
	names, err := wasmExports(b)
	if err != nil {
		return fmt.Errorf("%s: %w", wasmFile, err)
	}
	exports, err := bridgeFuncs(bridge, "//go:wasmexport")
	if err != nil {
		return err
	}
	var wrong []string
	for name, f := range exports {
		has := slices.Contains(names, name)
		if test && !has || !test && f.testOnly && has {
			wrong = append(wrong, name)
		}
	}
	slices.Sort(wrong)
	switch {
	case len(wrong) == 0:
		return nil
	case test:
		return fmt.Errorf("%s lacks %s: the test build's .wasm is built with -tags %s (make build-test)", wasmFile, strings.Join(wrong, ", "), testBuildTag)
	}
	return fmt.Errorf("%s exports %s, which only the test build may (%s/%s*.go, -tags %s): it is not the module pages load", wasmFile, strings.Join(wrong, ", "), filepath.ToSlash(bridge), testBuildPrefix, testBuildTag)
}
