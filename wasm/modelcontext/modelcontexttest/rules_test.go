package modelcontexttest

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontext-go/modelcontext/wasm/modelcontext"
)

// TestDeduplication: a push is delivered when its value's JSON differs
// from the last one delivered, and only then.
func TestDeduplication(t *testing.T) {
	for _, c := range []struct {
		pushes string
		want   string
	}{
		{"AAA", "A"},
		{"ABA", "ABA"},
		{"ABBC", "ABC"},
		{"AABBAA", "ABA"},
	} {
		t.Run(c.pushes, func(t *testing.T) {
			NewPage(t)
			var changed modelcontext.Notifier
			letter := ""
			unregister, err := modelcontext.Register(modelcontext.Resource{URI: "state://letter", Name: "letter", Watch: changed.Watch,
				// A map of many keys: encoding/json sorts them, so equal maps give equal JSON.
				Get: func() (any, error) {
					return map[string]string{"letter": letter, "z": "1", "a": "2", "m": "3", "q": "4", "b": "5"}, nil
				}})
			if err != nil {
				t.Fatal(err)
			}
			defer unregister()
			var got strings.Builder
			stop, err := modelcontext.Subscribe("state://letter", func(v map[string]string, err error) {
				if err != nil {
					t.Error(err)
				}
				got.WriteString(v["letter"])
			})
			if err != nil {
				t.Fatal(err)
			}
			defer stop()
			for _, l := range c.pushes {
				letter = string(l)
				changed.Notify()
			}
			if got.String() != c.want {
				t.Errorf("pushes %s delivered %q, want %q", c.pushes, got.String(), c.want)
			}
		})
	}
}

// TestLateResultDropped: the value of a push that arrives after a newer
// push's was delivered is dropped (the registry decides); an older one that
// arrives first is delivered, then the newer one too.
func TestLateResultDropped(t *testing.T) {
	p := NewPage(t)
	unregister, err := modelcontext.Register(modelcontext.Resource{URI: "state://late", Name: "late", Watch: func(func()) func() { return nil },
		GetContext: func(context.Context) (any, error) { return 0, nil }})
	if err != nil {
		t.Fatal(err)
	}
	defer unregister()
	var got []int
	stop, _ := modelcontext.Subscribe("state://late", func(v int, _ error) { got = append(got, v) })
	defer stop()
	r := p.byURI["state://late"]
	val := func(s string) *value { return &value{text: s} }
	r.result(2, val("2"), "") // push 2 first
	r.result(1, val("1"), "") // push 1, late: dropped
	r.result(4, val("4"), "") // push 4
	r.result(3, val("3"), "") // push 3, late: dropped
	r.result(5, val("5"), "")
	if !slices.Equal(got, []int{2, 4, 5}) {
		t.Errorf("delivered %v, want [2 4 5]", got)
	}
}

// TestGetContextAndWait: a GetContext that takes 50 ms settles its read
// and its push; Wait waits for the push.
func TestGetContextAndWait(t *testing.T) {
	p := NewPage(t)
	type cart struct {
		Items map[string]int `json:"items"`
	}
	var mu sync.Mutex
	c := cart{Items: map[string]int{}}
	var changed modelcontext.Notifier
	unregister, err := modelcontext.Register(modelcontext.Resource{URI: "state://cart", Name: "cart", Watch: changed.Watch,
		GetContext: func(ctx context.Context) (any, error) {
			select {
			case <-time.After(50 * time.Millisecond):
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			mu.Lock()
			defer mu.Unlock()
			return c, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer unregister()
	pushes := make(chan cart, 10)
	stop, _ := modelcontext.Subscribe("state://cart", func(v cart, _ error) { pushes <- v })
	defer stop()
	start := time.Now()
	got, err := modelcontext.Read[cart](context.Background(), "state://cart")
	if err != nil || len(got.Items) != 0 || time.Since(start) < 50*time.Millisecond {
		t.Errorf("Read = %+v, %v after %v", got, err, time.Since(start))
	}
	mu.Lock()
	c.Items = map[string]int{"MUG": 1}
	mu.Unlock()
	changed.Notify()
	changed.Notify() // the same value: suppressed
	p.Wait()
	if len(pushes) != 1 {
		t.Fatalf("%d pushes delivered, want 1", len(pushes))
	}
	if v := <-pushes; v.Items["MUG"] != 1 {
		t.Errorf("pushed %+v", v)
	}
}

// TestSettle: a burst of onChange calls is one push, of the value at its
// end, and Wait waits for it.
func TestSettle(t *testing.T) {
	p := NewPage(t)
	var changed modelcontext.Notifier
	var mu sync.Mutex
	text := ""
	unregister, err := modelcontext.Register(modelcontext.Resource{URI: "state://draft", Name: "draft", Watch: changed.Watch, Settle: 20 * time.Millisecond,
		Get: func() (any, error) { mu.Lock(); defer mu.Unlock(); return text, nil }})
	if err != nil {
		t.Fatal(err)
	}
	defer unregister()
	var got []string
	stop, _ := modelcontext.Subscribe("state://draft", func(v string, _ error) { got = append(got, v) })
	defer stop()
	for _, s := range []string{"h", "he", "hel", "hello"} {
		mu.Lock()
		text = s
		mu.Unlock()
		changed.Notify()
	}
	p.Wait()
	if !slices.Equal(got, []string{"hello"}) {
		t.Errorf("a burst delivered %q, want one push of \"hello\"", got)
	}
}

// TestPageEndsWithItsTest: the registrations of a test's page end with
// it (their Watch stopped), and the next test starts empty.
func TestPageEndsWithItsTest(t *testing.T) {
	stopped := 0
	t.Run("first", func(t *testing.T) {
		NewPage(t)
		if _, err := modelcontext.Register(modelcontext.Resource{URI: "state://x", Name: "x", Get: func() (any, error) { return 1, nil },
			Watch: func(func()) func() { return func() { stopped++ } }}); err != nil {
			t.Fatal(err)
		}
	})
	if stopped != 1 {
		t.Errorf("the Watch was stopped %d times when its test ended, want 1", stopped)
	}
	t.Run("second", func(t *testing.T) {
		NewPage(t)
		if list, err := modelcontext.Resources(); err != nil || len(list) != 0 {
			t.Errorf("a new page lists %v, %v", list, err)
		}
	})
}

// TestHandlerPanics: a panicking handler is reported on Errors and stops
// nothing else.
func TestHandlerPanics(t *testing.T) {
	p := NewPage(t)
	var changed modelcontext.Notifier
	unregister, _ := modelcontext.Register(modelcontext.Resource{URI: "state://p", Name: "p", Watch: changed.Watch, Get: func() (any, error) { return 1, nil }})
	defer unregister()
	stop1, _ := modelcontext.Subscribe("state://p", func(int, error) { panic("boom") })
	defer stop1()
	heard := 0
	stop2, _ := modelcontext.Subscribe("state://p", func(int, error) { heard++ })
	defer stop2()
	changed.Notify()
	if heard != 1 {
		t.Errorf("the second handler heard %d pushes, want 1", heard)
	}
	if errs := p.Errors(); !slices.Equal(errs, []string{`modelcontext: a Subscribe handler of "state://p" panicked: boom`}) {
		t.Errorf("Errors() = %q", errs)
	}
}

// TestFailedPushReported: a push whose Get fails delivers nothing and is
// reported on Errors as the browser's console shows it; later pushes work.
func TestFailedPushReported(t *testing.T) {
	p := NewPage(t)
	var changed modelcontext.Notifier
	fail := true
	unregister, _ := modelcontext.Register(modelcontext.Resource{URI: "state://f", Name: "f", Watch: changed.Watch, Get: func() (any, error) {
		if fail {
			panic("nil cart")
		}
		return "fine", nil
	}})
	defer unregister()
	var got []string
	stop, _ := modelcontext.Subscribe("state://f", func(v string, _ error) { got = append(got, v) })
	defer stop()
	changed.Notify()
	fail = false
	changed.Notify()
	want := []string{`modelcontext: get() of "state://f" failed; nothing was pushed: Error: modelcontext: Get of "state://f" panicked: nil cart`}
	if errs := p.Errors(); !slices.Equal(errs, want) || !slices.Equal(got, []string{"fine"}) {
		t.Errorf("Errors() = %q, delivered %q", errs, got)
	}
}
