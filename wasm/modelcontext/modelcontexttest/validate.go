package modelcontexttest

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontext-go/modelcontext/wasm/modelcontext"
	"github.com/modelcontext-go/modelcontext/wasm/modelcontext/internal/page"
	"github.com/modelcontext-go/modelcontext/wasm/registry"
)

// descriptor is what package modelcontext sends the page's
// registerResource (without get and subscribe); a field it leaves out is
// nil.
type descriptor struct {
	URI         *string `json:"uri"`
	URITemplate *string `json:"uriTemplate"`
	Name        *string `json:"name"`
	Title       *string `json:"title"`
	Description *string `json:"description"`
	MimeType    *string `json:"mimeType"`
	Annotations *struct {
		Audience     []string `json:"audience"`
		Priority     *float64 `json:"priority"`
		LastModified *string  `json:"lastModified"`
	} `json:"annotations"`
	Icons  []modelcontext.Icon `json:"icons"`
	Settle *float64            `json:"settle"`
}

// scheme is the loader's test of a uri: a scheme, ":" and one more
// character.
var scheme = regexp.MustCompile(`(?s)^[A-Za-z][A-Za-z0-9+.-]*:.`)

// validate returns what is wrong with d, or "": js/loader/table.js's
// validate, in its order and with its messages (their phrases are
// registry's Msg constants, which the loader receives too), for the checks
// a descriptor from Go can fail (its types are right). TestLoaderMessages
// runs table.js's own on the same descriptors and compares.
func (d *descriptor) validate(hasGet bool) string {
	key, id := "uri", d.URI
	if d.URITemplate != nil && d.URI == nil {
		key, id = "uriTemplate", d.URITemplate
	}
	if id == nil {
		return registry.MsgPrefix + registry.MsgURIRequired
	}
	bad := func(field, what string) string {
		return registry.MsgPrefix + registry.Quote(field) + " " + what + " (" + key + " " + registry.Quote(*id) + ")"
	}
	switch {
	case *id == "":
		return registry.MsgPrefix + registry.Quote(key) + " " + registry.MsgEmpty
	case !scheme.MatchString(*id):
		return registry.MsgPrefix + registry.Quote(key) + " " + registry.Quote(*id) + " " + registry.MsgNoScheme
	}
	if key == "uriTemplate" {
		if _, problem := splitTemplate(*id); problem != "" {
			return registry.MsgPrefix + `"uriTemplate" ` + registry.Quote(*id) + " " + problem
		}
	}
	for n, icon := range d.Icons {
		if field, what := badIcon(icon); what != "" {
			return bad("icons["+strconv.Itoa(n)+"]."+field, what)
		}
	}
	switch {
	case d.Name == nil:
		return bad("name", registry.MsgRequired)
	case *d.Name == "":
		return bad("name", registry.MsgEmpty)
	case !hasGet:
		return bad("get", registry.MsgGetRequired)
	case d.Settle != nil && !(*d.Settle >= 0 && !math.IsInf(*d.Settle, 1)):
		return bad("settle", registry.MsgSettle+strconv.FormatFloat(*d.Settle, 'f', -1, 64))
	}
	if a := d.Annotations; a != nil {
		for n, who := range a.Audience {
			if who != "user" && who != "assistant" {
				return bad("annotations.audience["+strconv.Itoa(n)+"]", registry.MsgAudience)
			}
		}
		if a.Priority != nil && !(*a.Priority >= 0 && *a.Priority <= 1) {
			return bad("annotations.priority", registry.MsgPriority)
		}
		if a.LastModified != nil && !isISODate(*a.LastModified) {
			return bad("annotations.lastModified", registry.MsgLastModified)
		}
	}
	return ""
}

// fill fills in r's key, template, listing and settle from d, which
// validate found valid.
func (d *descriptor) fill(r *registration, hasWatch bool) {
	i := info{Name: *d.Name, MimeType: registry.DefaultMIMEType, Icons: d.Icons}
	if d.URI == nil {
		r.key, i.URITemplate = *d.URITemplate, *d.URITemplate
		parts, _ := splitTemplate(r.key)
		fields := make([]registry.Field, len(parts))
		for n, s := range parts {
			fields[n] = registry.Field{Kind: registry.KindString, Str: s}
		}
		t, err := registry.NewTemplate(fields)
		if err != nil {
			panic("modelcontexttest: the registry refuses the parts of " + registry.Quote(r.key) + ": " + err.Error())
		}
		r.template = t
	} else {
		r.key, i.URI = *d.URI, *d.URI
		i.Subscribable = &hasWatch
	}
	if d.Title != nil {
		i.Title = *d.Title
	}
	if d.Description != nil {
		i.Description = *d.Description
	}
	if d.MimeType != nil {
		i.MimeType = *d.MimeType
	}
	if a := d.Annotations; a != nil {
		i.Annotations = &modelcontext.Annotations{Audience: a.Audience, Priority: a.Priority}
		if a.LastModified != nil {
			i.Annotations.LastModified = *a.LastModified
		}
	}
	r.info = i
	if d.Settle != nil {
		r.settle = time.Duration(*d.Settle * float64(time.Millisecond))
	}
}

// urlScheme is the loader's test of a URL scheme in an icon's src, after
// the C0 controls and spaces the URL parser skips.
var urlScheme = regexp.MustCompile(`^[\x00-\x20]*([A-Za-z][A-Za-z0-9+.-]*):`)

// badIcon returns the field of an icon the loader refuses, and why: a src
// is an https: or data: URL or a path (the loader resolves a path against
// the document; here, without one, it stays as given).
func badIcon(icon modelcontext.Icon) (field, what string) {
	switch m := urlScheme.FindStringSubmatch(icon.Src); {
	case icon.Src == "":
		return "src", registry.MsgEmpty
	case m != nil && !strings.EqualFold(m[1], "https") && !strings.EqualFold(m[1], "data"):
		return "src", registry.MsgIconSrc + registry.Quote(icon.Src)
	case icon.Theme != "" && icon.Theme != "light" && icon.Theme != "dark":
		return "theme", registry.MsgIconTheme
	}
	return "", ""
}

// isoDate is the loader's ISO_DATE: a date, then optionally a time (hours
// and minutes, seconds and a fraction optional) and a zone (Z or ±hh:mm).
var isoDate = regexp.MustCompile(`^(\d{4})-(\d\d)-(\d\d)(?:T([01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?:Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)?)?$`)

// isISODate is the loader's test of an ISO 8601 date: isoDate, of a real
// calendar day. The loader counts the days of the month with Date.UTC,
// which reads the years 0 to 99 as 1900 to 1999.
func isISODate(t string) bool {
	m := isoDate.FindStringSubmatch(t)
	if m == nil {
		return false
	}
	y, _ := strconv.Atoi(m[1])
	mo, _ := strconv.Atoi(m[2])
	d, _ := strconv.Atoi(m[3])
	if y < 100 {
		y += 1900
	}
	return mo >= 1 && mo <= 12 && d >= 1 && d <= time.Date(y, time.Month(mo)+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// refused is the error of a descriptor the loader refuses with msg: a
// TypeError, whose field is the one msg names, as package modelcontext
// finds it in the browser.
func refused(msg string) error {
	return &modelcontext.Error{Name: "TypeError", Message: msg, Field: page.FieldNamed(msg)}
}

// templateName is what the loader accepts between { and }.
var templateName = regexp.MustCompile(`^[A-Za-z0-9_.%]+$`)

// splitTemplate parses an RFC 6570 level 1 template into literal, name,
// literal, ..., literal, or says what is wrong with it, as the loader does.
func splitTemplate(t string) (parts []string, problem string) {
	rest := t
	for {
		open, close := strings.IndexByte(rest, '{'), strings.IndexByte(rest, '}')
		if open < 0 {
			if close >= 0 {
				return nil, registry.MsgCloseWithoutOpen
			}
			return append(parts, rest), ""
		}
		if close >= 0 && close < open {
			return nil, registry.MsgCloseWithoutOpen
		}
		if close < 0 {
			return nil, registry.MsgOpenWithoutClose
		}
		name := rest[open+1 : close]
		if !templateName.MatchString(name) {
			return nil, registry.MsgExpression + name + registry.MsgLevel1
		}
		if open == 0 && len(parts) > 0 {
			return nil, registry.MsgAdjacent
		}
		parts = append(parts, rest[:open], name)
		rest = rest[close+1:]
	}
}
