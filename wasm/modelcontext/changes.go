package modelcontext

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/modelcontext-go/modelcontext/wasm/internal/jsonpatch"
	"github.com/modelcontext-go/modelcontext/wasm/modelcontext/internal/page"
)

// Revision returns the page's revision (document.modelContext.revision):
// 0 until something changed, then one more for each resourceupdated and
// each resourcelistchanged the page dispatched, heard or not (a push whose
// value did not change is no step). Keep it, and ask [ChangesSince] later
// what changed after it. Revision does not block: it may be called from a
// handler.
func Revision() (int64, error) {
	p, err := current()
	if err != nil {
		return 0, err
	}
	return p.Revision()
}

// Changes is what changed on the page since a revision, as [ChangesSince]
// answers it: the uris of the resources updated (pushed a changed value,
// or replaced by a new registration), added and removed since then, each
// in list order, at most once, and in one list only. A resource removed
// and added again is in Added. When the page no longer remembers that far
// back (it keeps the last 1,024 removals), Reset is true and the lists are
// empty: read every resource again.
type Changes struct {
	// Revision is the page's revision the answer is as of: pass it to the
	// next ChangesSince.
	Revision int64    `json:"revision"`
	Updated  []string `json:"updated"`
	Added    []string `json:"added"`
	Removed  []string `json:"removed"`
	Reset    bool     `json:"reset"`
}

// ChangesSince answers what changed on the page since revision (a value
// of [Revision], [Update.Revision] or [Changes.Revision]), as
// document.modelContext.changesSince does, without calling any getter: a
// follower reads only what it lists. A revision below 0 or above the
// page's current one is an [*Error] with Name "RangeError" and Field
// "revision". ChangesSince waits for the module if it is still starting,
// so it blocks: call it from a goroutine, never from a handler or another
// function JavaScript calls.
func ChangesSince(ctx context.Context, revision int64) (Changes, error) {
	var c Changes
	p, err := current()
	if err != nil {
		return c, err
	}
	v, err := p.ChangesSince(ctx, revision)
	if err != nil {
		return c, err
	}
	return c, v.Decode(&c)
}

// Update is one value of a resource that [Follow] hands over.
type Update[T any] struct {
	// Value is the value, decoded into a T as [Read] decodes it (the
	// zero T when it does not fit, with a [*DecodeError]).
	Value T
	// Revision is the page's revision as the value was handed over: that
	// of its resourceupdated (or later, if that event's listeners changed
	// the page). ChangesSince(ctx, u.Revision) answers what changed after
	// it.
	Revision int64
	// Patch is, with [WithPatches], the RFC 6902 patch from the value this
	// follower was handed before (for the first, the last value the page
	// dispatched before Follow) to this one, on their JSON forms. It is
	// nil without WithPatches, when there is no previous value, when
	// either value is not plain JSON data (a binary value, a JavaScript
	// Map) and when the patch's JSON would be longer than the value's. A
	// patch may be empty: a value handed over twice.
	Patch []PatchOp
}

// FollowOption is an option of [Follow].
type FollowOption func(*followOptions)

type followOptions struct{ patches bool }

// WithPatches makes [Follow] hand over each value's patch in
// [Update.Patch] (subscribeResource's {patch: true}).
func WithPatches() FollowOption { return func(o *followOptions) { o.patches = true } }

// Follow is [Subscribe] that also hands over each value's revision and,
// with [WithPatches], its patch: a follower that passes the values on (to
// its server, to a model) can send only what changed, and ask
// [ChangesSince] what changed on the rest of the page. handler gets every
// value of uri that the module dispatches, in order, until stop is
// called. The rules of Subscribe's handler and stop apply.
func Follow[T any](uri string, handler func(u Update[T], err error), opts ...FollowOption) (stop func(), err error) {
	var o followOptions
	for _, opt := range opts {
		opt(&o)
	}
	p, err := current()
	if err != nil {
		return noop, err
	}
	return p.Subscribe(uri, page.SubscribeOptions{Revision: true, Patch: o.patches}, func(push page.Push) {
		u := Update[T]{Revision: push.Revision}
		var err error
		if push.Patch != nil {
			if perr := push.Patch.Decode(&u.Patch); perr != nil {
				p.Report("modelcontext: reading the patch of " + strconv.Quote(uri) + " failed: " + perr.Error())
				u.Patch = nil
			}
		}
		if derr := push.Value.Decode(&u.Value); derr != nil {
			var zero T
			u.Value, err = zero, &DecodeError{URI: uri, Err: derr}
		}
		handler(u, err)
	})
}

// PatchOp is one operation of an RFC 6902 JSON Patch: Op is "add",
// "remove", "replace", "move", "copy" or "test"; Path (and From, for move
// and copy) a JSON Pointer (RFC 6901), "" for the whole value; Value the
// value of add, replace and test, as encoding/json decodes JSON into an
// any (map[string]any, []any, float64, string, bool, nil). Its JSON has
// "value" exactly for add, replace and test, and "from" exactly for move
// and copy, as RFC 6902 writes them.
type PatchOp struct {
	Op    string `json:"op"`
	Path  string `json:"path"`
	From  string `json:"from,omitempty"`
	Value any    `json:"value,omitempty"`
}

// MarshalJSON writes o as RFC 6902 does: "value" exactly for add,
// replace and test (even null, false, 0 or ""), "from" exactly for move
// and copy.
func (o PatchOp) MarshalJSON() ([]byte, error) { return jsonpatch.Op(o).MarshalJSON() }

// ApplyPatch returns doc with ops applied in order, as RFC 6902 says, on a
// copy: neither doc nor the operations' values are changed or shared with
// the result. doc is a value's JSON form as encoding/json decodes it into
// an any: a follower that keeps it applies each [Update.Patch] to get the
// next. An operation that does not apply (a path that is not there, a
// failed test) makes the whole patch fail, with an error that names its
// index and path.
func ApplyPatch(doc any, ops []PatchOp) (any, error) {
	jops := make([]jsonpatch.Op, len(ops))
	for i, o := range ops {
		jops[i] = jsonpatch.Op(o)
	}
	v, err := jsonpatch.Apply(doc, jops)
	if err != nil {
		return nil, errors.New("modelcontext: ApplyPatch: " + strings.TrimPrefix(err.Error(), "jsonpatch: "))
	}
	return v, nil
}
