// Command jsbuild writes the module's JavaScript from the loader's source
// files (js/loader/*.js, the stub, and js/loader/runtime/*.js, the
// runtime), the constants generated from Go, and Go's wasm_exec.js:
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
// downloads about 7 KB of loader and no runtime. The ES module holds both in one file: a bundler then decides.
// How the two sides' names cross is in scope.go.
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
// the same loader with the files of js/testhooks/ appended (stub.js to the
// stub, hooks.js to the runtime): the hooks the browser tests read counts
// from and break things with
// (document.modelContext[Symbol.for("modelcontext.internals")]). It is
// never written into a folder named dist: the files a page loads have no
// hooks, which this command's tests check. Its .wasm is the module built
// with -tags modelcontext_test, which adds the exports only the hooks call
// (testbuild.go); -wasm's exports are checked against the build it is for.
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
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

// files are the stub's source files in js/loader, in the order they are
// joined: each one's top-level statements may use what the ones before it
// declared. The stub is what every page downloads and runs: the members of
// document.modelContext, validation, the table, the queue before the module
// runs, markup and the page resource, and when to start.
var files = []string{
	"values.js",    // kinds, error text
	"integrity.js", // what the tag's integrity vouches for: the runtime and the .wasm
	"page.js",      // the script tag, the .wasm URL, document.modelContext
	"table.js",     // descriptors, validation; the table before boot, then the cache of Go's answers
	"api.js",       // the page API and the queue before ready
	"mcp.js",       // serveMCP, and its servers before the module runs
	"tools.js",     // registerResourceTools
	"frames.js",    // connectFrame, and its connections before the module runs
	"markup.js",    // declarative resources and the page resource
	"inspect.js",   // the inspection channel of the DevTools panel, free when no one listens
	"boot.js",      // when to start; install the members
}

// runtimeFiles are the runtime's source files in js/loader/runtime, joined
// in this order after Go's wasm_exec.js: what runs once the module starts.
var runtimeFiles = []string{
	"handles.js",       // value handles
	"encode.js",        // fields and strings into Go's memory
	"keys.js",          // comparison keys
	"lookup.js",        // registrations by ID; the template Go finds for a uri
	"changes.js",       // the page's revision, what changed since one, patches for those that follow
	"patch.js",         // RFC 6902 patches between JSON values
	"host.js",          // the functions Go calls
	"lifecycle.js",     // registrations once the module runs; the replay
	"server.js",        // the MCP server's transport
	"complete.js",      // completion of templates' variables for the MCP server
	"resourcetools.js", // the resource tools
	"address.js",       // the page resource's subscribe
	"frameclient.js",   // connectFrame's MCP client of a frame, and its resources as the page's own
	"start.js",         // fetch, compile, start
}

// testFiles are the test build's additions in js/testhooks, joined after
// the stub's files (in its scope), and testRuntimeFiles after the
// runtime's, in these orders.
var (
	testFiles        = []string{"stub.js"}  // document.modelContext[Symbol.for("modelcontext.internals")]
	testRuntimeFiles = []string{"hooks.js"} // what it reads in the runtime
)

// RuntimeFile is the name of the classic script's runtime, beside it.
const RuntimeFile = "modelcontext-runtime.js"

// exports are the named exports of the ES module: members of
// document.modelContext.
var exports = []string{
	"registerResource", "getResources", "getResourceTemplates", "readResource",
	"subscribeResource", "serveMCP", "registerResourceTools", "registerPageResource", "connectFrame", "ready",
	"changesSince",
}

func run(args []string) error {
	fl := flag.NewFlagSet("jsbuild", flag.ContinueOnError)
	out := fl.String("o", "", "write modelcontext.js, "+RuntimeFile+" and modelcontext.mjs into this `folder`")
	constsFile := fl.String("constants", "", "write the constants alone, and the type of the module's exports, into this `file` (for type-checking the loader)")
	bridge := fl.String("bridge", "wasm/bridge", "the `folder` of the bridge, whose //go:wasmexport functions type the exports in -constants' file, and which -wasm's exports are checked against")
	src := fl.String("loader", "js/loader", "the `folder` of the loader's source files (the runtime's in its runtime folder)")
	test := fl.Bool("test", false, "write the test build: the loader with the test hooks appended (never into dist)")
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

// loader is the sources of one build.
type loader struct {
	stub, runtime, wasmExec   []byte
	stubConsts, runtimeConsts string // the constants from Go of each side (build)
	test                      bool
}

func readLoader(src, hooks, glue string, test bool) (loader, error) {
	l := loader{test: test}
	var err error
	if l.stub, err = joinFiles(src, files, "loader"); err != nil {
		return l, err
	}
	if l.runtime, err = joinFiles(filepath.Join(src, "runtime"), runtimeFiles, "runtime"); err != nil {
		return l, err
	}
	if test {
		all := append(slices.Clone(testFiles), testRuntimeFiles...)
		extra, err := joinSome(hooks, testFiles, all, "test hook")
		if err != nil {
			return l, err
		}
		l.stub = append(l.stub, extra...)
		if extra, err = joinSome(hooks, testRuntimeFiles, all, "test hook"); err != nil {
			return l, err
		}
		l.runtime = append(l.runtime, extra...)
	}
	if l.wasmExec, err = os.ReadFile(glue); err != nil {
		return l, err
	}
	if !bytes.Contains(l.wasmExec, []byte("globalThis.Go = class")) {
		return l, errors.New(glue + " does not define globalThis.Go: not Go's wasm_exec.js?")
	}
	return l, nil
}

// build assembles and minifies the three files.
func (l *loader) build() (map[string][]byte, error) {
	// The constants from Go that the stub uses are the stub's (and passed to the
	// runtime when it uses them too); the others, the runtime's.
	usedByStub := identifiers(string(l.stub))
	l.stubConsts = constantsOf(func(name string) bool { return usedByStub[name] })
	l.runtimeConsts = constantsOf(func(name string) bool { return !usedByStub[name] })
	c, err := crossings(l.stubConsts+string(l.stub), l.runtimeConsts+string(l.runtime))
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(append(append(slices.Clone(l.stub), l.runtime...), l.wasmExec...))
	id := hex.EncodeToString(sum[:6])
	out := map[string][]byte{}
	for name, code := range map[string][]byte{
		"modelcontext.js":  l.assembleScript(c, id),
		RuntimeFile:        l.assembleRuntimeModule(c, id),
		"modelcontext.mjs": l.assembleModule(c, false),
		"modelcontext.cjs": l.assembleModule(c, true),
	} {
		module := name == RuntimeFile || name == "modelcontext.mjs"
		if out[name], err = minify(code, module); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	return out, nil
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
	return joinSome(dir, list, list, what)
}

// joinSome joins the files of list in dir, checking that every .js file of
// the folder is in all.
func joinSome(dir string, list, all []string, what string) ([]byte, error) {
	found, err := filepath.Glob(filepath.Join(dir, "*.js"))
	if err != nil {
		return nil, err
	}
	for _, f := range found {
		if !slices.Contains(all, filepath.Base(f)) {
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

// The stub's opening: one copy serves when the loader is loaded twice (the
// function returns the object its members are on).
const opening = `"use strict";
const INSTALLED = Symbol.for("modelcontext.resources");
{
  const existing = typeof document === "object" && document !== null ? /** @type {any} */ (document).modelContext : undefined;
  if (existing && existing[INSTALLED]) return existing; // loaded twice: the first copy serves
}
`

// assembleScript is the classic script: the stub, whose loadRuntime
// imports the runtime module from beside the script.
func (l loader) assembleScript(c crossing, id string) []byte {
	var b bytes.Buffer
	b.WriteString("(() => {\n" + opening + "const moduleWasmURL = \"\";\n")
	fmt.Fprintf(&b, "const RUNTIME_FILE = %q;\n", RuntimeFile)
	b.WriteString("/** @type {Promise<void> | null} */\nlet runtimeLoad = null;\n")
	l.stubBody(&b, c)
	fmt.Fprintf(&b, `// loadRuntime imports the runtime from runtimeURL (page.js), once, and
// takes its functions.
function loadRuntime() {
  if (runtimeLoad) return runtimeLoad;
  const url = runtimeURL;
  const fix = "; put %[1]s beside modelcontext.js (from the same build) or point data-runtime at it, and allow it in the page's Content-Security-Policy script-src";
  runtimeLoad = (url === "" ? Promise.reject(new Error("nothing tells where it is (a blob: script?)")) : verifyRuntime(url).then(() => import(url))).then(
    (m) => {
      if (m.build !== %[2]q) throw new Error("modelcontext: " + JSON.stringify(url) + " is not the runtime of this modelcontext.js (another build)" + fix);
      [%[3]s] = m.default([%[4]s]);
    },
    (e) => {
      if (describe(e).startsWith("modelcontext:")) throw e; // verifyRuntime's, which says what to fix
      throw new Error("modelcontext: could not load the runtime " + JSON.stringify(url) + ": " + describe(e) + fix);
    });
  return runtimeLoad;
}
})();
`, RuntimeFile, id, strings.Join(c.back, ", "), strings.Join(c.in, ", "))
	return b.Bytes()
}

// assembleRuntimeModule is the classic script's runtime: an ES module whose
// default export receives the stub's names and returns the runtime's.
func (l loader) assembleRuntimeModule(c crossing, id string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "export const build = %q;\n", id)
	b.WriteString("export default ")
	l.runtimeFunction(&b, c)
	return b.Bytes()
}

// assembleModule is the ES module (or, cjs, the CommonJS module): the stub
// and the runtime in one file, the runtime's function called when the module
// starts.
func (l loader) assembleModule(c crossing, cjs bool) []byte {
	var b bytes.Buffer
	if cjs {
		// Beside __filename where Node.js runs it (jsdom, happy-dom); a
		// bundler's CommonJS has neither, and the .wasm is found as for the
		// classic script.
		b.WriteString("let moduleWasmURL = \"\";\ntry {\n  const p = globalThis.process;\n" +
			"  if (typeof __filename === \"string\" && p && typeof p.getBuiltinModule === \"function\") " +
			"moduleWasmURL = new URL(\"modelcontext.wasm\", p.getBuiltinModule(\"url\").pathToFileURL(__filename)).href;\n} catch {}\n")
	} else {
		// A bundler that emits no module (esbuild's iife or cjs) turns
		// import.meta into {}: the loader then finds the .wasm beside the
		// bundle, as it does for the classic script. One that emits a path of
		// the site instead of a URL has it resolved against the document
		// (page.js); String() reads both.
		b.WriteString("let moduleWasmURL = \"\";\ntry {\n  moduleWasmURL = String(new URL(\"modelcontext.wasm\", import.meta.url));\n} catch {}\n")
	}
	b.WriteString("const modelContext = (() => {\n" + opening + "let runtimeLoaded = false;\n")
	fmt.Fprintf(&b, "const RUNTIME_FILE = %q;\n", RuntimeFile)
	l.stubBody(&b, c)
	fmt.Fprintf(&b, `function loadRuntime() {
  if (!runtimeLoaded) {
    runtimeLoaded = true;
    [%s] = runtime([%s]);
  }
  return Promise.resolve();
}
`, strings.Join(c.back, ", "), strings.Join(c.in, ", "))
	l.runtimeFunction(&b, c)
	b.WriteString("\nreturn mc;\n})();\n")
	if cjs {
		b.WriteString("module.exports = {\n")
		for _, name := range exports {
			fmt.Fprintf(&b, "  %s: %s,\n", name, exportOf(name))
		}
		b.WriteString("};\n")
		return b.Bytes()
	}
	for _, name := range exports {
		fmt.Fprintf(&b, "export const %s = %s;\n", name, exportOf(name))
	}
	return b.Bytes()
}

// exportOf is how the ES and CommonJS modules take a member of the installed
// copy: ready from its INSTALLED record, since reading document.modelContext.ready
// starts the module (boot.js), and importing must not.
func exportOf(name string) string {
	if name == "ready" {
		return `modelContext[Symbol.for("modelcontext.resources")].ready`
	}
	return "modelContext." + name
}

// stubBody writes the lets the runtime's functions arrive in, the stub's
// constants from Go and the stub's files.
func (l loader) stubBody(b *bytes.Buffer, c crossing) {
	if len(c.back) > 0 {
		fmt.Fprintf(b, "// The runtime's functions, once loadRuntime has loaded it.\nlet %s;\n", strings.Join(c.back, ", "))
	}
	b.WriteString(l.stubConsts)
	b.Write(l.stub)
}

// runtimeFunction writes the runtime as a function of the stub's names:
// Go's wasm_exec.js, run against goGlobals instead of the page's
// globalThis (where the page lacks fs, process and path it defines them
// there, never on the page, and it defines Go there; fs is the binding its
// output goes through; the module does not use syscall/js, so the Go
// runtime never needs the real globalThis through this object), then the
// runtime's files.
func (l loader) runtimeFunction(b *bytes.Buffer, c crossing) {
	fmt.Fprintf(b, "function runtime(stub) {\n\"use strict\";\nconst [%s] = stub;\n", strings.Join(c.in, ", "))
	b.WriteString(`const goGlobals = {
  crypto: globalThis.crypto,
  performance: globalThis.performance,
  TextEncoder: globalThis.TextEncoder,
  TextDecoder: globalThis.TextDecoder,
};
let fs;
((globalThis) => {
`)
	b.Write(l.wasmExec)
	b.WriteString("})(goGlobals);\nconst Go = goGlobals.Go;\nfs = goGlobals.fs;\n")
	b.WriteString(l.runtimeConsts)
	b.Write(l.runtime)
	fmt.Fprintf(b, "return [%s];\n}", strings.Join(c.back, ", "))
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
