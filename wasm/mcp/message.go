package mcp

import (
	"math"
	"unsafe"

	"github.com/modelcontext-go/modelcontext/wasm/registry"
)

// Message is what the server reads of one message event. The loader extracts
// these fields from the event as MessageFields says, in this order, and
// encodes them like every field it hands Go (see registry.DecodeFields).
type Message struct {
	Origin           registry.Field // event.origin
	Session          registry.Field // the name of the sub-channel "<channel>/<name>" it came on; undefined on the channel itself
	Payload          registry.Field // the envelope's payload: its kind, and its text if a string
	JSONRPC          registry.Field
	ID               registry.Field
	IDJSON           registry.Field // JSON.stringify of a number id, echoed exactly
	Method           registry.Field
	Params           registry.Field // kind only
	URI              registry.Field // params.uri
	Resource         registry.Field // the registration that serves params.uri (the loader looks it up), or 0
	ResourceParams   registry.Field // the template parameters of Resource as a JSON object, if it is a template
	Cursor           registry.Field // params.cursor
	ProtocolVersion  registry.Field // params.protocolVersion (initialize)
	MetaVersion      registry.Field // params._meta["io.modelcontextprotocol/protocolVersion"]
	MetaCapabilities registry.Field // params._meta["io.modelcontextprotocol/clientCapabilities"], kind only
	Notifications    registry.Field // params.notifications, kind only
	ListChanged      registry.Field // params.notifications.resourcesListChanged
	Subscriptions    registry.Field // params.notifications.resourceSubscriptions
	RequestID        registry.Field // JSON.stringify of a string or number params.requestId
	RefType          registry.Field // params.ref.type (completion/complete)
	RefURI           registry.Field // params.ref.uri, a uriTemplate
	ArgName          registry.Field // params.argument.name
	ArgValue         registry.Field // params.argument.value
	ContextArgs      registry.Field // params.context.arguments as entries: name, value, name, value, ...
	Changes          registry.Field // params.capabilities.experimental["modelcontext/changes"] (initialize), kind only
	MetaChanges      registry.Field // params._meta["modelcontext/changes"] (subscriptions/listen)
	Result           registry.Field // kind only
	Error            registry.Field // kind only
	Unreadable       registry.Field // true when reading a member of the message threw
	Oversized        registry.Field // true when the message's text is over MaxMessageText: only its short strings were copied
}

// MaxMessageText is the most text a message may have: the total length (in
// UTF-16 code units, as JavaScript counts a string) of the strings the
// loader extracts from it. A message with more is answered with -32600,
// and of its strings only those of at most KeptText units are copied into
// Go (its id, its method), so that no sender can make the loader copy more.
const (
	MaxMessageText = 1 << 20
	KeptText       = 256
)

// An Extract says where the loader finds one field in a message event and how
// it encodes it. Path starts at {origin, session, payload} (event.origin,
// the sub-channel's name, and the envelope's payload) and goes on through
// members of plain objects only: a step into anything else (an array, null,
// a primitive) gives undefined.
type Extract struct {
	Path []string `json:"path"`
	As   string   `json:"as,omitempty"`
}

// What an Extract's As asks of the loader besides the value itself.
const (
	AsValue      = ""           // the value: its kind, and its content if a string, number, boolean or array of those
	AsNumberJSON = "numberJSON" // JSON.stringify of a number; undefined otherwise
	AsIDJSON     = "idJSON"     // JSON.stringify of a string or number; undefined otherwise
	AsResource   = "resource"   // for a string uri, the ID of the registration that serves it, or 0
	AsParams     = "params"     // for a string uri served by a template, its parameters as JSON text
	AsUnreadable = "unreadable" // whether reading any field before this one threw
	AsOversized  = "oversized"  // whether the text of the fields is over the loader's limit (MaxMessageText)
	AsEntries    = "entries"    // a plain object's own enumerable members as an array: key, value, key, value, ...; undefined otherwise
)

// A messageField is an Extract and where its field is in a Message. The
// table is written with literals and constant offsets only, so that it is
// data in the .wasm rather than code that builds it at start-up (an init of
// 12.5 KB and a closure per field, 2.8 KB brotli in all).
type messageField struct {
	Extract
	off uintptr // unsafe.Offsetof the field in Message
}

const (
	metaVersion      = "io.modelcontextprotocol/protocolVersion"
	metaCapabilities = "io.modelcontextprotocol/clientCapabilities"
)

var messageFields = [...]messageField{
	{Extract{[]string{"origin"}, AsValue}, unsafe.Offsetof(Message{}.Origin)},
	{Extract{[]string{"session"}, AsValue}, unsafe.Offsetof(Message{}.Session)},
	{Extract{[]string{"payload"}, AsValue}, unsafe.Offsetof(Message{}.Payload)},
	{Extract{[]string{"payload", "jsonrpc"}, AsValue}, unsafe.Offsetof(Message{}.JSONRPC)},
	{Extract{[]string{"payload", "id"}, AsValue}, unsafe.Offsetof(Message{}.ID)},
	{Extract{[]string{"payload", "id"}, AsNumberJSON}, unsafe.Offsetof(Message{}.IDJSON)},
	{Extract{[]string{"payload", "method"}, AsValue}, unsafe.Offsetof(Message{}.Method)},
	{Extract{[]string{"payload", "params"}, AsValue}, unsafe.Offsetof(Message{}.Params)},
	{Extract{[]string{"payload", "params", "uri"}, AsValue}, unsafe.Offsetof(Message{}.URI)},
	{Extract{[]string{"payload", "params", "uri"}, AsResource}, unsafe.Offsetof(Message{}.Resource)},
	{Extract{[]string{"payload", "params", "uri"}, AsParams}, unsafe.Offsetof(Message{}.ResourceParams)},
	{Extract{[]string{"payload", "params", "cursor"}, AsValue}, unsafe.Offsetof(Message{}.Cursor)},
	{Extract{[]string{"payload", "params", "protocolVersion"}, AsValue}, unsafe.Offsetof(Message{}.ProtocolVersion)},
	{Extract{[]string{"payload", "params", "_meta", metaVersion}, AsValue}, unsafe.Offsetof(Message{}.MetaVersion)},
	{Extract{[]string{"payload", "params", "_meta", metaCapabilities}, AsValue}, unsafe.Offsetof(Message{}.MetaCapabilities)},
	{Extract{[]string{"payload", "params", "notifications"}, AsValue}, unsafe.Offsetof(Message{}.Notifications)},
	{Extract{[]string{"payload", "params", "notifications", "resourcesListChanged"}, AsValue}, unsafe.Offsetof(Message{}.ListChanged)},
	{Extract{[]string{"payload", "params", "notifications", "resourceSubscriptions"}, AsValue}, unsafe.Offsetof(Message{}.Subscriptions)},
	{Extract{[]string{"payload", "params", "requestId"}, AsIDJSON}, unsafe.Offsetof(Message{}.RequestID)},
	{Extract{[]string{"payload", "params", "ref", "type"}, AsValue}, unsafe.Offsetof(Message{}.RefType)},
	{Extract{[]string{"payload", "params", "ref", "uri"}, AsValue}, unsafe.Offsetof(Message{}.RefURI)},
	{Extract{[]string{"payload", "params", "argument", "name"}, AsValue}, unsafe.Offsetof(Message{}.ArgName)},
	{Extract{[]string{"payload", "params", "argument", "value"}, AsValue}, unsafe.Offsetof(Message{}.ArgValue)},
	{Extract{[]string{"payload", "params", "context", "arguments"}, AsEntries}, unsafe.Offsetof(Message{}.ContextArgs)},
	{Extract{[]string{"payload", "params", "capabilities", "experimental", Changes}, AsValue}, unsafe.Offsetof(Message{}.Changes)},
	{Extract{[]string{"payload", "params", "_meta", Changes}, AsValue}, unsafe.Offsetof(Message{}.MetaChanges)},
	{Extract{[]string{"payload", "result"}, AsValue}, unsafe.Offsetof(Message{}.Result)},
	{Extract{[]string{"payload", "error"}, AsValue}, unsafe.Offsetof(Message{}.Error)},
	{Extract{[]string{}, AsUnreadable}, unsafe.Offsetof(Message{}.Unreadable)},
	{Extract{[]string{}, AsOversized}, unsafe.Offsetof(Message{}.Oversized)},
}

// MessageFields returns how the loader extracts each field of a Message, in
// wire order.
func MessageFields() []Extract {
	out := make([]Extract, len(messageFields))
	for i, f := range messageFields {
		out[i] = f.Extract
	}
	return out
}

// DecodeMessage reads the loader's encoding of a Message into m.
func DecodeMessage(b []byte, m *Message) error {
	var dst [len(messageFields)]*registry.Field
	for i := range messageFields {
		dst[i] = (*registry.Field)(unsafe.Add(unsafe.Pointer(m), messageFields[i].off))
	}
	return registry.DecodeFields(b, dst[:])
}

// OptionFields says where the loader finds serveMCP's options, in wire
// order, starting at {options, origin}: the argument itself (its kind), its
// channel, allowedOrigins, pageSize, maxBytes, sessions and maxSessions, the
// page's origin, then parent.
var OptionFields = []Extract{
	{Path: []string{"options"}}, {Path: []string{"options", "channel"}}, {Path: []string{"options", "allowedOrigins"}},
	{Path: []string{"options", "pageSize"}}, {Path: []string{"options", "maxBytes"}},
	{Path: []string{"options", "sessions"}}, {Path: []string{"options", "maxSessions"}}, {Path: []string{"origin"}},
	{Path: []string{"options", "parent"}},
}

// ParentOptions are the options of the server that answers the parent
// window for a server started with opt (opt.Parent not empty): the iframe
// channel, the parent's origins, one session.
func ParentOptions(opt Options) Options {
	return Options{Channel: ParentChannel, AllowedOrigins: opt.Parent, PageSize: opt.PageSize, MaxBytes: opt.MaxBytes}
}

// exactOrigin says whether s is an origin as a message event's origin
// spells it ("https://example.com", "http://127.0.0.1:8080"): a lower-case
// scheme, "://", and a lower-case host with no path, query or fragment.
func exactOrigin(s string) bool {
	i := 0
	for i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || i > 0 && (s[i] >= '0' && s[i] <= '9' || s[i] == '+' || s[i] == '-' || s[i] == '.')) {
		i++
	}
	if i == 0 || !registry.HasPrefix(s[i:], "://") || len(s) == i+3 {
		return false
	}
	for _, c := range []byte(s[i+3:]) {
		if c <= ' ' || c >= 0x7f || c >= 'A' && c <= 'Z' || c == '/' || c == '?' || c == '#' || c == '\\' || c == '@' {
			return false
		}
	}
	return true
}

// ParseOptions reads serveMCP's options over the defaults. Its error names
// the bad option and what it must be.
func ParseOptions(b []byte) (Options, error) {
	var arg, channel, origins, pageSize, maxBytes, sessions, maxSessions, page, parent registry.Field
	if err := registry.DecodeFields(b, []*registry.Field{&arg, &channel, &origins, &pageSize, &maxBytes, &sessions, &maxSessions, &page, &parent}); err != nil {
		return Options{}, optionError("serveMCP: " + err.Error())
	}
	opt := Options{Channel: DefaultChannel, AllowedOrigins: []string{page.Str}}
	const p = "serveMCP: "
	const originsWant = `"allowedOrigins" must be a non-empty array of origins like "https://example.com", or ["*"]`
	if arg.Kind != registry.KindUndefined && arg.Kind != registry.KindObject {
		return opt, optionError(p + "the options must be an object, got " + arg.Kind.String())
	}
	if channel.Kind != registry.KindUndefined {
		if channel.Kind != registry.KindString || channel.Str == "" {
			return opt, optionError(p + `"channel" must be a non-empty string`)
		}
		opt.Channel = channel.Str
	}
	if origins.Kind != registry.KindUndefined {
		if origins.Kind != registry.KindArray || len(origins.Items) == 0 {
			return opt, optionError(p + originsWant)
		}
		opt.AllowedOrigins = nil
		for _, o := range origins.Items {
			if o.Kind != registry.KindString || o.Str == "" {
				return opt, optionError(p + originsWant)
			}
			opt.AllowedOrigins = append(opt.AllowedOrigins, o.Str)
		}
	}
	if parent.Kind != registry.KindUndefined {
		const parentWant = `"parent" must be a non-empty array of exact origins like "https://example.com" (no path, no trailing slash), or ["*"]`
		if parent.Kind != registry.KindArray || len(parent.Items) == 0 {
			return opt, optionError(p + parentWant)
		}
		for _, o := range parent.Items {
			if o.Kind != registry.KindString || o.Str != "*" && !exactOrigin(o.Str) {
				return opt, optionError(p + parentWant)
			}
			opt.Parent = append(opt.Parent, o.Str)
		}
	}
	if sessions.Kind != registry.KindUndefined {
		if sessions.Kind != registry.KindBoolean {
			return opt, optionError(p + `"sessions" must be true or false`)
		}
		opt.Sessions = sessions.True
	}
	for _, n := range []struct {
		name string
		f    registry.Field
		dst  *int
	}{{"pageSize", pageSize, &opt.PageSize}, {"maxBytes", maxBytes, &opt.MaxBytes}, {"maxSessions", maxSessions, &opt.MaxSessions}} {
		if n.f.Kind == registry.KindUndefined {
			continue
		}
		if n.f.Kind != registry.KindNumber || n.f.Num != math.Floor(n.f.Num) || n.f.Num < 1 || n.f.Num > 1<<31-1 {
			return opt, optionError(p + `"` + n.name + `" must be a whole number of at least 1`)
		}
		*n.dst = int(n.f.Num)
	}
	return opt, nil
}

// optionError is a refused serveMCP option: an error of its own type, since
// errors.New would link the errors package into the module.
type optionError string

func (e optionError) Error() string { return string(e) }
