package contracttest

import (
	"encoding/json"
	"errors"
	"regexp"
	"strconv"
	"sync/atomic"

	"github.com/modelcontext-go/modelcontext/wasm/modelcontext"
)

// The revisions the scenario logs are the page's counted from its start
// ("@3": three events after it began), so that the module, whose page has
// a history, and a new double log the same.

// rev returns the page's revision, counted from the scenario's start.
func (p *play) rev() int64 {
	r, err := modelcontext.Revision()
	p.must(err)
	return r - p.base
}

// since logs what ChangesSince answers for the scenario's revision r.
func (p *play) since(what string, r int64) {
	c, err := modelcontext.ChangesSince(p.ctx, p.base+r)
	if err != nil {
		p.add("changes since %s: %s", what, rangeError(err))
		return
	}
	if c.Reset {
		p.add("changes since %s: @%d reset", what, c.Revision-p.base)
		return
	}
	p.add("changes since %s: @%d updated %v added %v removed %v", what, c.Revision-p.base, c.Updated, c.Added, c.Removed)
}

// patchText is a patch's JSON, "null" for none.
func patchText(ops []modelcontext.PatchOp) string {
	b, err := json.Marshal(ops)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

type cartLine struct {
	SKU string `json:"sku"`
	Qty int    `json:"qty"`
}

type cart struct {
	Lines []cartLine `json:"lines,omitempty"`
	Note  string     `json:"note,omitempty"`
}

// changes follows the page at the least cost: ChangesSince's lists as
// resources are added, pushed, replaced, removed and added again; its
// errors; Follow's revisions and patches (none for the first value, one
// per change, none where longer than the value or for binary values, an
// empty one after a replacement, a late follower's first from the last
// value dispatched); and the reset after more removals than the page
// keeps.
func (p *play) changes() {
	start := p.rev()
	var changed modelcontext.Notifier
	var val atomic.Value
	val.Store(cart{})
	get := func() (any, error) { return val.Load(), nil }
	un1, err := modelcontext.Register(modelcontext.Resource{URI: "contract://c1", Name: "c1", Get: get, Watch: changed.Watch})
	p.must(err)
	un2, err := modelcontext.Register(modelcontext.Resource{URI: "contract://c2", Name: "c2", Get: func() (any, error) { return 2, nil }})
	p.must(err)
	p.since("the start", start)
	registered := p.rev()

	stopF, err := modelcontext.Follow("contract://c1", func(u modelcontext.Update[json.RawMessage], err error) {
		p.add("follow @%d %s patch %s %v", u.Revision-p.base, u.Value, patchText(u.Patch), err)
	}, modelcontext.WithPatches())
	p.must(err)
	stopPlain, err := modelcontext.Follow("contract://c1", func(u modelcontext.Update[cart], err error) {
		p.add("follow without patches @%d %d lines, patch %s %v", u.Revision-p.base, len(u.Value.Lines), patchText(u.Patch), err)
	})
	p.must(err)
	mug := cart{Lines: []cartLine{{"MUG", 1}}, Note: "gift-wrap the mug, and put a card in"}
	for _, v := range []cart{mug, mug, mug.with(2), {}, mug.with(2), mug.with(3)} {
		val.Store(v)
		changed.Notify()
	}
	p.settle()
	mid := p.rev()
	p.since("the registrations", registered)
	var again modelcontext.Notifier
	un1b, err := modelcontext.Register(modelcontext.Resource{URI: "contract://c1", Name: "c1 again", Get: get, Watch: again.Watch})
	p.must(err)
	again.Notify() // no baseline: delivered, an empty patch
	stopLate, err := modelcontext.Follow("contract://c1", func(u modelcontext.Update[json.RawMessage], err error) {
		p.add("late follow @%d patch %s %v", u.Revision-p.base, patchText(u.Patch), err)
	}, modelcontext.WithPatches())
	p.must(err)
	val.Store(mug.with(4))
	again.Notify()
	p.settle()
	p.since("the middle", mid)
	un2()
	p.since("the middle, c2 removed", mid)
	un2b, err := modelcontext.Register(modelcontext.Resource{URI: "contract://c2", Name: "c2", Get: func() (any, error) { return 2, nil }})
	p.must(err)
	p.since("the middle, c2 back", mid)
	now := p.rev()
	p.since("now", now)
	p.since("before the start", -p.base-1)
	p.since("after now", now+1)
	stopF()
	stopPlain()
	stopLate()
	un1b()
	un1()
	un2b()
	p.binaryPatches()
	p.reset()
	p.add("revision @%d", p.rev())
}

func (c cart) with(qty int) cart {
	c.Lines = []cartLine{{"MUG", qty}}
	return c
}

// binaryPatches: a binary value has no patch.
func (p *play) binaryPatches() {
	var changed modelcontext.Notifier
	var n atomic.Int32
	un, err := modelcontext.Register(modelcontext.Resource{URI: "contract://bin", Name: "bin", Watch: changed.Watch,
		Get: func() (any, error) { return []byte{1, 2, byte(n.Load())}, nil }})
	p.must(err)
	stop, err := modelcontext.Follow("contract://bin", func(u modelcontext.Update[[]byte], err error) {
		p.add("follow binary @%d %v patch %s %v", u.Revision-p.base, u.Value, patchText(u.Patch), err)
	}, modelcontext.WithPatches())
	p.must(err)
	for i := range 2 {
		n.Store(int32(i))
		changed.Notify()
	}
	p.settle()
	stop()
	un()
}

// reset: 1,024 removals since a revision are remembered; one more, and
// ChangesSince answers reset.
func (p *play) reset() {
	p.quiet.Store(true)
	before := p.rev()
	churn := func(i int) {
		un, err := modelcontext.Register(modelcontext.Resource{URI: "contract://churn/" + strconv.Itoa(i), Name: "churn", Get: func() (any, error) { return i, nil }})
		p.must(err)
		un()
	}
	for i := range 1024 {
		churn(i)
	}
	p.settle()
	p.since("before 1,024 removals", before)
	churn(1024)
	p.settle()
	p.since("before 1,025 removals", before)
	p.since("after them", p.rev())
	p.quiet.Store(false)
}

var digits = regexp.MustCompile(`[0-9]+`)

// rangeError logs a ChangesSince error without its revisions, which are
// the page's own.
func rangeError(err error) string {
	var e *modelcontext.Error
	if !errors.As(err, &e) {
		return "not an *Error: " + err.Error()
	}
	return e.Name + " " + e.Field + " " + digits.ReplaceAllString(e.Message, "N")
}
