package registry_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/registry"
	"github.com/modelcontext-go/modelcontext/wasm/registry/registrytest"
)

func template(t testing.TB, text string) *registry.Template {
	t.Helper()
	tpl, err := registry.NewTemplate(registrytest.Parts(text))
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return tpl
}

func TestTemplateMatch(t *testing.T) {
	type P = registry.Param
	for _, tc := range []struct {
		template, uri string
		want          []P // nil: no match
	}{
		{"app://orders/{id}", "app://orders/42", []P{{"id", "42"}}},
		{"app://orders/{id}", "app://orders/a%20b", []P{{"id", "a b"}}},
		{"app://orders/{id}", "app://orders/a%2Fb", []P{{"id", "a/b"}}},
		{"app://orders/{id}", "app://orders/", nil},
		{"app://orders/{id}", "app://orders/1/2", nil},
		{"app://orders/{id}", "app://orders/%zz", nil},
		{"app://orders/{id}", "app://other/1", nil},
		{"app://{shop}/orders/{id}.json", "app://eu/orders/7.json", []P{{"shop", "eu"}, {"id", "7"}}},
		{"app://{shop}/orders/{id}.json", "app://eu/orders/7.xml", nil},
		{"app://{a}.{b}", "app://x.y.z", []P{{"a", "x"}, {"b", "y.z"}}},
		{"app://fixed", "app://fixed", []P{}},
	} {
		got, ok := template(t, tc.template).Match(tc.uri)
		if ok != (tc.want != nil) || ok && !slices.Equal(got, tc.want) {
			t.Errorf("%s ~ %s = %v, %v; want %v", tc.template, tc.uri, got, ok, tc.want)
		}
	}
}

// TestNewTemplateRefusesMalformedParts: the loader validates the template's
// text and sends it split; parts it could never send are refused, not
// matched wrongly.
func TestNewTemplateRefusesMalformedParts(t *testing.T) {
	s := func(v ...string) []registry.Field {
		var f []registry.Field
		for _, x := range v {
			f = append(f, registry.Field{Kind: registry.KindString, Str: x})
		}
		return f
	}
	for name, parts := range map[string][]registry.Field{
		"even count":              s("app://", "id"),
		"no parts":                nil,
		"empty variable name":     s("app://", "", ""),
		"variables side by side":  s("app://", "a", "", "b", ""),
		"a part that is a number": {{Kind: registry.KindNumber}},
	} {
		if _, err := registry.NewTemplate(parts); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// FuzzTemplateMatch builds templates from parts (literal|name|literal|...,
// split at "|", as the loader sends them) and matches uris against them.
func FuzzTemplateMatch(f *testing.F) {
	f.Add("app://orders/|id|", "app://orders/42")
	f.Add("app://|shop|/o/|id|.json", "app://eu/o/%41.json")
	f.Add("x:|a|-|b|", "x:1-2-3")
	f.Fuzz(func(t *testing.T, text, uri string) {
		var parts []registry.Field
		for _, p := range strings.Split(text, "|") {
			parts = append(parts, registry.Field{Kind: registry.KindString, Str: p})
		}
		tpl, err := registry.NewTemplate(parts)
		if err != nil {
			return
		}
		params, ok := tpl.Match(uri)
		if !ok {
			return
		}
		if len(params) != len(parts)/2 {
			t.Fatalf("%d params for %d variables", len(params), len(parts)/2)
		}
		for _, p := range params {
			if p.Value == "" {
				t.Fatalf("empty value for %s", p.Name)
			}
		}
	})
}
