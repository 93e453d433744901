package modelcontexttest

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/modelcontext-go/modelcontext/wasm/internal/jsonpatch"
	"github.com/modelcontext-go/modelcontext/wasm/modelcontext"
	"github.com/modelcontext-go/modelcontext/wasm/modelcontext/internal/page"
)

// Following the page at the least cost, as the module's runtime/changes.js
// does: the revision steps once per resourceupdated (host.go's Dispatch)
// and resourcelistchanged dispatched (a suppressed push is no step), each
// registration keeps the revisions it entered the list and last changed
// at, the last removals are remembered, and a subscription that asked for
// patches gets the RFC 6902 patch from the value it was handed before,
// between JSON texts.

// removalsKept is how many removals the page remembers, as the module's
// REMOVALS_KEPT: changesSince of a revision before the oldest answers
// reset.
const removalsKept = 1024

// removal is a concrete resource that left the list: its uri, the
// revision it had entered the list at, and the revision of its leaving.
type removal struct {
	uri         string
	addedAt, at int64
}

// remember keeps x, forgetting the oldest removal past removalsKept.
// Called with p.mu held.
func (p *Page) remember(x removal) {
	p.removals = append(p.removals, x)
	if len(p.removals) > removalsKept {
		p.forgotten = p.removals[0].at
		p.removals = append(p.removals[:0], p.removals[1:]...)
	}
}

// listChange is what one resourcelistchanged reports: r registered (in the
// place of old, or nil), or removed unregistered.
type listChange struct {
	r, old, removed *registration
}

// listChanged queues resourcelistchanged, for the listeners there are now,
// with the list as it is now. Called with p.mu held.
func (p *Page) listChanged(c listChange) {
	list := p.list(false)
	listeners := slices.Clone(p.listeners["resourcelistchanged"])
	p.queue = append(p.queue, func() {
		e := page.Event{Value: list, Revision: p.stepList(c)}
		for _, l := range listeners {
			p.call(l, e)
		}
	})
}

// stepList steps the revision for the resourcelistchanged of c, as it is
// dispatched, and stamps the change (runtime/changes.js's stepList): a
// replacement keeps its predecessor's entry and is a change. Called with
// p.mu held.
func (p *Page) stepList(c listChange) int64 {
	p.revision++
	rev := p.revision
	switch {
	case c.removed != nil && c.removed.template == nil:
		p.remember(removal{uri: c.removed.key, addedAt: c.removed.addedAt, at: rev})
	case c.old != nil:
		c.r.addedAt, c.r.changedAt = c.old.addedAt, rev
	case c.r != nil:
		c.r.addedAt = rev
	}
	return rev
}

// Revision returns the page's revision, as document.modelContext.revision:
// 0 for a new Page, then one more for each resourceupdated and
// resourcelistchanged the page dispatched (queued for its handlers, heard
// or not).
func (p *Page) Revision() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.revision
}

// changesSince answers document.modelContext.changesSince(since), with the
// module's messages for a revision out of range.
func (p *Page) changesSince(since int64) (page.Value, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if since < 0 || since > p.revision {
		return nil, &modelcontext.Error{Name: "RangeError", Field: "revision",
			Message: `modelcontext: changesSince: "revision" must be from 0 to the current revision, ` + strconv.FormatInt(p.revision, 10) + "; got " + strconv.FormatInt(since, 10)}
	}
	if since < p.forgotten {
		return encode(struct {
			Revision int64 `json:"revision"`
			Reset    bool  `json:"reset"`
		}{p.revision, true})
	}
	c := struct {
		Revision int64    `json:"revision"`
		Updated  []string `json:"updated"`
		Added    []string `json:"added"`
		Removed  []string `json:"removed"`
	}{p.revision, []string{}, []string{}, []string{}}
	listed := map[string]bool{}
	for _, id := range p.reg.List(false, nil) {
		r := p.byID[id]
		listed[r.key] = true
		switch {
		case r.addedAt > since:
			c.Added = append(c.Added, r.key)
		case r.changedAt > since:
			c.Updated = append(c.Updated, r.key)
		}
	}
	for _, x := range p.removals {
		if x.at > since && x.addedAt <= since && !listed[x.uri] {
			listed[x.uri] = true // once
			c.Removed = append(c.Removed, x.uri)
		}
	}
	return encode(c)
}

// pushes is the handler of a consumer subscription of r made with opts: it
// hands f each value with what opts asks for. Its first patch is from the
// last value r dispatched before it; a subscription keeps its previous
// value across replacements of r. Called with p.mu held; the handler runs
// in the drain, one call at a time.
func pushes(r *registration, opts page.SubscribeOptions, f func(page.Push)) func(page.Event) {
	var prev *value
	if opts.Patch && r.last.plain() {
		prev = r.last
	}
	return func(e page.Event) {
		push := page.Push{Value: e.Value}
		if opts.Revision || opts.Patch {
			push.Revision = e.Revision
		}
		if opts.Patch {
			cur := e.Value.(*value)
			if p := patchBetween(prev, cur); p != nil {
				push.Patch = p
			}
			prev = nil
			if cur.plain() {
				prev = cur
			}
		}
		f(push)
	}
}

// plain reports whether v is plain JSON data, which patches are made
// between: not binary, and, as the module's comparison keys go, with no
// NUL character.
func (v *value) plain() bool {
	return v != nil && !v.binary && !strings.Contains(v.text, `\u0000`)
}

// patchBetween returns the patch from prev to cur, made by jsonpatch on
// their JSON forms, or nil when there is no previous value, either is not
// plain JSON data, or the patch's JSON is longer than cur's (both in
// UTF-16 code units, as JavaScript measures them).
func patchBetween(prev, cur *value) *value {
	if !prev.plain() || !cur.plain() {
		return nil
	}
	var a, b any
	if json.Unmarshal([]byte(prev.text), &a) != nil || json.Unmarshal([]byte(cur.text), &b) != nil {
		return nil
	}
	text, err := page.JSON(jsonpatch.Diff(a, b))
	if err != nil || utf16Len(text) > utf16Len(cur.text) {
		return nil
	}
	return &value{text: text}
}

// utf16Len is the length of s in UTF-16 code units.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}
