//go:build js && wasm

package bridge

import (
	"unsafe"

	"github.com/modelcontext-go/modelcontext/wasm/mcp"
	"github.com/modelcontext-go/modelcontext/wasm/registry"
)

// The MCP servers started by serveMCP, by ID.
var (
	servers    = map[int32]*mcp.Server{}
	lastServer int32
)

// mcpHost implements mcp.Host with the loader's host functions.
type mcpHost struct{}

func (mcpHost) Post(server int32, session, msg string, attach mcp.Attachment, ids []registry.ID, v registry.Value) {
	hostMCPPost(server, session, msg, int32(attach), unsafe.Pointer(unsafe.SliceData(ids)), int32(len(ids)), int32(v))
}

func (mcpHost) Read(server, req int32, id registry.ID, params string, class mcp.MIMEClass) {
	hostMCPRead(server, req, int32(id), params, int32(class))
}

func (mcpHost) Release(v registry.Value) { host.Release(v) }

// mc_mcp_start starts an MCP server. The buffer holds serveMCP's options as
// JSON text (optLen bytes) followed by the page's origin. It returns the
// server's ID, or 0 after handing the loader the TypeError's message.
//
//go:wasmexport mc_mcp_start
func mcMCPStart(n int32) (id int32) {
	defer recoverEntry("serveMCP", &id)
	opt, msg := mcp.ParseOptions(in[:n])
	for _, s := range servers {
		if msg == "" {
			msg = s.Conflict(opt)
		}
	}
	if msg != "" {
		host.fail("modelcontext: " + msg)
		return 0
	}
	lastServer++
	hostMCPOpen(lastServer, opt.Channel)
	servers[lastServer] = mcp.New(lastServer, mcpHost{}, reg, opt)
	return lastServer
}

//go:wasmexport mc_mcp_stop
func mcMCPStop(id int32) (code int32) {
	defer recoverEntry("stop", &code)
	if s := servers[id]; s != nil {
		s.Stop()
		delete(servers, id)
		hostMCPClose(id)
	}
	return 0
}

// mc_mcp_message hands server id a message event: the buffer holds the
// event's origin (originLen bytes) and its payload as JSON text.
//
//go:wasmexport mc_mcp_message
func mcMCPMessage(id, originLen, payloadLen, sameWindow int32) (code int32) {
	defer recoverEntry("the MCP server", &code)
	if s := servers[id]; s != nil {
		var m mcp.Message
		if err := mcp.DecodeMessage(in[originLen:originLen+payloadLen], &m); err != nil {
			panic(err)
		}
		s.Handle(string(in[:originLen]), sameWindow != 0, &m)
	}
	return 0
}

// mc_mcp_read_done finishes a read; for a failure the buffer holds the
// error's message (errLen bytes).
//
//go:wasmexport mc_mcp_read_done
func mcMCPReadDone(id, req, kind, v, size, utf8, errLen int32) (code int32) {
	defer recoverEntry("the MCP server", &code)
	if s := servers[id]; s != nil {
		s.ReadDone(req, mcp.ValueKind(kind), registry.Value(v), int(size), utf8 != 0, string(in[:errLen]))
	} else {
		host.Release(registry.Value(v))
	}
	return 0
}
