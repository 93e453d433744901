package mcp

import "github.com/modelcontext-go/modelcontext/wasm/registry"

// Completion (completion/complete, both revisions): the values a client
// offers for a variable of a resource template as it is typed. The page's
// completer runs in JavaScript (Host.Complete); the server checks the
// request and the completer's answer, and cuts it to MaxCompletionValues.

// MaxCompletionValues is the most values a completion answers (MCP's limit);
// hasMore says when the completer gave more.
const MaxCompletionValues = 100

type completion struct {
	sess     *session
	rpcID    string
	modern   bool
	template string
	variable string
}

// complete answers completion/complete for ref/resource: it asks the host
// for the completer's values, and CompleteDone answers.
func (s *Server) complete(ss *session, id string, m *Message, modern bool) {
	bad := func(msg string) { s.fail(ss, id, modern, codeInvalidParams, "Invalid params: "+msg, "") }
	switch {
	case m.RefType.Kind != registry.KindString:
		bad(`"ref" must be {"type": "ref/resource", "uri": <a uriTemplate from resources/templates/list>}`)
		return
	case m.RefType.Str != "ref/resource":
		bad(`this server completes "ref/resource" only (resource template variables), not ` + quoteJSON(m.RefType.Str))
		return
	case m.RefURI.Kind != registry.KindString:
		bad(`"ref.uri" must be a uriTemplate from resources/templates/list`)
		return
	case m.ArgName.Kind != registry.KindString || m.ArgValue.Kind != registry.KindString:
		bad(`"argument" must be {"name": string, "value": string}`)
		return
	}
	rid := s.reg.TemplateID(m.RefURI.Str)
	if rid == 0 {
		bad("no resource template " + quoteJSON(m.RefURI.Str) + " (resources/templates/list lists them)")
		return
	}
	args, ok := argumentsJSON(m.ContextArgs)
	if !ok {
		bad(`"context.arguments" must map variable names to strings`)
		return
	}
	s.lastComplete++
	if s.lastComplete == 0 {
		s.lastComplete++
	}
	req := s.lastComplete
	s.completions[req] = completion{sess: ss, rpcID: id, modern: modern, template: m.RefURI.Str, variable: m.ArgName.Str}
	s.host.Complete(s.id, req, rid, m.ArgName.Str, m.ArgValue.Str, args)
}

// argumentsJSON renders context.arguments (as entries: name, value, ...) as
// a JSON object, "{}" when absent; ok is false when a value is not a string.
func argumentsJSON(f registry.Field) (string, bool) {
	if f.Kind != registry.KindArray {
		return "{}", f.Kind == registry.KindUndefined
	}
	w := &writer{}
	w.raw("{")
	for i := 0; i+1 < len(f.Items); i += 2 {
		k, v := f.Items[i], f.Items[i+1]
		if k.Kind != registry.KindString || v.Kind != registry.KindString {
			return "", false
		}
		w.key(k.Str).str(v.Str)
	}
	return w.raw("}").String(), true
}

// CompleteDone answers completion req with what the completer gave: values,
// which must be an array of strings, or, when failed, the message of what
// it threw (or why it gave nothing).
func (s *Server) CompleteDone(req int32, values registry.Field, failed bool, errMsg string) {
	c, ok := s.completions[req]
	delete(s.completions, req)
	if !ok || c.sess.ended { // the server stopped or the session closed meanwhile
		return
	}
	what := "completing " + quoteJSON(c.variable) + " of " + quoteJSON(c.template) + " failed: "
	if failed {
		s.fail(c.sess, c.rpcID, c.modern, codeInternal, what+errMsg, "")
		return
	}
	if !stringArray(values) {
		s.fail(c.sess, c.rpcID, c.modern, codeInternal, what+"the completer must return an array of strings (or a Promise of one), got "+kindOf(values), "")
		return
	}
	n := min(len(values.Items), MaxCompletionValues)
	w := s.begin(c.rpcID).raw(`{"completion":{"values":[`)
	for i, v := range values.Items[:n] {
		if i > 0 {
			w.raw(",")
		}
		w.str(v.Str)
	}
	w.raw(`],"total":`).int(len(values.Items)).raw(`,"hasMore":`)
	if n < len(values.Items) {
		w.raw("true}")
	} else {
		w.raw("false}")
	}
	s.finish(c.sess, c.modern, "", false, AttachNone, 0, 0, 0)
}

// kindOf names what a completer returned that is not an array of strings.
func kindOf(f registry.Field) string {
	if f.Kind == registry.KindArray {
		return "an array with an item that is not a string"
	}
	return f.Kind.String()
}

func quoteJSON(s string) string { return (&writer{}).str(s).String() }
