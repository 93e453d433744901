package modelcontexttest_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/modelcontext"
	"github.com/modelcontext-go/modelcontext/wasm/modelcontext/modelcontexttest"
)

type Cart struct {
	Items map[string]int `json:"items"`
}

// A test installs a Page, registers the app's resource and reads it back,
// as an agent would.
func ExampleNewPage() {
	runTest(func(t testing.TB) {
		modelcontexttest.NewPage(t)
		cart := Cart{Items: map[string]int{"apple": 2}}
		unregister, err := modelcontext.Register(modelcontext.Resource{
			URI: "state://cart", Name: "cart",
			Get: func() (any, error) { return cart, nil },
		})
		if err != nil {
			t.Fatal(err)
		}
		defer unregister()

		got, err := modelcontext.Read[Cart](context.Background(), "state://cart")
		fmt.Println(got.Items, err)
	})
	// Output: map[apple:2] <nil>
}

// A push is delivered to subscribers only when the value's JSON changed.
func ExamplePage_Wait() {
	runTest(func(t testing.TB) {
		p := modelcontexttest.NewPage(t)
		var changed modelcontext.Notifier
		count := 0
		unregister, err := modelcontext.Register(modelcontext.Resource{
			URI: "state://count", Name: "count", Watch: changed.Watch,
			Get: func() (any, error) { return count, nil },
		})
		if err != nil {
			t.Fatal(err)
		}
		defer unregister()
		stop, err := modelcontext.Subscribe("state://count", func(n int, err error) {
			fmt.Println("pushed", n, err)
		})
		if err != nil {
			t.Fatal(err)
		}
		defer stop()

		count = 1
		changed.Notify()
		changed.Notify() // the same value: not delivered again
		count = 2
		changed.Notify()
		p.Wait()
	})
	// Output:
	// pushed 1 <nil>
	// pushed 2 <nil>
}

// A descriptor the module refuses is an *modelcontext.Error naming the field.
func ExamplePage_refused() {
	runTest(func(t testing.TB) {
		modelcontexttest.NewPage(t)
		_, err := modelcontext.Register(modelcontext.Resource{URI: "state://cart"})
		var e *modelcontext.Error
		fmt.Println(errors.As(err, &e), e.Name, e.Field)
	})
	// Output: true TypeError name
}

// An agent follows the page at the least cost: a follower gets each change
// of a resource as a patch (where shorter than the value), and
// ChangesSince says which resources to read again.
func ExamplePage_Revision() {
	runTest(func(t testing.TB) {
		p := modelcontexttest.NewPage(t)
		var changed modelcontext.Notifier
		cart := Cart{Items: map[string]int{"apple": 1, "banana": 6, "cherry": 20, "kiwi": 3, "pear": 1}}
		unregister, err := modelcontext.Register(modelcontext.Resource{
			URI: "state://cart", Name: "cart", Watch: changed.Watch,
			Get: func() (any, error) { return cart, nil },
		})
		if err != nil {
			t.Fatal(err)
		}
		defer unregister()
		seen := p.Revision() // 1: the cart was registered
		stop, err := modelcontext.Follow("state://cart", func(u modelcontext.Update[Cart], err error) {
			patch, _ := json.Marshal(u.Patch)
			fmt.Println("revision", u.Revision, "patch", string(patch))
		}, modelcontext.WithPatches())
		if err != nil {
			t.Fatal(err)
		}
		defer stop()

		changed.Notify() // the first value: no patch
		cart.Items["apple"] = 2
		changed.Notify()
		p.Wait()
		c, err := modelcontext.ChangesSince(context.Background(), seen)
		fmt.Println(c.Revision, c.Updated, err)
	})
	// Output:
	// revision 2 patch null
	// revision 3 patch [{"op":"replace","path":"/items/apple","value":2}]
	// 3 [state://cart] <nil>
}

// runTest stands in for go test's own *testing.T, which an Example does not
// have: it runs f, then the cleanups f registered.
func runTest(f func(t testing.TB)) {
	t := &exampleT{}
	defer func() {
		for i := len(t.cleanups) - 1; i >= 0; i-- {
			t.cleanups[i]()
		}
	}()
	f(t)
}

type exampleT struct {
	testing.TB // only the methods below are called
	cleanups   []func()
}

func (*exampleT) Helper()            {}
func (t *exampleT) Cleanup(f func()) { t.cleanups = append(t.cleanups, f) }
func (*exampleT) Fatal(args ...any)  { panic(fmt.Sprint(args...)) }
