// Package astro holds the browser tests of testdata/frameworks/astro, an
// Astro 7 app (the Node adapter, Preact for the island) that holds
// js/FRAMEWORKS.md's Astro recipes, an island and a plain <script>, as
// written.
//
// `make test-astro` installs the app's locked dependencies (Node.js 22
// among them: Astro 7 wants 22.12 or later) and the fresh tarball, copies
// the recipes into it, runs `astro check` and `astro build` (build.log);
// these tests then serve the build with the adapter's server (node
// dist/server/entry.mjs, on that Node.js) and drive it in headless Chromium:
//
//	CHROMIUM=$PWD/.cache/bin/chromium go test -count=1 ./wasm/frameworks/astro
//
// The package has no code of its own.
package astro
