//go:build js && wasm

package modelcontext

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"syscall/js"
	"testing"
)

// TestRevisionsAndPatches follows a resource of the page's JavaScript
// (plain objects, then a Map, which is not plain JSON data) from Go and
// from JavaScript side by side: the revisions Go's events carry are their
// detail.revision, Revision is document.modelContext.revision and does not
// step for an unchanged value, Follow's patches are those JavaScript's
// {patch: true} handler gets (none after the Map, nor for it), and
// ApplyPatch follows the value by them.
func TestRevisionsAndPatches(t *testing.T) {
	setup(t)
	page := jsFunc(`let value = null; const subs = new Set(); const seen = {revisions: [], patches: []};
		const mc = document.modelContext;
		const unregister = mc.registerResource({uri: "state://rev-page", name: "rev", get: () => value,
			subscribe: (f) => (subs.add(f), () => subs.delete(f))});
		const onUpdated = (e) => e.detail.uri === "state://rev-page" && seen.revisions.push(e.detail.revision);
		mc.addEventListener("resourceupdated", onUpdated);
		const unsubscribe = mc.subscribeResource("state://rev-page", (v, uri, info) => seen.patches.push(JSON.stringify(info.patch)), {patch: true});
		return {
			set(json) { value = json === "map" ? new Map([["a", 1]]) : JSON.parse(json); subs.forEach((f) => f()); },
			seen: () => JSON.stringify(seen),
			revision: () => mc.revision,
			end() { unsubscribe(); mc.removeEventListener("resourceupdated", onUpdated); unregister(); },
		};`).Invoke()
	defer page.Call("end")

	var revisions []int64
	stopUpdated, err := OnUpdated(func(e *UpdatedEvent) {
		if e.URI == "state://rev-page" {
			revisions = append(revisions, e.Revision)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer stopUpdated()
	var patches []string
	var doc any
	stop, err := Follow("state://rev-page", func(u Update[any], err error) {
		if err != nil {
			t.Error(err)
		}
		b, _ := json.Marshal(u.Patch)
		patches = append(patches, string(b))
		if u.Patch == nil {
			doc = u.Value
			return
		}
		next, err := ApplyPatch(doc, u.Patch)
		if err != nil || !reflect.DeepEqual(next, u.Value) {
			t.Errorf("ApplyPatch(%v, %s) = %v, %v; want %v", doc, b, next, err, u.Value)
		}
		doc = next
	}, WithPatches())
	if err != nil {
		t.Fatal(err)
	}
	defer stop()

	note := `"note": "gift-wrap the mug, and put a card in"`
	before, err := Revision()
	if err != nil || int64(page.Call("revision").Float()) != before {
		t.Fatalf("Revision() = %d, %v; document.modelContext.revision = %v", before, err, page.Call("revision"))
	}
	for i, v := range []string{
		`{"lines": [{"sku": "MUG", "qty": 1}], ` + note + `}`,
		`{"lines": [{"sku": "MUG", "qty": 2}], ` + note + `}`,
		`{"lines": [{"sku": "MUG", "qty": 2}, {"sku": "TEA", "qty": 1}], ` + note + `}`,
		`{"lines": [{"sku": "TEA", "qty": 1}, {"sku": "MUG", "qty": 2}], ` + note + `}`,
		"map",
		`{"lines": [], ` + note + `}`,
		`{"lines": [{"sku": "MUG", "qty": 5}], ` + note + `}`,
	} {
		r, _ := Revision()
		page.Call("set", v)
		if i == 1 {
			page.Call("set", v) // unchanged: no step
		}
		if got, _ := Revision(); got != r+1 {
			t.Errorf("push %d: the revision went from %d to %d, want one step", i, r, got)
		}
	}

	var seen struct {
		Revisions []int64
		Patches   []string
	}
	if err := json.Unmarshal([]byte(page.Call("seen").String()), &seen); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(revisions, seen.Revisions) || len(revisions) != 7 || revisions[0] != before+1 {
		t.Errorf("the revisions of Go's events %v; of JavaScript's %v (from %d)", revisions, seen.Revisions, before)
	}
	if len(patches) != len(seen.Patches) {
		t.Fatalf("Follow got %d patches, JavaScript %d: %q, %q", len(patches), len(seen.Patches), patches, seen.Patches)
	}
	for i := range patches {
		var a, b any
		json.Unmarshal([]byte(patches[i]), &a)
		json.Unmarshal([]byte(seen.Patches[i]), &b)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("push %d: Follow's patch %s, JavaScript's %s", i, patches[i], seen.Patches[i])
		}
	}
	for _, i := range []int{0, 4, 5} { // the first, the Map, and after it
		if patches[i] != "null" {
			t.Errorf("push %d: patch %s, want none", i, patches[i])
		}
	}
	if !strings.Contains(patches[3], `"move"`) {
		t.Errorf("the lines swapped: patch %s, want a move", patches[3])
	}
	c, err := ChangesSince(ctx(t), before)
	if err != nil || !slices.Contains(c.Updated, "state://rev-page") || c.Reset || c.Revision != before+7 {
		t.Errorf("ChangesSince(%d) = %+v, %v", before, c, err)
	}
}

// TestChangesSinceRefuses: a revision out of range is the module's
// RangeError, naming "revision"; a Follow without patches still has its
// revisions.
func TestChangesSinceRefuses(t *testing.T) {
	setup(t)
	now, err := Revision()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []int64{-1, now + 1, 1 << 60} {
		_, err := ChangesSince(ctx(t), r)
		var e *Error
		if !errors.As(err, &e) || e.Name != "RangeError" || e.Field != "revision" || !strings.Contains(err.Error(), `changesSince: "revision" must be from 0 to the current revision`) {
			t.Errorf("ChangesSince(%d): %v (%#v), want a RangeError naming the revision", r, err, e)
		}
	}
	c, err := ChangesSince(ctx(t), now)
	if err != nil || c.Reset || c.Updated == nil || c.Added == nil || c.Removed == nil {
		t.Errorf("ChangesSince(now) = %+v, %v; want empty lists", c, err)
	}

	var changed Notifier
	n := 0
	unregister, err := Register(Resource{URI: "state://rev-go", Name: "rev", Watch: changed.Watch, Get: func() (any, error) { return n, nil }})
	if err != nil {
		t.Fatal(err)
	}
	defer unregister()
	var got []Update[int]
	stop, err := Follow("state://rev-go", func(u Update[int], err error) { got = append(got, u) })
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	for n = 1; n <= 2; n++ {
		changed.Notify()
	}
	r := js.Global().Get("document").Get("modelContext").Get("revision").Float()
	if len(got) != 2 || got[0].Value != 1 || got[1].Value != 2 || got[1].Revision != int64(r) || got[0].Revision != int64(r)-1 || got[0].Patch != nil {
		t.Errorf("Follow without patches got %+v; the page's revision is %v", got, r)
	}
}
