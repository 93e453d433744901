// Package jsonpatch computes RFC 6902 JSON Patches between JSON values and
// applies them. Diff is the Go twin of the loader's differ,
// js/loader/runtime/patch.js: the same algorithm, giving the same operations
// in the same order, so that a test double written in Go hands an agent the
// patches the module would. testdata/patch/corpus.json, written by the
// JavaScript, holds the two to that (TestCorpusAgreesWithJS): change both
// or neither.
//
// Values are those encoding/json decodes into an any: map[string]any,
// []any, float64, string, bool and nil.
package jsonpatch

import (
	"bytes"
	"encoding/json"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Op is one RFC 6902 operation. Its JSON (MarshalJSON) has "value" exactly
// for add, replace and test, where null, false, 0 and "" are values like
// any other, and "from" exactly for move and copy, where "" is the root.
// The tags are what decoding reads.
type Op struct {
	Op    string `json:"op"`
	Path  string `json:"path"`
	From  string `json:"from,omitempty"`
	Value any    `json:"value"`
}

// hasValue and hasFrom report which members an operation's JSON has.
func (o Op) hasValue() bool { return o.Op == "add" || o.Op == "replace" || o.Op == "test" }
func (o Op) hasFrom() bool  { return o.Op == "move" || o.Op == "copy" }

// MarshalJSON writes the members o's kind has, in the JavaScript's order,
// and like JSON.stringify leaves <, > and & as they are (an encoder with
// SetEscapeHTML(true), json.Marshal's default, escapes them again).
func (o Op) MarshalJSON() ([]byte, error) {
	var v any
	switch {
	case o.hasValue():
		v = struct {
			Op    string `json:"op"`
			Path  string `json:"path"`
			Value any    `json:"value"`
		}{o.Op, o.Path, o.Value}
	case o.hasFrom():
		v = struct {
			Op   string `json:"op"`
			From string `json:"from"`
			Path string `json:"path"`
		}{o.Op, o.From, o.Path}
	default:
		v = struct {
			Op   string `json:"op"`
			Path string `json:"path"`
		}{o.Op, o.Path}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// idKeys are the members that identify an object in an array (a cart's
// line), tried in this order: the first that every object of both sides
// carries, unique on each side, pairs them by it instead of by index.
var idKeys = []string{"id", "sku", "key", "uri", "name"}

// Diff returns the operations that turn a into b: none when they are equal,
// a replace of "" when their kinds differ. The operations' values are b's
// own, not copies.
func Diff(a, b any) []Op {
	ops := []Op{}
	diffValue(a, b, "", &ops)
	return ops
}

// diffValue appends to ops those that turn a into b at path: the changes
// inside an object or array, or one replace when that is shorter as JSON.
func diffValue(a, b any, path string, ops *[]Op) {
	if equal(a, b) {
		return
	}
	replace := []Op{{Op: "replace", Path: path, Value: b}}
	sub := replace
	am, aObj := a.(map[string]any)
	bm, bObj := b.(map[string]any)
	as, aArr := a.([]any)
	bs, bArr := b.([]any)
	switch {
	case aObj && bObj:
		sub = nil
		diffObject(am, bm, path, &sub)
	case aArr && bArr:
		sub = nil
		diffArray(as, bs, path, &sub)
	}
	if listLen(sub) > listLen(replace) {
		sub = replace
	}
	*ops = append(*ops, sub...)
}

// equal reports whether two JSON values are deeply equal.
func equal(a, b any) bool {
	switch a := a.(type) {
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, v := range a {
			if w, ok := b[k]; !ok || !equal(v, w) {
				return false
			}
		}
		return true
	case []any:
		b, ok := b.([]any)
		return ok && slices.EqualFunc(a, b, equal)
	}
	return reflect.DeepEqual(a, b)
}

var escaper = strings.NewReplacer("~", "~0", "/", "~1")

// pointer is path with one more reference token (RFC 6901).
func pointer(path, token string) string { return path + "/" + escaper.Replace(token) }

func index(path string, i int) string { return path + "/" + strconv.Itoa(i) }

// diffObject diffs two objects member by member, in the order of their
// keys sorted as JavaScript sorts strings.
func diffObject(a, b map[string]any, path string, ops *[]Op) {
	for _, k := range sortedKeys(a) {
		if w, ok := b[k]; ok {
			diffValue(a[k], w, pointer(path, k), ops)
		} else {
			*ops = append(*ops, Op{Op: "remove", Path: pointer(path, k)})
		}
	}
	for _, k := range sortedKeys(b) {
		if _, ok := a[k]; !ok {
			*ops = append(*ops, Op{Op: "add", Path: pointer(path, k), Value: b[k]})
		}
	}
}

// sortedKeys returns m's keys in the order of JavaScript's sort(): by
// UTF-16 code units, which differs from Go's byte order where a character
// beyond U+FFFF meets one from U+E000 to U+FFFF.
func sortedKeys(m map[string]any) []string {
	return slices.SortedFunc(maps.Keys(m), compareUTF16)
}

func compareUTF16(x, y string) int {
	for x != "" && y != "" {
		rx, nx := utf8.DecodeRuneInString(x)
		ry, ny := utf8.DecodeRuneInString(y)
		if rx != ry {
			if ux, uy := firstUnit(rx), firstUnit(ry); ux != uy {
				return int(ux) - int(uy)
			}
			return int(rx) - int(ry) // same high surrogate: the low ones order as the runes
		}
		x, y = x[nx:], y[ny:]
	}
	return len(x) - len(y)
}

func firstUnit(r rune) rune {
	if r >= 0x10000 {
		hi, _ := utf16.EncodeRune(r)
		return hi
	}
	return r
}

// diffArray diffs two arrays: the elements both start and end with stay;
// the rest is paired by id (diffKeyed) or by index, with what is left over
// removed (the highest index first) or added.
func diffArray(a, b []any, path string, ops *[]Op) {
	s, n, m := 0, len(a), len(b)
	for s < n && s < m && equal(a[s], b[s]) {
		s++
	}
	for s < n && s < m && equal(a[n-1], b[m-1]) {
		n, m = n-1, m-1
	}
	for _, k := range idKeys {
		ia, okA := ids(a[s:n], k)
		ib, okB := ids(b[s:m], k)
		if !okA || !okB {
			continue
		}
		if !slices.Equal(ia, ib) {
			diffKeyed(a, b, s, ia, ib, path, ops)
			return
		}
		break // the same ids in the same order: pairing by index is the same
	}
	for i := s; i < n && i < m; i++ {
		diffValue(a[i], b[i], index(path, i), ops)
	}
	for i := n - 1; i >= m; i-- {
		*ops = append(*ops, Op{Op: "remove", Path: index(path, i)})
	}
	for i := n; i < m; i++ {
		*ops = append(*ops, Op{Op: "add", Path: index(path, i), Value: b[i]})
	}
}

// ids returns the k member of each element of x, and whether every element
// is an object with a string or number k, none twice.
func ids(x []any, k string) ([]any, bool) {
	out := make([]any, 0, len(x))
	seen := make(map[any]bool, len(x))
	for _, e := range x {
		o, _ := e.(map[string]any)
		v := o[k]
		switch v.(type) {
		case string, float64:
		default:
			return nil, false
		}
		if seen[v] {
			return nil, false
		}
		seen[v] = true
		out = append(out, v)
	}
	return out, true
}

// diffKeyed diffs a[s:] into b[s:] (both trimmed of their equal ends),
// whose elements have the ids ia and ib: those only a has are removed;
// then, in b's order, each that only b has is added and each the longest
// run of elements already in b's order leaves out is moved, each directly
// after its predecessor in b; each in both is diffed where it then is.
func diffKeyed(a, b []any, s int, ia, ib []any, path string, ops *[]Op) {
	at := make(map[any]int, len(ib))
	for j, v := range ib {
		at[v] = j
	}
	old := make(map[any]any, len(ia))
	for i, v := range ia {
		old[v] = a[s+i]
	}
	state := slices.Clone(ia) // the ids as the operations so far leave them
	for i := len(state) - 1; i >= 0; i-- {
		if _, ok := at[state[i]]; !ok {
			*ops = append(*ops, Op{Op: "remove", Path: index(path, s+i)})
			state = slices.Delete(state, i, i+1)
		}
	}
	targets := make([]int, len(state))
	for i, v := range state {
		targets[i] = at[v]
	}
	stay := map[any]bool{}
	for _, i := range increasing(targets) {
		stay[state[i]] = true
	}
	for j, v := range ib {
		i := slices.Index(state, v)
		if !stay[v] {
			if i >= 0 {
				state = slices.Delete(state, i, i+1)
			}
			to := 0
			if j > 0 {
				to = slices.Index(state, ib[j-1]) + 1
			}
			state = slices.Insert(state, to, v)
			if i < 0 {
				*ops = append(*ops, Op{Op: "add", Path: index(path, s+to), Value: b[s+j]})
			} else if i != to {
				*ops = append(*ops, Op{Op: "move", From: index(path, s+i), Path: index(path, s+to)})
			}
			i = to
		}
		if w, ok := old[v]; ok {
			diffValue(w, b[s+j], index(path, s+i), ops)
		}
	}
}

// increasing returns the indices of a longest increasing subsequence of t
// (patience sorting: the last one found of the longest), last first.
func increasing(t []int) []int {
	var tails []int
	prev := make([]int, len(t))
	for i, x := range t {
		lo, _ := slices.BinarySearchFunc(tails, x, func(e, x int) int { return t[e] - x })
		prev[i] = -1
		if lo > 0 {
			prev[i] = tails[lo-1]
		}
		if lo == len(tails) {
			tails = append(tails, i)
		} else {
			tails[lo] = i
		}
	}
	var seq []int
	if len(tails) > 0 {
		for k := tails[len(tails)-1]; k >= 0; k = prev[k] {
			seq = append(seq, k)
		}
	}
	return seq
}

// listLen is the length of ops' JSON as JavaScript's JSON.stringify writes
// it, in UTF-16 code units (JavaScript's string length): what the differ
// weighs a replace against.
func listLen(ops []Op) int {
	n := 2 + max(len(ops)-1, 0)
	for _, o := range ops {
		n += len(`{"op":,"path":}`) + textLen(o.Op) + textLen(o.Path)
		if o.hasFrom() {
			n += len(`,"from":`) + textLen(o.From)
		}
		if o.hasValue() {
			n += len(`,"value":`) + jsonLen(o.Value)
		}
	}
	return n
}

// jsonLen is the length of JSON.stringify(v) in UTF-16 code units.
func jsonLen(v any) int {
	switch v := v.(type) {
	case nil:
		return len("null")
	case bool:
		return len(strconv.FormatBool(v))
	case float64:
		return len(jsNumber(v))
	case string:
		return textLen(v)
	case []any:
		n := 2 + max(len(v)-1, 0)
		for _, e := range v {
			n += jsonLen(e)
		}
		return n
	case map[string]any:
		n := 2 + max(len(v)-1, 0)
		for k, e := range v {
			n += textLen(k) + 1 + jsonLen(e)
		}
		return n
	}
	b, _ := json.Marshal(v) // not a value encoding/json decodes: near enough
	return len(utf16.Encode([]rune(string(b))))
}

// textLen is the length of s quoted as JSON.stringify quotes it.
func textLen(s string) int {
	n := 2
	for _, r := range s {
		switch {
		case r == '"' || r == '\\' || r == '\b' || r == '\f' || r == '\n' || r == '\r' || r == '\t':
			n += 2
		case r < 0x20:
			n += 6
		case r >= 0x10000:
			n += 2
		default:
			n++
		}
	}
	return n
}

// jsNumber is f as JavaScript writes a number, which encoding/json's
// float64 format follows but for -0 (JavaScript writes 0).
func jsNumber(f float64) string {
	switch {
	case f == 0:
		return "0"
	case math.IsNaN(f) || math.IsInf(f, 0):
		return "null"
	}
	format := byte('f')
	if abs := math.Abs(f); abs < 1e-6 || abs >= 1e21 {
		format = 'e'
	}
	s := strconv.FormatFloat(f, format, -1, 64)
	if n := len(s); format == 'e' && n >= 4 && s[n-4] == 'e' && s[n-3] == '-' && s[n-2] == '0' {
		s = s[:n-2] + s[n-1:] // 1e-07 as 1e-7
	}
	return s
}
