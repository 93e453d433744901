// Command goapp is a page's own Go program, loaded with Go's stock
// wasm_exec.js beside the module: it prints through os.Stdout (which needs the
// globals fs and process that wasm_exec.js installs) and then reports on
// window.goAppSaid.
package main

import (
	"fmt"
	"syscall/js"
)

func main() {
	msg := fmt.Sprintf("hello from the page's Go app, %d", 42)
	fmt.Println(msg)
	js.Global().Set("goAppSaid", msg)
	select {}
}
