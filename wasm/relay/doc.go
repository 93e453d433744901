// Package relay serves the MCP server of one browser tab to MCP clients
// outside the browser: the command wasm/cmd/relay is [Run].
//
// The page's server (modelcontext.js with data-mcp, or serveMCP) speaks the
// MCP-B tab transport on window.postMessage. The relay reaches it through
// the DevTools protocol: it launches a headless Chromium on a URL, or
// attaches to one tab of a running browser, and runs a small script in an
// isolated world of the tab (like an extension's content script: the page's
// scripts cannot see it). The script posts the client's messages as the
// page's own window would and hands back what the page's server posts,
// through a DevTools binding.
//
// Or it reaches the page through the modelcontext extension (js/extension)
// in the visitor's own browser: Chrome starts the relay as the extension's
// native messaging host ([runNativeHost], --native-host), which serves the
// one tab the visitor exposed in the extension's popup; the extension's
// content script plays the part of the isolated-world script, and document
// numbers the part of execution contexts, so that the same [Tab] and
// [Session] logic runs. Desktop clients reach the host on loopback, over
// Streamable HTTP or, through `relay --extension` (the stdio server they
// start), over an upgraded connection.
//
// # Sessions
//
// Every client gets a session of its own in the page, on the sub-channel
// "<channel>/<name>" that the page serves when it opted in
// (data-mcp-sessions, or serveMCP({sessions: true})); no tab is opened per
// client. Over stdio there is one client, the process that started the
// relay. Over Streamable HTTP a 2025-11-25 client's initialize opens a
// session (Mcp-Session-Id), which ends on DELETE, after --idle unused, or to
// make room at --max-sessions; 2026-07-28 requests, which carry their
// revision in _meta and have no session, share a few sub-channels.
//
// # Messages pass as they are
//
// The page stays the authority on the protocol: the relay forwards each
// JSON-RPC message without re-encoding it, so both revisions work over both
// transports. It reads a few fields to keep track of requests, and writes
// only its own messages: errors for what it cannot forward (not JSON, the
// page gone), the requests that re-establish a session after a reload, and
// the notifications that tell the client about one.
//
// # Reloads
//
// The script is injected into every document the tab loads, so a reload or
// a navigation is seen. Requests the old page took with it are answered
// with an error; requests made meanwhile wait for the new page (--wait); the
// client's handshake, subscriptions and listen streams are made again, and
// the client is then sent notifications/resources/updated for each resource
// it follows (and list_changed where it asked for those), so no subscription
// ends silently. A crash of the tab's renderer is handled the same way: the
// relay reloads a tab it launched, and waits for the visitor to reload any
// other.
//
// # Security
//
// HTTP listens on loopback only, answers only its own Host names (DNS
// rebinding) and requests without an Origin or from --allow-origin, and only
// with the secret it prints at start, in the URL's path or as a bearer
// token. The page must have opted in. Attaching never navigates or closes
// the user's tab and relays exactly one; the relay's script and binding are
// removed when it stops. A browser the relay launched speaks DevTools on a
// pipe (--remote-debugging-pipe), so no other process can reach it, and is
// closed with its helper processes, and its profile removed. The tab is
// served for one origin (--url's, or the first the attached tab shows): a
// document of another origin, after a redirect or a navigation, ends the
// relay with an error that says so. Only https pages are served, and plain
// http ones on loopback (127.0.0.0/8, ::1, localhost), on both paths. The
// HTTP servers cap their connections and time them out (connLimits), so
// that clients without the secret cannot starve one that has it.
package relay
