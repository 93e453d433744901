package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The seam's floor for registration (the workload "register-cycle-seam"):
// the module's loader with the bench's cycle resource registered and
// unregistered through a minimal WebAssembly module that makes exactly the
// calls out Go makes for it (subscribe and resourcelistchanged when it is
// registered; retire and resourcelistchanged when it is unregistered),
// through the same guarded host functions, after the same encoding into
// Go's buffer and the same read of the debug switch. What it measures is
// what any design in which WebAssembly decides a registration pays, with
// none of Go's code: the row the module's register + unregister can at best
// reach while Go owns the registration's lifecycle.

// seamCycleURI is the uri of bench.js's register cycle.
const seamCycleURI = "bench://cycle"

// seamPatches are the loader's two calls into Go for a registration, and what
// the floor's loader does instead for the cycle resource.
var seamPatches = []struct{ old, new string }{
	{
		`  const code = ex.mc_register(r.id, old ? old.id : 0, encodeRegistration(r), debugOn());`,
		`  let code = 0;
  if (r.key === "` + seamCycleURI + `") {
    encodeRegistration(r);
    debugOn();
    seamFloor().register(r.id);
  } else code = ex.mc_register(r.id, old ? old.id : 0, encodeRegistration(r), debugOn());`,
	},
	{
		`    if (state === READY) internal(ex.mc_unregister(r.id, debugOn()));`,
		`    if (state === READY && r.key === "` + seamCycleURI + `") {
      debugOn();
      seamFloor().unregister(r.id);
    } else if (state === READY) internal(ex.mc_unregister(r.id, debugOn()));`,
	},
}

// seamFloorJS is added inside the loader's scope. Its module, in the text
// format:
//
//	(module
//	  (import "h" "subscribe" (func $subscribe (param i32)))
//	  (import "h" "retire" (func $retire (param i32)))
//	  (import "h" "listChanged" (func $listChanged))
//	  (func (export "register") (param i32) (call $subscribe (local.get 0)) (call $listChanged))
//	  (func (export "unregister") (param i32) (call $retire (local.get 0)) (call $listChanged)))
const seamFloorJS = `
/** @type {any} */
let seamFloorExports = null;
function seamFloor() {
  if (seamFloorExports) return seamFloorExports;
  const text = (s) => [s.length, ...Array.from(s, (c) => c.charCodeAt(0))];
  const section = (id, body) => [id, body.length, ...body];
  const bytes = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [2, 0x60, 1, 0x7f, 0, 0x60, 0, 0]),
    ...section(2, [3, ...text("h"), ...text("subscribe"), 0, 0, ...text("h"), ...text("retire"), 0, 0, ...text("h"), ...text("listChanged"), 0, 1]),
    ...section(3, [2, 0, 0]),
    ...section(7, [2, ...text("register"), 0, 3, ...text("unregister"), 0, 4]),
    ...section(10, [2, 8, 0, 0x20, 0, 0x10, 0, 0x10, 2, 0x0b, 8, 0, 0x20, 0, 0x10, 1, 0x10, 2, 0x0b])]);
  const o = imports();
  const h = { subscribe: o.subscribe, retire: o.retire, listChanged: o.listChanged };
  seamFloorExports = new WebAssembly.Instance(new WebAssembly.Module(bytes), { h }).exports;
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
