package registry

// Template is an RFC 6570 level 1 URI template: literals and simple {name}
// expressions. A variable matches one non-empty run of characters without
// "/", percent-decoded. The loader parses and validates the template's text;
// the registry matches uris against it.
type Template struct {
	literals []string // len(vars)+1 literals around the variables
	vars     []string
}

// Param is one matched template variable.
type Param struct{ Name, Value string }

// NewTemplate builds a template from the parts the loader split it into
// when it validated it: literal, variable name, literal, ..., literal (an
// odd number of strings). It copies them: they may point into the loader's
// buffer.
func NewTemplate(parts []Field) (*Template, error) {
	if len(parts)%2 == 0 {
		return nil, errTruncated
	}
	t := &Template{}
	for i, p := range parts {
		switch {
		case p.Kind != KindString, p.Str == "" && (i%2 == 1 || i > 0 && i < len(parts)-1):
			// A variable needs a name, and two variables need a literal
			// between them.
			return nil, errTruncated
		case i%2 == 0:
			t.literals = append(t.literals, clone(p.Str))
		default:
			t.vars = append(t.vars, clone(p.Str))
		}
	}
	return t, nil
}

// Match reports whether uri is an instance of the template and returns the
// values of its variables.
func (t *Template) Match(uri string) ([]Param, bool) {
	if !HasPrefix(uri, t.literals[0]) {
		return nil, false
	}
	rest := uri[len(t.literals[0]):]
	params := make([]Param, 0, len(t.vars))
	for i, name := range t.vars {
		next := t.literals[i+1]
		var raw string
		if next == "" { // the last expression takes the rest
			raw, rest = rest, ""
		} else {
			j := index(rest, next)
			if j < 0 {
				return nil, false
			}
			raw, rest = rest[:j], rest[j+len(next):]
		}
		value, ok := unescape(raw)
		if raw == "" || indexByte(raw, '/') >= 0 || !ok {
			return nil, false
		}
		params = append(params, Param{name, value})
	}
	if rest != "" {
		return nil, false
	}
	return params, true
}

// unescape percent-decodes s.
func unescape(s string) (string, bool) {
	if indexByte(s, '%') < 0 {
		return s, true
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b = append(b, s[i])
			continue
		}
		if i+2 >= len(s) {
			return "", false
		}
		hi, lo := unhex(s[i+1]), unhex(s[i+2])
		if hi < 0 || lo < 0 {
			return "", false
		}
		b = append(b, byte(hi<<4|lo))
		i += 2
	}
	return string(b), true
}

func unhex(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// The few string functions the matcher needs, here so that the module does
// not link package strings (and the Unicode tables it brings).

// HasPrefix is strings.HasPrefix, for the module's packages (package mcp
// too), which do not link package strings.
func HasPrefix(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }

func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}

func index(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}
