//go:build js && wasm

package modelcontext

import (
	"context"
	"syscall/js"

	"github.com/modelcontext-go/modelcontext/wasm/modelcontext/internal/page"
)

// Revision reads document.modelContext.revision.
func (browser) Revision() (int64, error) {
	mc, err := modelContext()
	if err != nil {
		return 0, err
	}
	return revisionOf(mc), nil
}

// ChangesSince calls changesSince and awaits its Promise.
func (browser) ChangesSince(ctx context.Context, revision int64) (page.Value, error) {
	mc, err := modelContext()
	if err != nil {
		return nil, err
	}
	p, err := call(mc, "changesSince", revision)
	if err != nil {
		return nil, err
	}
	v, err := await(ctx, p)
	if err != nil {
		return nil, err
	}
	return jsValue{v}, nil
}

// revisionOf reads the revision member of v (document.modelContext, an
// event's detail, a handler's {revision, patch}): 0 when it is not a
// number (a module from before revisions).
func revisionOf(v js.Value) (n int64) {
	defer func() {
		if recover() != nil {
			n = 0
		}
	}()
	r := v.Get("revision")
	if r.Type() != js.TypeNumber {
		return 0
	}
	return int64(r.Float())
}
