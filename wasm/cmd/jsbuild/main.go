// Command jsbuild bundles the module's JavaScript with esbuild from the
// loader's ES modules (js/loader/*.js, the stub, and js/loader/runtime/*.js,
// the runtime), the constants generated from Go, and Go's wasm_exec.js:
//
//	dist/modelcontext.js          the classic script (<script src>): the stub
//	dist/modelcontext-runtime.js  the runtime the classic script imports
//	dist/modelcontext.mjs         the ES module (import { registerResource } from "modelcontext"): both
//	dist/modelcontext.cjs         the same for require("modelcontext")
//
// The stub is what every page downloads and runs: the members of
// document.modelContext, validation and the table, the queue before the
// module runs, declarative markup and the page resource, the tools'
// registration, the MCP servers' announcements, and when to start. The
// runtime is everything that runs once something consumes (Go's
// wasm_exec.js, the calls into Go, pushes, the MCP transport, the tools'
// answers): the classic script imports it from beside itself then (import(),
// an ES module whose build id it checks), so a visit without an agent
// downloads the stub alone. The ES module holds both in one file: a bundler
// then decides. How the two sides' imports of each other cross is in
// bundle.go; the entries and the opening are in assemble.go.
//
// The script finds the .wasm beside its own src; the module finds it with
// new URL("modelcontext.wasm", import.meta.url), the form bundlers
// recognise, rewrite and emit; the CommonJS module beside its __filename.
// Where there is no document (server rendering, Node.js), each installs
// nothing and exports members that register nowhere (js/loader/boot.js).
// The module's named exports are the members the
// loader installs on document.modelContext, taken from it once it is
// installed, so that a page that has both the tag and the import gets one
// registry and one fetch of the .wasm.
//
// Go's wasm_exec.js runs against a private object instead of the page's
// globalThis, so the loader adds, replaces and deletes no global.
//
//	go run ./wasm/cmd/jsbuild -o dist
//	go run ./wasm/cmd/jsbuild -o .cache/testdist -test             # the test build
//	go run ./wasm/cmd/jsbuild -constants .cache/constants.js       # the constants alone, for tsc
//
// `make build` runs the first. The test build (-test, `make build-test`) is
// the same loader with the modules of js/testhooks/ bundled in (stub.js
// with the stub, hooks.js with the runtime): the hooks the browser tests read counts
// from and break things with
// (document.modelContext[Symbol.for("modelcontext.internals")]). It is
// never written into a folder named dist: the files a page loads have no
// hooks, which this command's tests check. Its .wasm is the module built
// with -tags modelcontext_test, which adds the exports only the hooks call
// (testbuild.go); -wasm's exports are checked against the build it is for.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"github.com/modelcontext-go/modelcontext/wasm/mcp"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "jsbuild:", err)
		os.Exit(1)
	}
}

// RuntimeFile is the name of the classic script's runtime, beside it.
const RuntimeFile = "modelcontext-runtime.js"

// exports are the named exports of the ES module: members of
// document.modelContext.
var exports = []string{
	"registerResource", "getResources", "getResourceTemplates", "readResource",
	"subscribeResource", "serveMCP", "registerResourceTools", "registerPageResource", "connectFrame", "ready",
	"changesSince",
}

// bindingExports are the ES and CommonJS modules' exports for the framework
// bindings (js/bindings/core.js's bindingsOf), not members of
// document.modelContext. An ES module's exports are static, so they are
// listed; TestBindingExportsAreTheHelpers fails when this list and bindingsOf drift.
var bindingExports = []string{"resourceFields", "resourceKey", "checkResource", "followResource"}

func run(args []string) error {
	fl := flag.NewFlagSet("jsbuild", flag.ContinueOnError)
	out := fl.String("o", "", "write modelcontext.js, "+RuntimeFile+" and modelcontext.mjs into this `folder`")
	constsFile := fl.String("constants", "", "write the constants alone, and the type of the module's exports, into this `file` (for type-checking the loader)")
	bridge := fl.String("bridge", "wasm/bridge", "the `folder` of the bridge, whose //go:wasmexport functions type the exports in -constants' file, and which -wasm's exports are checked against")
	src := fl.String("loader", "js/loader", "the `folder` of the loader's source files (the runtime's in its runtime folder)")
	bindings := fl.String("bindings", "js/bindings/core.js", "the framework bindings' helpers, which the ES and CommonJS modules export (`file`)")
	test := fl.Bool("test", false, "write the test build: the loader with the test hooks bundled in (never into dist)")
	hooks := fl.String("testhooks", "js/testhooks", "the `folder` of the test build's hooks")
	wasmFile := fl.String("wasm", "", "the built `.wasm`, whose SHA-384 the classic script carries for an integrity attribute on its tag (integrity.go): with -test the test build's, which exports every //go:wasmexport function of the bridge, else one that exports none of the test build's own (testbuild.go)")
	glue := fl.String("wasm-exec", filepath.Join(runtime.GOROOT(), "lib", "wasm", "wasm_exec.js"), "Go's `wasm_exec.js`")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *constsFile != "" {
		exports, err := bridgeFuncs(*bridge, "//go:wasmexport")
		if err != nil {
			return err
		}
		if err := write(*constsFile, []byte("// @ts-check\n"+constantsJS()+exportsTypedef(exports))); err != nil {
			return err
		}
	}
	if *out == "" {
		return nil
	}
	if *test {
		abs, err := filepath.Abs(*out)
		if err != nil {
			return err
		}
		if filepath.Base(abs) == "dist" {
			return fmt.Errorf("-test writes the test build, which must not go into %s: pages load dist/; use -o .cache/testdist", *out)
		}
	}
	if *wasmFile != "" {
		if err := checkWasmExports(*wasmFile, *bridge, *test); err != nil {
			return err
		}
	}
	l, err := readLoader(*src, *hooks, *glue, *test)
	if err != nil {
		return err
	}
	l.bindings = *bindings
	built, err := l.build()
	if err != nil {
		return err
	}
	if err := addIntegrity(built, *test, *wasmFile); err != nil {
		return err
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	for _, name := range []string{"modelcontext.js", RuntimeFile, "modelcontext.mjs", "modelcontext.cjs"} {
		if err := write(filepath.Join(*out, name), append(header(*test, name), built[name]...)); err != nil {
			return err
		}
	}
	return nil
}

// header is the comment each built file starts with (minifying drops every
// other): what the file is, its licence and Go's; test marks the test build
// as such in its first line.
func header(test bool, name string) []byte {
	var b bytes.Buffer
	if test {
		b.WriteString("// The TEST BUILD of modelcontext (jsbuild -test), with test hooks: not for pages.\n")
	}
	fmt.Fprintf(&b, "// modelcontext %s: live resources on document.modelContext, backed by Go/WebAssembly.\n", mcp.Version)
	b.WriteString("// https://github.com/modelcontext-go/modelcontext (MIT).")
	switch name {
	case "modelcontext.js":
		fmt.Fprintf(&b, " When the module starts, it\n// imports %s and fetches modelcontext.wasm from beside itself.\n", RuntimeFile)
		return b.Bytes()
	case RuntimeFile:
		b.WriteString(" The runtime modelcontext.js imports.\n")
	case "modelcontext.cjs":
		b.WriteString(" The CommonJS module; it finds modelcontext.wasm beside itself.\n")
	default:
		b.WriteString(" It finds modelcontext.wasm beside itself.\n")
	}
	b.WriteString("// It includes Go's wasm_exec.js (Copyright 2018 The Go Authors, BSD-style licence).\n")
	return b.Bytes()
}

func write(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
