// Command jsbuild writes the module's two JavaScript entry points from the
// loader's source files (js/loader/*.js), the seam constants generated from
// Go, and Go's wasm_exec.js:
//
//	dist/modelcontext.js   the classic script (<script src>)
//	dist/modelcontext.mjs  the ES module (import { registerResource } from "modelcontext")
//
// Both hold the same loader in one function scope. The script finds the
// .wasm beside its own src; the module finds it with
// new URL("modelcontext.wasm", import.meta.url), the form bundlers
// recognise, rewrite and emit. The module's named exports are the members the
// loader installs on document.modelContext, taken from it once it is
// installed, so that a page that has both the tag and the import gets one
// registry and one fetch of the .wasm.
//
// Go's wasm_exec.js runs against a private object instead of the page's
// globalThis, so the loader adds, replaces and deletes no global.
//
//	go run ./wasm/cmd/jsbuild -o dist
//	go run ./wasm/cmd/jsbuild -o .cache/testdist -test   # the test build
//	go run ./wasm/cmd/jsbuild -seam .cache/seam.js       # the constants alone, for tsc
//
// `make build` runs the first. The test build (-test, `make build-test`) is
// the same loader with the files of js/testhooks/ appended: the hooks the
// browser tests read counts from and break things with
// (document.modelContext[Symbol.for("modelcontext.internals")]). It is
// never written into a folder named dist: the files a page loads have no
// hooks, which this command's tests check.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/modelcontext-go/modelcontext/wasm/mcp"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "jsbuild:", err)
		os.Exit(1)
	}
}

// files are the loader's source files in js/loader, in the order they are
// joined: each one's top-level statements may use what the ones before it
// declared.
var files = []string{
	"values.js", // value handles, kinds, error text
	"page.js",   // the script tag, the .wasm URL, document.modelContext
	"encode.js", // fields and strings into Go's memory
	"keys.js",   // comparison keys
	"table.js",  // the registration table: validation, list, lookups
	"host.js",   // the functions Go calls
	"api.js",    // the page API and the queue before ready
	"mcp.js",    // the MCP server's transport
	"tools.js",  // the tool fallback
	"markup.js", // declarative resources and the page resource
	"boot.js",   // fetch, compile, start; install the members
}

// testFiles are the test build's additions in js/testhooks, joined after
// the loader's files (in the same function scope), in this order.
var testFiles = []string{
	"hooks.js", // document.modelContext[Symbol.for("modelcontext.internals")]
}

// exports are the named exports of the ES module: members of
// document.modelContext.
var exports = []string{
	"registerResource", "getResources", "getResourceTemplates", "readResource",
	"subscribeResource", "serveMCP", "registerResourceTools", "registerPageResource", "ready",
}

func run(args []string) error {
	fl := flag.NewFlagSet("jsbuild", flag.ContinueOnError)
	out := fl.String("o", "", "write modelcontext.js and modelcontext.mjs into this `folder`")
	seamFile := fl.String("seam", "", "write the seam constants alone into this `file` (for type-checking the loader)")
	src := fl.String("loader", "js/loader", "the `folder` of the loader's source files")
	test := fl.Bool("test", false, "write the test build: the loader with the test hooks appended (never into dist)")
	hooks := fl.String("testhooks", "js/testhooks", "the `folder` of the test build's hooks")
	glue := fl.String("wasm-exec", filepath.Join(runtime.GOROOT(), "lib", "wasm", "wasm_exec.js"), "Go's `wasm_exec.js`")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *seamFile != "" {
		if err := write(*seamFile, []byte("// @ts-check\n"+seamJS())); err != nil {
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
	body, err := joinFiles(*src, files, "loader")
	if err != nil {
		return err
	}
	if *test {
		extra, err := joinFiles(*hooks, testFiles, "test hook")
		if err != nil {
			return err
		}
		body = append(body, extra...)
	}
	wasmExec, err := os.ReadFile(*glue)
	if err != nil {
		return err
	}
	if !bytes.Contains(wasmExec, []byte("globalThis.Go = class")) {
		return errors.New(*glue + " does not define globalThis.Go: not Go's wasm_exec.js?")
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	for _, module := range []bool{false, true} {
		name := "modelcontext.js"
		if module {
			name = "modelcontext.mjs"
		}
		code, err := minify(assemble(body, wasmExec, module), module)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if err := write(filepath.Join(*out, name), append(header(*test), code...)); err != nil {
			return err
		}
	}
	return nil
}

// minify shortens the assembled code (white space, local names, syntax), as
// esbuild does for a production build: every visitor downloads and parses
// the loader, agent or not. Strings, the exports of the ES module and its
// new URL("modelcontext.wasm", import.meta.url), which bundlers look for,
// are kept.
func minify(code []byte, module bool) ([]byte, error) {
	opts := api.TransformOptions{
		MinifyWhitespace:  true,
		MinifyIdentifiers: true,
		MinifySyntax:      true,
		Target:            api.ES2022,
		LegalComments:     api.LegalCommentsNone,
		Charset:           api.CharsetUTF8,
	}
	if module {
		opts.Format = api.FormatESModule
	}
	r := api.Transform(string(code), opts)
	if len(r.Errors) > 0 {
		e := r.Errors[0]
		where := ""
		if e.Location != nil {
			where = fmt.Sprintf(" (line %d: %s)", e.Location.Line, e.Location.LineText)
		}
		return nil, fmt.Errorf("minifying: %s%s", e.Text, where)
	}
	return r.Code, nil
}

// joinFiles joins the files of list in dir, checking that every .js file
// of the folder is listed (what names the list in the error).
func joinFiles(dir string, list []string, what string) ([]byte, error) {
	found, err := filepath.Glob(filepath.Join(dir, "*.js"))
	if err != nil {
		return nil, err
	}
	for _, f := range found {
		if !slices.Contains(list, filepath.Base(f)) {
			return nil, fmt.Errorf("%s is not in jsbuild's list of %s files", f, what)
		}
	}
	var b bytes.Buffer
	for _, name := range list {
		src, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		b.Write(stripComments(src))
	}
	return b.Bytes(), nil
}

// stripComments drops the lines of src that hold only a comment (// ...,
// or a /** ... */ block that starts its line), and blank lines: what the
// loader's files say to their readers and to tsc, a page need not download
// and parse. A comment inside a line of code stays.
func stripComments(src []byte) []byte {
	var b bytes.Buffer
	inBlock := false
	for _, line := range strings.SplitAfter(string(src), "\n") {
		t := strings.TrimSpace(line)
		switch {
		case inBlock:
			inBlock = !strings.HasSuffix(t, "*/")
		case strings.HasPrefix(t, "/*") && !strings.Contains(t, "*/"):
			inBlock = true
		case strings.HasPrefix(t, "/*") && strings.Index(t, "*/") == len(t)-2:
		case t == "", strings.HasPrefix(t, "//"):
		default:
			b.WriteString(line)
		}
	}
	return b.Bytes()
}

// header is the comment the built files start with (minifying drops every
// other): what the file is, its licence and Go's; test marks the test build
// as such in its first line.
func header(test bool) []byte {
	var b bytes.Buffer
	if test {
		b.WriteString("// The TEST BUILD of modelcontext (jsbuild -test), with test hooks: not for pages.\n")
	}
	fmt.Fprintf(&b, `// modelcontext %s: live resources on document.modelContext, backed by Go/WebAssembly.
// https://github.com/modelcontext-go/modelcontext (MIT). It includes Go's
// wasm_exec.js (Copyright 2018 The Go Authors, BSD-style licence) and finds
// modelcontext.wasm beside itself.
`, mcp.Version)
	return b.Bytes()
}

// assemble wraps the loader as the classic script or as the ES module.
func assemble(body, wasmExec []byte, module bool) []byte {
	var b bytes.Buffer
	if module {
		// A bundler that emits no module (esbuild's iife or cjs) turns
		// import.meta into {}: the loader then finds the .wasm beside the
		// bundle, as it does for the classic script.
		b.WriteString("let moduleWasmURL = \"\";\ntry {\n  moduleWasmURL = new URL(\"modelcontext.wasm\", import.meta.url).href;\n} catch {}\n")
	}
	b.WriteString("(() => {\n\"use strict\";\n")
	b.WriteString("const INSTALLED = Symbol.for(\"modelcontext.resources\");\n")
	b.WriteString("{\n  const existing = /** @type {any} */ (document).modelContext;\n  if (existing && existing[INSTALLED]) return; // loaded twice: the first copy serves\n}\n")
	if !module {
		b.WriteString("const moduleWasmURL = \"\";\n")
	}
	b.WriteString(seamJS())
	b.WriteString(`// Go's wasm_exec.js, run against goGlobals instead of the page's globalThis:
// where the page lacks fs, process and path it defines them there, never on
// the page, and it defines Go there. fs is the binding its output goes
// through. The module does not use syscall/js, so the Go runtime never needs
// the real globalThis through this object.
const goGlobals = {
  crypto: globalThis.crypto,
  performance: globalThis.performance,
  TextEncoder: globalThis.TextEncoder,
  TextDecoder: globalThis.TextDecoder,
};
let fs;
((globalThis) => {
`)
	b.Write(wasmExec)
	b.WriteString("})(goGlobals);\nconst Go = goGlobals.Go;\nfs = goGlobals.fs;\n")
	b.Write(body)
	b.WriteString("})();\n")
	if module {
		b.WriteString("const modelContext = document.modelContext;\n")
		for _, name := range exports {
			fmt.Fprintf(&b, "export const %s = modelContext.%s;\n", name, name)
		}
	}
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
