package modelcontext

import "github.com/modelcontext-go/modelcontext/wasm/modelcontext/internal/page"

// The types of the events of document.modelContext that the package
// listens to.
const (
	updated     = "resourceupdated"
	listChanged = "resourcelistchanged"
)

// UpdatedEvent is a resourceupdated event: a push the module dispatched,
// for [OnUpdated]. In the browser, its Underlying method returns the
// CustomEvent itself (as dom/v2's events do: dom.WrapEvent(e.Underlying())
// is a *dom.CustomEvent).
type UpdatedEvent struct {
	URI string // the resource pushed
	// Revision is the page's revision this push stepped it to
	// (detail.revision): see [Revision].
	Revision   int64
	value      page.Value
	underlying any
}

// Type returns the event's type, "resourceupdated".
func (e *UpdatedEvent) Type() string { return updated }

// Decode stores the pushed value in the Go value v points to, as [Read]
// decodes it.
func (e *UpdatedEvent) Decode(v any) error {
	if err := e.value.Decode(v); err != nil {
		return &DecodeError{URI: e.URI, Err: err}
	}
	return nil
}

// ListChangedEvent is a resourcelistchanged event, for [OnListChanged]:
// the list of resources after a register, replace or unregister. In the
// browser, its Underlying method returns the CustomEvent itself.
type ListChangedEvent struct {
	Resources []Info // in registration order
	// Revision is the page's revision this change stepped it to
	// (detail.revision): see [Revision].
	Revision   int64
	underlying any
}

// Type returns the event's type, "resourcelistchanged".
func (e *ListChangedEvent) Type() string { return listChanged }
