//go:build !(js && wasm)

package main

import "os"

// main says what the app is: its logic (estimate.go) builds and is tested
// on the host, the app itself runs in the browser.
func main() {
	println("delivery is a Go WebAssembly app for the demo's checkout: build it with GOOS=js GOARCH=wasm (make demo-app)")
	os.Exit(2)
}
