package e2e

import "testing"

// Sessions: with data-mcp-sessions (or serveMCP({sessions: true})) the
// server also serves the sub-channels "<channel>/<name>", each a client
// session of its own, so that several clients (the relay's, wasm/relay)
// share one tab. The page is testdata/pages/mcp-sessions.html.

// mcpSessionCount reads the module's count of sub-channel sessions, from the
// test build's hooks: the pages that use it load the test build.
const mcpSessionCount = `const sessions = () => document.modelContext[Symbol.for('modelcontext.internals')].stats().mcpSessions;
`

// TestMCPSessions: stock clients on two sub-channels and on the channel
// itself each get their own handshake and their own subscriptions.
func TestMCPSessions(t *testing.T) {
	p := openMCP(t, "/mcp-sessions.html?"+testBuild)
	p.expect(mcpSessionCount+`
const x = F.resource({uri: 'test://x', name: 'x', value: 0});
const y = F.resource({uri: 'test://y', name: 'y', value: 0});
const z = F.resource({uri: 'test://z', name: 'z', value: 0});
const w = T.wire({channel: '*'});
const a = await T.connect({channel: 'mcp-default/a', name: 'client-a'});
const b = await T.connect({channel: 'mcp-default/b', name: 'client-b'});
const main = await T.connect({name: 'client-main'});
const afterConnect = sessions();
await a.call('resources/subscribe', {uri: 'test://x'});
await b.call('resources/subscribe', {uri: 'test://y'});
await main.call('resources/subscribe', {uri: 'test://z'});
// b's handshake came after a's subscription; a new one on the channel
// itself, too: neither touches a.
await main.call('initialize', {protocolVersion: '2025-11-25', capabilities: {}, clientInfo: {name: 'again', version: '1'}});
await main.call('resources/subscribe', {uri: 'test://z'});
// x, y, x, y, z: each client must see exactly its own, in order; the later
// pushes are the sentinels that prove the others were not sent.
x.push(1); y.push(1); x.push(2); y.push(2); z.push(1);
const ua = (await a.waitNotifications('notifications/resources/updated', 2)).map((n) => n.uri);
const ub = (await b.waitNotifications('notifications/resources/updated', 2)).map((n) => n.uri);
const um = (await main.waitNotifications('notifications/resources/updated', 1)).map((n) => n.uri);
// Every answer and notification for a was posted on mcp-default/a.
const channelsOf = (name) => [...new Set(w.seen.filter((e) => e.direction === 'server-to-client' &&
  e.payload && typeof e.payload === 'object' && e.payload.method === 'notifications/resources/updated' &&
  e.payload.params.uri === name).map((e) => e.channel))];
return {
  afterConnect, ua, ub, um,
  xOn: channelsOf('test://x'), yOn: channelsOf('test://y'), zOn: channelsOf('test://z'),
  versions: [a, b, main].map((c) => c.messages.find((m) => m.result && m.result.protocolVersion).result.protocolVersion),
  errors: [...a.errors, ...b.errors, ...main.errors],
};`,
		`{"afterConnect": 2, "ua": ["test://x", "test://x"], "ub": ["test://y", "test://y"], "um": ["test://z"],
		  "xOn": ["mcp-default/a"], "yOn": ["mcp-default/b"], "zOn": ["mcp-default"],
		  "versions": ["2025-11-25", "2025-11-25", "2025-11-25"], "errors": []}`)
}

// TestMCPSessionClose: "mcp-session-close" on a sub-channel ends its
// session (answered by "mcp-server-stopped", which closes a stock client),
// and stop() ends every session.
func TestMCPSessionClose(t *testing.T) {
	p := openMCP(t, "/mcp-sessions.html?"+testBuild)
	p.expect(mcpSessionCount+`
const x = F.resource({uri: 'test://x', name: 'x', value: 0});
const a = await T.connect({channel: 'mcp-default/a'});
const b = await T.connect({channel: 'mcp-default/b'});
await a.call('resources/subscribe', {uri: 'test://x'});
await b.call('resources/subscribe', {uri: 'test://x'});
let aClosed = false;
a.client.onclose = () => { aClosed = true; };
const wa = T.wire({channel: 'mcp-default/a'});
wa.post('mcp-session-close');
await T.waitUntil(() => aClosed, 5000);
const afterClose = sessions();
// x twice: b sees both; nothing more is posted on a's sub-channel.
x.push(1); x.push(2);
await b.waitNotifications('notifications/resources/updated', 2);
const postedOnAAfterClose = wa.fromServer().slice(wa.fromServer().indexOf('mcp-server-stopped') + 1)
  .filter((p) => p && p.method === 'notifications/resources/updated').length;
// A new client on the same name starts from nothing.
const a2 = await T.connect({channel: 'mcp-default/a'});
x.push(3);
await b.waitNotifications('notifications/resources/updated', 3);
await a2.call('resources/subscribe', {uri: 'test://x'});
x.push(4);
await a2.waitNotifications('notifications/resources/updated', 1);
const reopened = a2.notificationsOf('notifications/resources/updated').map((n) => n.uri);
const beforeStop = sessions();
return {
  aClosed, afterClose, reopened, beforeStop, postedOnAAfterClose,
  errors: [...b.errors, ...a2.errors],
};`,
		`{"aClosed": true, "afterClose": 1, "reopened": ["test://x"], "beforeStop": 2, "postedOnAAfterClose": 0, "errors": []}`)

	t.Run("stop", func(t *testing.T) {
		p := openMCP(t, "/mcp-serve.html?"+testBuild)
		p.expect(mcpSessionCount+`
const server = document.modelContext.serveMCP({channel: 's', sessions: true});
const w = T.wire({channel: '*'});
const a = await T.connect({channel: 's/a'});
const b = await T.connect({channel: 's/b'});
const before = sessions();
server.stop();
await T.waitUntil(() => w.fromServer().filter((p) => p === 'mcp-server-stopped').length === 3, 5000);
const stoppedOn = w.seen.filter((e) => e.direction === 'server-to-client' && e.payload === 'mcp-server-stopped').map((e) => e.channel);
return {before, after: sessions(), stoppedOn};`,
			`{"before": 2, "after": 0, "stoppedOn": ["s/a", "s/b", "s"]}`)
	})
}

// TestMCPSessionsOptIn: without sessions a sub-channel gets no answer (the
// channel's own answer is the sentinel); the options are checked; the
// bound on sessions answers with an error.
func TestMCPSessionsOptIn(t *testing.T) {
	p := openMCP(t, "/mcp.html?"+testBuild)
	p.expect(mcpSessionCount+`
const w = T.wire({channel: '*'});
w.post('mcp-check-ready', {channel: 'mcp-default/a'});
w.post({jsonrpc: '2.0', id: 'sub', method: 'ping'}, {channel: 'mcp-default/a'});
w.post({jsonrpc: '2.0', id: 'sentinel', method: 'ping'}, {channel: 'mcp-default'});
await w.waitResponse('sentinel', 5000);
return {
  onSubChannel: w.seen.filter((e) => e.direction === 'server-to-client' && e.channel === 'mcp-default/a').length,
  sessions: sessions(),
};`,
		`{"onSubChannel": 0, "sessions": 0}`)

	t.Run("options", func(t *testing.T) {
		p := openMCP(t, "/mcp-serve.html")
		p.expect(`
const mc = document.modelContext;
const threw = (f) => { try { f(); return 'no error'; } catch (e) { return e.name + ': ' + e.message; } };
const s = mc.serveMCP({channel: 'c', sessions: true});
const out = {
  sessionsType: threw(() => mc.serveMCP({channel: 'd', sessions: 'yes'})),
  maxSessions: threw(() => mc.serveMCP({channel: 'd', sessions: true, maxSessions: 0})),
  subChannel: threw(() => mc.serveMCP({channel: 'c/x'})),
};
s.stop();
const t = mc.serveMCP({channel: 'e/x'});
out.parentOfRunning = threw(() => mc.serveMCP({channel: 'e', sessions: true}));
t.stop();
return out;`,
			`{"sessionsType": "TypeError: modelcontext: serveMCP: \"sessions\" must be true or false",
			  "maxSessions": "TypeError: modelcontext: serveMCP: \"maxSessions\" must be a whole number of at least 1",
			  "subChannel": "TypeError: modelcontext: serveMCP: the channel \"c/x\" is a session sub-channel of the server on \"c\" (sessions: true); choose another channel",
			  "parentOfRunning": "TypeError: modelcontext: serveMCP: an MCP server serves \"e/x\", a sub-channel of \"e\"; with sessions: true choose another channel"}`)
	})

	t.Run("maxSessions", func(t *testing.T) {
		p := openMCP(t, "/mcp-serve.html?"+testBuild)
		p.expect(mcpSessionCount+`
const server = document.modelContext.serveMCP({channel: 'lim', sessions: true, maxSessions: 1});
const a = await T.connect({channel: 'lim/a'});
const w = T.wire({channel: 'lim/b'});
w.post({jsonrpc: '2.0', id: 'over', method: 'initialize', params: {protocolVersion: '2025-11-25', capabilities: {}, clientInfo: {name: 'b', version: '1'}}});
const refused = await w.waitResponse('over', 5000);
const countWhenFull = sessions();
T.wire({channel: 'lim/a'}).post('mcp-session-close');
await T.waitUntil(() => sessions() === 0, 5000);
const b = await T.connect({channel: 'lim/b'});
const ping = await b.call('ping');
server.stop();
return {refused: refused && refused.error, countWhenFull, ping};`,
			`{"refused": {"code": -32000, "message": "modelcontext: too many MCP sessions on the channel \"lim\" (at most 1, serveMCP's maxSessions); close one with \"mcp-session-close\" first"},
			  "countWhenFull": 1, "ping": {"result": {}}}`)
	})
}
