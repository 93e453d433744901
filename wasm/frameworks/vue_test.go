package frameworks

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/frameworks/frameworktest"
)

// TestVue drives testdata/frameworks/vite-vue, a Vite + Vue app that uses
// modelcontext/vue, built for production.
func TestVue(t *testing.T) {
	dir := appDir("vite-vue")
	frameworktest.InstalledPackage(t, dir)
	p := open(t, serve(t, filepath.Join(dir, "dist"))+"/?debug")
	const clicks, tasks = "state://clicks", "state://tasks"

	// Registered in setup order, once each; useResourceValue reads at once.
	if got, want := p.listed(), []string{clicks + " Clicks", tasks + " "}; !equal(got, want) {
		t.Fatalf("getResources lists %q, want %q", got, want)
	}
	var read string
	p.eval(`document.modelContext.readResource("state://clicks").then(JSON.stringify)`, &read)
	if read != `{"clicks":0}` {
		t.Errorf("readResource gave %s, want {\"clicks\":0}", read)
	}
	p.waitFor(`document.getElementById("value").textContent === '{"clicks":0}'`, `document.getElementById("value").textContent`)

	// Each change of a source pushes once: a reactive object's field, and a
	// field deep inside a ref's array; the last click is the sentinel.
	p.eval(`window.updates = []; document.modelContext.addEventListener("resourceupdated", (e) => updates.push(e.detail.uri + " " + JSON.stringify(e.detail.value)))`, nil)
	p.click("click")
	p.waitFor(`updates.length === 1`, `updates`)
	p.click("done")
	p.click("click")
	p.waitFor(`updates.length === 3`, `updates`)
	p.waitFor(`document.getElementById("value").textContent === '{"clicks":2}'`, `document.getElementById("value").textContent`)
	var updates []string
	p.eval(`updates`, &updates)
	if want := []string{clicks + ` {"clicks":1}`, tasks + ` [{"text":"write","done":true}]`, clicks + ` {"clicks":2}`}; !equal(updates, want) {
		t.Errorf("resourceupdated events %q, want %q", updates, want)
	}
	if got := p.pushes(clicks); len(got) != 2 {
		t.Errorf("the module decided the pushes %q of %s, want 2 (one per change)", got, clicks)
	}
	if got := p.pushes(tasks); len(got) != 1 {
		t.Errorf("the module decided the pushes %q of %s, want 1", got, tasks)
	}

	// A descriptor field changes: the resource is replaced in its place, and
	// the new registration pushes.
	p.click("retitle")
	p.waitFor(`document.modelContext.getResources()[0]?.title === "Clicks so far"`, `document.modelContext.getResources()`)
	if got, want := p.listed(), []string{clicks + " Clicks so far", tasks + " "}; !equal(got, want) {
		t.Errorf("after a new title getResources lists %q, want %q", got, want)
	}
	if got := p.debugLines(clicks); !strings.Contains(strings.Join(got, "\n"), `replaced "state://clicks"`) {
		t.Errorf("a new title did not replace the registration: %q", got)
	}
	p.click("click")
	p.waitFor(`updates.length === 4`, `updates`)
	p.eval(`updates[3]`, &read)
	if read != clicks+` {"clicks":3}` {
		t.Errorf("after the new title the click pushed %s", read)
	}

	// useResources follows the list: the two resources now.
	p.waitFor(`document.getElementById("listed").textContent === "state://clicks state://tasks"`, `document.getElementById("listed").textContent`)

	// Unmounting (the scope's disposal) unregisters; mounting registers again.
	p.click("toggle")
	p.waitFor(`document.modelContext.getResources().length === 1`, `document.modelContext.getResources()`)
	p.waitFor(`document.getElementById("listed").textContent === "state://tasks"`, `document.getElementById("listed").textContent`)
	if got, want := p.listed(), []string{tasks + " "}; !equal(got, want) {
		t.Errorf("after unmounting getResources lists %q, want %q", got, want)
	}
	p.click("toggle")
	p.waitFor(`document.modelContext.getResources().length === 2`, `document.modelContext.getResources()`)
	if got, want := p.listed(), []string{tasks + " ", clicks + " Clicks so far"}; !equal(got, want) {
		t.Errorf("after mounting again getResources lists %q, want %q", got, want)
	}

	// An invalid descriptor throws registerResource's TypeError from setup.
	p.click("invalid")
	p.waitFor(`document.getElementById("error").textContent !== ""`, `document.body.innerHTML`)
	if got, want := p.text("error"), p.moduleError(`{ uri: "state://invalid", name: 42 }`); got != want {
		t.Errorf("the composable threw %q, want registerResource's %q", got, want)
	}
	if got := p.listed(); len(got) != 2 {
		t.Errorf("after the invalid descriptor getResources lists %q", got)
	}
	p.noErrors()
}

// TestVueREADME runs js/FRAMEWORKS.md's Vue example as written.
func TestVueREADME(t *testing.T) {
	dir := appDir("vite-vue")
	frameworktest.InstalledPackage(t, dir)
	checkCart(t, serve(t, filepath.Join(dir, "dist"))+"/readme.html?debug", func(n int) string {
		return fmt.Sprintf("The agent sees %d items", n)
	})
}
