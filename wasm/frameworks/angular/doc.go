// Package angular holds the browser tests of the Angular sample app in
// testdata/frameworks/angular: an Angular 22 workspace (the esbuild
// application builder) with two projects on the same sources, csr (the
// browser alone) and ssr (server-side rendering, / prerendered), whose root
// service registers a signal as a resource, as js/FRAMEWORKS.md's Angular
// example shows, with nothing about modelcontext in angular.json.
//
// `make test-angular` installs the app's locked dependencies (the Node.js 22
// the Angular CLI needs among them) and the fresh tarball, builds both
// projects with `ng build` (which type-checks the app under strict, with
// skipLibCheck off, beside Angular's own WebMCP types), and then runs these
// tests, which serve each build (csr with a Go file server, ssr with the
// app's own Node.js server), run `ng serve`, and drive each in headless
// Chromium:
//
//	CHROMIUM=$PWD/.cache/bin/chromium go test -count=1 ./wasm/frameworks/angular
//
// The app pins @angular/core 22.2.6, the first release line whose own
// WebMCP types declare document.modelContext (22.2.5 and later), and
// @angular/ssr, @angular/platform-server, @angular/build and @angular/cli
// at 22.2.0, the newest of those the registry reachable here holds; an
// override in its package.json lets platform-server 22.2.0, whose peers are
// exact, run with the framework's 22.2.6.
//
// The package has no code of its own.
package angular
