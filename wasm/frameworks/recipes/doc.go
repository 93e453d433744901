// Package recipes holds the browser tests of js/FRAMEWORKS.md's recipes for
// pages without a build step: htmx and Turbo (declarative markup that
// survives a swap: an outerHTML swap, a turbo-frame navigation, a
// turbo-stream replace) and Alpine.js (x-data state as a resource).
//
// `make test-recipes` installs the libraries (htmx.org, @hotwired/turbo,
// alpinejs, locked in testdata/frameworks/recipes) and the fresh tarball;
// these tests serve each recipe's page as written, and the server's answers
// from the recipe's templates, on 127.0.0.1 and drive them in headless
// Chromium:
//
//	CHROMIUM=$PWD/.cache/bin/chromium go test -count=1 ./wasm/frameworks/recipes
//
// The package has no code of its own.
package recipes
