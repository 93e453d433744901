package mcp

import "github.com/modelcontext-go/modelcontext/wasm/registry"

// The server writes its JSON with this small writer; the module does not
// link encoding/json, which would make the .wasm much larger (wasm/abi's
// TestTheModuleStaysSmall holds it to that). The
// browser parses what the server writes (JSON.parse, in the loader), and the
// loader extracts the fields of incoming messages that the server reads
// (message.go): no JSON parser is needed in Go.

// writer builds JSON text.
type writer struct{ b []byte }

func (w *writer) raw(s string) *writer { w.b = append(w.b, s...); return w }

// str writes s as a JSON string literal.
func (w *writer) str(s string) *writer {
	const hex = "0123456789abcdef"
	w.b = append(w.b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			w.b = append(w.b, '\\', c)
		case c == '\n':
			w.b = append(w.b, '\\', 'n')
		case c < 0x20:
			w.b = append(w.b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		default:
			w.b = append(w.b, c)
		}
	}
	w.b = append(w.b, '"')
	return w
}

// key writes "k": after a comma when the object already has members.
func (w *writer) key(k string) *writer {
	if n := len(w.b); n > 0 && w.b[n-1] != '{' {
		w.b = append(w.b, ',')
	}
	return w.str(k).raw(":")
}

func (w *writer) int(n int) *writer {
	if n < 0 {
		w.b = append(w.b, '-')
		n = -n
	}
	var d [20]byte
	i := len(d)
	for {
		i--
		d[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			break
		}
	}
	w.b = append(w.b, d[i:]...)
	return w
}

func (w *writer) String() string { return string(w.b) }

// idText is the JSON text that echoes a request id, or "null" for an id
// that is neither a string nor a number. A number is echoed as the loader
// wrote it (JSON.stringify), once checked to be a number.
func idText(id registry.Field, text string) string {
	switch id.Kind {
	case registry.KindString:
		return (&writer{}).str(id.Str).String()
	case registry.KindNumber:
		if jsonNumber(text) {
			return text
		}
	}
	return "null"
}

// jsonNumber reports whether s is a number in JSON's grammar:
// -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func jsonNumber(s string) bool {
	i := 0
	digits := func() int {
		n := 0
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(s) && s[i] == '-' {
		i++
	}
	if i < len(s) && s[i] == '0' {
		i++
	} else if digits() == 0 {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

func itoa(n int) string { return (&writer{}).int(n).String() }

func atoi(s string) (int, bool) {
	if s == "" || len(s) > 9 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}
