package mcp

import "github.com/modelcontext-go/modelcontext/wasm/registry"

// A client that follows changes (§11 of the contract) never reads a JSON
// resource again: its updates carry a patch from what it last received, or
// the contents. The server decides who follows and when a value goes with
// an update; the loader, which holds the values, keeps what each session
// last received and makes the patch (AttachTextKept, AttachChanges).

// The capability a server advertises and a client declares (in
// initialize's capabilities.experimental, or subscriptions/listen's _meta),
// and the _meta keys of read results and updates.
const (
	Changes      = "modelcontext/changes"
	MetaRevision = "modelcontext/revision" // the page's revision: every read result and update
	MetaPatch    = "modelcontext/patch"    // an RFC 6902 patch from what the session last received
	MetaContents = "modelcontext/contents" // the contents resources/read would answer
	// SessionMemory is how much text (UTF-16 units) the host keeps per
	// session of what it last received; past it, the oldest uris are dropped.
	SessionMemory = 16 << 20
)

// forget ends a session's following of changes: the host drops what it
// last received.
func (s *Server) forget(ss *session) {
	if ss.changes {
		ss.changes = false
		s.host.Forget(s.id, ss.name)
	}
}

// revisionMeta writes the page's revision as a _meta member.
func (s *Server) revisionMeta(w *writer) *writer {
	return w.key(MetaRevision).int(int(s.host.Revision()))
}

// updated posts an update, for a client that follows changes with v attached.
func (s *Server) updated(ss *session, msg string, changes bool, v registry.Value) {
	if !changes || v == 0 {
		s.post(ss, msg)
		return
	}
	s.host.Post(s.id, ss.name, msg, AttachChanges, 0, s.opt.MaxBytes, v)
}
