package registry

import (
	"slices"
	"strings"
	"testing"
)

func TestTemplateMatch(t *testing.T) {
	for _, tc := range []struct {
		template, uri string
		want          []Param // nil: no match
	}{
		{"app://orders/{id}", "app://orders/42", []Param{{"id", "42"}}},
		{"app://orders/{id}", "app://orders/a%20b", []Param{{"id", "a b"}}},
		{"app://orders/{id}", "app://orders/a%2Fb", []Param{{"id", "a/b"}}},
		{"app://orders/{id}", "app://orders/", nil},
		{"app://orders/{id}", "app://orders/1/2", nil},
		{"app://orders/{id}", "app://orders/%zz", nil},
		{"app://orders/{id}", "app://other/1", nil},
		{"app://{shop}/orders/{id}.json", "app://eu/orders/7.json", []Param{{"shop", "eu"}, {"id", "7"}}},
		{"app://{shop}/orders/{id}.json", "app://eu/orders/7.xml", nil},
		{"app://{a}.{b}", "app://x.y.z", []Param{{"a", "x"}, {"b", "y.z"}}},
		{"app://fixed", "app://fixed", []Param{}},
	} {
		tpl, why := ParseTemplate(tc.template)
		if why != "" {
			t.Fatalf("%s: %s", tc.template, why)
		}
		got, ok := tpl.Match(tc.uri)
		if ok != (tc.want != nil) || ok && !slices.Equal(got, tc.want) {
			t.Errorf("%s ~ %s = %v, %v; want %v", tc.template, tc.uri, got, ok, tc.want)
		}
	}
}

func TestTemplateSyntaxErrors(t *testing.T) {
	for tpl, want := range map[string]string{
		"app://x/{id":        `has a "{" without "}"`,
		"app://x/id}":        `has a "}" without "{"`,
		"app://x/{+path}":    "has the expression {+path}; only simple {name} expressions (RFC 6570 level 1) are supported",
		"app://x/{}":         "has the expression {}; only simple {name} expressions (RFC 6570 level 1) are supported",
		"app://x/{a}{b}":     "has two expressions next to each other; separate them with a literal",
		"app://x/{a,b}":      "has the expression {a,b}; only simple {name} expressions (RFC 6570 level 1) are supported",
		"app://x/{id}/items": "",
	} {
		if _, why := ParseTemplate(tpl); why != want {
			t.Errorf("%s: %q, want %q", tpl, why, want)
		}
	}
}

func TestTemplateRegistrationAndLookupOrder(t *testing.T) {
	h := newFake()
	tplDesc := func(tpl string) *Descriptor {
		return &Descriptor{Kind: KindObject, URITemplate: str(tpl), Name: str("orders"), Get: kind(KindFunction)}
	}
	a, err := h.r.Register(tplDesc("app://orders/{id}"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := h.r.Register(tplDesc("app://{kind}/{id}"))
	concrete, _ := h.register("app://orders/1", func() (any, error) { return 1, nil }, nil)
	for uri, want := range map[string]ID{"app://orders/1": concrete, "app://orders/2": a, "app://carts/2": b, "app://x": 0} {
		if got, _ := h.r.Lookup(uri); got != want {
			t.Errorf("Lookup(%s) = %d, want %d", uri, got, want)
		}
	}
	if got := h.r.Order(nil, true); !slices.Equal(got, []ID{a, b}) {
		t.Errorf("templates = %v", got)
	}
	if got := h.r.Order(nil, false); !slices.Equal(got, []ID{concrete}) {
		t.Errorf("resources = %v", got)
	}
	if h.r.Subscribe("app://orders/2") != 0 {
		t.Error("a uri served only by a template accepted a subscription")
	}
	d := tplDesc("app://orders/{id}")
	d.Subscribe = kind(KindFunction)
	if _, err := h.r.Register(d); err == nil || !strings.Contains(err.Error(), `"subscribe" is not supported with a uriTemplate`) {
		t.Errorf("subscribe on a template: %v", err)
	}
	h.r.Unregister(a)
	if got, _ := h.r.Lookup("app://orders/2"); got != b {
		t.Errorf("after unregistering the first template, Lookup = %d, want %d", got, b)
	}
}

func FuzzTemplateMatch(f *testing.F) {
	f.Add("app://orders/{id}", "app://orders/42")
	f.Add("app://{shop}/o/{id}.json", "app://eu/o/%41.json")
	f.Add("x:{a}-{b}", "x:1-2-3")
	f.Fuzz(func(t *testing.T, tpl, uri string) {
		parsed, why := ParseTemplate(tpl)
		if why != "" {
			return
		}
		params, ok := parsed.Match(uri)
		if !ok {
			return
		}
		if len(params) != len(parsed.vars) {
			t.Fatalf("%d params for %d variables", len(params), len(parsed.vars))
		}
		for _, p := range params {
			if p.Value == "" {
				t.Fatalf("empty value for %s", p.Name)
			}
		}
	})
}
