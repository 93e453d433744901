package modelcontexttest_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/modelcontext"
	"github.com/modelcontext-go/modelcontext/wasm/modelcontext/modelcontexttest"
)

// TestTemplateCompleteAndIcons: a template's Complete answers the double's
// Complete with the arguments already chosen; nil is no values; its error
// and its panic fail the completion; a name that is no variable of the
// template, or an unknown template, never reaches it; icons are listed as
// given.
func TestTemplateCompleteAndIcons(t *testing.T) {
	p := modelcontexttest.NewPage(t)
	icons := []modelcontext.Icon{{Src: "https://example.com/order.png", MimeType: "image/png", Sizes: []string{"48x48"}, Theme: "dark"}}
	unregister, err := modelcontext.RegisterTemplate(modelcontext.Template{
		URITemplate: "app://stores/{city}/orders/{id}",
		Name:        "order",
		Icons:       icons,
		Get:         func(p map[string]string) (any, error) { return p, nil },
		Complete: func(ctx context.Context, variable, value string, args map[string]string) ([]string, error) {
			switch {
			case value == "boom":
				panic("no orders today")
			case value == "down":
				return nil, errors.New("the order service is down")
			case variable == "city":
				return nil, nil
			}
			var out []string
			for _, id := range []string{"41", "42", "50"} {
				if strings.HasPrefix(id, value) {
					out = append(out, args["city"]+"-"+id)
				}
			}
			return out, ctx.Err()
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	list, err := modelcontext.Templates()
	if err != nil || len(list) != 1 || !reflect.DeepEqual(list[0].Icons, icons) {
		t.Errorf("Templates() = %+v, %v", list, err)
	}
	for _, tc := range []struct {
		variable, value string
		want            []string
		err             string
	}{
		{"id", "4", []string{"oslo-41", "oslo-42"}, ""},
		{"city", "O", []string{}, ""},
		{"id", "down", nil, "the order service is down"},
		{"id", "boom", nil, `modelcontext: Complete of "app://stores/{city}/orders/{id}" (variable "id") panicked: no orders today`},
		{"zip", "", []string{}, ""},
	} {
		got, err := p.Complete("app://stores/{city}/orders/{id}", tc.variable, tc.value, map[string]string{"city": "oslo"})
		if msg := errString(err); !reflect.DeepEqual(got, tc.want) || msg != tc.err {
			t.Errorf("Complete(%s, %q) = %q, %q; want %q, %q", tc.variable, tc.value, got, msg, tc.want, tc.err)
		}
	}
	if _, err := p.Complete("app://nope/{id}", "id", "", nil); !errors.Is(err, modelcontext.ErrNotFound) {
		t.Errorf("an unknown template: %v", err)
	}
	unregister()
	if _, err := p.Complete("app://stores/{city}/orders/{id}", "id", "", nil); !errors.Is(err, modelcontext.ErrNotFound) {
		t.Errorf("after unregister: %v", err)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
