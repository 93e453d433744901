package registry_test

import (
	"slices"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/registry"
)

// A connected frame's registrations (IDs from registry.FrameID) are listed
// and matched after the page's own, each in its own order, also when the
// page registers after the frame did; a page registration that replaces a
// frame's uri goes last among the page's own.
func TestFramesListAfterThePagesOwn(t *testing.T) {
	r := registry.New(nopHost{})
	f := registry.FrameID
	tpl := func(text string) registry.Registration {
		return registry.Registration{Key: text, MIMEType: registry.DefaultMIMEType, Template: template(t, text)}
	}
	must := func(id registry.ID, reg registry.Registration, want registry.ID) {
		t.Helper()
		if got, err := r.Register(id, reg); err != nil || got != want {
			t.Fatalf("Register(%d, %q) = %d, %v; want %d replaced", id, reg.Key, got, err, want)
		}
	}
	must(1, resource("page://a"), 0)
	must(f+1, resource("frame://x"), 0)
	must(f+2, resource("frame://y"), 0)
	must(2, resource("page://b"), 0)
	must(f+3, tpl("app://{id}"), 0)
	must(3, tpl("app://{id}/page"), 0)
	must(4, tpl("app://{id}/{x}"), 0)
	if got := r.List(false, nil); !slices.Equal(got, []registry.ID{1, 2, f + 1, f + 2}) {
		t.Errorf("resources %v, want the page's [1 2] before the frame's", got)
	}
	if got := r.List(true, nil); !slices.Equal(got, []registry.ID{3, 4, f + 3}) {
		t.Errorf("templates %v, want the page's [3 4] before the frame's", got)
	}
	// app://7 is matched by the frame's template only; app://7/q by the
	// page's second although the frame's first was registered before it.
	if id, _ := r.Match("app://7"); id != f+3 {
		t.Errorf("Match(app://7) = %d, want the frame's %d", id, f+3)
	}
	if id, _ := r.Match("app://7/q"); id != 4 {
		t.Errorf("Match(app://7/q) = %d, want the page's 4", id)
	}
	must(5, resource("frame://x"), f+1)
	if got := r.List(false, nil); !slices.Equal(got, []registry.ID{1, 2, 5, f + 2}) {
		t.Errorf("after the page replaced frame://x: %v, want [1 2 5 %d]", got, f+2)
	}
	must(6, tpl("app://{id}"), f+3)
	if got := r.List(true, nil); !slices.Equal(got, []registry.ID{3, 4, 6}) {
		t.Errorf("after the page replaced the frame's template: %v, want [3 4 6]", got)
	}
	r.Unregister(f + 2)
	if got := r.List(false, nil); !slices.Equal(got, []registry.ID{1, 2, 5}) {
		t.Errorf("after the frame left: %v, want [1 2 5]", got)
	}
}
