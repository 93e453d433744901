// Package nuxt holds the browser tests of the Nuxt sample app in
// testdata/frameworks/nuxt: a Nuxt 4 app (Vite 7) whose only modelcontext
// configuration is the modelcontext/nuxt module in nuxt.config, with
// js/FRAMEWORKS.md's Nuxt examples (a ref, and a Pinia store, each through
// modelcontext/vue's useResource).
//
// `make test-nuxt` installs the app's locked dependencies (the Node.js 22
// Nuxt needs among them) and the fresh tarball, type-checks the app with
// `nuxt typecheck` (vue-tsc) and builds it with `nuxt build`, and then runs
// these tests, which serve the build with its Nitro server, run `nuxt dev`,
// and drive each in headless Chromium:
//
//	CHROMIUM=$PWD/.cache/bin/chromium go test -count=1 ./wasm/frameworks/nuxt
//
// The package has no code of its own.
package nuxt
