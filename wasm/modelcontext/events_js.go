//go:build js && wasm

package modelcontext

import "syscall/js"

// Underlying returns the CustomEvent of document.modelContext (its detail
// is {uri, value}), or undefined for an event of a test's page.
func (e *UpdatedEvent) Underlying() js.Value { return underlying(e.underlying) }

// Underlying returns the CustomEvent of document.modelContext (its detail
// is {resources}), or undefined for an event of a test's page.
func (e *ListChangedEvent) Underlying() js.Value { return underlying(e.underlying) }

func underlying(v any) js.Value {
	if u, ok := v.(js.Value); ok {
		return u
	}
	return js.Undefined()
}
