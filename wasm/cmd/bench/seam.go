package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The seam's floor for registration (the workload "register-cycle-seam"):
// the module's loader with the bench's cycle resource registered and
// unregistered through a WebAssembly module of two empty functions in place
// of Go's mc_register and mc_unregister, after the same encoding into Go's
// buffer. The loader runs the registration's lifecycle (subscribe, teardown,
// resourcelistchanged) as it always does; what the row leaves out is Go's
// code, so it is the least the module's register + unregister can cost
// while Go is told of every registration.

// seamCycleURI is the uri of bench.js's register cycle.
const seamCycleURI = "bench://cycle"

// seamPatches are the loader's two calls into Go for a registration, and what
// the floor's loader does instead for the cycle resource.
var seamPatches = []struct{ old, new string }{
	{
		`  if (ex.mc_register(r.id, old ? old.id : 0, encodeRegistration(r)) < 0) {`,
		`  const registerIn = r.key === "` + seamCycleURI + `" ? seamFloor().register : ex.mc_register;
  if (registerIn(r.id, old ? old.id : 0, encodeRegistration(r)) < 0) {`,
	},
	{
		`  internal(ex.mc_unregister(r.id));`,
		`  internal((r.key === "` + seamCycleURI + `" ? seamFloor().unregister : ex.mc_unregister)(r.id));`,
	},
}

// seamFloorJS is added inside the loader's scope. Its module, in the text
// format:
//
//	(module
//	  (func (export "register") (param i32 i32 i32) (result i32) (i32.const 0))
//	  (func (export "unregister") (param i32) (result i32) (i32.const 0)))
const seamFloorJS = `
/** @type {any} */
let seamFloorExports = null;
function seamFloor() {
  if (seamFloorExports) return seamFloorExports;
  const text = (s) => [s.length, ...Array.from(s, (c) => c.charCodeAt(0))];
  const section = (id, body) => [id, body.length, ...body];
  const bytes = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [2, 0x60, 3, 0x7f, 0x7f, 0x7f, 1, 0x7f, 0x60, 1, 0x7f, 1, 0x7f]),
    ...section(3, [2, 0, 1]),
    ...section(7, [2, ...text("register"), 0, 0, ...text("unregister"), 0, 1]),
    ...section(10, [2, 4, 0, 0x41, 0, 0x0b, 4, 0, 0x41, 0, 0x0b])]);
  seamFloorExports = new WebAssembly.Instance(new WebAssembly.Module(bytes), {}).exports;
  return seamFloorExports;
}
`

// seamFloorLoader returns the loader of the build in dist made into the
// floor's.
func seamFloorLoader(dist string) ([]byte, error) {
	b, err := os.ReadFile(filepath.Join(dist, "modelcontext.js"))
	if err != nil {
		return nil, err
	}
	return patchSeamFloor(string(b))
}

func patchSeamFloor(src string) ([]byte, error) {
	for _, p := range seamPatches {
		if n := strings.Count(src, p.old); n != 1 {
			return nil, fmt.Errorf("the seam's floor: the loader has %d copies of %q, not 1 (update wasm/cmd/bench/seam.go)", n, p.old)
		}
		src = strings.Replace(src, p.old, p.new, 1)
	}
	const end = "\n})();\n"
	if !strings.HasSuffix(src, end) {
		return nil, fmt.Errorf("the seam's floor: the loader does not end with %q", end)
	}
	return []byte(strings.TrimSuffix(src, end) + seamFloorJS + end[1:]), nil
}
