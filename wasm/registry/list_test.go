package registry_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/registry"
)

func resource(uri string) registry.Registration {
	return registry.Registration{Key: uri, MIMEType: registry.DefaultMIMEType}
}

func templateReg(t *testing.T, text string) registry.Registration {
	t.Helper()
	tpl, err := registry.NewTemplate([]registry.Field{{Kind: registry.KindString, Str: text}})
	if err != nil {
		t.Fatal(err)
	}
	return registry.Registration{Key: text, MIMEType: registry.DefaultMIMEType, Template: tpl}
}

// The registry decides which registration is current and where it is
// listed: a new key goes last, a replacement takes the place of the one it
// replaces (and says which that was), an unregistration leaves a gap that
// closes, and uris and uriTemplates are separate lists even for equal text.
func TestTheRegistryKeepsTheListInOrder(t *testing.T) {
	r := registry.New(nopHost{})
	must := func(id registry.ID, reg registry.Registration, want registry.ID) {
		t.Helper()
		got, err := r.Register(id, reg)
		if err != nil || got != want {
			t.Fatalf("Register(%d, %q) = %d, %v; want %d replaced", id, reg.Key, got, err, want)
		}
	}
	must(1, resource("state://a"), 0)
	must(2, resource("state://b"), 0)
	must(3, resource("state://c"), 0)
	must(4, resource("state://b"), 2)
	must(5, templateReg(t, "state://b"), 0)
	must(6, templateReg(t, "state://t"), 0)
	must(7, templateReg(t, "state://b"), 5)
	if got := r.List(false, nil); !slices.Equal(got, []registry.ID{1, 4, 3}) {
		t.Errorf("resources %v, want [1 4 3]", got)
	}
	if got := r.List(true, nil); !slices.Equal(got, []registry.ID{7, 6}) {
		t.Errorf("templates %v, want [7 6]", got)
	}
	for _, tc := range []struct {
		id   registry.ID
		want bool
	}{{2, false}, {1, true}, {1, false}, {3, true}, {6, true}, {99, false}} {
		if got := r.Unregister(tc.id); got != tc.want {
			t.Errorf("Unregister(%d) = %v, want %v", tc.id, got, tc.want)
		}
	}
	if got := r.List(false, nil); !slices.Equal(got, []registry.ID{4}) {
		t.Errorf("resources %v, want [4]", got)
	}
	if got := r.List(true, nil); !slices.Equal(got, []registry.ID{7}) {
		t.Errorf("templates %v, want [7]", got)
	}
	must(8, resource("state://a"), 0)
	if got := r.List(false, nil); !slices.Equal(got, []registry.ID{4, 8}) {
		t.Errorf("resources %v, want [4 8]", got)
	}
}

// Random registrations, replacements and unregistrations against a model
// of the list (a slice of keys): the registry's order and answers match it
// at every step.
func TestTheListFollowsAModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	r := registry.New(nopHost{})
	type item struct {
		key string
		id  registry.ID
	}
	var model []item
	next := registry.ID(0)
	for step := range 5000 {
		key := fmt.Sprintf("state://k%d", rng.IntN(12))
		at := slices.IndexFunc(model, func(x item) bool { return x.key == key })
		if rng.IntN(3) == 0 {
			id := registry.ID(rng.IntN(int(next) + 2)) // often replaced, or never registered
			if at >= 0 && rng.IntN(4) > 0 {
				id = model[at].id
			}
			i := slices.IndexFunc(model, func(x item) bool { return x.id == id })
			want := i >= 0
			if want {
				model = slices.Delete(model, i, i+1)
			}
			if got := r.Unregister(id); got != want {
				t.Fatalf("step %d: Unregister(%d) = %v, want %v", step, id, got, want)
			}
		} else {
			next++
			want := registry.ID(0)
			if at >= 0 {
				want = model[at].id
				model[at].id = next
			} else {
				model = append(model, item{key, next})
			}
			if got, err := r.Register(next, resource(key)); err != nil || got != want {
				t.Fatalf("step %d: Register(%d, %s) = %d, %v; want %d", step, next, key, got, err, want)
			}
		}
		var want []registry.ID
		for _, x := range model {
			want = append(want, x.id)
		}
		if got := r.List(false, nil); !slices.Equal(got, want) {
			t.Fatalf("step %d: list %v, want %v", step, got, want)
		}
	}
}
