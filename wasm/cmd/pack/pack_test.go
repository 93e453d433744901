package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/internal/docs"
	"github.com/modelcontext-go/modelcontext/wasm/mcp"
)

// root is the repository, from this package's folder.
const root = "../../.."

// TestVersionsAgree: js/package.json, CHANGELOG.md's newest entry and the
// version the MCP server reports are one version.
func TestVersionsAgree(t *testing.T) {
	m, err := readManifest(filepath.Join(root, "js", "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := checkVersions(root, m.Version); err != nil {
		t.Fatal(err)
	}
	if m.Version != mcp.Version {
		t.Fatalf("js/package.json %s, mcp.Version %s", m.Version, mcp.Version)
	}
}

func TestNewestChangelogVersion(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"# Changelog\n\n## [0.4.0] - 2026-11-30\n\n## [0.3.0] - 2026-11-01\n", "0.4.0"},
		{"# Changelog\n\n## [Unreleased]\n\n## [1.2.3-rc.1] - 2027-01-01\n## [1.2.2]\n", "1.2.3-rc.1"},
		{"# Changelog\n\nSee [0.9.0] below.\n### [0.8.0]\n## [0.7.0]\n", "0.7.0"},
		{"# Changelog\n", ""},
	} {
		got, err := newestChangelogVersion([]byte(tc.in))
		if got != tc.want || (err != nil) != (tc.want == "") {
			t.Errorf("newestChangelogVersion(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestCheckVersionsDisagree(t *testing.T) {
	for _, tc := range []struct{ changelog, pkg string }{
		{"0.0.1", "0.0.1"},         // mcp.Version differs
		{"0.0.1", mcp.Version},     // CHANGELOG.md differs
		{mcp.Version, "0.0.1"},     // js/package.json differs
		{mcp.Version, mcp.Version}, // all agree
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "CHANGELOG.md"), []byte("## ["+tc.changelog+"] - 2020-01-01\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		err := checkVersions(dir, tc.pkg)
		agree := tc.changelog == mcp.Version && tc.pkg == mcp.Version
		if (err == nil) != agree {
			t.Errorf("CHANGELOG.md %s, js/package.json %s, mcp.Version %s: %v", tc.changelog, tc.pkg, mcp.Version, err)
		}
	}
}

// good is a package.json that fits the shipped files.
func good(t *testing.T) manifest {
	t.Helper()
	m, err := readManifest(filepath.Join(root, "js", "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func shippedNames() []string {
	var names []string
	for _, f := range shipped {
		names = append(names, f.name)
	}
	return names
}

// TestVerify: the check of the tarball catches what a mistake in package.json
// or in the staging would ship.
func TestVerify(t *testing.T) {
	if err := verify(shippedNames(), good(t)); err != nil {
		t.Fatalf("js/package.json with the shipped files: %v", err)
	}
	for _, tc := range []struct {
		name   string
		change func(m *manifest, names []string) []string
		want   string
	}{
		{"a missing file", func(m *manifest, names []string) []string { return names[1:] }, "holds"},
		{"an extra file", func(m *manifest, names []string) []string { return append(names, "zz.txt") }, "holds"},
		{"an export of a missing file", func(m *manifest, names []string) []string {
			m.Exports = json.RawMessage(`{".": {"types": "./modelcontext.d.ts", "import": "./dist/modelcontext.mjs"}}`)
			return names
		}, `"./dist/modelcontext.mjs"`},
		{"an export without ./", func(m *manifest, names []string) []string {
			m.Exports = json.RawMessage(`{"./modelcontext.wasm": "modelcontext.wasm"}`)
			return names
		}, `"modelcontext.wasm"`},
		{"no exports", func(m *manifest, names []string) []string { m.Exports = nil; return names }, `no "exports"`},
		{"no types", func(m *manifest, names []string) []string { m.Types = ""; return names }, `no "types"`},
		{"types of a missing file", func(m *manifest, names []string) []string { m.Types = "./index.d.ts"; return names }, `"./index.d.ts"`},
		{"a files entry matching nothing", func(m *manifest, names []string) []string {
			m.Files = append(m.Files, "lib/*.js")
			return names
		}, `"lib/*.js"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := good(t)
			names := tc.change(&m, shippedNames())
			err := verify(names, m)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("verify: %v, want an error containing %s", err, tc.want)
			}
		})
	}
}

// TestPack packs the built module into a temporary folder: the tarball holds
// the shipped files, its package.json is js/package.json, its .wasm and
// module are the built ones, and its notice carries Go's licence.
func TestPack(t *testing.T) {
	dist := filepath.Join(root, "dist")
	if _, err := os.Stat(filepath.Join(dist, "modelcontext.wasm")); err != nil {
		t.Fatalf("%v: run `make build` first", err)
	}
	if _, err := exec.LookPath("npm"); err != nil {
		t.Fatalf("npm: %v (the package is packed with npm pack)", err)
	}
	out := t.TempDir()
	var stdout bytes.Buffer
	if err := run([]string{"-root", root, "-dist", dist, "-o", out}, &stdout); err != nil {
		t.Fatal(err)
	}
	m := good(t)
	tgz, err := os.ReadFile(filepath.Join(out, m.Name+"-"+m.Version+".tgz"))
	if err != nil {
		t.Fatalf("%v (pack printed %q)", err, stdout.String())
	}
	names, packed, err := listTarball(tgz)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(names, " "), strings.Join(shippedNames(), " "); got != want {
		t.Errorf("the tarball holds %s\nwant %s", got, want)
	}
	if packed.Name != "modelcontext" || packed.Version != mcp.Version {
		t.Errorf("the tarball's package.json is %s@%s, want modelcontext@%s", packed.Name, packed.Version, mcp.Version)
	}
	for _, f := range shipped {
		staged, err := os.ReadFile(filepath.Join(out, "package", f.name))
		if err != nil {
			t.Fatal(err)
		}
		if f.from == "" {
			if !bytes.Contains(staged, []byte("Copyright 2009 The Go Authors")) || !bytes.Contains(staged, []byte("wasm_exec.js")) {
				t.Errorf("THIRD_PARTY_NOTICES lacks Go's licence or the files it covers:\n%s", staged)
			}
			continue
		}
		from := filepath.Join(root, f.from)
		if f.dist {
			from = filepath.Join(dist, f.from)
		}
		want, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if f.derive != nil {
			if want, err = f.derive(want); err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(staged, want) {
			t.Errorf("package/%s differs from %s", f.name, from)
		}
	}
}

// TestAngularModule: angular.mjs is modelcontext.mjs with its header first,
// then the import of the .wasm that Angular's builder emits, and the URL of
// that file where the module looked beside itself; a module in which the
// form jsbuild writes is not found once is refused.
func TestAngularModule(t *testing.T) {
	mjs := []byte("// modelcontext 1\n// (MIT)\nlet a=\"\";try{a=String(new URL(\"modelcontext.wasm\",import.meta.url))}catch{}export const x=a;\n")
	got, err := angularModule(mjs)
	if err != nil {
		t.Fatal(err)
	}
	want := "// modelcontext 1\n// (MIT)\n" +
		"// For Angular's application builder (esbuild), which emits the .wasm imported here.\n" +
		`import modelcontextWasmFile from "./modelcontext.wasm" with { loader: "file" };` + "\n" +
		"let a=\"\";try{a=String(new URL(modelcontextWasmFile,import.meta.url))}catch{}export const x=a;\n"
	if string(got) != want {
		t.Errorf("angularModule:\n%s\nwant\n%s", got, want)
	}
	for _, bad := range []string{"let a=new URL(\"x.wasm\",import.meta.url);", mjsURLTwice} {
		if _, err := angularModule([]byte(bad)); err == nil || !strings.Contains(err.Error(), "want once") {
			t.Errorf("angularModule(%q): %v, want an error that the form is not there once", bad, err)
		}
	}
	if b, err := os.ReadFile(filepath.Join(root, "dist", "modelcontext.mjs")); err == nil {
		if _, err := angularModule(b); err != nil {
			t.Errorf("dist/modelcontext.mjs: %v", err)
		}
	}
}

const mjsURLTwice = `new URL("modelcontext.wasm",import.meta.url);new URL("modelcontext.wasm",import.meta.url)`

// TestREADMEInstall runs README.md's install commands as written, from the
// checkout, with a fresh app folder for "/path/to/your-app": make pack, then
// npm install of the tarball. The app then has the package, at this version,
// with its .wasm and its types. js/README.md (the package's own page) gives
// the same commands.
func TestREADMEInstall(t *testing.T) {
	if testing.Short() {
		t.Skip("runs make pack and npm install")
	}
	block := docs.Example(t, "install", "sh").Text
	if pkg, err := os.ReadFile(filepath.Join(root, "js", "README.md")); err != nil {
		t.Fatal(err)
	} else if !strings.Contains(string(pkg), "```sh\n"+block+"```") {
		t.Errorf("js/README.md does not give README.md's install commands:\n%s", block)
	}
	const placeholder = "cd /path/to/your-app\n"
	if !strings.Contains(block, placeholder) {
		t.Fatalf("README.md's install commands no longer %q:\n%s", placeholder, block)
	}
	app := t.TempDir()
	if err := os.WriteFile(filepath.Join(app, "package.json"), []byte(`{"name": "your-app", "private": true, "type": "module"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "-euo", "pipefail", "-c", strings.Replace(block, placeholder, "cd '"+app+"'\n", 1))
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "npm_config_audit=false", "npm_config_fund=false", "npm_config_update_notifier=false")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("README.md's install commands: %v\n%s\n%s", err, block, out)
	}
	m := good(t)
	installed, err := readManifest(filepath.Join(app, "node_modules", "modelcontext", "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	if installed.Name != m.Name || installed.Version != m.Version {
		t.Errorf("installed %s@%s, want %s@%s", installed.Name, installed.Version, m.Name, m.Version)
	}
	for _, f := range []string{"modelcontext.mjs", "modelcontext.js", "modelcontext-runtime.js", "modelcontext.wasm", "modelcontext.d.ts"} {
		if _, err := os.Stat(filepath.Join(app, "node_modules", "modelcontext", f)); err != nil {
			t.Errorf("the installed package: %v", err)
		}
	}
	var recorded struct{ Dependencies map[string]string }
	if b, err := os.ReadFile(filepath.Join(app, "package.json")); err != nil {
		t.Fatal(err)
	} else if err := json.Unmarshal(b, &recorded); err != nil {
		t.Fatal(err)
	}
	if dep := recorded.Dependencies["modelcontext"]; !strings.HasPrefix(dep, "file:") || !strings.HasSuffix(dep, "modelcontext-"+m.Version+".tgz") {
		t.Errorf("the app's package.json records modelcontext as %q, want the tarball's path", dep)
	}
}
