package frameworks

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/frameworks/frameworktest"
	"github.com/modelcontext-go/modelcontext/wasm/internal/docs"
)

// recipe is a store recipe of js/FRAMEWORKS.md (its code block after
// `<!-- example: name -->`) and how the test changes its store: change is
// JavaScript run after the block, with %q the item to add; want are the
// values after the first and the second change.
type recipe struct {
	name, uri, change string
	want              [2]string
}

var recipes = []recipe{
	{"svelte", "state://svelte-cart", `add(%q)`, [2]string{`["a"]`, `["a","b"]`}},
	{"redux", "state://redux-cart", `store.dispatch(cart.actions.add(%q))`, [2]string{`{"cart":{"items":["a"]}}`, `{"cart":{"items":["a","b"]}}`}},
	{"zustand", "state://zustand-cart", `cart.getState().add(%q)`, [2]string{`{"items":["a"]}`, `{"items":["a","b"]}`}},
	{"pinia", "state://pinia-cart", `cart.add(%q)`, [2]string{`{"items":["a"]}`, `{"items":["a","b"]}`}},
	{"nanostores", "state://nanostores-cart", `add(%q)`, [2]string{`["a"]`, `["a","b"]`}},
	{"preact-signal", "state://signal-cart", `add(%q)`, [2]string{`["a"]`, `["a","b"]`}},
}

// harness runs after a recipe's block, in the same module: it reads the
// resource once the module is ready, then changes the store twice, each
// time waiting for its resourceupdated. The console lines mark the changes.
const harness = `
import * as modelcontext$ from "modelcontext";
globalThis.recipe$ = (async () => {
  const uri = %q;
  await modelcontext$.ready;
  const listed = modelcontext$.getResources().map((r) => r.uri);
  const read = await modelcontext$.readResource(uri);
  const functions = [];
  const walk = (v, path, seen) => {
    if (typeof v === "function") functions.push(path);
    else if (v !== null && typeof v === "object" && !seen.has(v)) {
      seen.add(v);
      for (const [k, x] of Object.entries(v)) walk(x, path + "." + k, seen);
    }
  };
  walk(read, "value", new Set());
  const updates = [];
  document.modelContext.addEventListener("resourceupdated", (e) => e.detail.uri === uri && updates.push(JSON.stringify(e.detail.value)));
  const until = async (n) => { while (updates.length < n) await new Promise((r) => setTimeout(r, 10)); };
  console.log("recipe: change 1");
  %s;
  await until(1);
  console.log("recipe: change 2");
  %s;
  await until(2);
  console.log("recipe: done");
  return { listed, read: JSON.stringify(read), functions, updates };
})();
`

// TestStoreRecipes bundles each store recipe of js/FRAMEWORKS.md, as written, with
// the stores app's esbuild and runs it in Chromium: the store is listed, the
// value read holds no function (the store's actions stay out), and each
// change of the store pushes once.
func TestStoreRecipes(t *testing.T) {
	dir := appDir("stores")
	frameworktest.InstalledPackage(t, dir)
	esbuild := filepath.Join(dir, "node_modules", ".bin", "esbuild")
	for _, r := range recipes {
		t.Run(r.name, func(t *testing.T) {
			src := docs.Example(t, r.name, "").Text + fmt.Sprintf(harness, r.uri, fmt.Sprintf(r.change, "a"), fmt.Sprintf(r.change, "b"))
			site := t.TempDir()
			// esbuild leaves new URL("modelcontext.wasm", import.meta.url) as it
			// is: the .wasm goes beside the bundle (js/FRAMEWORKS.md, Bundlers).
			cmd := exec.Command(esbuild, "--bundle", "--format=esm", "--log-level=warning",
				"--define:process.env.NODE_ENV=\"production\"", "--outfile="+filepath.Join(site, "main.js"))
			cmd.Dir = dir
			cmd.Stdin = strings.NewReader(src)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Run(); err != nil {
				t.Fatalf("esbuild: %v\n%s", err, out.Bytes())
			}
			wasm, err := os.ReadFile(filepath.Join(dir, "node_modules", "modelcontext", "modelcontext.wasm"))
			if err != nil {
				t.Fatal(err)
			}
			page := `<!doctype html><meta charset="utf-8"><script>globalThis.__MODELCONTEXT_DEBUG__ = true</script><script type="module" src="main.js"></script>`
			for name, b := range map[string][]byte{"modelcontext.wasm": wasm, "index.html": []byte(page)} {
				if err := os.WriteFile(filepath.Join(site, name), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			p := open(t, serve(t, site)+"/")
			var got struct {
				Listed, Functions, Updates []string
				Read                       string
			}
			p.eval(`globalThis.recipe$`, &got)
			if !equal(got.Listed, []string{r.uri}) {
				t.Errorf("getResources lists %q, want %q", got.Listed, r.uri)
			}
			if len(got.Functions) > 0 {
				t.Errorf("the value read, %s, holds functions at %q: the store's actions leak to the agent", got.Read, got.Functions)
			}
			if !equal(got.Updates, r.want[:]) {
				t.Errorf("resourceupdated after two changes: %q, want %q", got.Updates, r.want)
			}
			// The module's decisions between the markers: one push per change.
			var counts []int
			for _, l := range p.tab.Console() {
				switch {
				case strings.HasPrefix(l, "console.log: recipe: "):
					counts = append(counts, 0)
				case len(counts) > 0 && strings.HasPrefix(l, "console.debug: [modelcontext] resource \""+r.uri+"\""):
					counts[len(counts)-1]++
				}
			}
			if fmt.Sprint(counts) != "[1 1 0]" {
				t.Errorf("pushes after change 1, change 2, the end: %v, want [1 1 0]\n%s", counts, p.tab.ConsoleText())
			}
			p.noErrors()
		})
	}
}
