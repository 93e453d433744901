package e2e

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// wasm/CONTRACT.md §6, revision 2026-07-28, chosen per request by
// _meta["io.modelcontextprotocol/protocolVersion"]: no handshake,
// server/discover, subscriptions/listen, resultType, ttlMs / cacheScope,
// serverInfo in result _meta. The pinned SDK (1.32.2, latest protocol
// 2025-11-25) cannot speak it, so these tests send raw JSON-RPC through the
// stock TabClientTransport (which still validates every message it receives
// with @modelcontextprotocol/core's JSONRPCMessageSchema) and check results
// against core 2.0.0's schemas for the new shapes plus the fields those
// schemas leave loose.

const (
	sidKey        = "io.modelcontextprotocol/subscriptionId"
	serverInfoKey = "io.modelcontextprotocol/serverInfo"
)

// rpcReply is what session.request returns.
type rpcReply struct {
	ID      any            `json:"id"`
	Timeout bool           `json:"timeout"`
	Result  map[string]any `json:"result"`
	Error   *struct {
		Code    float64 `json:"code"`
		Message string  `json:"message"`
		Data    any     `json:"data"`
	} `json:"error"`
}

const mcpModernJS = `F.resource({uri: 'test://text', name: 'text', mimeType: 'text/plain', value: 'hello'});
for (let i = 0; i < 55; i++) F.resource({uri: 'test://n/' + i, name: 'n' + i, value: i});
F.template({uriTemplate: 'app://orders/{id}', name: 'order', get: (p) => ({id: p.id})});
const s = await T.session();
const o = {modern: true};
const r = {};
r.discover = await s.request('server/discover', {}, o);
r.discoverNoParams = await s.request('server/discover', undefined, {id: 'no-params'});
r.list = await s.request('resources/list', {}, o);
r.list2 = r.list.result && r.list.result.nextCursor !== undefined
  ? await s.request('resources/list', {cursor: r.list.result.nextCursor}, o) : null;
r.badCursor = await s.request('resources/list', {cursor: 'no-such-cursor'}, o);
r.templates = await s.request('resources/templates/list', {}, o);
r.read = await s.request('resources/read', {uri: 'test://text'}, o);
r.readTemplate = await s.request('resources/read', {uri: 'app://orders/7'}, o);
r.unknown = await s.request('resources/read', {uri: 'test://nope'}, o);
r.badVersion = await s.request('resources/list', {}, {modern: true, version: '1900-01-01'});
r.unknownMethod = await s.request('no/such/method', {}, o);
const v = (name, x) => x && x.result ? T.validate(name, x.result) : 'no result';
r.validation = {
  discover: v('core.DiscoverResultSchema', r.discover),
  list: v('core.ListResourcesResultSchema', r.list),
  templates: v('core.ListResourceTemplatesResultSchema', r.templates),
  read: v('core.ReadResourceResultSchema', r.read),
};
for (const k of Object.keys(r)) if (r[k] && r[k].response) delete r[k].response;
r.transportErrors = s.errors;
return r;`

// TestMCPRevision20260728 checks discover, list, templates and read in the
// 2026-07-28 revision, with no initialize before them.
func TestMCPRevision20260728(t *testing.T) {
	p := openMCP(t, "/mcp.html")
	var got struct {
		Discover, DiscoverNoParams, List, List2, BadCursor, Templates, Read, ReadTemplate, Unknown, BadVersion, UnknownMethod rpcReply
		Validation                                                                                                            map[string]any
		TransportErrors                                                                                                       []string
	}
	p.run(mcpModernJS, &got)
	fail := func(format string, args ...any) { t.Helper(); t.Errorf(format, args...) }

	for name, issues := range got.Validation {
		if issues != nil {
			fail("%s result does not fit @modelcontextprotocol/core's schema: %v", name, issues)
		}
	}
	if len(got.TransportErrors) > 0 {
		fail("the stock transport rejected messages from the server: %v", got.TransportErrors)
	}

	// checkEnvelope: resultType, serverInfo in _meta, and (for cacheable
	// results) ttlMs and cacheScope.
	checkEnvelope := func(what string, r rpcReply, cacheable bool) {
		t.Helper()
		if r.Error != nil || r.Result == nil {
			fail("%s: want a result, got error %+v (timeout %v)", what, r.Error, r.Timeout)
			return
		}
		if r.Result["resultType"] != "complete" {
			fail("%s: resultType = %#v, want \"complete\"", what, r.Result["resultType"])
		}
		meta, _ := r.Result["_meta"].(map[string]any)
		info, _ := meta[serverInfoKey].(map[string]any)
		if name, _ := info["name"].(string); name == "" {
			fail("%s: _meta[%q] = %#v, want an Implementation {name, version}", what, serverInfoKey, meta[serverInfoKey])
		} else if _, ok := info["version"].(string); !ok {
			fail("%s: _meta[%q] has no version: %#v", what, serverInfoKey, info)
		}
		if !cacheable {
			return
		}
		if ttl, ok := r.Result["ttlMs"].(float64); !ok || ttl < 0 {
			fail("%s: ttlMs = %#v, want a number >= 0", what, r.Result["ttlMs"])
		}
		if cs := r.Result["cacheScope"]; cs != "public" && cs != "private" {
			fail("%s: cacheScope = %#v, want \"public\" or \"private\"", what, cs)
		}
	}

	checkEnvelope("server/discover", got.Discover, true)
	if d := got.Discover.Result; d != nil {
		versions, _ := d["supportedVersions"].([]any)
		if !slices.Contains(versions, any("2026-07-28")) {
			fail("server/discover: supportedVersions = %v, want it to contain 2026-07-28", versions)
		}
		caps, _ := d["capabilities"].(map[string]any)
		res, _ := caps["resources"].(map[string]any)
		if res["subscribe"] != true || res["listChanged"] != true {
			fail("server/discover: capabilities.resources = %#v, want subscribe and listChanged true", caps["resources"])
		}
	}
	// server/discover without _meta is a 2025-11-25 request, where the
	// method does not exist (-32601); a result or -32602 is fine too.
	if r := got.DiscoverNoParams; r.Result == nil && (r.Error == nil || (r.Error.Code != -32601 && r.Error.Code != -32602)) {
		fail("server/discover without params: got %+v (timeout %v), want a result or a -32601/-32602 error", r.Error, r.Timeout)
	}

	checkEnvelope("resources/list", got.List, true)
	if l := got.List.Result; l != nil {
		if n := len(asSlice(l["resources"])); n != 50 {
			fail("resources/list: %d resources on the first page, want 50", n)
		}
		if _, ok := l["nextCursor"].(string); !ok {
			fail("resources/list: nextCursor = %#v, want a string (57 resources, pages of 50)", l["nextCursor"])
		}
	}
	checkEnvelope("resources/list (second page)", got.List2, true)
	if l := got.List2.Result; l != nil {
		if n := len(asSlice(l["resources"])); n != 6 {
			fail("resources/list second page: %d resources, want 6", n)
		}
		if _, ok := l["nextCursor"]; ok {
			fail("resources/list second page: nextCursor %#v on the last page", l["nextCursor"])
		}
	}
	expectError(t, "resources/list with an unknown cursor", got.BadCursor, -32602)

	checkEnvelope("resources/templates/list", got.Templates, true)
	if l := got.Templates.Result; l != nil {
		want := []any{map[string]any{"uriTemplate": "app://orders/{id}", "name": "order", "mimeType": "application/json"}}
		if ts := pickAll(asSlice(l["resourceTemplates"]), "uriTemplate", "name", "mimeType"); !reflect.DeepEqual(ts, want) {
			fail("resources/templates/list: %v, want %v", ts, want)
		}
	}

	checkEnvelope("resources/read", got.Read, true)
	if r := got.Read.Result; r != nil {
		if r["ttlMs"] != float64(0) {
			fail("resources/read: ttlMs = %#v, want 0 (a live resource is stale at once)", r["ttlMs"])
		}
		want := []any{map[string]any{"uri": "test://text", "mimeType": "text/plain", "text": "hello"}}
		if c := pickAll(asSlice(r["contents"]), "uri", "mimeType", "text", "blob"); !reflect.DeepEqual(c, want) {
			fail("resources/read: contents %v, want %v", c, want)
		}
	}
	checkEnvelope("resources/read through a template", got.ReadTemplate, true)
	if r := got.ReadTemplate.Result; r != nil {
		want := []any{map[string]any{"uri": "app://orders/7", "mimeType": "application/json", "text": `{"id":"7"}`}}
		if c := pickAll(asSlice(r["contents"]), "uri", "mimeType", "text", "blob"); !reflect.DeepEqual(c, want) {
			fail("resources/read through a template: contents %v, want %v", c, want)
		}
	}

	// 2026-07-28 implementations MUST NOT emit -32002.
	if expectError(t, "resources/read of an unknown uri", got.Unknown, -32602) {
		if d, _ := got.Unknown.Error.Data.(map[string]any); d["uri"] != "test://nope" {
			fail("resources/read of an unknown uri: error data %#v, want {uri: \"test://nope\"}", got.Unknown.Error.Data)
		}
	}
	if expectError(t, "an unsupported protocol version", got.BadVersion, -32022) {
		d, _ := got.BadVersion.Error.Data.(map[string]any)
		if !slices.Contains(asSlice(d["supported"]), any("2026-07-28")) || d["requested"] != "1900-01-01" {
			fail("an unsupported protocol version: error data %#v, want {supported: [..., \"2026-07-28\", ...], requested: \"1900-01-01\"}", got.BadVersion.Error.Data)
		}
	}
	expectError(t, "an unknown method", got.UnknownMethod, -32601)

	if t.Failed() {
		t.Logf("%s", p.ConsoleText())
	}
}

// expectError reports whether r is an error with code; it fails t if not.
func expectError(t *testing.T, what string, r rpcReply, code int) bool {
	t.Helper()
	if r.Error == nil {
		t.Errorf("%s: got result %v (timeout %v), want error %d", what, r.Result, r.Timeout, code)
		return false
	}
	if int(r.Error.Code) != code {
		t.Errorf("%s: error %v %q, want code %d", what, r.Error.Code, r.Error.Message, code)
		return false
	}
	return true
}

func asSlice(v any) []any {
	s, _ := v.([]any)
	return s
}

// pickAll keeps the given keys of each object in list.
func pickAll(list []any, keys ...string) []any {
	out := make([]any, len(list))
	for i, x := range list {
		m, _ := x.(map[string]any)
		o := map[string]any{}
		for _, k := range keys {
			if v, ok := m[k]; ok {
				o[k] = v
			}
		}
		out[i] = o
	}
	return out
}

// mcpListenJS ends each phase with a sentinel: a server/discover request on
// the same session, which the server answers after every notification the
// phase caused (it answers messages in order and sends a push's
// notifications when it dispatches the push). Its answers are not part of
// the streams; TestMCPSubscriptionsListen leaves them out.
const mcpListenJS = `const live = F.resource({uri: 'test://live', name: 'live', value: 'A0'});
const s = await T.session();
const ACK = 'notifications/subscriptions/acknowledged', U = 'notifications/resources/updated', L = 'notifications/resources/list_changed';
const phases = [], sentinels = [];
const sentinel = async (name) => {
  const r = await s.request('server/discover', {}, {id: 'sentinel-' + name, modern: true, timeoutMs: M.patience});
  sentinels.push(r.result ? name : name + ': ' + JSON.stringify(r.error));
};
await s.send({jsonrpc: '2.0', id: 'listen-1', method: 'subscriptions/listen', params: {_meta: s.meta(),
  notifications: {resourceSubscriptions: ['test://live'], resourcesListChanged: true, toolsListChanged: true, promptsListChanged: true}}});
await s.send({jsonrpc: '2.0', id: 77, method: 'subscriptions/listen', params: {_meta: s.meta(),
  notifications: {resourceSubscriptions: ['test://live']}}});
await T.waitUntil(() => s.notificationsOf(ACK).length >= 2, M.patience);
await sentinel('listening');
phases.push(['listening', s.messages.length]);
live.push('A'); live.push('A'); live.push('B');
await T.waitUntil(() => s.notificationsOf(U).length >= 4, M.patience);
await sentinel('pushed');
phases.push(['pushed A, A, B', s.messages.length]);
const h = F.resource({uri: 'test://new', name: 'new', value: 1});
await T.waitUntil(() => s.notificationsOf(L).length >= 1, M.patience);
await sentinel('registered');
phases.push(['registered a resource', s.messages.length]);
await s.notify('notifications/cancelled', {requestId: 'listen-1', reason: 'test over'});
// The server handles messages in order: once it answers this, it has
// handled the cancellation.
await sentinel('cancelled');
live.push('C');
await T.waitUntil(() => s.notificationsOf(U).length >= 5, M.patience);
h.unregister();
await sentinel('unregistered');
phases.push(['cancelled listen-1, pushed C, unregistered', s.messages.length]);
return {
  messages: s.messages,
  phases, sentinels,
  transportErrors: s.errors,
  ackIssues: s.messages.filter((m) => m.method === ACK).map((m) => T.validate('core.SubscriptionsAcknowledgedNotificationSchema', m)),
};`

// TestMCPSubscriptionsListen: subscriptions/listen streams, acknowledged
// first, each notification tagged with its stream's id (of the id's own JSON
// type), only the notification types asked for, de-duplicated pushes, and
// notifications/cancelled ends a stream.
func TestMCPSubscriptionsListen(t *testing.T) {
	p := openMCP(t, "/mcp.html")
	var got struct {
		Messages        []map[string]json.RawMessage
		Phases          [][2]any
		Sentinels       []string
		TransportErrors []string
		AckIssues       []any
	}
	p.run(mcpListenJS, &got)
	if want := []string{"listening", "pushed", "registered", "cancelled", "unregistered"}; !slices.Equal(got.Sentinels, want) {
		t.Errorf("sentinel requests: %q, want each answered with a result: %q", got.Sentinels, want)
	}
	if len(got.TransportErrors) > 0 {
		t.Errorf("the stock transport rejected messages from the server: %v", got.TransportErrors)
	}
	for _, issues := range got.AckIssues {
		if issues != nil {
			t.Errorf("an acknowledgement does not fit @modelcontextprotocol/core's schema: %v", issues)
		}
	}

	// What each stream received, per phase: "ack", "updated <uri>",
	// "list_changed", "result".
	type key struct{ sid, phase string }
	seen := map[key][]string{}
	first := map[string]string{}
	acks := map[string]map[string]any{}
	for i, m := range got.Messages {
		// A message belongs to the first phase that ended after it.
		ph := "after the last phase"
		for _, p := range got.Phases {
			if end, _ := p[1].(float64); i < int(end) {
				ph, _ = p[0].(string)
				break
			}
		}
		var method string
		json.Unmarshal(m["method"], &method)
		var params struct {
			URI           string                     `json:"uri"`
			Meta          map[string]json.RawMessage `json:"_meta"`
			Notifications map[string]any             `json:"notifications"`
		}
		json.Unmarshal(m["params"], &params)
		if _, isResponse := m["id"]; isResponse && method == "" {
			if strings.HasPrefix(string(m["id"]), `"sentinel-`) {
				continue
			}
			var res struct {
				Meta map[string]json.RawMessage `json:"_meta"`
			}
			json.Unmarshal(m["result"], &res)
			sid := string(res.Meta[sidKey])
			seen[key{string(m["id"]), ph}] = append(seen[key{string(m["id"]), ph}], "result")
			if sid != "" && sid != string(m["id"]) {
				t.Errorf("listen result %s: _meta subscriptionId %s, want the request id", rawJSON(m), sid)
			}
			continue
		}
		sid := string(params.Meta[sidKey])
		if sid == "" {
			t.Errorf("a notification without _meta[%q] reached a client that only listens: %s", sidKey, rawJSON(m))
			continue
		}
		var what string
		switch method {
		case "notifications/subscriptions/acknowledged":
			what = "ack"
			acks[sid] = params.Notifications
		case "notifications/resources/updated":
			what = "updated " + params.URI
		case "notifications/resources/list_changed":
			what = "list_changed"
		default:
			what = method
		}
		if _, ok := first[sid]; !ok {
			first[sid] = what
		}
		seen[key{sid, ph}] = append(seen[key{sid, ph}], what)
	}

	for _, sid := range []string{`"listen-1"`, `77`} {
		if f := first[sid]; f != "ack" {
			t.Errorf("stream %s: first message %q, want notifications/subscriptions/acknowledged", sid, f)
		}
	}
	if first[`"77"`] != "" {
		t.Errorf("stream 77: its subscriptionId arrived as the string \"77\"; it must keep the request id's type (a number)")
	}
	wantAck := map[string]map[string]any{
		`"listen-1"`: {"resourceSubscriptions": []any{"test://live"}, "resourcesListChanged": true},
		`77`:         {"resourceSubscriptions": []any{"test://live"}},
	}
	for sid, want := range wantAck {
		if got := dropFalse(acks[sid]); !reflect.DeepEqual(got, want) {
			t.Errorf("stream %s: acknowledged notifications %v, want %v (a resources-only server honours no tools/prompts types)", sid, acks[sid], want)
		}
	}
	want := map[key][]string{
		{`"listen-1"`, "listening"}:                                  {"ack"},
		{`77`, "listening"}:                                          {"ack"},
		{`"listen-1"`, "pushed A, A, B"}:                             {"updated test://live", "updated test://live"},
		{`77`, "pushed A, A, B"}:                                     {"updated test://live", "updated test://live"},
		{`"listen-1"`, "registered a resource"}:                      {"list_changed"},
		{`77`, "cancelled listen-1, pushed C, unregistered"}:         {"updated test://live"},
		{`"listen-1"`, "cancelled listen-1, pushed C, unregistered"}: nil,
	}
	for k, w := range want {
		g := seen[k]
		if k.sid == `"listen-1"` && k.phase == "cancelled listen-1, pushed C, unregistered" {
			// A graceful SubscriptionsListenResult may end the stream.
			g = slices.DeleteFunc(slices.Clone(g), func(s string) bool { return s == "result" })
		}
		if !reflect.DeepEqual(g, w) {
			t.Errorf("stream %s, phase %q: got %q, want %q", k.sid, k.phase, g, w)
		}
	}
	for k, g := range seen {
		if _, ok := want[k]; !ok && len(g) > 0 {
			t.Errorf("stream %s, phase %q: unexpected %q", k.sid, k.phase, g)
		}
	}
	if t.Failed() {
		t.Logf("messages:\n%s\n%s", rawList(got.Messages), p.ConsoleText())
	}
}

// dropFalse removes the false and empty members of a subscription filter.
func dropFalse(m map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		switch v := v.(type) {
		case bool:
			if !v {
				continue
			}
		case []any:
			if len(v) == 0 {
				continue
			}
		}
		out[k] = v
	}
	return out
}

func rawJSON(m map[string]json.RawMessage) string {
	b, _ := json.Marshal(m)
	return string(b)
}

func rawList(ms []map[string]json.RawMessage) string {
	s := ""
	for i, m := range ms {
		s += fmt.Sprintf("    %d %s\n", i, rawJSON(m))
	}
	return s
}
