package modelcontexttest

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/modelcontext"
)

// must(t)(f, err) ends the test on err, and returns the unregister or stop
// f it came with.
func must(t *testing.T) func(f func(), err error) func() {
	return func(f func(), err error) func() {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
}

func revision(t *testing.T) int64 {
	t.Helper()
	r, err := modelcontext.Revision()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func since(t *testing.T, r int64) modelcontext.Changes {
	t.Helper()
	c, err := modelcontext.ChangesSince(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestRevisionSteps: the revision steps once for each event dispatched,
// and each event carries it: a register, a replacement, a template, an
// unregister and a delivered push step it; a suppressed push, a failed one,
// a refused register and a second unregister do not.
func TestRevisionSteps(t *testing.T) {
	p := NewPage(t)
	var events []string
	defer must(t)(modelcontext.OnListChanged(func(e *modelcontext.ListChangedEvent) {
		events = append(events, "list@"+strconv.FormatInt(e.Revision, 10))
	}))()
	defer must(t)(modelcontext.OnUpdated(func(e *modelcontext.UpdatedEvent) {
		events = append(events, "updated@"+strconv.FormatInt(e.Revision, 10))
	}))()
	var changed modelcontext.Notifier
	var fail atomic.Bool
	n := 0
	get := func() (any, error) {
		if fail.Load() {
			return nil, errors.New("down")
		}
		return n, nil
	}
	step := func(what string, want int64, f func()) {
		t.Helper()
		f()
		p.Wait()
		if got := revision(t); got != want {
			t.Errorf("after %s: revision %d, want %d", what, got, want)
		}
	}
	if r := p.Revision(); r != 0 {
		t.Errorf("a new page's revision is %d, want 0", r)
	}
	var un func()
	step("a register", 1, func() {
		un = must(t)(modelcontext.Register(modelcontext.Resource{URI: "state://n", Name: "n", Get: get, Watch: changed.Watch}))
	})
	step("a push", 2, changed.Notify)
	step("the same value again", 2, changed.Notify)
	step("a failed push", 2, func() { fail.Store(true); changed.Notify(); fail.Store(false) })
	step("a refused register", 2, func() { modelcontext.Register(modelcontext.Resource{URI: "no scheme", Name: "n", Get: get}) })
	step("a replacement", 3, func() {
		must(t)(modelcontext.Register(modelcontext.Resource{URI: "state://n", Name: "n", Get: get, Watch: changed.Watch}))
	})
	step("its first push, the same value", 4, changed.Notify)
	step("a template", 5, func() {
		must(t)(modelcontext.RegisterTemplate(modelcontext.Template{URITemplate: "state://t/{id}", Name: "t", Get: func(map[string]string) (any, error) { return 1, nil }}))
	})
	step("an old unregister", 5, un)
	step("a change", 6, func() { n = 2; changed.Notify() })
	want := []string{"list@1", "updated@2", "list@3", "updated@4", "list@5", "updated@6"}
	if !slices.Equal(events, want) {
		t.Errorf("events %v, want %v", events, want)
	}
	if errs := p.Errors(); len(errs) != 1 {
		t.Errorf("errors %q, want the failed push's", errs)
	}
}

// TestChangesSince: what ChangesSince answers, as the module's rules say:
// the added, the updated (pushed or replaced) and the removed since a
// revision, in list order, each once and in one list; a resource removed
// and added again is added; one added and removed since is not there; a
// revision out of range is a RangeError naming "revision"; 1,024 removals
// are remembered, one more answers reset.
func TestChangesSince(t *testing.T) {
	NewPage(t)
	reg := func(uri string, watch func(func()) func()) func() {
		return must(t)(modelcontext.Register(modelcontext.Resource{URI: uri, Name: "r", Watch: watch, Get: func() (any, error) { return uri, nil }}))
	}
	var changed modelcontext.Notifier
	unA := reg("state://a", changed.Watch)
	unB := reg("state://b", nil)
	reg("state://c", nil)
	r0 := revision(t)
	if c := since(t, 0); !slices.Equal(c.Added, []string{"state://a", "state://b", "state://c"}) || len(c.Updated)+len(c.Removed) != 0 || c.Revision != r0 {
		t.Errorf("since 0: %+v", c)
	}
	changed.Notify() // a's first push
	reg("state://c", nil)
	unB()
	reg("state://d", nil)()
	unA()
	reg("state://a", nil)
	got := since(t, r0)
	want := modelcontext.Changes{Revision: r0 + 7, Updated: []string{"state://c"}, Added: []string{"state://a"}, Removed: []string{"state://b"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("since %d: %+v, want %+v", r0, got, want)
	}
	if c := since(t, got.Revision); len(c.Added)+len(c.Updated)+len(c.Removed) != 0 || c.Added == nil || c.Reset {
		t.Errorf("since now: %+v, want three empty lists", c)
	}
	for _, r := range []int64{-1, got.Revision + 1} {
		_, err := modelcontext.ChangesSince(context.Background(), r)
		var e *modelcontext.Error
		if !errors.As(err, &e) || e.Name != "RangeError" || e.Field != "revision" || !strings.Contains(e.Message, "the current revision, "+strconv.FormatInt(got.Revision, 10)+"; got "+strconv.FormatInt(r, 10)) {
			t.Errorf("ChangesSince(%d): %v", r, err)
		}
	}

	r1 := revision(t)
	unC := reg("state://removed-late", nil)
	r2 := revision(t)
	for i := range removalsKept - 1 {
		reg("state://churn/"+strconv.Itoa(i), nil)()
	}
	unC()
	if c := since(t, r2); c.Reset || !slices.Equal(c.Removed, []string{"state://removed-late"}) {
		t.Errorf("since %d, %d removals later: %+v", r2, removalsKept, c)
	}
	if c := since(t, r1); c.Reset || len(c.Removed) != 0 {
		t.Errorf("since %d, before the resource was added: %+v, want it not removed", r1, c)
	}
	reg("state://one-more", nil)()
	if c := since(t, r2); !c.Reset || c.Revision != revision(t) || c.Added != nil {
		t.Errorf("since %d, %d removals later: %+v, want reset", r2, removalsKept+1, c)
	}
	if c := since(t, revision(t)); c.Reset {
		t.Errorf("since now: %+v", c)
	}
}

// TestPatches: what Follow with WithPatches hands over: no patch for the
// first value, for a binary value or one after it, for a value with a NUL
// character, or where the patch would be longer than the value; an empty
// one for the value again after a replacement (the follower survives it);
// a late follower's first patch from the last value dispatched; each
// patch applied (ApplyPatch) gives the value. Without WithPatches: the
// revisions, no patches.
func TestPatches(t *testing.T) {
	p := NewPage(t)
	var changed modelcontext.Notifier
	type box struct{ v any }
	var val atomic.Value
	register := func() func() {
		return must(t)(modelcontext.Register(modelcontext.Resource{URI: "state://v", Name: "v", Watch: changed.Watch, Get: func() (any, error) { return val.Load().(box).v, nil }}))
	}
	type step struct {
		revision int64
		patch    string
	}
	var got []step
	var doc any
	follow := func(u modelcontext.Update[any], err error) {
		if err != nil {
			// a binary value decodes only into a []byte: the update still comes
			doc = nil
		} else if u.Patch != nil {
			next, err := modelcontext.ApplyPatch(doc, u.Patch)
			if err != nil || !reflect.DeepEqual(next, u.Value) {
				t.Errorf("ApplyPatch(%v, %v) = %v, %v; want %v", doc, u.Patch, next, err, u.Value)
			}
			doc = next
		} else {
			doc = u.Value
		}
		b, _ := json.Marshal(u.Patch)
		got = append(got, step{u.Revision, string(b)})
	}
	register()
	first := map[string]any{"items": []any{"a"}, "note": "a long enough note to patch"}
	val.Store(box{first})
	changed.Notify() // before the follower, who starts from it
	doc = first
	defer must(t)(modelcontext.Follow("state://v", follow, modelcontext.WithPatches()))()
	var plain []modelcontext.Update[json.RawMessage]
	defer must(t)(modelcontext.Follow("state://v", func(u modelcontext.Update[json.RawMessage], err error) { plain = append(plain, u) }))()
	for _, v := range []any{
		map[string]any{"items": []string{"a", "b"}, "note": "a long enough note to patch"},
		[]byte{1, 2},
		map[string]any{"items": []string{"a", "b"}, "note": "a long enough note to patch"},
		map[string]any{"items": []string{"a", "b"}, "note": "a long enough note to patch\x00"},
		map[string]any{"items": []string{"a", "c"}, "note": "a long enough note to patch"},
		"short",
		"shorter",
	} {
		val.Store(box{v})
		changed.Notify()
	}
	register()
	changed.Notify() // no baseline: delivered again
	var late []string
	defer must(t)(modelcontext.Follow("state://v", func(u modelcontext.Update[any], err error) {
		b, _ := json.Marshal(u.Patch)
		late = append(late, string(b))
	}, modelcontext.WithPatches()))()
	val.Store(box{"shortest"})
	changed.Notify()
	p.Wait()
	patches := make([]string, len(got))
	for i, s := range got {
		patches[i] = s.patch
	}
	want := []string{
		`[{"op":"add","path":"/items/1","value":"b"}]`, // from the value dispatched before Follow
		"null", // binary
		"null", // after a binary value
		"null", // a NUL character
		"null", // after it
		"null", // a replace longer than the value
		"null",
		"[]", // the same value, after the replacement
		"null",
	}
	if !slices.Equal(patches, want) {
		t.Errorf("patches:\n%s\nwant:\n%s", strings.Join(patches, "\n"), strings.Join(want, "\n"))
	}
	if !slices.Equal(late, []string{"null"}) {
		t.Errorf("the late follower's patches: %q", late)
	}
	if len(plain) != len(got) {
		t.Fatalf("%d updates without patches, %d with", len(plain), len(got))
	}
	for i, u := range plain {
		if u.Patch != nil || u.Revision != got[i].revision || (i > 0 && u.Revision <= plain[i-1].Revision) {
			t.Errorf("update %d without patches: revision %d (with patches: %d), patch %v", i, u.Revision, got[i].revision, u.Patch)
		}
	}
	if r := p.Revision(); plain[len(plain)-1].Revision != r {
		t.Errorf("the last update without patches is at %d; the page's revision is %d", plain[len(plain)-1].Revision, r)
	}
}

// TestPatchFromTheLastValueDispatched: a follower's first patch is from the
// value the page dispatched last before it followed; one made from a
// resourceupdated handler gets the value being dispatched, with an empty
// patch, as in the module.
func TestPatchFromTheLastValueDispatched(t *testing.T) {
	p := NewPage(t)
	var changed modelcontext.Notifier
	n := 1
	defer must(t)(modelcontext.Register(modelcontext.Resource{URI: "state://n", Name: "n", Watch: changed.Watch,
		Get: func() (any, error) { return map[string]any{"n": n, "padding": "so that a patch is shorter"}, nil }}))()
	changed.Notify()
	var patches []string
	record := func(u modelcontext.Update[any], err error) {
		b, _ := json.Marshal(u.Patch)
		patches = append(patches, string(b))
	}
	var once sync.Once
	defer must(t)(modelcontext.OnUpdated(func(*modelcontext.UpdatedEvent) {
		once.Do(func() { must(t)(modelcontext.Follow("state://n", record, modelcontext.WithPatches())) })
	}))()
	defer must(t)(modelcontext.Follow("state://n", record, modelcontext.WithPatches()))()
	n = 2
	changed.Notify()
	p.Wait()
	want := []string{`[{"op":"replace","path":"/n","value":2}]`, `[]`}
	if !slices.Equal(patches, want) {
		t.Errorf("patches %q, want %q", patches, want)
	}
}

// TestChangesRace pushes from many goroutines (GetContexts) while others
// ask Revision and ChangesSince and followers get patches: run with -race.
// In the end the revision is the number of events, and each follower has
// followed the value by its patches.
func TestChangesRace(t *testing.T) {
	p := NewPage(t)
	var events atomic.Int64
	defer must(t)(modelcontext.OnUpdated(func(*modelcontext.UpdatedEvent) { events.Add(1) }))()
	defer must(t)(modelcontext.OnListChanged(func(*modelcontext.ListChangedEvent) { events.Add(1) }))()
	const resources, pushes = 4, 50
	var wg sync.WaitGroup
	for i := range resources {
		var changed modelcontext.Notifier
		var n atomic.Int64
		uri := "state://race/" + strconv.Itoa(i)
		defer must(t)(modelcontext.Register(modelcontext.Resource{URI: uri, Name: "r", Watch: changed.Watch,
			GetContext: func(context.Context) (any, error) {
				return map[string]any{"n": n.Load(), "fixed": "a value long enough"}, nil
			}}))()
		var doc any
		var last json.RawMessage
		defer must(t)(modelcontext.Follow(uri, func(u modelcontext.Update[json.RawMessage], err error) {
			if u.Patch != nil {
				var err error
				if doc, err = modelcontext.ApplyPatch(doc, u.Patch); err != nil {
					t.Error(err)
				}
			} else {
				json.Unmarshal(u.Value, &doc)
			}
			last = u.Value
		}, modelcontext.WithPatches()))()
		wg.Go(func() {
			for range pushes {
				n.Add(1)
				changed.Notify()
			}
		})
		t.Cleanup(func() {
			var want any
			json.Unmarshal(last, &want)
			if !reflect.DeepEqual(doc, want) {
				t.Errorf("%s followed by patches: %v, want %v", uri, doc, want)
			}
		})
	}
	wg.Go(func() {
		for range pushes {
			r, _ := modelcontext.Revision()
			if c, err := modelcontext.ChangesSince(context.Background(), r/2); err != nil || c.Revision < r {
				t.Errorf("ChangesSince(%d) = %+v, %v", r/2, c, err)
			}
		}
	})
	wg.Wait()
	p.Wait()
	if r, e := p.Revision(), events.Load(); r != e {
		t.Errorf("revision %d, %d events", r, e)
	}
}
