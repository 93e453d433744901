package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// The loader's files are ES modules. esbuild bundles them three ways:
//
//   - the classic script, from boot.js: the stub's modules, in which every
//     import of a runtime module (js/loader/runtime) is replaced by the
//     functions loadRuntime receives from the runtime once it is imported;
//   - the runtime, an ES module whose default export receives the stub's
//     bindings it imports and returns the runtime's functions the stub
//     imports: every import of a stub module is replaced by those bindings,
//     so that the runtime shares the stub's state rather than a copy;
//   - the ES module and the CommonJS module, both sides from one entry,
//     nothing replaced.
//
// What crosses is read from the import statements esbuild keeps for the
// other side's modules when it bundles one side with them external, in a
// first pass: each side imports only what the other exports, or esbuild
// fails. It crosses as an array, in the order of those lists, so that the
// minifier may shorten every name.

// crossing is one binding one side imports from a module of the other.
type crossing struct {
	file, name string // the module (an absolute path) and the name it exports
}

// sides tells the stub's modules from the runtime's.
type sides struct {
	stubDir, runtimeDir string // absolute
	hooksStub, hooksRun string // the test hooks' files of each side; "" outside the test build
}

func (s sides) isStub(path string) bool {
	return filepath.Dir(path) == s.stubDir || s.hooksStub != "" && path == s.hooksStub
}

func (s sides) isRuntime(path string) bool {
	return filepath.Dir(path) == s.runtimeDir || s.hooksRun != "" && path == s.hooksRun
}

// metafile is what jsbuild reads of esbuild's metafile: the modules bundled.
type metafile struct {
	Inputs map[string]struct{} `json:"inputs"`
}

// virtual holds the modules jsbuild writes (entries, the link modules, the
// injected ones), by their modelcontext: names.
type virtual map[string]string

// bundleSpec is one esbuild run from the virtual entry. When from is set,
// every relative import by a module of that side of a module of the other
// (to) is replaced: by what loadFor writes, or marked external (the first
// pass). inject are virtual modules whose exports stand for the free names
// the loader uses (the constants from Go, loadRuntime, goClass).
type bundleSpec struct {
	entry    string
	modules  virtual
	inject   []string
	s        sides
	from     func(importer string) bool // the importing side whose crossings are replaced
	to       func(path string) bool     // the other side
	external bool                       // mark crossings external (the first pass)
	loadFor  func(path string) string   // the module that replaces path
}

func (b bundleSpec) run() (string, metafile, error) {
	plugin := api.Plugin{Name: "modelcontext", Setup: func(pb api.PluginBuild) {
		pb.OnResolve(api.OnResolveOptions{Filter: `^modelcontext:`}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			return api.OnResolveResult{Path: a.Path, Namespace: "modelcontext"}, nil
		})
		pb.OnResolve(api.OnResolveOptions{Filter: `^\.`}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			if b.from == nil || a.Importer == "" || !b.from(a.Importer) {
				return api.OnResolveResult{}, nil
			}
			path := filepath.Join(a.ResolveDir, a.Path)
			if !b.to(path) {
				return api.OnResolveResult{}, nil
			}
			if b.external {
				return api.OnResolveResult{Path: "cross:" + path, External: true}, nil
			}
			return api.OnResolveResult{Path: path, Namespace: "cross"}, nil
		})
		pb.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: "modelcontext"}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			code, ok := b.modules[a.Path]
			if !ok {
				return api.OnLoadResult{}, fmt.Errorf("no module %s", a.Path)
			}
			dir := b.s.stubDir
			return api.OnLoadResult{Contents: &code, ResolveDir: dir}, nil
		})
		pb.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: "cross"}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			code := b.loadFor(a.Path)
			dir := b.s.stubDir
			return api.OnLoadResult{Contents: &code, ResolveDir: dir}, nil
		})
	}}
	r := api.Build(api.BuildOptions{
		EntryPoints: []string{b.entry},
		// The paths in the bundle's comments, which the build id hashes,
		// are then the same wherever the checkout is.
		AbsWorkingDir: b.s.stubDir,
		Bundle:        true,
		Write:         false,
		Format:        api.FormatESModule,
		Target:        api.ES2022,
		Charset:       api.CharsetUTF8,
		LegalComments: api.LegalCommentsNone,
		Inject:        b.inject,
		Define:        inlined(),
		// js/package.json lists the built files as the package's side
		// effects, which the loader's modules are made of.
		IgnoreAnnotations: true,
		Plugins:           []api.Plugin{plugin},
		Metafile:          true,
		Outfile:           "out.js",
		LogLevel:          api.LogLevelSilent,
	})
	if len(r.Errors) > 0 {
		var msgs []string
		for _, e := range r.Errors {
			where := ""
			if e.Location != nil {
				where = fmt.Sprintf("%s:%d: ", e.Location.File, e.Location.Line)
			}
			msgs = append(msgs, where+e.Text)
		}
		return "", metafile{}, fmt.Errorf("bundling: %s", strings.Join(msgs, "; "))
	}
	var meta metafile
	if err := json.Unmarshal([]byte(r.Metafile), &meta); err != nil {
		return "", meta, err
	}
	for _, f := range r.OutputFiles {
		if strings.HasSuffix(f.Path, ".js") {
			return string(f.Contents), meta, nil
		}
	}
	return "", meta, fmt.Errorf("esbuild wrote no JavaScript")
}

var crossImportRe = regexp.MustCompile(`(?s)import\s*(\{[^}]*\}|\*\s*as\s+\S+|[\w$]+)?\s*(?:from\s*)?"cross:([^"]+)"`)

// crossingsOf reads the imports that cross in the first pass's output: the
// names each module of the other side is asked for, in order of appearance.
func crossingsOf(code string) ([]crossing, error) {
	var out []crossing
	for _, m := range crossImportRe.FindAllStringSubmatch(code, -1) {
		names := strings.TrimSpace(m[1])
		if names == "" {
			continue // imported for its effects: nothing crosses
		}
		if !strings.HasPrefix(names, "{") {
			return nil, fmt.Errorf("%s is imported as %s: import what crosses by name", m[2], names)
		}
		for n := range strings.SplitSeq(strings.Trim(names, "{}"), ",") {
			n = strings.TrimSpace(n)
			if n == "" {
				continue
			}
			name, _, _ := strings.Cut(n, " as ")
			c := crossing{m[2], strings.TrimSpace(name)}
			if !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].file != out[j].file {
			return out[i].file < out[j].file
		}
		return out[i].name < out[j].name
	})
	return out, nil
}

// linkModule is the module that holds what crosses (prefix: its names),
// and the function that fills it.
func linkModule(list []crossing, prefix, setter string) string {
	var names []string
	for i := range list {
		names = append(names, fmt.Sprintf("%s%d", prefix, i))
	}
	if len(names) == 0 {
		return "export function " + setter + "() {}\n"
	}
	return fmt.Sprintf("export let %[1]s;\nexport function %[2]s(v) {\n  [%[1]s] = v;\n}\n", strings.Join(names, ", "), setter)
}

// reexports is the module that replaces file on the importing side: its
// names that cross, from the link module.
func reexports(list []crossing, file, prefix, link string) string {
	var parts []string
	for i, c := range list {
		if c.file == file {
			parts = append(parts, fmt.Sprintf("%s%d as %s", prefix, i, c.name))
		}
	}
	if len(parts) == 0 {
		return "export {};\n"
	}
	return fmt.Sprintf("export { %s } from %q;\n", strings.Join(parts, ", "), link)
}

// importsOf imports the names of list, as prefix0..., from their modules.
func importsOf(list []crossing, prefix string) string {
	var b strings.Builder
	for i, c := range list {
		fmt.Fprintf(&b, "import { %s as %s%d } from %q;\n", c.name, prefix, i, c.file)
	}
	return b.String()
}

func arrayOf(list []crossing, prefix string) string {
	var names []string
	for i := range list {
		names = append(names, fmt.Sprintf("%s%d", prefix, i))
	}
	return "[" + strings.Join(names, ", ") + "]"
}

// checkDeclared refuses a crossing that is not a function, a class or a
// constant of its module: a let would cross once, as its value then, and go
// stale.
func checkDeclared(list []crossing, fnOnly bool) error {
	for _, c := range list {
		src, err := os.ReadFile(c.file)
		if err != nil {
			return err
		}
		kinds := `function|async function|class|const`
		if fnOnly {
			kinds = `function|async function`
		}
		re := regexp.MustCompile(`(?m)^export\s+(` + kinds + `)\s+(\[[^\]]*\b` + regexp.QuoteMeta(c.name) + `\b[^\]]*\]|` + regexp.QuoteMeta(c.name) + `\b)`)
		if !re.MatchString(string(src)) {
			if fnOnly {
				return fmt.Errorf("the stub imports %s from the runtime's %s, which is not an exported function: the stub may call the runtime's functions only, once it is loaded", c.name, filepath.Base(c.file))
			}
			return fmt.Errorf("the runtime imports %s from the stub's %s, which is not an exported function, class or constant: a let would cross once and go stale (share it through a function, as isReady shares state)", c.name, filepath.Base(c.file))
		}
	}
	return nil
}
