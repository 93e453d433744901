package registry

// ValidationError is a descriptor that cannot be registered. Its message is
// the one the page author sees in the TypeError.
type ValidationError struct{ msg string }

func (e *ValidationError) Error() string { return e.msg }

const registerPrefix = "modelcontext: registerResource: "

// Validate checks a descriptor against the rules of registerResource and
// returns a *ValidationError naming the first field at fault and the uri.
// Fields are checked in the order uri (or uriTemplate), name, get, subscribe,
// title, description, mimeType, annotations.
func Validate(d *Descriptor) error {
	if d.Kind != KindObject {
		return &ValidationError{registerPrefix + "the descriptor must be an object, got " + d.Kind.String()}
	}
	key, id := "uri", d.URI
	if d.URITemplate.Present() && !d.URI.Present() {
		key, id = "uriTemplate", d.URITemplate
	}
	switch {
	case !id.Present():
		return &ValidationError{registerPrefix + `"uri" is required (a string like "state://cart")`}
	case id.Kind != KindString:
		return &ValidationError{registerPrefix + quote(key) + " must be a string, got " + id.Kind.String()}
	case id.Str == "":
		return &ValidationError{registerPrefix + quote(key) + " must not be empty"}
	case !hasScheme(id.Str):
		return &ValidationError{registerPrefix + quote(key) + " " + quote(id.Str) + ` has no scheme; write it like "state://cart"`}
	}
	if key == "uri" && d.URITemplate.Present() {
		return fieldError(key, id.Str, "uriTemplate", "must not be given together with \"uri\"")
	}
	bad := func(field, what string) error { return fieldError(key, id.Str, field, what) }
	if key == "uriTemplate" {
		if _, why := ParseTemplate(id.Str); why != "" {
			return &ValidationError{registerPrefix + `"uriTemplate" ` + quote(id.Str) + " " + why}
		}
		if d.Subscribe.Present() {
			return bad("subscribe", "is not supported with a uriTemplate: templates are read on demand; register a concrete uri to push it")
		}
	}
	switch {
	case !d.Name.Present():
		return bad("name", "is required")
	case d.Name.Kind != KindString:
		return bad("name", "must be a string, got "+d.Name.Kind.String())
	case d.Name.Str == "":
		return bad("name", "must not be empty")
	case !d.Get.Present():
		return bad("get", "is required, a function that returns the current value")
	case d.Get.Kind != KindFunction:
		return bad("get", "must be a function, got "+d.Get.Kind.String())
	case d.Subscribe.Present() && d.Subscribe.Kind != KindFunction:
		return bad("subscribe", "must be a function, got "+d.Subscribe.Kind.String())
	}
	for _, s := range []struct {
		name string
		f    Field
	}{{"title", d.Title}, {"description", d.Description}, {"mimeType", d.MIMEType}} {
		if s.f.Present() && s.f.Kind != KindString {
			return bad(s.name, "must be a string, got "+s.f.Kind.String())
		}
	}
	if !d.Annotations.Present() {
		return nil
	}
	if d.Annotations.Kind != KindObject {
		return bad("annotations", "must be an object, got "+d.Annotations.Kind.String())
	}
	if a := d.Audience; a.Present() {
		if a.Kind != KindArray {
			return bad("annotations.audience", "must be an array, got "+a.Kind.String())
		}
		for i, it := range a.Items {
			if it.Kind != KindString || it.Str != "user" && it.Str != "assistant" {
				return bad("annotations.audience["+itoa(i)+"]", `must be "user" or "assistant"`)
			}
		}
	}
	if p := d.Priority; p.Present() && (p.Kind != KindNumber || !(p.Num >= 0 && p.Num <= 1)) {
		return bad("annotations.priority", "must be a number from 0 to 1")
	}
	if m := d.LastModified; m.Present() && (m.Kind != KindString || !isISODate(m.Str)) {
		return bad("annotations.lastModified", "must be an ISO 8601 date string")
	}
	return nil
}

func fieldError(key, id, field, what string) error {
	return &ValidationError{registerPrefix + quote(field) + " " + what + " (" + key + " " + quote(id) + ")"}
}

// hasScheme reports whether uri starts with an RFC 3986 scheme and a colon
// and has at least one character after it.
func hasScheme(uri string) bool {
	for i := 0; i < len(uri); i++ {
		c := uri[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return i+1 < len(uri)
		default:
			return false
		}
	}
	return false
}

// isISODate accepts YYYY-MM-DD, optionally followed by "T" and anything.
func isISODate(s string) bool {
	if len(s) < 10 || len(s) > 10 && s[10] != 'T' && s[10] != 't' {
		return false
	}
	for i := 0; i < 10; i++ {
		if i == 4 || i == 7 {
			if s[i] != '-' {
				return false
			}
		} else if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	month, day := (s[5]-'0')*10+s[6]-'0', (s[8]-'0')*10+s[9]-'0'
	return month >= 1 && month <= 12 && day >= 1 && day <= 31
}

// quote wraps s in double quotes, the way the messages show uris and names.
func quote(s string) string { return `"` + s + `"` }

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b [20]byte
	n := len(b)
	for ; i > 0; i /= 10 {
		n--
		b[n] = byte('0' + i%10)
	}
	return string(b[n:])
}
