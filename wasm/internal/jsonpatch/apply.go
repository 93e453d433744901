package jsonpatch

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// errNoRoot is the error of an operation that would remove the document.
var errNoRoot = errors.New("the whole document cannot be removed")

// Apply returns doc with ops applied in order, on a deep copy: neither doc
// nor the operations' values are changed, nor shared with the result. An
// error names the operation (its index) and its path.
func Apply(doc any, ops []Op) (any, error) {
	doc = deepCopy(doc)
	for i, op := range ops {
		var err error
		if doc, err = applyOp(doc, op); err != nil {
			return nil, fmt.Errorf("jsonpatch: op %d (%s %q): %w", i, op.Op, op.Path, err)
		}
	}
	return doc, nil
}

func applyOp(doc any, op Op) (any, error) {
	path, err := parsePointer(op.Path)
	if err != nil {
		return nil, err
	}
	switch op.Op {
	case "add":
		return add(doc, path, deepCopy(op.Value))
	case "remove":
		return remove(doc, path)
	case "replace":
		return replace(doc, path, deepCopy(op.Value))
	case "test":
		v, err := get(doc, path)
		if err == nil && !equal(v, op.Value) {
			err = errors.New("test failed: the value differs")
		}
		return doc, err
	case "move", "copy":
		from, err := parsePointer(op.From)
		if err != nil {
			return nil, fmt.Errorf("from %q: %w", op.From, err)
		}
		v, err := get(doc, from)
		if err != nil {
			return nil, fmt.Errorf("from %q: %w", op.From, err)
		}
		if op.Op == "copy" {
			return add(doc, path, deepCopy(v))
		}
		if strings.HasPrefix(op.Path, op.From+"/") {
			return nil, fmt.Errorf("cannot move %q into itself", op.From)
		}
		if doc, err = remove(doc, from); err != nil {
			return nil, err
		}
		return add(doc, path, v)
	}
	return nil, fmt.Errorf("unknown operation %q", op.Op)
}

// parsePointer splits a JSON Pointer into its reference tokens, unescaped.
func parsePointer(p string) ([]string, error) {
	if p == "" {
		return nil, nil
	}
	if p[0] != '/' {
		return nil, errors.New("a JSON Pointer starts with /")
	}
	toks := strings.Split(p[1:], "/")
	for i, t := range toks {
		for j := 0; j < len(t); j++ {
			if t[j] == '~' && (j+1 == len(t) || (t[j+1] != '0' && t[j+1] != '1')) {
				return nil, fmt.Errorf("token %q: a ~ that is neither ~0 nor ~1", t)
			}
		}
		toks[i] = unescaper.Replace(t)
	}
	return toks, nil
}

var unescaper = strings.NewReplacer("~1", "/", "~0", "~")

// arrayIndex is tok as an index of an array of n elements: its digits (no
// leading zero), below n, or up to n (and "-" for n) when end.
func arrayIndex(tok string, n int, end bool) (int, error) {
	if end && tok == "-" {
		return n, nil
	}
	i, err := strconv.Atoi(tok)
	if err != nil || tok[0] == '+' || tok[0] == '-' || (len(tok) > 1 && tok[0] == '0') {
		return 0, fmt.Errorf("%q is not an array index", tok)
	}
	if i > n || (i == n && !end) {
		return 0, fmt.Errorf("index %d is out of range (length %d)", i, n)
	}
	return i, nil
}

// child is the member or element tok of node.
func child(node any, tok string) (any, error) {
	switch node := node.(type) {
	case map[string]any:
		v, ok := node[tok]
		if !ok {
			return nil, fmt.Errorf("no member %q", tok)
		}
		return v, nil
	case []any:
		i, err := arrayIndex(tok, len(node), false)
		if err != nil {
			return nil, err
		}
		return node[i], nil
	}
	return nil, fmt.Errorf("%q is inside neither an object nor an array", tok)
}

func get(doc any, path []string) (any, error) {
	for _, tok := range path {
		var err error
		if doc, err = child(doc, tok); err != nil {
			return nil, err
		}
	}
	return doc, nil
}

// edit applies f to the parent of path's last token, in doc, and returns
// doc with the new parent (an array may be a new slice) in place.
func edit(doc any, path []string, f func(parent any, tok string) (any, error)) (any, error) {
	if len(path) == 1 {
		return f(doc, path[0])
	}
	c, err := child(doc, path[0])
	if err != nil {
		return nil, err
	}
	if c, err = edit(c, path[1:], f); err != nil {
		return nil, err
	}
	switch node := doc.(type) {
	case map[string]any:
		node[path[0]] = c
	case []any:
		i, _ := arrayIndex(path[0], len(node), false)
		node[i] = c
	}
	return doc, nil
}

func add(doc any, path []string, v any) (any, error) {
	if len(path) == 0 {
		return v, nil
	}
	return edit(doc, path, func(parent any, tok string) (any, error) {
		switch parent := parent.(type) {
		case map[string]any:
			parent[tok] = v
			return parent, nil
		case []any:
			i, err := arrayIndex(tok, len(parent), true)
			if err != nil {
				return nil, err
			}
			return slices.Insert(parent, i, v), nil
		}
		return nil, fmt.Errorf("%q is inside neither an object nor an array", tok)
	})
}

func remove(doc any, path []string) (any, error) {
	if len(path) == 0 {
		return nil, errNoRoot
	}
	return edit(doc, path, func(parent any, tok string) (any, error) {
		if _, err := child(parent, tok); err != nil {
			return nil, err
		}
		if m, ok := parent.(map[string]any); ok {
			delete(m, tok)
			return m, nil
		}
		s := parent.([]any)
		i, _ := arrayIndex(tok, len(s), false)
		return slices.Delete(s, i, i+1), nil
	})
}

func replace(doc any, path []string, v any) (any, error) {
	if len(path) == 0 {
		return v, nil
	}
	return edit(doc, path, func(parent any, tok string) (any, error) {
		if _, err := child(parent, tok); err != nil {
			return nil, err
		}
		if m, ok := parent.(map[string]any); ok {
			m[tok] = v
			return m, nil
		}
		s := parent.([]any)
		i, _ := arrayIndex(tok, len(s), false)
		s[i] = v
		return s, nil
	})
}

// deepCopy copies v's objects and arrays.
func deepCopy(v any) any {
	switch v := v.(type) {
	case map[string]any:
		c := make(map[string]any, len(v))
		for k, e := range v {
			c[k] = deepCopy(e)
		}
		return c
	case []any:
		c := make([]any, len(v))
		for i, e := range v {
			c[i] = deepCopy(e)
		}
		return c
	}
	return v
}
