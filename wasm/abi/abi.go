// Package abi holds the codes that both sides of the boundary between the Go
// module and its JavaScript loader use and that belong to neither package
// behind it: the kinds of failure an export returns, and where a connected
// frame's registration IDs start.
//
// The other shared codes are declared where Go enforces them (package
// registry, package mcp); wasm/cmd/jsbuild writes all of them into the loader
// as constants, so the two sides cannot drift. This package imports nothing,
// and its test holds the module to what it may link.
package abi

// The kinds of failure an export returns (wasm/bridge's failure records):
// the Error the loader throws.
const (
	FailError     = 0 // an internal error: a bug, or input the loader should never have sent
	FailTypeError = 1 // a refused argument, such as serveMCP's options
)

// FrameIDBase is where the registration IDs of a connected frame's
// resources start (connectFrame's proxies; the page's own count up from 1).
// The registry lists and matches a frame's resources after the page's own
// (registry.List), and so does the loader's cache.
const FrameIDBase = 1 << 30
