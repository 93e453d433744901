//go:build js && wasm

package bridge

import (
	"github.com/modelcontext-go/modelcontext/wasm/abi"
	"github.com/modelcontext-go/modelcontext/wasm/mcp"
	"github.com/modelcontext-go/modelcontext/wasm/registry"
)

// The MCP servers started by serveMCP, by ID. A server started with a
// parent option has a second server, its parent's, which answers the parent
// window and stops with it; parents maps the first's ID to the second's.
var (
	servers    = map[int32]*mcp.Server{}
	parents    = map[int32]int32{}
	lastServer int32
)

// mc_mcp_start starts an MCP server, and its parent's when the options have
// a parent. The buffer holds serveMCP's options (mcp.OptionFields, n
// bytes). It returns the server's ID, or a failure whose kind is a
// TypeError for options it refuses.
//
//go:wasmexport mc_mcp_start
func mcMCPStart(n int32) (id int32) {
	defer recoverEntry("serveMCP", &id)
	opt, err := mcp.ParseOptions(in[:n])
	for sid, s := range servers {
		if err == nil && !isParent(sid) {
			err = s.Conflict(opt)
		}
	}
	msg := ""
	if err != nil {
		msg = err.Error()
	} else if len(opt.Parent) > 0 && len(parents) > 0 {
		msg = "serveMCP: an MCP server already serves the parent window; stop it first, or list all the parent's origins in one serveMCP"
	}
	if msg != "" {
		return failure(abi.FailTypeError, "modelcontext: "+msg)
	}
	id = startServer(opt, 0)
	if len(opt.Parent) > 0 {
		parents[id] = startServer(mcp.ParentOptions(opt), 1)
	}
	return id
}

// startServer opens the loader's transport of a new server (parent 1: on the
// parent window) and starts the server.
func startServer(opt mcp.Options, parent int32) int32 {
	lastServer++
	hostMCPOpen(lastServer, opt.Channel, joinLines(opt.AllowedOrigins), parent)
	checkFault("mcpOpen")
	servers[lastServer] = mcp.New(lastServer, host, reg, opt)
	return lastServer
}

// isParent says whether server id is another's parent server.
func isParent(id int32) bool {
	for _, p := range parents {
		if p == id {
			return true
		}
	}
	return false
}

// joinLines joins the allowed origins for the loader's mcpOpen, one a line:
// the loader drops a message from any other origin before reading it.
func joinLines(l []string) string {
	n := 0
	for _, s := range l {
		n += len(s) + 1
	}
	b := make([]byte, 0, n)
	for i, s := range l {
		if i > 0 {
			b = append(b, '\n')
		}
		b = append(b, s...)
	}
	return string(b)
}

// mc_mcp_stop stops server id, and its parent's server.
//
//go:wasmexport mc_mcp_stop
func mcMCPStop(id int32) (code int32) {
	defer recoverEntry("stop", &code)
	if p, ok := parents[id]; ok {
		delete(parents, id)
		stopServer(p)
	}
	stopServer(id)
	return 0
}

// stopServer stops server id, which announces it, and closes its transport.
func stopServer(id int32) {
	if s := servers[id]; s != nil {
		s.Stop()
		delete(servers, id)
		hostMCPClose(id)
		checkFault("mcpClose")
	}
}

// mc_mcp_message hands server id a message event: the buffer holds its
// fields (mcp.MessageFields, n bytes).
//
//go:wasmexport mc_mcp_message
func mcMCPMessage(id, n, sameWindow int32) (code int32) {
	defer recoverEntry("the MCP server", &code)
	if s := servers[id]; s != nil {
		// A Message is 1.4 KB: reused rather than allocated per message.
		// A message handled inside another (a getter that dispatches a
		// message event) finds it taken and gets one of its own.
		m := spareMessage
		spareMessage = nil
		if m == nil {
			m = new(mcp.Message)
		}
		if err := mcp.DecodeMessage(in[:n], m); err != nil {
			panic(err)
		}
		s.Handle(m, sameWindow != 0)
		spareMessage = m
	}
	return 0
}

// spareMessage is mc_mcp_message's Message while no message is being handled.
var spareMessage *mcp.Message

// mc_mcp_read_done finishes a read with the content the loader prepared
// (mcp.Content); for a failure the buffer holds the error's message (errLen
// bytes).
//
//go:wasmexport mc_mcp_read_done
func mcMCPReadDone(id, req, kind, v, length, errLen int32) (code int32) {
	defer recoverEntry("the MCP server", &code)
	if s := servers[id]; s != nil {
		s.ReadDone(req, mcp.Content(kind), registry.Value(v), int(length), string(in[:errLen]))
	} else {
		host.Release(registry.Value(v))
	}
	return 0
}

// mc_mcp_complete_done finishes a completion: the buffer holds one field (n
// bytes), what the completer gave, or, when failed is not 0, the message of
// its failure as a string.
//
//go:wasmexport mc_mcp_complete_done
func mcMCPCompleteDone(id, req, failed, n int32) (code int32) {
	defer recoverEntry("the MCP server", &code)
	if s := servers[id]; s != nil {
		var f registry.Field
		if err := registry.DecodeFields(in[:n], []*registry.Field{&f}); err != nil {
			panic(err)
		}
		s.CompleteDone(req, f, failed != 0, f.Str)
	}
	return 0
}
