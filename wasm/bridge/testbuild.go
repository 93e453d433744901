//go:build js && wasm && modelcontext_test

package bridge

import "github.com/modelcontext-go/modelcontext/wasm/registry"

// The test build's exports: only the test hooks (js/testhooks) call them,
// so they are built only with -tags modelcontext_test (make build-test,
// .cache/testdist/modelcontext.wasm) and never ship in dist/'s .wasm.
// wasm/cmd/jsbuild's tests hold every file named testbuild*.go to that tag,
// the loader to calling none of these, and the shipped .wasm to exporting
// none of them.

// listed is mc_list's list, reused.
var listed []registry.ID

// mc_list returns the address of a list record: the IDs of the current
// concrete resources (templates 0) or templates (1), in list order. The
// test hooks' cacheDrift compares the loader's cache with it.
//
//go:wasmexport mc_list
func mcList(templates int32) (code int32) {
	defer recoverEntry("getResources", &code)
	listed = reg.List(templates != 0, listed[:0])
	out = word(out[:0], uint32(len(listed)))
	for _, id := range listed {
		out = word(out, uint32(id))
	}
	return address()
}

// mc_stats reports live counts for leak checks: 0 for registrations, 1 for
// consumer subscriptions, 2 for MCP sessions on sub-channels.
//
//go:wasmexport mc_stats
func mcStats(which int32) (count int32) {
	defer recoverEntry("stats", &count)
	s := reg.Stats()
	switch which {
	case 0:
		return int32(s.Registrations)
	case 1:
		return int32(s.Subscriptions)
	}
	n := 0
	for _, s := range servers {
		n += s.s.Sessions()
	}
	return int32(n)
}
