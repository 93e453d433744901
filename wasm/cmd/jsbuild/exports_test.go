package main

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestBindingExportsAreTheHelpers: the ES and CommonJS modules export, by
// name, each helper that js/bindings/core.js's bindingsOf returns, and no
// other (bindingExports lists them, since an ES module's exports are
// static), and js/modelcontext.d.ts declares each.
func TestBindingExportsAreTheHelpers(t *testing.T) {
	src, err := os.ReadFile(bindings)
	if err != nil {
		t.Fatal(err)
	}
	code := string(src)
	start := strings.Index(code, "export function bindingsOf(")
	if start < 0 {
		t.Fatalf("%s has no bindingsOf", bindings)
	}
	body, _, ok := strings.Cut(code[start:], "\n  };\n")
	if !ok {
		t.Fatalf("%s: bindingsOf's returned object does not end with a line \"  };\"", bindings)
	}
	// The object's own members: methods and properties indented one level
	// inside it (four spaces), not the lines of their bodies.
	member := regexp.MustCompile(`(?m)^    (?:async )?([A-Za-z_$][\w$]*)\s*(?:\(|:|,)`)
	var helpers []string
	for _, m := range member.FindAllStringSubmatch(body, -1) {
		helpers = append(helpers, m[1])
	}
	if len(helpers) == 0 {
		t.Fatalf("found no member of the object bindingsOf returns in %s", bindings)
	}
	want, got := slices.Sorted(slices.Values(helpers)), slices.Sorted(slices.Values(bindingExports))
	if !slices.Equal(want, got) {
		t.Errorf("bindingsOf returns %v, but jsbuild's bindingExports lists %v: the modules would export a helper that is not there, or leave one out", want, got)
	}
	types, err := os.ReadFile("../../../js/modelcontext.d.ts")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range helpers {
		if !regexp.MustCompile(`export declare function ` + regexp.QuoteMeta(name) + `\b`).Match(types) {
			t.Errorf("js/modelcontext.d.ts declares no function %s, which the modules export", name)
		}
	}
}
