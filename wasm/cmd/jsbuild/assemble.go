package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// The test hooks' files in js/testhooks (the test build): stub.js is
// bundled with the stub, hooks.js with the runtime.
const (
	testStubFile    = "stub.js"  // document.modelContext[Symbol.for("modelcontext.internals")]
	testRuntimeFile = "hooks.js" // what it reads in the runtime
)

// loader is the sources of one build.
type loader struct {
	s        sides
	bindings string // the bindings' helpers (js/bindings/core.js, bundleBindings); "": a module without them
	wasmExec []byte
	test     bool
}

func readLoader(src, hooks, glue string, test bool) (loader, error) {
	l := loader{test: test}
	abs, err := filepath.Abs(src)
	if err != nil {
		return l, err
	}
	l.s = sides{stubDir: abs, runtimeDir: filepath.Join(abs, "runtime")}
	for _, f := range []string{"boot.js", "runtime"} {
		if _, err := os.Stat(filepath.Join(abs, f)); err != nil {
			return l, fmt.Errorf("-loader %s: %w", src, err)
		}
	}
	if test {
		h, err := filepath.Abs(hooks)
		if err != nil {
			return l, err
		}
		l.s.hooksStub, l.s.hooksRun = filepath.Join(h, testStubFile), filepath.Join(h, testRuntimeFile)
	}
	if l.wasmExec, err = os.ReadFile(glue); err != nil {
		return l, err
	}
	if !bytes.Contains(l.wasmExec, []byte("globalThis.Go = class")) {
		return l, errors.New(glue + " does not define globalThis.Go: not Go's wasm_exec.js?")
	}
	return l, nil
}

// build bundles (bundle.go) and minifies the four files.
func (l *loader) build() (map[string][]byte, error) {
	m, err := l.bundles()
	if err != nil {
		return nil, err
	}
	bindings := ""
	if l.bindings != "" {
		if bindings, err = bundleBindings(l.bindings); err != nil {
			return nil, err
		}
	}
	out := map[string][]byte{}
	for name, code := range map[string]string{
		"modelcontext.js":  "(() => {\n" + opening + "const moduleWasmURL = \"\";\n" + m.script + "})();\n",
		RuntimeFile:        m.runtime,
		"modelcontext.mjs": moduleJS(m.module, bindings, false),
		"modelcontext.cjs": moduleJS(m.module, bindings, true),
	} {
		module := name == RuntimeFile || name == "modelcontext.mjs"
		if out[name], err = minify([]byte(code), module); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	return out, nil
}

// bundled is the code esbuild bundled, before minifying.
type bundled struct {
	script, runtime, module string
	inputs                  []string // the files of the ES module's bundle, absolute
}

// The virtual modules' names (bundle.go's plugin loads them).
const (
	vScript     = "modelcontext:script"     // the classic script's entry
	vRuntime    = "modelcontext:runtime"    // the runtime's entry
	vModule     = "modelcontext:module"     // the ES and CommonJS modules' entry
	vConstants  = "modelcontext:constants"  // the constants from Go
	vGo         = "modelcontext:go"         // Go's wasm_exec.js
	vLoad       = "modelcontext:load"       // the classic script's loadRuntime
	vLoadInline = "modelcontext:loadinline" // the modules' loadRuntime
	vStub       = "modelcontext:stub"       // the stub's bindings in the runtime
	vBack       = "modelcontext:back"       // the runtime's functions in the stub
)

// bundles bundles the three: a first pass finds what crosses each way,
// then each side is bundled with its crossings replaced, and both together
// for the modules.
func (l *loader) bundles() (bundled, error) {
	var out bundled
	s := l.s
	mods := virtual{
		vConstants:  constantsModule(),
		vGo:         goModule(l.wasmExec),
		vLoadInline: l.inlineLoad(),
		vScript:     l.scriptEntry(),
		vStub:       linkModule(nil, "s", "setStub"),
	}
	// What the stub imports of the runtime.
	code, _, err := bundleSpec{entry: vScript, modules: mods, inject: []string{vConstants, vLoadInline}, s: s,
		from: s.isStub, to: s.isRuntime, external: true}.run()
	if err != nil {
		return out, fmt.Errorf("the classic script: %w", err)
	}
	back, err := crossingsOf(code)
	if err != nil {
		return out, err
	}
	if err := checkDeclared(back, true); err != nil {
		return out, err
	}
	// What the runtime imports of the stub.
	mods[vRuntime] = l.runtimeEntry(back, "")
	code2, _, err := bundleSpec{entry: vRuntime, modules: mods, inject: []string{vConstants, vGo}, s: s,
		from: s.isRuntime, to: s.isStub, external: true}.run()
	if err != nil {
		return out, fmt.Errorf("the runtime: %w", err)
	}
	in, err := crossingsOf(code2)
	if err != nil {
		return out, err
	}
	if err := checkDeclared(in, false); err != nil {
		return out, err
	}
	// The id is of what was bundled, wherever the checkout is.
	sum := sha256.Sum256([]byte(strings.ReplaceAll(code+"\x00"+code2, s.stubDir, "") + "\x00" + string(l.wasmExec)))
	id := hex.EncodeToString(sum[:6])

	mods[vBack] = linkModule(back, "b", "setRuntime")
	mods[vStub] = linkModule(in, "s", "setStub")
	mods[vLoad] = l.scriptLoad(in, id)
	mods[vRuntime] = l.runtimeEntry(back, id)
	mods[vModule] = l.moduleEntry()
	if out.script, _, err = (bundleSpec{entry: vScript, modules: mods, inject: []string{vConstants, vLoad}, s: s,
		from: s.isStub, to: s.isRuntime, loadFor: func(p string) string { return reexports(back, p, "b", vBack) }}).run(); err != nil {
		return out, fmt.Errorf("the classic script: %w", err)
	}
	if out.runtime, _, err = (bundleSpec{entry: vRuntime, modules: mods, inject: []string{vConstants, vGo}, s: s,
		from: s.isRuntime, to: s.isStub, loadFor: func(p string) string { return reexports(in, p, "s", vStub) }}).run(); err != nil {
		return out, fmt.Errorf("the runtime: %w", err)
	}
	meta := metafile{}
	if out.module, meta, err = (bundleSpec{entry: vModule, modules: mods, inject: []string{vConstants, vGo, vLoadInline}, s: s}).run(); err != nil {
		return out, fmt.Errorf("the ES module: %w", err)
	}
	for in := range meta.Inputs {
		if !strings.Contains(in, "modelcontext:") { // esbuild names the files from the loader's folder
			out.inputs = append(out.inputs, filepath.Join(s.stubDir, in))
		}
	}
	return out, nil
}

// scriptEntry is the classic script's entry: boot.js's install, once every
// module it imports is evaluated (their top levels only declare, but for
// page.js, which makes the object the members go on), and in the test build
// the stub's test hooks after it.
func (l *loader) scriptEntry() string {
	b := fmt.Sprintf("import { install } from %q;\n", filepath.Join(l.s.stubDir, "boot.js"))
	if l.test {
		b += fmt.Sprintf("import { installStubHooks } from %q;\n", l.s.hooksStub)
	}
	b += "install();\n"
	if l.test {
		b += "installStubHooks();\n"
	}
	return b
}

// moduleEntry is the modules' entry: the script's, and the object the
// members are on, into the name moduleJS returns.
func (l *loader) moduleEntry() string {
	return fmt.Sprintf("import { mc } from %q;\n", filepath.Join(l.s.stubDir, "page.js")) + l.scriptEntry() + installedName + " = mc;\n"
}

// installedName is the name, declared around the modules' bundle, that
// their entry sets to the object the members are on.
const installedName = "modelcontextInstalled"

// runtimeEntry is the runtime's entry: its build id, and a default export
// that receives the stub's bindings and returns the runtime's functions the
// stub imports (back), in the order of the lists.
func (l *loader) runtimeEntry(back []crossing, id string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "import { setStub } from %q;\n", vStub)
	b.WriteString(importsOf(back, "b"))
	hooks := ""
	if l.test {
		fmt.Fprintf(&b, "import { installHooks } from %q;\n", l.s.hooksRun)
		hooks = "  installHooks();\n"
	}
	fmt.Fprintf(&b, "export const build = %q;\n", id)
	fmt.Fprintf(&b, "export default function (stub) {\n  setStub(stub);\n%s  return %s;\n}\n", hooks, arrayOf(back, "b"))
	return b.String()
}

// scriptLoad is the classic script's loadRuntime: it imports the runtime
// from runtimeURL (page.js), once, after verifyRuntime, checks its build
// id, hands it the stub's bindings it imports (in) and takes its functions.
func (l *loader) scriptLoad(in []crossing, id string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "import { verifyRuntime } from %q;\n", filepath.Join(l.s.stubDir, "integrity.js"))
	fmt.Fprintf(&b, "import { describe } from %q;\n", filepath.Join(l.s.stubDir, "values.js"))
	fmt.Fprintf(&b, "import { runtimeURL } from %q;\n", filepath.Join(l.s.stubDir, "page.js"))
	fmt.Fprintf(&b, "import { setRuntime } from %q;\n", vBack)
	b.WriteString(importsOf(in, "s"))
	fmt.Fprintf(&b, `let runtimeLoad = null;
export function loadRuntime() {
  if (runtimeLoad) return runtimeLoad;
  const url = runtimeURL;
  const fix = "; put %[1]s beside modelcontext.js (from the same build) or point data-runtime at it, and allow it in the page's Content-Security-Policy script-src";
  runtimeLoad = (url === "" ? Promise.reject(new Error("nothing tells where it is (a blob: script?)")) : verifyRuntime(url).then(() => import(url))).then(
    (m) => {
      if (m.build !== %[2]q) throw new Error("modelcontext: " + JSON.stringify(url) + " is not the runtime of this modelcontext.js (another build)" + fix);
      setRuntime(m.default(%[3]s));
    },
    (e) => {
      if (describe(e).startsWith("modelcontext:")) throw e; // verifyRuntime's, which says what to fix
      throw new Error("modelcontext: could not load the runtime " + JSON.stringify(url) + ": " + describe(e) + fix);
    });
  return runtimeLoad;
}
`, RuntimeFile, id, arrayOf(in, "s"))
	return b.String()
}

// inlineLoad is the modules' loadRuntime: the runtime is in the same
// bundle; the test build installs its runtime hooks then.
func (l *loader) inlineLoad() string {
	if !l.test {
		return "export function loadRuntime() {\n  return Promise.resolve();\n}\n"
	}
	return fmt.Sprintf("import { installHooks } from %q;\nlet loaded = false;\nexport function loadRuntime() {\n  if (!loaded) {\n    loaded = true;\n    installHooks();\n  }\n  return Promise.resolve();\n}\n", l.s.hooksRun)
}

// goModule is Go's wasm_exec.js, run the first time goClass is called
// against goGlobals instead of the page's globalThis (where the page lacks
// fs, process and path it defines them there, never on the page, and it
// defines Go there; the module does not use syscall/js, so the Go runtime
// never needs the real globalThis through this object).
func goModule(wasmExec []byte) string {
	return `let goGlobals = null;
export function goClass() {
  if (!goGlobals) {
    const g = {
      crypto: globalThis.crypto,
      performance: globalThis.performance,
      TextEncoder: globalThis.TextEncoder,
      TextDecoder: globalThis.TextDecoder,
    };
    ((globalThis) => {
` + string(wasmExec) + `
    })(g);
    goGlobals = g;
  }
  return goGlobals.Go;
}
`
}

// The stub's opening: one copy serves when the loader is loaded twice (the
// function returns the object its members are on). The bundles use
// INSTALLED and RUNTIME_FILE as free names (js/loader/env.d.ts), declared
// here.
const opening = `"use strict";
const INSTALLED = Symbol.for("modelcontext.resources");
const RUNTIME_FILE = "` + RuntimeFile + `";
{
  const existing = typeof document === "object" && document !== null ? /** @type {any} */ (document).modelContext : undefined;
  if (existing && existing[INSTALLED]) return existing; // loaded twice: the first copy serves
}
`

// bindingsName is the name bundleBindings's code declares, which holds
// js/bindings/core.js's exports.
const bindingsName = "modelcontextBindings"

// bundleBindings bundles the bindings' helpers (file), which the ES and
// CommonJS modules export beside the members: outside the function that
// returns the serving copy, so that they work whichever copy serves.
func bundleBindings(file string) (string, error) {
	r := api.Build(api.BuildOptions{
		EntryPoints:   []string{file},
		Bundle:        true,
		Format:        api.FormatIIFE,
		GlobalName:    bindingsName,
		Target:        api.ES2022,
		LegalComments: api.LegalCommentsNone,
		Charset:       api.CharsetUTF8,
	})
	if len(r.Errors) > 0 {
		return "", fmt.Errorf("bundling %s: %s", file, r.Errors[0].Text)
	}
	return string(r.OutputFiles[0].Contents), nil
}

// moduleJS is the ES module (or, cjs, the CommonJS module): the bundle of
// both sides in a function that returns the object its members are on,
// those members exported, and the bindings' helpers over it.
func moduleJS(bundle, bindings string, cjs bool) string {
	var b strings.Builder
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
	b.WriteString("const modelContext = (() => {\n" + opening + "let " + installedName + ";\n")
	b.WriteString(bundle)
	b.WriteString("return " + installedName + ";\n})();\n")
	helpers := bindingExports
	if bindings == "" {
		helpers = nil
	} else {
		b.WriteString(bindings)
		b.WriteString("const bindings = " + bindingsName + ".bindingsOf(modelContext);\n")
	}
	if cjs {
		b.WriteString("module.exports = {\n")
		for _, name := range exports {
			fmt.Fprintf(&b, "  %s: %s,\n", name, exportOf(name))
		}
		for _, name := range helpers {
			fmt.Fprintf(&b, "  %s: bindings.%s,\n", name, name)
		}
		b.WriteString("};\n")
		return b.String()
	}
	for _, name := range exports {
		fmt.Fprintf(&b, "export const %s = %s;\n", name, exportOf(name))
	}
	for _, name := range helpers {
		fmt.Fprintf(&b, "export const %s = bindings.%s;\n", name, name)
	}
	return b.String()
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

// minify shortens the bundled code (white space, local names, syntax), as
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
