package mcp

import (
	"math"

	"github.com/modelcontext-go/modelcontext/wasm/registry"
)

// Message is what the server reads of one client payload. The loader
// extracts these fields from the structured-clone payload of the message
// event (js/loader.js, mcpFields) and encodes them like a descriptor (see
// registry.DecodeDescriptor), in this order. IDJSON is JSON.stringify of a
// number id, so that it is echoed exactly; a listen stream's id is kept as
// JSON text too, to compare with RequestID.
type Message struct {
	Payload          registry.Field // the payload itself: its kind, and its text if a string
	JSONRPC          registry.Field
	ID               registry.Field
	IDJSON           registry.Field
	Method           registry.Field
	Params           registry.Field // kind only
	URI              registry.Field // params.uri
	Cursor           registry.Field // params.cursor
	ProtocolVersion  registry.Field // params.protocolVersion (initialize)
	MetaVersion      registry.Field // params._meta["io.modelcontextprotocol/protocolVersion"]
	MetaCapabilities registry.Field // params._meta["io.modelcontextprotocol/clientCapabilities"], kind only
	Notifications    registry.Field // params.notifications, kind only
	ListChanged      registry.Field // params.notifications.resourcesListChanged
	Subscriptions    registry.Field // params.notifications.resourceSubscriptions
	RequestID        registry.Field // JSON.stringify of a string or number params.requestId
	Result           registry.Field // kind only
	Error            registry.Field // kind only
	Session          registry.Field // the sub-channel's name, for "<channel>/<name>"; undefined on the channel itself
}

// DecodeMessage reads the loader's encoding of a Message into m.
func DecodeMessage(b []byte, m *Message) error {
	dst := [...]*registry.Field{&m.Payload, &m.JSONRPC, &m.ID, &m.IDJSON, &m.Method, &m.Params, &m.URI,
		&m.Cursor, &m.ProtocolVersion, &m.MetaVersion, &m.MetaCapabilities, &m.Notifications,
		&m.ListChanged, &m.Subscriptions, &m.RequestID, &m.Result, &m.Error, &m.Session}
	return registry.DecodeFields(b, dst[:])
}

// ParseOptions reads serveMCP's options (the loader encodes its argument's
// kind, channel, allowedOrigins, pageSize and maxBytes, the page's origin,
// then sessions and maxSessions) over the defaults. It returns a message
// naming the bad option.
func ParseOptions(b []byte) (Options, string) {
	var arg, channel, origins, pageSize, maxBytes, page, sessions, maxSessions registry.Field
	if err := registry.DecodeFields(b, []*registry.Field{&arg, &channel, &origins, &pageSize, &maxBytes, &page, &sessions, &maxSessions}); err != nil {
		return Options{}, "serveMCP: " + err.Error()
	}
	opt := Options{Channel: "mcp-default", AllowedOrigins: []string{page.Str}}
	const p = "serveMCP: "
	const originsWant = `"allowedOrigins" must be a non-empty array of origins like "https://example.com", or ["*"]`
	if arg.Kind != registry.KindUndefined && arg.Kind != registry.KindObject {
		return opt, p + "the options must be an object, got " + arg.Kind.String()
	}
	if channel.Kind != registry.KindUndefined {
		if channel.Kind != registry.KindString || channel.Str == "" {
			return opt, p + `"channel" must be a non-empty string`
		}
		opt.Channel = channel.Str
	}
	if origins.Kind != registry.KindUndefined {
		if origins.Kind != registry.KindArray || len(origins.Items) == 0 {
			return opt, p + originsWant
		}
		opt.AllowedOrigins = nil
		for _, o := range origins.Items {
			if o.Kind != registry.KindString || o.Str == "" {
				return opt, p + originsWant
			}
			opt.AllowedOrigins = append(opt.AllowedOrigins, o.Str)
		}
	}
	if sessions.Kind != registry.KindUndefined {
		if sessions.Kind != registry.KindBoolean {
			return opt, p + `"sessions" must be true or false`
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
			return opt, p + `"` + n.name + `" must be a whole number of at least 1`
		}
		*n.dst = int(n.f.Num)
	}
	return opt, ""
}
