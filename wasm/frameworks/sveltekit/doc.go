// Package sveltekit holds the browser tests of testdata/frameworks/sveltekit,
// a SvelteKit 2 app (Svelte 5, adapter-node) that holds js/FRAMEWORKS.md's
// SvelteKit recipes, a Svelte store and Svelte 5 runes, as written.
//
// `make test-sveltekit` installs the app's locked dependencies and the fresh
// tarball, copies the recipes into it, type-checks it with svelte-check and
// builds it (build.log); these tests then serve the build with `node build`
// and drive it in headless Chromium:
//
//	CHROMIUM=$PWD/.cache/bin/chromium go test -count=1 ./wasm/frameworks/sveltekit
//
// The package has no code of its own.
package sveltekit
