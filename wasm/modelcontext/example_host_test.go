// The examples with output run on the host only: the browser tests' frame
// (TestModuleLoadedFirst) has no file system for go test to capture output
// in.

//go:build !(js && wasm)

package modelcontext_test

import (
	"encoding/json"
	"fmt"

	"github.com/modelcontext-go/modelcontext/wasm/modelcontext"
)

// ApplyPatch follows a value by its patches, on its JSON form.
func ExampleApplyPatch() {
	var doc any
	json.Unmarshal([]byte(`{"items":{"apple":1}}`), &doc)
	doc, err := modelcontext.ApplyPatch(doc, []modelcontext.PatchOp{
		{Op: "replace", Path: "/items/apple", Value: 2.0},
		{Op: "add", Path: "/items/pear", Value: 1.0},
	})
	fmt.Println(doc, err)
	_, err = modelcontext.ApplyPatch(doc, []modelcontext.PatchOp{{Op: "remove", Path: "/items/plum"}})
	fmt.Println(err)
	// Output:
	// map[items:map[apple:2 pear:1]] <nil>
	// modelcontext: ApplyPatch: op 0 (remove "/items/plum"): no member "plum"
}
