package registry_test

import (
	"slices"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/registry"
	"github.com/modelcontext-go/modelcontext/wasm/registry/registrytest"
)

// Every line, error and watcher call that names a resource names its uri,
// which the registry keeps from Register on.

type dispatched struct{ uris []string }

func (w *dispatched) Dispatched(uri string, _ registry.Value) { w.uris = append(w.uris, uri) }
func (w *dispatched) ListChanged()                            {}

// counter registers state://a, whose getter returns 1, 2, 3, ... (or fails
// while fail is set), and returns its ID and onChange.
func counter(h *registrytest.Host, fail *bool) (registry.ID, func()) {
	n := 0
	var onChange func()
	id := h.Register("state://a", func() (any, error) {
		if fail != nil && *fail {
			return nil, errBroken
		}
		n++
		return n, nil
	}, func(f func()) any { onChange = f; return teardown(func() {}) })
	return id, onChange
}

type brokenError struct{}

func (brokenError) Error() string { return "broken" }

var errBroken error = brokenError{}

func TestEveryReportNamesTheURI(t *testing.T) {
	for _, tc := range []struct {
		name string
		// use makes the registry need the uri of id, twice, and returns
		// the line that names it.
		use  func(t *testing.T, h *registrytest.Host, id registry.ID, onChange func(), fail *bool) []string
		want []string
	}{
		{"debug lines", func(t *testing.T, h *registrytest.Host, id registry.ID, onChange func(), fail *bool) []string {
			h.R.SetDebug(true)
			onChange()
			onChange()
			return h.Lines("debug")
		}, []string{`debug [modelcontext] resource "state://a" changed`, `debug [modelcontext] resource "state://a" changed`}},
		{"a getter that fails", func(t *testing.T, h *registrytest.Host, id registry.ID, onChange func(), fail *bool) []string {
			*fail = true
			onChange()
			onChange()
			return h.Lines("error")
		}, []string{`error modelcontext: get() of "state://a" failed; nothing was pushed: broken`, `error modelcontext: get() of "state://a" failed; nothing was pushed: broken`}},
		{"a consumer whose handler throws", func(t *testing.T, h *registrytest.Host, id registry.ID, onChange func(), fail *bool) []string {
			h.Follow("state://a", func(any) { panic("handler broke") })
			onChange()
			onChange()
			return h.Lines("error")
		}, []string{`error modelcontext: a subscribeResource handler of "state://a" threw: handler broke`, `error modelcontext: a subscribeResource handler of "state://a" threw: handler broke`}},
		{"an MCP server's watcher", func(t *testing.T, h *registrytest.Host, id registry.ID, onChange func(), fail *bool) []string {
			w := &dispatched{}
			h.R.Watch(w)
			onChange()
			onChange()
			return w.uris
		}, []string{"state://a", "state://a"}},
		{"an MCP read (Info)", func(t *testing.T, h *registrytest.Host, id registry.ID, onChange func(), fail *bool) []string {
			var got []string
			for range 2 {
				key, mime, template, ok := h.R.Info(id)
				if !ok || template {
					t.Fatalf("Info(%d) = %v, %v", id, ok, template)
				}
				got = append(got, key+" "+mime)
			}
			return got
		}, []string{"state://a application/json", "state://a application/json"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := registrytest.New()
			fail := false
			id, onChange := counter(h, &fail)
			if got := tc.use(t, h, id, onChange, &fail); !slices.Equal(got, tc.want) {
				t.Errorf("lines %q\nwant %q", got, tc.want)
			}
		})
	}
}

// A listener that unregisters the resource it is told of: the registry read
// the uri before the event, and the watcher is told the right uri.
func TestAWatcherLearnsTheURIOfAResourceUnregisteredByAListener(t *testing.T) {
	h := registrytest.New()
	id, onChange := counter(h, nil)
	w := &dispatched{}
	h.R.Watch(w)
	h.Listener = func(registry.ID, any) { h.Unregister(id) }
	onChange()
	if !slices.Equal(w.uris, []string{"state://a"}) {
		t.Errorf("the watcher was told %q, want [state://a]", w.uris)
	}
}

// A replacement is a new registration that keeps the consumers of its uri,
// which still report the uri.
func TestAReplacementKeepsNamingTheURI(t *testing.T) {
	h := registrytest.New()
	counter(h, nil)
	h.Follow("state://a", func(any) { panic("handler broke") })
	_, onChange := counter(h, nil)
	h.R.SetDebug(true)
	onChange()
	want := []string{
		`debug [modelcontext] resource "state://a" changed`,
		`error modelcontext: a subscribeResource handler of "state://a" threw: handler broke`,
	}
	if got := h.Lines("debug ", "error "); !slices.Equal(got, want) {
		t.Errorf("lines %q\nwant %q", got, want)
	}
}
