package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/modelcontext-go/modelcontext/wasm/mcp"
)

// source is where a shipped file comes from, relative to the repository root;
// dist marks the files of `make build`, notice the one pack writes itself.
type source struct {
	name   string                       // its name in the package
	from   string                       // its path in the repository, or "" for the notice
	dist   bool                         // from is relative to -dist instead
	derive func([]byte) ([]byte, error) // if set, what is shipped is derive(from's bytes)
}

// shipped are the files of the package, in the order of `npm pack`'s listing.
var shipped = []source{
	{name: "CHANGELOG.md", from: "CHANGELOG.md"},
	{name: "LICENSE", from: "LICENSE"},
	{name: "README.md", from: "js/README.md"},
	{name: "THIRD_PARTY_NOTICES"},
	{name: "angular.mjs", from: "modelcontext.mjs", dist: true, derive: angularModule},
	{name: "modelcontext-runtime.js", from: "modelcontext-runtime.js", dist: true},
	{name: "modelcontext.cjs", from: "modelcontext.cjs", dist: true},
	{name: "modelcontext.d.ts", from: "js/modelcontext.d.ts"},
	{name: "modelcontext.js", from: "modelcontext.js", dist: true},
	{name: "modelcontext.mjs", from: "modelcontext.mjs", dist: true},
	{name: "modelcontext.wasm", from: "modelcontext.wasm", dist: true},
	{name: "nuxt.d.ts", from: "js/nuxt/nuxt.d.ts"},
	{name: "nuxt.mjs", from: "js/nuxt/nuxt.mjs"},
	{name: "package.json", from: "js/package.json"},
	{name: "react.d.ts", from: "js/react/react.d.ts"},
	{name: "react.mjs", from: "js/react/react.js"},
	{name: "vue.d.ts", from: "js/vue/vue.d.ts"},
	{name: "vue.mjs", from: "js/vue/vue.js"},
}

// manifest is what pack reads of package.json.
type manifest struct {
	Name    string          `json:"name"`
	Version string          `json:"version"`
	Main    string          `json:"main"`
	Module  string          `json:"module"`
	Types   string          `json:"types"`
	Exports json.RawMessage `json:"exports"`
	Files   []string        `json:"files"`
}

func run(args []string, stdout io.Writer) error {
	fl := flag.NewFlagSet("pack", flag.ContinueOnError)
	root := fl.String("root", ".", "the repository `folder`")
	dist := fl.String("dist", "dist", "the `folder` make build wrote")
	out := fl.String("o", "dist", "where the staged package/ folder and the tarball go")
	goroot := fl.String("goroot", "", "the GOROOT of the Go that built the module (default: `go env GOROOT`)")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if fl.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fl.Args())
	}
	m, err := readManifest(filepath.Join(*root, "js", "package.json"))
	if err != nil {
		return err
	}
	if err := checkVersions(*root, m.Version); err != nil {
		return err
	}
	if *goroot == "" {
		b, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			return fmt.Errorf("go env GOROOT: %w", err)
		}
		*goroot = strings.TrimSpace(string(b))
	}
	notice, err := goNotice(*goroot)
	if err != nil {
		return err
	}
	stage := filepath.Join(*out, "package")
	if err := os.RemoveAll(stage); err != nil {
		return err
	}
	if err := os.MkdirAll(stage, 0o755); err != nil {
		return err
	}
	for _, f := range shipped {
		var b []byte
		switch {
		case f.from == "":
			b = notice
		case f.dist:
			p := filepath.Join(*dist, f.from)
			if b, err = os.ReadFile(p); err != nil {
				return fmt.Errorf("%s not found: run `make build` first", p)
			}
		default:
			if b, err = os.ReadFile(filepath.Join(*root, f.from)); err != nil {
				return err
			}
		}
		if f.derive != nil {
			if b, err = f.derive(b); err != nil {
				return fmt.Errorf("%s: %w", f.name, err)
			}
		}
		if err := os.WriteFile(filepath.Join(stage, f.name), b, 0o644); err != nil {
			return err
		}
	}
	tarball, err := npmPack(stage, *out)
	if err != nil {
		return err
	}
	b, err := os.ReadFile(tarball)
	if err != nil {
		return err
	}
	names, pj, err := listTarball(b)
	if err != nil {
		return fmt.Errorf("%s: %w", tarball, err)
	}
	if err := verify(names, pj); err != nil {
		return fmt.Errorf("%s: %w", tarball, err)
	}
	fmt.Fprintf(stdout, "%s: %s@%s, %d files, %d bytes\n", tarball, m.Name, m.Version, len(names), len(b))
	return nil
}

func readManifest(path string) (manifest, error) {
	var m manifest
	b, err := os.ReadFile(path)
	if err != nil {
		return m, err
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return m, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// changelogEntry is the heading of a released version in CHANGELOG.md:
// "## [0.4.0] - 2026-11-30". "## [Unreleased]" does not match.
var changelogEntry = regexp.MustCompile(`(?m)^## \[(\d+\.\d+\.\d+[^\]]*)\]`)

// newestChangelogVersion returns the version of CHANGELOG.md's first entry.
func newestChangelogVersion(changelog []byte) (string, error) {
	m := changelogEntry.FindSubmatch(changelog)
	if m == nil {
		return "", errors.New(`CHANGELOG.md has no entry "## [x.y.z] - date"`)
	}
	return string(m[1]), nil
}

// checkVersions fails unless js/package.json's version, CHANGELOG.md's newest
// entry and the version the MCP server reports are all want.
func checkVersions(root, want string) error {
	changelog, err := os.ReadFile(filepath.Join(root, "CHANGELOG.md"))
	if err != nil {
		return err
	}
	logged, err := newestChangelogVersion(changelog)
	if err != nil {
		return err
	}
	if want == "" || logged != want || mcp.Version != want {
		return fmt.Errorf("versions disagree: js/package.json %q, CHANGELOG.md %q, wasm/mcp.Version %q", want, logged, mcp.Version)
	}
	return nil
}

// goNotice is THIRD_PARTY_NOTICES: what of Go the package holds, and Go's
// licence, from the GOROOT of the Go that built it.
func goNotice(goroot string) ([]byte, error) {
	license, err := os.ReadFile(filepath.Join(goroot, "LICENSE"))
	if err != nil {
		return nil, fmt.Errorf("Go's licence: %w", err)
	}
	version := "Go"
	if b, err := os.ReadFile(filepath.Join(goroot, "VERSION")); err == nil {
		version, _, _ = strings.Cut(string(b), "\n")
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, `modelcontext includes code of the Go programming language (https://go.dev/):

- modelcontext-runtime.js and modelcontext.mjs contain wasm_exec.js, Go's JavaScript
  support for WebAssembly, from %[1]s.
- modelcontext.wasm contains the Go runtime and parts of Go's standard
  library, compiled by %[1]s.

That code is distributed under the following licence:

`, version)
	b.Write(license)
	return b.Bytes(), nil
}

// npmPack runs `npm pack` in the staged folder and returns the tarball's path.
func npmPack(stage, out string) (string, error) {
	abs, err := filepath.Abs(out)
	if err != nil {
		return "", err
	}
	cmd := exec.Command("npm", "pack", "--json", "--ignore-scripts", "--pack-destination", abs)
	cmd.Dir = stage
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("npm pack: %w\n%s", err, stderr.Bytes())
	}
	var result []struct {
		Filename string `json:"filename"`
	}
	if err := json.Unmarshal(b, &result); err != nil || len(result) != 1 {
		return "", fmt.Errorf("npm pack printed %q, not one package", b)
	}
	return filepath.Join(abs, result[0].Filename), nil
}

// listTarball returns the file names of an npm tarball (without the
// "package/" prefix), sorted, and its package.json.
func listTarball(tgz []byte) ([]string, manifest, error) {
	var m manifest
	zr, err := gzip.NewReader(bytes.NewReader(tgz))
	if err != nil {
		return nil, m, err
	}
	tr := tar.NewReader(zr)
	var names []string
	found := false
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, m, err
		}
		name, ok := strings.CutPrefix(h.Name, "package/")
		if !ok || h.Typeflag != tar.TypeReg {
			return nil, m, fmt.Errorf("unexpected entry %q", h.Name)
		}
		names = append(names, name)
		if name == "package.json" {
			b, err := io.ReadAll(tr)
			if err != nil {
				return nil, m, err
			}
			if err := json.Unmarshal(b, &m); err != nil {
				return nil, m, fmt.Errorf("package.json: %w", err)
			}
			found = true
		}
	}
	if !found {
		return nil, m, errors.New("no package.json")
	}
	sort.Strings(names)
	return names, m, nil
}

// verify checks a tarball's file names against the files the package ships and
// against what its package.json points at.
func verify(names []string, m manifest) error {
	var want []string
	for _, f := range shipped {
		want = append(want, f.name)
	}
	if got := strings.Join(names, " "); got != strings.Join(want, " ") {
		return fmt.Errorf("holds %s\nwant  %s", got, strings.Join(want, " "))
	}
	has := make(map[string]bool, len(names))
	for _, n := range names {
		has[n] = true
	}
	if m.Exports == nil {
		return errors.New(`package.json has no "exports"`)
	}
	targets, err := exportTargets(m.Exports)
	if err != nil {
		return err
	}
	for _, t := range []string{m.Main, m.Module, m.Types} {
		if t != "" {
			targets = append(targets, t)
		}
	}
	if m.Types == "" {
		return errors.New(`package.json has no "types"`)
	}
	for _, t := range targets {
		if !strings.HasPrefix(t, "./") || !has[strings.TrimPrefix(t, "./")] {
			return fmt.Errorf("package.json points at %q, which the package does not hold", t)
		}
	}
	for _, pattern := range m.Files {
		matched := false
		for _, n := range names {
			if ok, _ := path.Match(pattern, n); ok {
				matched = true
			}
		}
		if !matched {
			return fmt.Errorf("package.json's files entry %q matches nothing", pattern)
		}
	}
	return nil
}

// exportTargets returns every path that package.json's "exports" maps to,
// through nested conditions.
func exportTargets(raw json.RawMessage) ([]string, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []string{s}, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, fmt.Errorf(`package.json's "exports": %s is neither a path nor an object`, raw)
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []string
	for _, k := range keys {
		if string(obj[k]) == "null" {
			continue
		}
		t, err := exportTargets(obj[k])
		if err != nil {
			return nil, err
		}
		out = append(out, t...)
	}
	return out, nil
}

// moduleWasmURL is how the ES module finds its .wasm, as jsbuild writes it
// (minified): beside itself, in the form Vite, webpack, Rollup and Parcel
// rewrite into the file they emit.
const moduleWasmURL = `new URL("modelcontext.wasm",import.meta.url)`

// angularModule derives angular.mjs, the ES module for Angular's application
// builder (package.json's "es2020" condition, in a browser build), from
// modelcontext.mjs. That builder, esbuild, leaves new URL(..., import.meta.url)
// as it is and emits no .wasm; it does emit a file imported with
// { loader: "file" } (Angular 17.1 and later) and hands back its path, which
// the module then finds its .wasm at: media/modelcontext-<hash>.wasm beside
// the app's chunks, from ng build and ng serve alike, with nothing in
// angular.json.
func angularModule(mjs []byte) ([]byte, error) {
	if n := bytes.Count(mjs, []byte(moduleWasmURL)); n != 1 {
		return nil, fmt.Errorf("modelcontext.mjs holds %s %d times, want once: has jsbuild changed how the module finds its .wasm?", moduleWasmURL, n)
	}
	// The header comment stays first; the import goes after it.
	header, body := []byte(nil), mjs
	for bytes.HasPrefix(body, []byte("//")) {
		end := bytes.IndexByte(body, '\n') + 1
		if end == 0 {
			return nil, errors.New("modelcontext.mjs is all comment")
		}
		header, body = append(header, body[:end]...), body[end:]
	}
	var b bytes.Buffer
	b.Write(header)
	b.WriteString("// For Angular's application builder (esbuild), which emits the .wasm imported here.\n")
	b.WriteString(`import modelcontextWasmFile from "./modelcontext.wasm" with { loader: "file" };` + "\n")
	b.Write(bytes.Replace(body, []byte(moduleWasmURL), []byte(`new URL(modelcontextWasmFile,import.meta.url)`), 1))
	return b.Bytes(), nil
}
