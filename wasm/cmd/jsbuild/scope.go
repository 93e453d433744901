package main

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// The classic script is two files: the stub every visitor downloads
// (js/loader/*.js) and the runtime (js/loader/runtime/*.js) that the stub
// imports at the first consumer contact, beside itself. Their sources share
// one scope, as tsc checks them; built, each is a scope of its own, and the
// names one side uses of the other cross in a generated list, in the order
// of that list on both sides (so that the minifier may shorten them):
//
//   - the stub's declarations the runtime uses go in, as the elements of the
//     array the runtime function receives; they must be constants,
//     functions or classes (a let would be copied once, then go stale: the
//     stub shares its state through functions, such as isReady);
//   - the runtime's functions the stub calls come back, as the elements of
//     the array it returns, into lets of the stub that hold nothing before
//     the runtime is loaded (the stub calls them only once it is).

// decl is a top-level declaration of a side.
type decl struct {
	name    string
	mutable bool // let or var
	fn      bool // function or class
}

var (
	declRe     = regexp.MustCompile(`(?m)^(const|let|var|function\*?|async function|class)\s+([A-Za-z_$][\w$]*)`)
	destructRe = regexp.MustCompile(`(?m)^(const|let|var)\s+\[([^\]]*)\]\s*=`)
	multiRe    = regexp.MustCompile(`(?m)^(const|let|var)\s+[A-Za-z_$][\w$]*\s*=[^;\n]*,\s*[A-Za-z_$][\w$]*\s*=`)
	identRe    = regexp.MustCompile(`[A-Za-z_$][\w$]*`)
)

// declarations lists the top-level declarations of code (statements that
// start their line), in order. A declaration of several names in one
// statement is refused unless it destructures an array.
func declarations(code string) ([]decl, error) {
	if m := multiRe.FindString(code); m != "" {
		return nil, fmt.Errorf("declare one name per statement at the top level: %q", m)
	}
	var ds []decl
	for _, m := range declRe.FindAllStringSubmatch(code, -1) {
		kind := m[1]
		ds = append(ds, decl{name: m[2], mutable: kind == "let" || kind == "var", fn: strings.Contains(kind, "function") || kind == "class"})
	}
	for _, m := range destructRe.FindAllStringSubmatch(code, -1) {
		for n := range strings.SplitSeq(m[2], ",") {
			ds = append(ds, decl{name: strings.TrimSpace(n), mutable: m[1] != "const"})
		}
	}
	return ds, nil
}

// identifiers returns the names code uses as identifiers: words outside
// strings and comments that neither follow a dot nor name a property of
// an object literal.
func identifiers(code string) map[string]bool {
	used := map[string]bool{}
	text := codeOnly(code)
	for _, loc := range identRe.FindAllStringIndex(text, -1) {
		if loc[0] > 0 && (text[loc[0]-1] == '.' || isIdentByte(text[loc[0]-1])) {
			continue
		}
		if isKey(text, loc[0], loc[1]) {
			continue
		}
		used[text[loc[0]:loc[1]]] = true
	}
	return used
}

// isKey tells a property name in an object literal ("{ name: v" or
// ", name: v") from a use of the name.
func isKey(code string, start, end int) bool {
	rest := strings.TrimLeft(code[end:], " \t\n")
	if !strings.HasPrefix(rest, ":") {
		return false
	}
	before := strings.TrimRight(code[:start], " \t\n")
	return strings.HasSuffix(before, "{") || strings.HasSuffix(before, ",")
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || isDigit(c) || (c|0x20 >= 'a' && c|0x20 <= 'z')
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// codeOnly returns code with its string literals and comments blanked out
// (a template literal's text too; its ${...} parts stay). It is a scanner
// good enough for the loader's sources: a quote inside a regular expression
// literal would confuse it, and the tests that build the loader would then
// fail on the crossing lists.
func codeOnly(code string) string {
	var b strings.Builder
	depth := []int{} // brace depth at each open ${ of a template
	braces := 0
	for i := 0; i < len(code); i++ {
		c := code[i]
		switch {
		case c == '/' && i+1 < len(code) && code[i+1] == '/':
			for i < len(code) && code[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(code) && code[i+1] == '*':
			end := strings.Index(code[i+2:], "*/")
			if end < 0 {
				i = len(code)
			} else {
				i += end + 3
			}
		case c == '"' || c == '\'':
			i = skipString(code, i, c)
			b.WriteString(" 0 ")
		case c == '`' || (c == '}' && len(depth) > 0 && depth[len(depth)-1] == braces):
			if c == '}' {
				depth = depth[:len(depth)-1]
			}
			// template text up to ` or ${
			j := i + 1
			for j < len(code) && code[j] != '`' && !(code[j] == '$' && j+1 < len(code) && code[j+1] == '{') {
				if code[j] == '\\' {
					j++
				}
				j++
			}
			if j < len(code) && code[j] == '$' {
				depth = append(depth, braces)
				j++ // the {, which opens code
			}
			i = j
			b.WriteString(" 0 ")
		default:
			if c == '{' {
				braces++
			} else if c == '}' {
				braces--
			}
			b.WriteByte(c)
		}
	}
	return b.String()
}

func skipString(code string, i int, q byte) int {
	for j := i + 1; j < len(code); j++ {
		switch code[j] {
		case '\\':
			j++
		case q, '\n':
			return j
		}
	}
	return len(code)
}

// crossing is what passes between the stub and the runtime.
type crossing struct {
	in   []string // the stub's names the runtime uses, in the stub's order
	back []string // the runtime's functions the stub calls, in the runtime's order
}

// crossings works out the lists from the two sides' code. shared are names
// both sides declare for themselves (the constants from Go, emitted in each).
func crossings(stub, runtime string) (crossing, error) {
	var c crossing
	sd, err := declarations(stub)
	if err != nil {
		return c, fmt.Errorf("the stub: %w", err)
	}
	rd, err := declarations(runtime)
	if err != nil {
		return c, fmt.Errorf("the runtime: %w", err)
	}
	stubNames := map[string]decl{}
	for _, d := range sd {
		stubNames[d.name] = d
	}
	runtimeNames := map[string]decl{}
	for _, d := range rd {
		if _, twice := stubNames[d.name]; twice {
			return c, fmt.Errorf("%s is declared by both the stub and the runtime", d.name)
		}
		runtimeNames[d.name] = d
	}
	usedByRuntime, usedByStub := identifiers(runtime), identifiers(stub)
	var stale []string
	for _, d := range sd {
		if !usedByRuntime[d.name] || slices.Contains(c.in, d.name) {
			continue
		}
		if d.mutable {
			stale = append(stale, d.name)
		}
		c.in = append(c.in, d.name)
	}
	if len(stale) > 0 {
		return c, fmt.Errorf("the runtime uses the stub's %s, declared with let: share it through a function (as isReady shares state)", strings.Join(stale, ", "))
	}
	var notFn []string
	for _, d := range rd {
		if !usedByStub[d.name] || slices.Contains(c.back, d.name) {
			continue
		}
		if !d.fn {
			notFn = append(notFn, d.name)
		}
		c.back = append(c.back, d.name)
	}
	if len(notFn) > 0 {
		return c, fmt.Errorf("the stub uses the runtime's %s, which is not a function: the stub may call the runtime's functions only", strings.Join(notFn, ", "))
	}
	return c, nil
}
