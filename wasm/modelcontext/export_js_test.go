//go:build js && wasm

package modelcontext

// Setup is setup, for the tests of package modelcontext_test.
var Setup = setup
