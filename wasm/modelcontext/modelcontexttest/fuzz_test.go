package modelcontexttest

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/modelcontext-go/modelcontext/wasm/modelcontext"
)

// FuzzPushes plays a sequence of pushes and replacements on the double and
// checks what a consumer receives against the rule: a push is delivered
// when its value differs from the last one delivered for the current
// registration; a replacement starts with no baseline; the consumer's
// subscription survives it. Each byte is an operation: a letter a-d sets
// the value to it and pushes, anything else registers the uri again.
func FuzzPushes(f *testing.F) {
	for _, s := range []string{"aaa", "aba", "abbc", "aRa", "abRbRRb", "aa.aa"} {
		f.Add(s)
	}
	// One page for all the inputs: each starts by registering the uri again,
	// which clears the baseline.
	NewPage(f)
	var changed modelcontext.Notifier
	value := ""
	register := func() {
		if _, err := modelcontext.Register(modelcontext.Resource{URI: "state://fuzz", Name: "fuzz", Watch: changed.Watch,
			Get: func() (any, error) { return map[string]string{"v": value, "k": "fixed"}, nil }}); err != nil {
			f.Fatal(err)
		}
	}
	register()
	var got strings.Builder
	var failed error
	stop, err := modelcontext.Subscribe("state://fuzz", func(v struct{ V string }, err error) {
		if err != nil {
			failed = err
		}
		got.WriteString(v.V)
	})
	if err != nil {
		f.Fatal(err)
	}
	defer stop()
	f.Fuzz(func(t *testing.T, ops string) {
		if len(ops) > 16 { // longer sequences find nothing that shorter ones do not
			ops = ops[:16]
		}
		register()
		got.Reset()
		var want strings.Builder
		base, hasBase := "", false
		for _, op := range []byte(ops) {
			if op < 'a' || op > 'd' {
				register()
				hasBase = false
				continue
			}
			value = string(op)
			changed.Notify()
			if !hasBase || base != value {
				want.WriteString(value)
				base, hasBase = value, true
			}
		}
		if failed != nil {
			t.Fatal(failed)
		}
		if got.String() != want.String() {
			t.Errorf("operations %q delivered %q, want %q", ops, got.String(), want.String())
		}
	})
}

// FuzzTemplates: a template the double accepts matches every uri made from
// it by putting non-empty values without "/" in its expressions, and
// returns those values.
func FuzzTemplates(f *testing.F) {
	f.Add("app://orders/{id}", "42", "x")
	f.Add("app://{a}/b/{c}.json", "a%20b", "c")
	f.Add("x:{a}-{b}", "1", "2")
	f.Fuzz(func(t *testing.T, tpl, v1, v2 string) {
		parts, problem := splitTemplate(tpl)
		if problem != "" || len(parts) > 5 || !utf8.ValidString(tpl) { // Go strings cross to JavaScript as UTF-8
			return
		}
		values := []string{v1, v2}
		var uri strings.Builder
		want := map[string]string{}
		for i, p := range parts {
			if i%2 == 0 {
				uri.WriteString(p)
				continue
			}
			v := values[i/2]
			// An expression ends at the first occurrence of the literal
			// after it (registry.Template.Match): a value that holds that
			// literal, or whose end begins it (a value "0" before "00"),
			// would be read differently.
			if next := parts[i+1]; v == "" || !utf8.ValidString(v) || strings.ContainsAny(v, "/%") || next != "" && strings.Index(v+next, next) != len(v) {
				return // not a value the expression can hold unambiguously
			}
			if old, ok := want[p]; ok && old != v {
				return // the same name twice, with two values
			}
			want[p] = v
			uri.WriteString(v)
		}
		if tpl == "" || !scheme.MatchString(tpl) {
			return
		}
		NewPage(t)
		unregister, err := modelcontext.RegisterTemplate(modelcontext.Template{URITemplate: tpl, Name: "t",
			Get: func(p map[string]string) (any, error) { return p, nil }})
		if err != nil {
			t.Fatalf("RegisterTemplate(%q): %v", tpl, err)
		}
		defer unregister()
		got, err := modelcontext.Read[map[string]string](t.Context(), uri.String())
		if err != nil {
			t.Fatalf("template %q, uri %q: %v", tpl, uri.String(), err)
		}
		for name, v := range want {
			if got[name] != v {
				t.Errorf("template %q, uri %q: %s = %q, want %q", tpl, uri.String(), name, got[name], v)
			}
		}
	})
}
