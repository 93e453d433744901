package registrytest_test

import (
	"fmt"

	"github.com/modelcontext-go/modelcontext/wasm/registry/registrytest"
)

// A test registers a resource the way the loader does, pushes it as the
// page's onChange would, and reads what a page and its agents saw in Log: a
// push of an unchanged value is not dispatched.
func ExampleNew() {
	h := registrytest.New()
	n := 1
	var onChange func()
	h.Register("state://n", func() (any, error) { return n, nil },
		func(f func()) any { onChange = f; return nil })
	onChange()
	onChange() // the same value
	n = 2
	onChange()
	for _, l := range h.Lines("event", "listchanged") {
		fmt.Println(l)
	}
	// Output:
	// listchanged 1
	// event 1 1
	// event 1 2
}
