// Package frameworks holds the browser tests of the framework bindings
// (modelcontext/react, modelcontext/vue) and of js/FRAMEWORKS.md's store recipes,
// each run against the packed tarball the way a page author installs it.
//
// `make test-frameworks` packs the module, installs the locked dependencies
// of each app in testdata/frameworks and the fresh tarball, builds the apps
// (vite-react for production and, so that StrictMode runs effects twice, for
// development; vite-vue for production; stores bundles each recipe of js/FRAMEWORKS.md
// with esbuild) and then runs these tests, which serve each build on
// 127.0.0.1 and drive it in headless Chromium:
//
//	CHROMIUM=$PWD/.cache/bin/chromium go test -count=1 ./wasm/frameworks
//
// The package has no code of its own.
package frameworks
