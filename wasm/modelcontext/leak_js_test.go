//go:build js && wasm

package modelcontext

import (
	"context"
	"errors"
	"runtime"
	"testing"
)

// TestNoLeaks registers and unregisters (a Get, a GetContext, a template),
// subscribes and stops, follows with patches and stops, listens and stops many times, with pushes, reads and failures in between, and checks
// that the package's live js.Funcs, the module's registrations and
// subscriptions, the goroutines and the objects on the Go heap are back
// where they started. The heap is what shows the JavaScript values Go
// holds (each js.Value of an object keeps one heap object alive, and
// wasm_exec.js keeps the JavaScript value for as long as it lives): a
// package that kept one of them a round would end with at least
// rounds/2 more objects (two of those small objects can share a block of
// the allocator's), against a few when it keeps none.
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
		stopFollow, err := Follow("state://leak", func(Update[struct{ N int }], error) {}, WithPatches())
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
		stopFollow()
		stopUpdated()
		stopList()
		unTpl()
		unSlow()
		unregister()
	}
	round(0) // warm up: the settler and whatever the module creates once
	funcs := liveFuncs.Load()
	regs, subs := moduleStats()
	objects := steady()
	goroutines := runtime.NumGoroutine()

	for i := 1; i <= rounds; i++ {
		round(i)
	}

	if got := liveFuncs.Load(); got != funcs {
		t.Errorf("live js.Funcs: %d after %d rounds, %d before", got, rounds, funcs)
	}
	if r, s := moduleStats(); r != regs || s != subs {
		t.Errorf("module registrations/subscriptions: %d/%d after, %d/%d before", r, s, regs, subs)
	}
	if g := goroutinesDown(goroutines); g > goroutines {
		t.Errorf("goroutines: %d after %d rounds, %d before", g, rounds, goroutines)
	}
	const slack = rounds / 10 // what a round's leak would add is at least rounds/2
	after := settle(objects + slack)
	if after > objects+slack {
		t.Errorf("objects on the Go heap: %d after %d rounds and GC, %d before: something of every round is kept (a js.Value keeps its JavaScript value alive)", after, rounds, objects)
	}
	t.Logf("after %d rounds: %d live js.Funcs of the package (%d before), %d heap objects (%d before), %d goroutines (%d before)",
		rounds, liveFuncs.Load(), funcs, after, objects, runtime.NumGoroutine(), goroutines)
}
