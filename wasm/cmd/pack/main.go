// Command pack writes the npm package: it stages the built module
// (modelcontext.js, modelcontext.mjs, modelcontext.wasm), the types, the
// package's package.json and README, LICENSE, CHANGELOG.md and the notice
// for Go's runtime into one folder, runs `npm pack` there, and then reads the
// tarball back to check it.
//
//	go run ./wasm/cmd/pack -dist dist -o dist
//
// writes dist/package/ (the staged folder) and dist/modelcontext-<version>.tgz.
// `make pack` runs it after `make build`.
//
// It refuses to pack when the versions disagree: the version of js/package.json,
// the newest entry of CHANGELOG.md and the version the MCP server reports
// (wasm/mcp.Version) must be one and the same.
//
// The check of the tarball: it holds exactly the files the package ships;
// every target of package.json's "exports", its "types", "main" and "module"
// is one of them; and every entry of "files" matched something.
//
// # Errors
//
//	pack: dist/modelcontext.wasm not found: run `make build` first
//
// The module has not been built, or -dist names another folder.
//
//	pack: versions disagree: js/package.json "0.4.0", CHANGELOG.md "0.3.0", wasm/mcp.Version "0.4.0"
//
// A release changes the version in all three places at once.
package main

import (
	"fmt"
	"os"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "pack:", err)
		os.Exit(1)
	}
}
