// Package bundlers holds the browser tests of the sample apps in
// testdata/bundlers: one app per bundler (Vite, webpack, esbuild, Rollup),
// each importing the npm package the way a page author does
// (import { registerResource, ready } from "modelcontext").
//
// `make test-package` packs the module, installs each app's locked
// dependencies and the fresh tarball, builds each app for production, and then
// runs these tests, which serve each build on 127.0.0.1 and load it in
// headless Chromium:
//
//	CHROMIUM=$PWD/.cache/bin/chromium go test -count=1 ./wasm/bundlers
//
// The package has no code of its own.
package bundlers
