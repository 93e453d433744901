package jsonpatch

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
)

func decode(t testing.TB, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}

func encode(t testing.TB, v any) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func TestDiff(t *testing.T) {
	pad := strings.Repeat("x", 120)
	for _, c := range []struct{ a, b, want string }{
		{`{"a":[1,{"b":null}]}`, `{"a":[1,{"b":null}]}`, `[]`},
		{`1`, `"1"`, `[{"op":"replace","path":"","value":"1"}]`},
		{`[]`, `{}`, `[{"op":"replace","path":"","value":{}}]`},
		{`{"a":1,"p":"` + pad + `"}`, `{"a":null,"p":"` + pad + `"}`, `[{"op":"replace","path":"/a","value":null}]`},
		{`{"a/b":{"~":1,"":2}}`, `{"a/b":{"~":3,"":2}}`, `[{"op":"replace","path":"/a~1b/~0","value":3}]`},
		{`{"":1,"p":"` + pad + `"}`, `{"":2,"p":"` + pad + `"}`, `[{"op":"replace","path":"/","value":2}]`},
		{`{"b":1,"a":2,"p":"` + pad + `"}`, `{"d":false,"c":0,"p":"` + pad + `"}`,
			`[{"op":"remove","path":"/a"},{"op":"remove","path":"/b"},{"op":"add","path":"/c","value":0},{"op":"add","path":"/d","value":false}]`},
		{`[1,2,3,4,5,6]`, `[1,2,9,3,4,5,6]`, `[{"op":"add","path":"/2","value":9}]`},
		{`["` + pad + `",2,3,4,5,6,7,8]`, `["` + pad + `",2,6,7,8]`, `[{"op":"remove","path":"/4"},{"op":"remove","path":"/3"},{"op":"remove","path":"/2"}]`},
		{`[1,2,3,4,5,6,7,8]`, `[1,2,6,7,8]`, `[{"op":"replace","path":"","value":[1,2,6,7,8]}]`},
		{`[{"id":"a","q":1},{"id":"b","q":1},{"id":"c","q":1},{"id":"d","q":1}]`, `[{"id":"b","q":1},{"id":"c","q":1},{"id":"d","q":1},{"id":"a","q":1}]`,
			`[{"op":"move","from":"/0","path":"/3"}]`},
		{`[{"id":"a","q":1},{"id":"b","q":1},{"id":"c","q":1},{"id":"d","q":1}]`, `[{"id":"a","q":1},{"id":"c","q":3},{"id":"b","q":1},{"id":"d","q":1}]`,
			`[{"op":"replace","path":"/2/q","value":3},{"op":"move","from":"/1","path":"/2"}]`},
		{`[{"id":"a","q":1},{"id":"b","q":1},{"id":"c","q":1},{"id":"d","q":1}]`, `[{"id":"a","q":1},{"id":"c","q":1},{"id":"d","q":2}]`,
			`[{"op":"remove","path":"/1"},{"op":"replace","path":"/2/q","value":2}]`},
	} {
		ops := Diff(decode(t, c.a), decode(t, c.b))
		if got := encode(t, ops); got != c.want {
			t.Errorf("Diff(%s, %s)\n got %s\nwant %s", c.a, c.b, got, c.want)
		}
	}
}

func TestOpJSON(t *testing.T) {
	for _, c := range []struct {
		op   Op
		want string
	}{
		{Op{Op: "add", Path: "/a", Value: nil}, `{"op":"add","path":"/a","value":null}`},
		{Op{Op: "replace", Path: "", Value: false}, `{"op":"replace","path":"","value":false}`},
		{Op{Op: "test", Path: "/0", Value: 0.0}, `{"op":"test","path":"/0","value":0}`},
		{Op{Op: "add", Path: "/s", Value: ""}, `{"op":"add","path":"/s","value":""}`},
		{Op{Op: "remove", Path: "/a", Value: 1.0}, `{"op":"remove","path":"/a"}`},
		{Op{Op: "move", From: "/1", Path: "/0"}, `{"op":"move","from":"/1","path":"/0"}`},
		{Op{Op: "copy", From: "", Path: "/c"}, `{"op":"copy","from":"","path":"/c"}`},
	} {
		if got := encode(t, c.op); got != c.want {
			t.Errorf("%+v: got %s, want %s", c.op, got, c.want)
		}
	}
}

// TestSortedKeys: keys in JavaScript's order, by UTF-16 code units (U+1F600
// is the surrogates D83D DE00, before U+E000), not Go's by bytes.
func TestSortedKeys(t *testing.T) {
	m := map[string]any{"\uE000": 0, "😀": 0, "b": 0, "a": 0, "": 0, "ab": 0, "Z": 0, "~": 0, "😁": 0}
	want := []string{"", "Z", "a", "ab", "b", "~", "😀", "😁", "\uE000"}
	if got := sortedKeys(m); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestJSNumber: numbers as JavaScript's String(n) writes them.
func TestJSNumber(t *testing.T) {
	point1 := 0.1
	for f, want := range map[float64]string{
		0: "0", 1: "1", -2.25: "-2.25", point1 + 0.2: "0.30000000000000004", 1e21: "1e+21", 1e20: "100000000000000000000",
		1.5e-7: "1.5e-7", 0.000001: "0.000001", 123456789012: "123456789012", 1e300: "1e+300", -1e-300: "-1e-300",
	} {
		if got := jsNumber(f); got != want {
			t.Errorf("jsNumber(%v) = %s, want %s", f, got, want)
		}
	}
}

// TestCorpusAgreesWithJS: Diff gives the patches that the JavaScript differ
// wrote into testdata/patch/corpus.json (node patch.test.mjs -update). It
// fails when the two differs drift apart.
func TestCorpusAgreesWithJS(t *testing.T) {
	b, err := os.ReadFile("../../../testdata/patch/corpus.json")
	if err != nil {
		t.Fatal(err)
	}
	var corpus []struct {
		A, B  any
		Patch json.RawMessage
	}
	if err := json.Unmarshal(b, &corpus); err != nil {
		t.Fatal(err)
	}
	if len(corpus) < 300 {
		t.Fatalf("corpus.json has %d triples, want at least 300", len(corpus))
	}
	for i, c := range corpus {
		got := decode(t, encode(t, Diff(c.A, c.B)))
		if want := decode(t, string(c.Patch)); !reflect.DeepEqual(got, want) {
			t.Errorf("triple %d: a=%s b=%s\n Go %s\n JS %s", i, encode(t, c.A), encode(t, c.B), encode(t, got), c.Patch)
		}
	}
}

func TestApplyErrors(t *testing.T) {
	doc := decode(t, `{"a":{"b":[1,2]},"s":"x"}`)
	for _, c := range []struct {
		ops  []Op
		want string
	}{
		{[]Op{{Op: "remove", Path: "/z"}}, `op 0 (remove "/z"): no member "z"`},
		{[]Op{{Op: "add", Path: "/c", Value: 1.0}, {Op: "replace", Path: "/a/b/2", Value: 1.0}}, `op 1 (replace "/a/b/2"): index 2 is out of range (length 2)`},
		{[]Op{{Op: "add", Path: "/a/b/3", Value: 1.0}}, `op 0 (add "/a/b/3"): index 3 is out of range`},
		{[]Op{{Op: "add", Path: "/a/b/01", Value: 1.0}}, `op 0 (add "/a/b/01"): "01" is not an array index`},
		{[]Op{{Op: "add", Path: "a", Value: 1.0}}, `op 0 (add "a"): a JSON Pointer starts with /`},
		{[]Op{{Op: "add", Path: "/a~2", Value: 1.0}}, `a ~ that is neither ~0 nor ~1`},
		{[]Op{{Op: "add", Path: "/s/x", Value: 1.0}}, `"x" is inside neither an object nor an array`},
		{[]Op{{Op: "remove", Path: ""}}, `op 0 (remove ""): the whole document cannot be removed`},
		{[]Op{{Op: "move", From: "/a", Path: "/a/c"}}, `cannot move "/a" into itself`},
		{[]Op{{Op: "move", From: "/q", Path: "/c"}}, `op 0 (move "/c"): from "/q": no member "q"`},
		{[]Op{{Op: "test", Path: "/s", Value: "y"}}, `test failed`},
		{[]Op{{Op: "frobnicate", Path: "/s"}}, `unknown operation "frobnicate"`},
	} {
		before := encode(t, doc)
		_, err := Apply(doc, c.ops)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want one with %q", c.ops, err, c.want)
		}
		if encode(t, doc) != before {
			t.Errorf("%+v: Apply changed its document", c.ops)
		}
	}
}

func TestApply(t *testing.T) {
	doc := decode(t, `{"a":{"b":[1,2]},"~/":0}`)
	ops := []Op{
		{Op: "add", Path: "/a/b/-", Value: 3.0},
		{Op: "add", Path: "/a/b/0", Value: nil},
		{Op: "copy", From: "/a", Path: "/c"},
		{Op: "move", From: "/a/b/3", Path: "/d"},
		{Op: "replace", Path: "/~0~1", Value: []any{}},
		{Op: "add", Path: "/~0~1/0", Value: map[string]any{"x": "y"}},
		{Op: "test", Path: "/c/b", Value: []any{nil, 1.0, 2.0, 3.0}},
		{Op: "remove", Path: "/a/b/0"},
	}
	got, err := Apply(doc, ops)
	if err != nil {
		t.Fatal(err)
	}
	if g, want := encode(t, got), `{"a":{"b":[1,2]},"c":{"b":[null,1,2,3]},"d":3,"~/":[{"x":"y"}]}`; g != want {
		t.Errorf("got %s, want %s", g, want)
	}
	ops[5].Value.(map[string]any)["x"] = "changed"
	if g := encode(t, got); strings.Contains(g, "changed") {
		t.Errorf("the result shares an operation's value: %s", g)
	}
}

// TestRandomPairs diffs random pairs, applies each patch with refApply (a
// second implementation, not the package's Apply) and with Apply, and
// checks the results equal b, that the patch is not much longer than b, and
// that listLen measures the patch's JSON as JavaScript would.
func TestRandomPairs(t *testing.T) {
	const pairs = 6000
	g := &gen{rand.New(rand.NewPCG(6902, 2026))}
	for i := range pairs {
		a := g.value(1+g.IntN(5), true)
		b := g.mutate(a, 4)
		if g.Float64() < 0.1 {
			b = g.value(1+g.IntN(5), false)
		}
		aJSON := encode(t, a)
		ops := Diff(a, b)
		where := fmt.Sprintf("pair %d: a=%s b=%s ops=%s", i, aJSON, encode(t, b), encode(t, ops))
		got, err := refApply(a, ops)
		if err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		if !reflect.DeepEqual(decode(t, encode(t, got)), decode(t, encode(t, b))) {
			t.Fatalf("%s: the patch gives %s", where, encode(t, got))
		}
		if got, err := Apply(a, ops); err != nil || encode(t, got) != encode(t, b) {
			t.Fatalf("%s: Apply gives %v, %v", where, got, err)
		}
		if encode(t, a) != aJSON {
			t.Fatalf("%s: Diff or Apply changed a", where)
		}
		if listLen(ops) > jsonLen(b)+40 {
			t.Fatalf("%s: the patch is longer than b", where)
		}
		if js := encode(t, ops); len(utf16.Encode([]rune(js))) != listLen(ops) {
			t.Fatalf("%s: listLen %d, JSON.stringify's length %d", where, listLen(ops), len(utf16.Encode([]rune(js))))
		}
	}
}

// gen makes random JSON values as encoding/json decodes them: the keys
// and strings need escaping in pointers and in JSON, or are beyond U+FFFF.
type gen struct{ *rand.Rand }

var (
	genKeys = []string{"a", "b", "c", "id", "sku", "key", "uri", "name", "qty", "x/y", "~", "~1", "~0", "a~b/c", "/", "",
		"0", "1", "10", "-", "ü", "日本", "😀", "\uE000", "constructor", "toString"}
	genStrings = []string{"", "a", "hello", "ünïcödé", "日本語", "😀🎉", "line\nbreak", "quote\"", "back\\slash", "\x01ctl", "~1", "a/b", "<&>"}
	genNumbers = []float64{0, 1, -1, 2, 42, 0.5, -2.25, 0.30000000000000004, 1e21, 1.5e-7, 123456789012, -0.000001}
)

func (g *gen) pick(xs []string) string { return xs[g.IntN(len(xs))] }

func (g *gen) primitive() any {
	switch g.IntN(5) {
	case 0:
		return g.pick(genStrings)
	case 1:
		return genNumbers[g.IntN(len(genNumbers))]
	case 2:
		return g.IntN(2) == 0
	case 3:
		return nil
	}
	return float64(g.IntN(1000))
}

func (g *gen) line(i int) any {
	return map[string]any{"id": "line-" + strconv.Itoa(i), "sku": "SKU" + strconv.Itoa(1000+i), "qty": float64(1 + g.IntN(5)), "price": 4.5 + float64(i)}
}

func (g *gen) value(depth int, top bool) any {
	r := g.Float64()
	if top {
		r = 0.35 + 0.65*r
	}
	switch {
	case depth <= 0 || r < 0.35:
		return g.primitive()
	case r < 0.45:
		cart := []any{}
		for i := range g.IntN(8) {
			cart = append(cart, g.line(i*7+g.IntN(7)))
		}
		return cart
	case r < 0.7:
		arr := []any{}
		for range g.IntN(6) {
			arr = append(arr, g.value(depth-1, false))
		}
		return arr
	}
	obj := map[string]any{}
	for range g.IntN(6) {
		obj[g.pick(genKeys)] = g.value(depth-1, false)
	}
	return obj
}

// mutate returns a changed copy of v: a few edits, sometimes none,
// sometimes a value of another kind.
func (g *gen) mutate(v any, depth int) any {
	switch r := g.Float64(); {
	case r < 0.08:
		return g.value(depth, false)
	case r < 0.15:
		return deepCopy(v)
	}
	switch v := deepCopy(v).(type) {
	case map[string]any:
		for range 1 + g.IntN(3) {
			keys := sortedKeys(v)
			switch e := g.IntN(4); {
			case e == 0 && len(keys) > 0:
				delete(v, keys[g.IntN(len(keys))])
			case e == 1:
				v[g.pick(genKeys)] = g.value(depth-1, false)
			case len(keys) > 0:
				k := keys[g.IntN(len(keys))]
				v[k] = g.mutate(v[k], depth-1)
			}
		}
		return v
	case []any:
		return g.mutateArray(v, depth)
	case float64:
		return v + 1
	case string:
		return v + "!"
	case bool:
		return !v
	}
	return g.primitive()
}

func (g *gen) mutateArray(x []any, depth int) []any {
	for range 1 + g.IntN(3) {
		i := g.IntN(len(x) + 1)
		switch g.IntN(7) {
		case 0:
			x = slices.Insert(x, i, g.value(depth-1, false))
		case 1:
			x = slices.Insert(x, i, g.line(100+g.IntN(50)))
		case 2:
			if len(x) > 0 {
				j := g.IntN(len(x))
				x = slices.Delete(x, j, min(len(x), j+1+g.IntN(2)))
			}
		case 3:
			if len(x) > 1 {
				j := g.IntN(len(x))
				e := x[j]
				x = slices.Delete(x, j, j+1)
				x = slices.Insert(x, g.IntN(len(x)+1), e)
			}
		case 4:
			g.Shuffle(len(x), func(i, j int) { x[i], x[j] = x[j], x[i] })
		case 5:
			x = append(x, g.value(depth-1, false))
		default:
			if len(x) > 0 {
				j := g.IntN(len(x))
				x[j] = g.mutate(x[j], depth-1)
			}
		}
	}
	return x
}

// refApply is a second applier, for the tests alone: it rebuilds the path
// to each change (copy on write) where Apply edits a copy in place.
func refApply(doc any, ops []Op) (any, error) {
	for i, op := range ops {
		var err error
		switch op.Op {
		case "add", "replace", "remove":
			doc, err = refSet(doc, refTokens(op.Path), op.Value, op.Op)
		case "move":
			var v any
			if v, err = refGet(doc, refTokens(op.From)); err == nil {
				if doc, err = refSet(doc, refTokens(op.From), nil, "remove"); err == nil {
					doc, err = refSet(doc, refTokens(op.Path), v, "add")
				}
			}
		default:
			err = fmt.Errorf("Diff does not write %q", op.Op)
		}
		if err != nil {
			return nil, fmt.Errorf("op %d %+v: %w", i, op, err)
		}
	}
	return doc, nil
}

func refTokens(p string) []string {
	if p == "" {
		return nil
	}
	toks := strings.Split(p, "/")[1:]
	for i, t := range toks {
		toks[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return toks
}

func refGet(v any, toks []string) (any, error) {
	for _, t := range toks {
		switch c := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = c[t]; !ok {
				return nil, fmt.Errorf("no member %q", t)
			}
		case []any:
			i, err := strconv.Atoi(t)
			if err != nil || i < 0 || i >= len(c) {
				return nil, fmt.Errorf("no element %q", t)
			}
			v = c[i]
		default:
			return nil, fmt.Errorf("%q in a %T", t, v)
		}
	}
	return v, nil
}

// refSet returns a copy of v (sharing what it does not change) with op
// ("add", "replace" or "remove") done at toks.
func refSet(v any, toks []string, val any, op string) (any, error) {
	if len(toks) == 0 {
		if op == "remove" {
			return nil, fmt.Errorf("remove of the root")
		}
		return val, nil
	}
	last := len(toks) == 1
	switch c := v.(type) {
	case map[string]any:
		m := maps.Clone(c)
		_, had := m[toks[0]]
		switch {
		case !last:
			inner, err := refSet(c[toks[0]], toks[1:], val, op)
			m[toks[0]] = inner
			return m, err
		case op != "add" && !had:
			return nil, fmt.Errorf("%s of a missing member %q", op, toks[0])
		case op == "remove":
			delete(m, toks[0])
		default:
			m[toks[0]] = val
		}
		return m, nil
	case []any:
		i, err := strconv.Atoi(toks[0])
		if err != nil || i < 0 || i > len(c) || (i == len(c) && !(last && op == "add")) {
			return nil, fmt.Errorf("no index %q in %d elements", toks[0], len(c))
		}
		s := slices.Clone(c)
		switch {
		case !last:
			s[i], err = refSet(c[i], toks[1:], val, op)
		case op == "add":
			s = slices.Insert(s, i, val)
		case op == "remove":
			s = slices.Delete(s, i, i+1)
		default:
			s[i] = val
		}
		return s, err
	}
	return nil, fmt.Errorf("%q in a %T", toks[0], v)
}
