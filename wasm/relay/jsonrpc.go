package relay

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// The relay passes JSON-RPC messages through as they are: it reads a few
// fields of each (its id, method, uri) to keep track of what a client asked
// for, never re-encodes one it forwards, and writes only its own messages
// (errors it answers itself, requests that re-establish a session after a
// reload, and the notifications that tell the client about it).

// idKey is a request id in a canonical form, so that an id the client wrote
// as 1.0 matches the 1 the page echoes: "s" and the string, or "n" and the
// number; "" for no id (or one that is neither).
type idKey string

func keyOf(raw json.RawMessage) idKey {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	switch raw[0] {
	case '"':
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return idKey("s" + s)
		}
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		if f, err := strconv.ParseFloat(string(raw), 64); err == nil {
			return idKey("n" + strconv.FormatFloat(f, 'g', -1, 64))
		}
	}
	return ""
}

// present records whether a member exists without copying its value.
type present bool

func (p *present) UnmarshalJSON([]byte) error { *p = true; return nil }

// message is what the relay reads of one JSON-RPC message.
type message struct {
	raw    []byte
	batch  bool            // a JSON array: passed through, not tracked
	id     json.RawMessage // nil when absent
	key    idKey
	method string
	result present
	error  present

	uri       string // params.uri
	requestID idKey  // params.requestId (notifications/cancelled)
	version   string // params._meta["io.modelcontextprotocol/protocolVersion"]: a 2026-07-28 request
	subID     idKey  // params._meta["io.modelcontextprotocol/subscriptionId"]
	listURIs  []string
	listLists bool // subscriptions/listen: resourcesListChanged
}

func (m *message) isRequest() bool      { return m.method != "" && m.id != nil }
func (m *message) isNotification() bool { return m.method != "" && m.id == nil }
func (m *message) isResponse() bool {
	return m.method == "" && m.id != nil && bool(m.result || m.error)
}

// parse reads raw, which must be valid JSON. Members of an unexpected type
// are left empty: the page answers such a message as it sees fit.
func parse(raw []byte) *message {
	m := &message{raw: raw}
	t := bytes.TrimLeft(raw, " \t\r\n")
	if len(t) > 0 && t[0] == '[' {
		m.batch = true
		return m
	}
	var top struct {
		ID     json.RawMessage `json:"id"`
		Method json.RawMessage `json:"method"`
		Result present         `json:"result"`
		Error  present         `json:"error"`
		Params json.RawMessage `json:"params"`
	}
	if json.Unmarshal(raw, &top) != nil {
		return m
	}
	if len(top.ID) > 0 && !bytes.Equal(top.ID, []byte("null")) {
		m.id = top.ID
		m.key = keyOf(top.ID)
	} else if len(top.ID) > 0 {
		m.id = top.ID // id: null, kept so that an answer can echo it
	}
	json.Unmarshal(top.Method, &m.method)
	m.result, m.error = top.Result, top.Error
	if len(top.Params) == 0 {
		return m
	}
	var params struct {
		URI           json.RawMessage `json:"uri"`
		RequestID     json.RawMessage `json:"requestId"`
		Meta          json.RawMessage `json:"_meta"`
		Notifications json.RawMessage `json:"notifications"`
	}
	if json.Unmarshal(top.Params, &params) != nil {
		return m
	}
	json.Unmarshal(params.URI, &m.uri)
	m.requestID = keyOf(params.RequestID)
	if len(params.Meta) > 0 {
		var meta struct {
			Version json.RawMessage `json:"io.modelcontextprotocol/protocolVersion"`
			SubID   json.RawMessage `json:"io.modelcontextprotocol/subscriptionId"`
		}
		if json.Unmarshal(params.Meta, &meta) == nil {
			if len(meta.Version) > 0 {
				m.version = string(meta.Version) // any value marks the request as 2026-07-28-style; the page judges it
			}
			m.subID = keyOf(meta.SubID)
		}
	}
	if m.method == "subscriptions/listen" && len(params.Notifications) > 0 {
		var n struct {
			ListChanged bool     `json:"resourcesListChanged"`
			URIs        []string `json:"resourceSubscriptions"`
		}
		if json.Unmarshal(params.Notifications, &n) == nil {
			m.listURIs, m.listLists = n.URIs, n.ListChanged
		}
	}
	return m
}

// JSON-RPC error codes the relay answers with.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
	codeInternal       = -32603
)

// errorResponse is a JSON-RPC error answering id (raw JSON; nil for null).
func errorResponse(id json.RawMessage, code int, msg string) []byte {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{code, msg}})
	return b
}

// notification is a JSON-RPC notification the relay writes itself.
func notification(method string, params any) []byte {
	b, _ := json.Marshal(struct {
		JSONRPC string `json:"jsonrpc"`
		Method  string `json:"method"`
		Params  any    `json:"params,omitempty"`
	}{"2.0", method, params})
	return b
}

// withID returns the request raw with its id replaced by id (raw JSON).
func withID(raw []byte, id string) []byte {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	m["id"] = json.RawMessage(strconv.Quote(id))
	b, _ := json.Marshal(m)
	return b
}
