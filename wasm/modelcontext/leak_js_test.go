//go:build js && wasm

package modelcontext

import (
	"context"
	"errors"
	"testing"
)

// TestNoLeaks registers and unregisters (a Get, a GetContext, a template),
// subscribes and stops, listens and stops many times, with pushes, reads and failures in between, and checks
// that the package's live js.Funcs, the module's registrations and
// subscriptions, and the live references in wasm_exec.js's value table are
// back where they started.
func TestNoLeaks(t *testing.T) {
	setup(t)
	const rounds = 1000
	round := func(i int) {
		var changed Notifier
		n := i
		unregister, err := Register(Resource{URI: "state://leak", Name: "leak", Watch: changed.Watch,
			Get: func() (any, error) { return map[string]any{"n": n, "tags": []string{"a", "b"}}, nil }})
		if err != nil {
			t.Fatal(err)
		}
		unSlow, err := Register(Resource{URI: "state://leak-slow", Name: "slow", Watch: changed.Watch,
			GetContext: func(ctx context.Context) (any, error) { return n, ctx.Err() }})
		if err != nil {
			t.Fatal(err)
		}
		unTpl, err := RegisterTemplate(Template{URITemplate: "leak://t/{x}", Name: "t", Get: func(p map[string]string) (any, error) { return p, nil }})
		if err != nil {
			t.Fatal(err)
		}
		got := 0
		stop, err := Subscribe("state://leak", func(struct{ N int }, error) { got++ })
		if err != nil {
			t.Fatal(err)
		}
		stopUpdated, err := OnUpdated(func(*UpdatedEvent) {})
		if err != nil {
			t.Fatal(err)
		}
		stopList, err := OnListChanged(func(*ListChangedEvent) {})
		if err != nil {
			t.Fatal(err)
		}
		changed.Notify()
		n++
		changed.Notify()
		changed.Notify()
		if got != 2 {
			t.Fatalf("round %d: %d pushes delivered, want 2", i, got)
		}
		if i%10 == 0 {
			v, err := Read[struct{ N int }](context.Background(), "state://leak")
			if err != nil || v.N != n {
				t.Fatalf("round %d: read %+v, %v", i, v, err)
			}
			if v, err := Read[int](context.Background(), "state://leak-slow"); err != nil || v != n {
				t.Fatalf("round %d: read of a GetContext %v, %v", i, v, err)
			}
			p, err := Read[map[string]string](context.Background(), "leak://t/"+"q")
			if err != nil || p["x"] != "q" {
				t.Fatalf("round %d: template read %v, %v", i, p, err)
			}
			if _, err := Register(Resource{URI: "bad", Name: "n", Get: func() (any, error) { return nil, nil }}); err == nil {
				t.Fatal("a bad uri was accepted")
			}
			if _, err := Subscribe("state://none", func(any, error) {}); !errors.Is(err, ErrNotFound) {
				t.Fatal(err)
			}
		}
		stop()
		stopUpdated()
		stopList()
		unTpl()
		unSlow()
		unregister()
	}
	round(0) // warm up: the settler and whatever the module creates once
	funcs := liveFuncs.Load()
	regs, subs := moduleStats()
	refs := steady(t)

	for i := 1; i <= rounds; i++ {
		round(i)
	}

	if got := liveFuncs.Load(); got != funcs {
		t.Errorf("live js.Funcs: %d after %d rounds, %d before", got, rounds, funcs)
	}
	if r, s := moduleStats(); r != regs || s != subs {
		t.Errorf("module registrations/subscriptions: %d/%d after, %d/%d before", r, s, regs, subs)
	}
	after := settle(t, refs)
	if after != refs {
		t.Errorf("live references in the value table: %d after %d rounds and GC, %d before", after, rounds, refs)
	}
	t.Logf("after %d rounds: %d live js.Funcs of the package (%d before), %d live references (%d before)", rounds, liveFuncs.Load(), funcs, after, refs)
}
