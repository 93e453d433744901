//go:build js && wasm

package bridge

import (
	"github.com/modelcontext-go/modelcontext/wasm/abi"
	"github.com/modelcontext-go/modelcontext/wasm/mcp"
	"github.com/modelcontext-go/modelcontext/wasm/registry"
)

// The MCP servers started by serveMCP, oldest first. A server started with
// a parent option has a second server, its parent's, which answers the
// parent window and stops with it. A slice, not a map: a page runs one
// server or a few, and ranging over a map would link the runtime's map
// iteration into the module (testdata/bench/PERFORMANCE.md, "The shipped
// .wasm's size").
var (
	servers    []server
	lastServer int32
)

// server is one of servers.
type server struct {
	s        *mcp.Server
	id       int32
	parent   int32 // the ID of its parent's server, or 0
	isParent bool  // it is another server's parent server
}

// serverOf returns server id, or nil.
func serverOf(id int32) *server {
	for i := range servers {
		if servers[i].id == id {
			return &servers[i]
		}
	}
	return nil
}

// mc_mcp_start starts an MCP server, and its parent's when the options have
// a parent. The buffer holds serveMCP's options (mcp.OptionFields, n
// bytes). It returns the server's ID, or a failure whose kind is a
// TypeError for options it refuses.
//
//go:wasmexport mc_mcp_start
func mcMCPStart(n int32) (id int32) {
	defer recoverEntry("serveMCP", &id)
	opt, err := mcp.ParseOptions(in[:n])
	parentServed := false
	for _, s := range servers {
		if err == nil && !s.isParent {
			err = s.s.Conflict(opt)
		}
		parentServed = parentServed || s.isParent
	}
	msg := ""
	if err != nil {
		msg = err.Error()
	} else if len(opt.Parent) > 0 && parentServed {
		msg = "serveMCP: an MCP server already serves the parent window; stop it first, or list all the parent's origins in one serveMCP"
	}
	if msg != "" {
		return failure(abi.FailTypeError, "modelcontext: "+msg)
	}
	id = startServer(opt, 0)
	if len(opt.Parent) > 0 {
		p := startServer(mcp.ParentOptions(opt), 1)
		serverOf(id).parent = p
	}
	return id
}

// startServer opens the loader's transport of a new server (parent 1: on the
// parent window) and starts the server.
func startServer(opt mcp.Options, parent int32) int32 {
	lastServer++
	hostMCPOpen(lastServer, opt.Channel, joinLines(opt.AllowedOrigins), parent)
	checkFault("mcpOpen")
	servers = append(servers, server{s: mcp.New(lastServer, host, reg, opt), id: lastServer, isParent: parent != 0})
	return lastServer
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
	if s := serverOf(id); s != nil && s.parent != 0 {
		stopServer(s.parent)
	}
	stopServer(id)
	return 0
}

// stopServer stops server id, which announces it, and closes its transport.
func stopServer(id int32) {
	s := serverOf(id)
	if s == nil {
		return
	}
	s.s.Stop()
	// Looked up again: the announcement called out of Go.
	for i := range servers {
		if servers[i].id == id {
			servers = append(servers[:i], servers[i+1:]...)
			break
		}
	}
	hostMCPClose(id)
	checkFault("mcpClose")
}

// mc_mcp_message hands server id a message event: the buffer holds its
// fields (mcp.MessageFields, n bytes).
//
//go:wasmexport mc_mcp_message
func mcMCPMessage(id, n, sameWindow int32) (code int32) {
	defer recoverEntry("the MCP server", &code)
	if s := serverOf(id); s != nil {
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
		s.s.Handle(m, sameWindow != 0)
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
	if s := serverOf(id); s != nil {
		s.s.ReadDone(req, mcp.Content(kind), registry.Value(v), int(length), string(in[:errLen]))
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
	if s := serverOf(id); s != nil {
		var f registry.Field
		if err := registry.DecodeFields(in[:n], []*registry.Field{&f}); err != nil {
			panic(err)
		}
		s.s.CompleteDone(req, f, failed != 0, f.Str)
	}
	return 0
}
