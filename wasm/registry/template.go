package registry

import "strings"

// Template is a parsed RFC 6570 level 1 URI template: literals and simple
// {name} expressions. A variable matches one non-empty run of characters
// without "/", percent-decoded.
type Template struct {
	literals []string // len(vars)+1 literals around the variables
	vars     []string
}

// Param is one matched template variable.
type Param struct{ Name, Value string }

// ParseTemplate parses s, or returns what is wrong with it.
func ParseTemplate(s string) (*Template, string) {
	t := &Template{}
	rest := s
	for {
		open := strings.IndexByte(rest, '{')
		close := strings.IndexByte(rest, '}')
		if open < 0 {
			if close >= 0 {
				return nil, `has a "}" without "{"`
			}
			t.literals = append(t.literals, rest)
			return t, ""
		}
		if close >= 0 && close < open {
			return nil, `has a "}" without "{"`
		}
		if close < 0 {
			return nil, `has a "{" without "}"`
		}
		name := rest[open+1 : close]
		if !isVarName(name) {
			return nil, "has the expression {" + name + "}; only simple {name} expressions (RFC 6570 level 1) are supported"
		}
		if open == 0 && len(t.vars) > 0 {
			return nil, "has two expressions next to each other; separate them with a literal"
		}
		t.literals = append(t.literals, rest[:open])
		t.vars = append(t.vars, name)
		rest = rest[close+1:]
	}
}

func isVarName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '.' || c == '%') {
			return false
		}
	}
	return true
}

// Match reports whether uri is an instance of the template and returns the
// values of its variables.
func (t *Template) Match(uri string) ([]Param, bool) {
	if !strings.HasPrefix(uri, t.literals[0]) {
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
			j := strings.Index(rest, next)
			if j < 0 {
				return nil, false
			}
			raw, rest = rest[:j], rest[j+len(next):]
		}
		value, ok := unescape(raw)
		if raw == "" || strings.IndexByte(raw, '/') >= 0 || !ok {
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
	if strings.IndexByte(s, '%') < 0 {
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
