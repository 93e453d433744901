package main

import (
	"slices"
	"strings"
	"testing"
)

// TestCrossings: the stub's names the runtime uses go in, in the stub's
// order; the runtime's functions the stub calls come back; names in
// strings, comments, after a dot or as an object literal's keys are not
// uses, a template literal's ${...} is.
func TestCrossings(t *testing.T) {
	stub := `const table = new Map();
function dispatch(type) {}
const unused = 1;
let state = 0;
function registerResource(d) {
  if (state === 1) registerNow(d);
  return "replay"; // replay
}
`
	runtime := "const cache = { state: 1, dispatch: 2 };\n" +
		"function registerNow(r) { table.set(r.key, r); cache.unused = 2; return `${dispatch(\"x\")} state`; }\n" +
		"function replay() { /* registerResource */ }\n"
	c, err := crossings(stub, runtime)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"table", "dispatch"}; !slices.Equal(c.in, want) {
		t.Errorf("in %v, want %v", c.in, want)
	}
	if want := []string{"registerNow"}; !slices.Equal(c.back, want) {
		t.Errorf("back %v, want %v", c.back, want)
	}
}

// TestCrossingsRefuse: a let of the stub the runtime uses, a value of the
// runtime the stub uses, a name both declare and several names in one
// declaration are errors that name them.
func TestCrossingsRefuse(t *testing.T) {
	for _, tc := range []struct{ stub, runtime, want string }{
		{"let state = 0;\n", "function f() { return state; }\n", "the stub's state, declared with let"},
		{"function f() { return cache; }\n", "const cache = 1;\n", "the runtime's cache, which is not a function"},
		{"const a = 1;\n", "function a() {}\n", "a is declared by both"},
		{"const a = 1, b = 2;\n", "", "one name per statement"},
	} {
		if _, err := crossings(tc.stub, tc.runtime); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("crossings(%q, %q): %v, want an error with %q", tc.stub, tc.runtime, err, tc.want)
		}
	}
}
