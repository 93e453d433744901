package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontext-go/modelcontext/wasm/abi"
	"github.com/modelcontext-go/modelcontext/wasm/mcp"
	"github.com/modelcontext-go/modelcontext/wasm/registry"
)

// constant is one value the loader receives from Go.
type constant struct {
	name  string
	value any // a number, a string, or a JSON-encodable table
	doc   string
	// inline: esbuild writes the value where the loader names the
	// constant (its define), rather than declaring it once: a message's
	// phrase, which the minifier joins with the strings beside it, so
	// that the message costs the classic script no name.
	inline bool
}

// constants returns every constant the loader receives from Go, in the
// order the loader declares them.
func constants() []constant {
	var c []constant
	add := func(name string, v any, doc string) { c = append(c, constant{name: name, value: v, doc: doc}) }
	for k, name := range registry.Kinds() {
		add("K_"+strings.ToUpper(name), k, "")
	}
	add("KIND_NAMES", registry.Kinds(), "what messages call each kind")
	add("REGISTRATION_FIELDS", registry.RegistrationFields, "the fields of a registration mc_register reads, in order (registry.RegistrationFields)")
	add("FRAME_ID_BASE", abi.FrameIDBase, "the first registration ID of a connected frame's resources, listed after the page's own (abi.FrameIDBase)")
	add("DEFAULT_MIME_TYPE", registry.DefaultMIMEType, "the mimeType of a registration that gives none (registry.DefaultMIMEType)")
	for _, m := range registry.Messages() {
		c = append(c, constant{name: m.Name, value: m.Text, inline: true}) // registerResource's wording (registry.Messages)
	}
	add("MESSAGE_FIELDS", mcp.MessageFields(), "where the fields of an MCP message are, in order (mcp.MessageFields)")
	add("OPTION_FIELDS", mcp.OptionFields, "where serveMCP's options are, in order (mcp.OptionFields)")
	add("DEFAULT_CHANNEL", mcp.DefaultChannel, "the MCP server's channel when its options name none (mcp.DefaultChannel)")
	add("PARENT_CHANNEL", mcp.ParentChannel, "the channel on which serveMCP's parent option answers the parent window (mcp.ParentChannel)")
	add("MCP_SERVER_READY", mcp.ServerReady, "the payload that announces an MCP server on its channel (mcp.ServerReady)")
	add("MCP_SERVER_STOPPED", mcp.ServerStopped, "the payload that says an MCP server stopped (mcp.ServerStopped)")
	add("MCP_CHECK_READY", mcp.CheckReady, "the client's half of the handshake, which a serving page answers with MCP_SERVER_READY (mcp.CheckReady)")
	add("MCP_PROTOCOL_2025_11_25", mcp.ProtocolVersion20251125, "the protocol revision connectFrame's client asks a frame for (mcp.ProtocolVersion20251125)")
	for _, a := range []struct {
		name string
		v    any
	}{
		{"RESULT_SAME", registry.ResultSame}, {"RESULT_DIFFERENT", registry.ResultDifferent},
		{"RESULT_NO_KEY", registry.ResultNoKey}, {"RESULT_THREW", registry.ResultThrew},
		{"DISPATCHED", registry.Dispatched}, {"DELIVERED", registry.Delivered}, {"SUPPRESSED", registry.Suppressed},
		{"FAIL_TYPE_ERROR", abi.FailTypeError},
		{"ATTACH_NONE", mcp.AttachNone}, {"ATTACH_RESOURCES", mcp.AttachResources}, {"ATTACH_TEMPLATES", mcp.AttachTemplates},
		{"ATTACH_TEXT", mcp.AttachText}, {"ATTACH_BLOB", mcp.AttachBlob}, {"ATTACH_TEXT_KEPT", mcp.AttachTextKept}, {"ATTACH_CHANGES", mcp.AttachChanges},
		{"META_REVISION", mcp.MetaRevision}, {"META_PATCH", mcp.MetaPatch}, {"META_CONTENTS", mcp.MetaContents}, {"SESSION_MEMORY", mcp.SessionMemory},
		{"CONTENT_FAILED", mcp.ContentFailed}, {"CONTENT_TEXT", mcp.ContentText}, {"CONTENT_BLOB", mcp.ContentBlob},
		{"AS_VALUE", mcp.AsValue}, {"AS_NUMBER_JSON", mcp.AsNumberJSON}, {"AS_ID_JSON", mcp.AsIDJSON},
		{"AS_RESOURCE", mcp.AsResource}, {"AS_PARAMS", mcp.AsParams}, {"AS_UNREADABLE", mcp.AsUnreadable},
		{"AS_OVERSIZED", mcp.AsOversized}, {"AS_ENTRIES", mcp.AsEntries}, {"MAX_MESSAGE_TEXT", mcp.MaxMessageText}, {"KEPT_TEXT", mcp.KeptText},
	} {
		add(a.name, a.v, "")
	}
	return c
}

// constantsJS renders the constants as JavaScript declarations.
func constantsJS() string {
	return constantsOf(func(string) bool { return true })
}

// constantsOf renders the constants that keep says to keep.
func constantsOf(keep func(name string) bool) string {
	var b strings.Builder
	b.WriteString("// The constants the loader shares with Go, generated from Go by wasm/cmd/jsbuild.\n")
	for _, c := range constants() {
		if !keep(c.name) {
			continue
		}
		v := jsonOf(c)
		if c.doc != "" {
			fmt.Fprintf(&b, "// %s\n", c.doc)
		}
		fmt.Fprintf(&b, "const %s = %s;\n", c.name, v)
	}
	return b.String()
}

// constantsModule renders the constants but the inline ones as the
// exports of the module that esbuild injects where the loader names them.
func constantsModule() string {
	inline := inlined()
	var b strings.Builder
	for line := range strings.SplitSeq(constantsOf(func(name string) bool { return inline[name] == "" }), "\n") {
		if strings.HasPrefix(line, "const ") {
			b.WriteString("export " + line + "\n")
		}
	}
	return b.String()
}

// inlined returns the inline constants' values as JSON by name: what
// esbuild defines.
func inlined() map[string]string {
	out := map[string]string{}
	for _, c := range constants() {
		if c.inline {
			out[c.name] = jsonOf(c)
		}
	}
	return out
}

// jsonOf is c's value as JSON, which JavaScript reads as a literal; "=>"
// stays as written, unescaped.
func jsonOf(c constant) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(c.value); err != nil {
		panic("jsbuild: " + c.name + ": " + err.Error())
	}
	return strings.TrimSuffix(b.String(), "\n")
}
