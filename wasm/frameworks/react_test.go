package frameworks

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/frameworks/frameworktest"
)

// TestReact drives testdata/frameworks/vite-react, a Vite + React app in
// StrictMode that uses modelcontext/react, built for production (dist/) and
// for development (dist-dev/, where StrictMode mounts each effect twice).
func TestReact(t *testing.T) {
	dir := appDir("vite-react")
	frameworktest.InstalledPackage(t, dir)
	for _, build := range []string{"dist", "dist-dev"} {
		t.Run(build, func(t *testing.T) {
			p := open(t, serve(t, filepath.Join(dir, build))+"/?debug")
			const clicks = "state://clicks"

			// One registration each, in mount order (a child's effects run
			// before its parent's); useResources and useResourceValue show them.
			if got, want := p.listed(), []string{clicks + " Clicks", "state://shown "}; !equal(got, want) {
				t.Fatalf("getResources lists %q, want %q", got, want)
			}
			p.waitFor(`document.getElementById("listed").textContent === "state://clicks Clicks, state://shown "`, `document.getElementById("listed").textContent`)
			var read string
			p.eval(`document.modelContext.readResource("state://clicks").then(JSON.stringify)`, &read)
			if read != `{"clicks":0}` {
				t.Errorf("readResource gave %s, want {\"clicks\":0}", read)
			}
			p.waitFor(`document.getElementById("value").textContent === '{"clicks":0}'`, `document.getElementById("value").textContent`)
			// StrictMode in development mounts, unmounts and mounts again: the
			// first registration's subscription is torn down, the second stays.
			var want []string
			if build == "dist-dev" {
				want = []string{`registered "state://clicks"`, `teardown of "state://clicks"`, `unregistered "state://clicks"`, `registered "state://clicks"`}
			} else {
				want = []string{`registered "state://clicks"`}
			}
			if got := p.debugLines(clicks); !equal(got, want) {
				t.Errorf("at mount the module logged %q, want %q", got, want)
			}

			// Each commit with a new value pushes once: a click, a new object
			// with the same content (the module suppresses it), and not a render
			// that keeps the value; the last click is the sentinel.
			p.eval(`window.updates = []; document.modelContext.addEventListener("resourceupdated", (e) => updates.push(e.detail.uri + " " + JSON.stringify(e.detail.value)))`, nil)
			p.click("click")
			p.waitFor(`updates.length === 1`, `updates`)
			p.click("rerender")
			p.click("same")
			p.click("click")
			p.waitFor(`updates.length === 2`, `updates`)
			p.waitFor(`document.getElementById("value").textContent === '{"clicks":2}'`, `document.getElementById("value").textContent`)
			var updates []string
			p.eval(`updates`, &updates)
			if want := []string{clicks + ` {"clicks":1}`, clicks + ` {"clicks":2}`}; !equal(updates, want) {
				t.Errorf("resourceupdated events %q, want %q", updates, want)
			}
			if got, want := p.pushes(clicks), []string{`resource "state://clicks" changed`, `resource "state://clicks": push suppressed (value unchanged)`, `resource "state://clicks" changed`}; !equal(got, want) {
				t.Errorf("the module decided the pushes %q, want %q (one per commit with a new value)", got, want)
			}

			// A descriptor field changes: the resource is replaced in its place,
			// and the new registration pushes.
			p.click("retitle")
			p.waitFor(`document.modelContext.getResources()[0]?.title === "Clicks so far"`, `document.modelContext.getResources()`)
			if got, want := p.listed(), []string{clicks + " Clicks so far", "state://shown "}; !equal(got, want) {
				t.Errorf("after a new title getResources lists %q, want %q", got, want)
			}
			if got := p.debugLines(clicks); !strings.Contains(strings.Join(got, "\n"), `replaced "state://clicks"`) {
				t.Errorf("a new title did not replace the registration: %q", got)
			}
			p.click("click")
			p.waitFor(`updates.length === 3`, `updates`)
			p.eval(`updates[2]`, &read)
			if read != clicks+` {"clicks":3}` {
				t.Errorf("after the new title the click pushed %s", read)
			}

			// Unmounting unregisters; mounting again registers once more.
			p.click("toggle")
			p.waitFor(`document.modelContext.getResources().length === 1`, `document.modelContext.getResources()`)
			if got, want := p.listed(), []string{"state://shown "}; !equal(got, want) {
				t.Errorf("after unmounting getResources lists %q, want %q", got, want)
			}
			p.click("toggle")
			p.waitFor(`document.modelContext.getResources().length === 2`, `document.modelContext.getResources()`)
			if got, want := p.listed(), []string{"state://shown ", clicks + " Clicks so far"}; !equal(got, want) {
				t.Errorf("after mounting again getResources lists %q, want %q", got, want)
			}
			p.waitFor(`document.getElementById("listed").textContent === "state://shown , state://clicks Clicks so far"`, `document.getElementById("listed").textContent`)

			// An invalid descriptor throws registerResource's TypeError at
			// render, caught by the error boundary; nothing is registered.
			p.click("invalid")
			p.waitFor(`document.getElementById("error") !== null`, `document.body.innerHTML`)
			if got, want := p.text("error"), p.moduleError(`{ uri: "state://invalid", name: 42 }`); got != want {
				t.Errorf("the hook threw %q, want registerResource's %q", got, want)
			}
			var rendered bool
			p.eval(`globalThis.renderedPastInvalid === true`, &rendered)
			if rendered {
				t.Errorf("the component rendered past the hook: it did not throw at render")
			}
			if got := p.listed(); len(got) != 2 {
				t.Errorf("after the invalid descriptor getResources lists %q", got)
			}
			p.noErrors()
			t.Log(fmt.Sprint(len(p.tab.Console())), " console lines")
		})
	}
}

// TestReactREADME runs js/FRAMEWORKS.md's React examples as written (Cart and
// AgentPanel, in StrictMode), built for production and for development.
func TestReactREADME(t *testing.T) {
	dir := appDir("vite-react")
	frameworktest.InstalledPackage(t, dir)
	for _, build := range []string{"dist", "dist-dev"} {
		t.Run(build, func(t *testing.T) {
			checkCart(t, serve(t, filepath.Join(dir, build))+"/readme.html?debug", func(n int) string {
				return fmt.Sprintf("1 resources; the cart holds %d items", n)
			})
		})
	}
}
