// Package nextjs holds the browser tests of the Next.js sample app in
// testdata/frameworks/next: an App Router page whose client component imports
// modelcontext at top level, as js/FRAMEWORKS.md's Next.js example shows.
//
// `make test-next` installs the app's locked dependencies and the fresh
// tarball, builds the app with Turbopack (.next/) and with webpack
// (.next-webpack/), and then runs these tests, which serve each build with
// `next start`, run `next dev`, and drive each in headless Chromium:
//
//	CHROMIUM=$PWD/.cache/bin/chromium go test -count=1 ./wasm/frameworks/nextjs
//
// The package has no code of its own.
package nextjs
