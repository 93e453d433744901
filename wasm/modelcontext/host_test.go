//go:build !(js && wasm)

package modelcontext

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/modelcontext/internal/page"
)

// TestNoPageOutsideTheBrowser: on the host, without a test's page, every
// call fails plainly, with an error that is ErrNotLoaded and says what to
// do in tests.
func TestNoPageOutsideTheBrowser(t *testing.T) {
	get := func() (any, error) { return 1, nil }
	errs := map[string]error{}
	_, errs["Register"] = Register(Resource{URI: "state://x", Name: "x", Get: get})
	_, errs["RegisterTemplate"] = RegisterTemplate(Template{URITemplate: "app://x/{id}", Name: "x", Get: func(map[string]string) (any, error) { return 1, nil }})
	_, errs["Read"] = Read[int](context.Background(), "state://x")
	_, errs["Subscribe"] = Subscribe("state://x", func(int, error) {})
	_, errs["OnUpdated"] = OnUpdated(func(*UpdatedEvent) {})
	_, errs["OnListChanged"] = OnListChanged(func(*ListChangedEvent) {})
	_, errs["Resources"] = Resources()
	_, errs["Templates"] = Templates()
	_, errs["Revision"] = Revision()
	_, errs["ChangesSince"] = ChangesSince(context.Background(), 0)
	_, errs["Follow"] = Follow("state://x", func(Update[int], error) {}, WithPatches())
	errs["Ready"] = Ready(context.Background())
	errs["Load"] = Load(context.Background(), "/static/modelcontext.js", nil)
	for name, err := range errs {
		if !errors.Is(err, ErrNotLoaded) || !strings.Contains(err.Error(), "modelcontexttest.NewPage") {
			t.Errorf("%s on the host: %v; want ErrNotLoaded, naming modelcontexttest.NewPage", name, err)
		}
	}
}

// TestFieldNamed: the field a module's TypeError names, for Error.Field.
func TestFieldNamed(t *testing.T) {
	for msg, want := range map[string]string{
		`modelcontext: registerResource: "uri" must not be empty`:                                         "uri",
		`modelcontext: registerResource: "uri" "cart" has no scheme; write it like "state://cart"`:        "uri",
		`modelcontext: registerResource: "annotations.priority" must be a number from 0 to 1 (uri "s:x")`: "annotations.priority",
		`modelcontext: registerResource: reading "title" threw: Error: no`:                                "title",
		`modelcontext: registerResource: the descriptor must be an object, got null`:                      "",
		`modelcontext: changesSince: "revision" must be from 0 to the current revision, 3; got 4`:         "revision",
		`something else`: "",
	} {
		if got := page.FieldNamed(msg); got != want {
			t.Errorf("page.FieldNamed(%q) = %q, want %q", msg, got, want)
		}
	}
}

// TestErrorField: the module's TypeErrors and RangeErrors name their field
// or argument; other errors name none.
func TestErrorField(t *testing.T) {
	msg := `modelcontext: changesSince: "revision" must be from 0 to the current revision, 3; got -1`
	for name, want := range map[string]string{"RangeError": "revision", "TypeError": "revision", "Error": "", "NotFoundError": ""} {
		if got := newError(name, msg).Field; got != want {
			t.Errorf("newError(%q, ...).Field = %q, want %q", name, got, want)
		}
	}
}
