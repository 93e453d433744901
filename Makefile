# The two front doors: `make demo` serves the demo on 127.0.0.1, `make test`
# runs every test (installing Chromium and wasmbrowsertest when missing).
SHELL    := /bin/bash
# TIMES=file records each recipe line's wall time and target in file
# (testdata/timed-shell.sh); testdata/times.sh sums it by target.
TIMES    ?=
ifneq ($(TIMES),)
SHELL     = $(CURDIR)/testdata/timed-shell.sh $(abspath $(TIMES)) target=$@
endif
GO       ?= go
# The tests read tools' logs ("[build] Complete!"): no colour codes in them,
# also where CI=true makes a tool think the terminal has colour.
export NO_COLOR := 1
GOROOT   := $(shell $(GO) env GOROOT)
WASM_EXEC := $(GOROOT)/lib/wasm/wasm_exec.js
CACHE    := $(CURDIR)/.cache
BIN      := $(CACHE)/bin
ADDR     ?= 127.0.0.1:8080
FUZZTIME ?= 50000x
GO_SOURCES := $(shell find wasm -name '*.go' -not -name '*_test.go' -not -path 'wasm/cmd/*' -not -path 'wasm/modelcontext/*' -not -path 'wasm/e2e/*') wasm/cmd/modelcontext/main.go go.mod

.PHONY: build build-test demo test test-deps test-host test-wasm test-browser test-goapi demo-app lint types check-loader fuzz size bench clean mcpclient edge edge-build test-edge bench-visit bench-page lighthouse

build: dist/modelcontext.wasm dist/modelcontext.js dist/modelcontext-runtime.js dist/modelcontext.mjs dist/modelcontext.cjs

# demo-app: the demo's Go app (the delivery estimate in the checkout, written
# with wasm/modelcontext), and Go's own wasm_exec.js to run it. A separate
# program beside the module: dom/v2 and the Go API never enter
# dist/modelcontext.wasm.
DEMO_APP_SOURCES := $(shell find wasm/modelcontext wasm/cmd/delivery -name '*.go' -not -name '*_test.go') go.mod go.sum

demo-app: dist/delivery.wasm dist/wasm_exec.js dist/go-apps.json

# go-apps.json lists the Go apps a build of the demo has (demo/go-app.js
# starts those it lists): the Cloudflare Worker build has none.
dist/go-apps.json:
	@mkdir -p dist
	echo '["delivery"]' > $@

dist/delivery.wasm: $(DEMO_APP_SOURCES)
	@mkdir -p dist
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags='-s -w' -o $@ ./wasm/cmd/delivery

dist/wasm_exec.js: $(WASM_EXEC)
	@mkdir -p dist
	cp $(WASM_EXEC) $@

# No inlining (-l) keeps the .wasm small; the registry and the bridge, the
# push path's Go code, are inlined, which costs no size and is faster
# (testdata/bench/PERFORMANCE.md).
MODULE := github.com/modelcontext-go/modelcontext
WASM_GCFLAGS := -gcflags=all=-l -gcflags=$(MODULE)/wasm/registry= -gcflags=$(MODULE)/wasm/bridge=

dist/modelcontext.wasm: $(GO_SOURCES)
	@mkdir -p dist
	GOOS=js GOARCH=wasm $(GO) build -trimpath $(WASM_GCFLAGS) -ldflags='-s -w' -o $@ ./wasm/cmd/modelcontext

# The classic script (the stub every page downloads, and the runtime it
# imports from beside itself when the module starts) and the ES and CommonJS
# modules (both in one file): the loader with Go's own wasm_exec.js (from the Go that built
# the .wasm) folded into the runtime. The .wasm is built first: the classic
# script carries its SHA-384 and the runtime's, for an integrity attribute.
LOADER_SOURCES := $(wildcard js/loader/*.js js/loader/runtime/*.js js/bindings/*.js)
dist/modelcontext.js dist/modelcontext-runtime.js dist/modelcontext.mjs dist/modelcontext.cjs &: $(LOADER_SOURCES) $(WASM_EXEC) $(wildcard wasm/cmd/jsbuild/*.go) $(GO_SOURCES) dist/modelcontext.wasm
	$(GO) run ./wasm/cmd/jsbuild -o dist -wasm-exec $(WASM_EXEC) -wasm dist/modelcontext.wasm

# build-test: the test build, the same three scripts with js/testhooks/
# bundled in (document.modelContext[Symbol.for("modelcontext.internals")]: the
# live counts, raw exports and broken host functions the fault, leak and
# session tests use) and its own .wasm, built with -tags modelcontext_test:
# the module with the exports only the hooks call (mc_list, mc_stats:
# wasm/bridge/testbuild.go), which dist/'s .wasm lacks. All in
# .cache/testdist/, never in dist/; the test build's script carries that
# .wasm's hash. The browser tests serve it at /teststatic/
# (wasm/internal/browsertest).
TESTDIST := $(CACHE)/testdist
TEST_TAGS := modelcontext_test

build-test: build $(TESTDIST)/modelcontext.wasm $(TESTDIST)/modelcontext.js $(TESTDIST)/modelcontext-runtime.js $(TESTDIST)/modelcontext.mjs

$(TESTDIST)/modelcontext.wasm: $(GO_SOURCES)
	@mkdir -p $(TESTDIST)
	GOOS=js GOARCH=wasm $(GO) build -trimpath -tags $(TEST_TAGS) $(WASM_GCFLAGS) -ldflags='-s -w' -o $@ ./wasm/cmd/modelcontext

$(TESTDIST)/modelcontext.js $(TESTDIST)/modelcontext-runtime.js $(TESTDIST)/modelcontext.mjs &: $(LOADER_SOURCES) $(wildcard js/testhooks/*.js) $(WASM_EXEC) $(wildcard wasm/cmd/jsbuild/*.go) $(GO_SOURCES) $(TESTDIST)/modelcontext.wasm
	$(GO) run ./wasm/cmd/jsbuild -test -o $(TESTDIST) -wasm-exec $(WASM_EXEC) -wasm $(TESTDIST)/modelcontext.wasm

demo: build demo-app mcpclient
	$(GO) run ./wasm/cmd/serve -addr $(ADDR) -demo demo -dist dist -vendor testdata/out

# bench: the module side by side with the plain-JS reference, and its MCP
# server against MCP-B's through the same stock client, in headless
# Chromium (results in testdata/out/bench.json, and the table the docs link
# to in testdata/bench/BENCH.md), then the pure core's hot paths
# and Go's side of an MCP read, natively and on WebAssembly (under Node, built
# as make build builds the core); then bench-page.
bench: build test-deps mcpclient
	CHROMIUM="$(BIN)/chromium" GO="$(GO)" $(GO) run ./wasm/cmd/bench
	$(GO) test -run '^$$' -bench . -benchmem ./wasm/registry
	$(GO) test -run '^$$' -bench '^BenchmarkRead$$' -benchmem ./wasm/mcp
	GOOS=js GOARCH=wasm $(GO) test $(WASM_GCFLAGS) -run '^$$' -bench . -benchmem \
		-exec="$$($(GO) env GOROOT)/lib/wasm/go_js_wasm_exec" ./wasm/registry
	GOOS=js GOARCH=wasm $(GO) test $(WASM_GCFLAGS) -run '^$$' -bench '^BenchmarkRead$$' -benchmem \
		-exec="$$($(GO) env GOROOT)/lib/wasm/go_js_wasm_exec" ./wasm/mcp
	$(MAKE) --no-print-directory bench-page

# bench-page: what the module costs a page, as Lighthouse (mobile preset)
# sees a small product page without it, with it (default boot and eager) and
# with MCP-B's @mcp-b/global, and how long the first answer takes on a cold
# and a repeat visit (results in testdata/out/pagecost.json, and the table
# the docs link to in testdata/bench/PAGECOST.md). lighthouse
# installs Lighthouse at the version testdata/lighthouse/package-lock.json
# pins; npm ci runs only when it changed.
LIGHTHOUSE := testdata/lighthouse/node_modules/.package-lock.json

lighthouse: $(LIGHTHOUSE)

$(LIGHTHOUSE): testdata/lighthouse/package-lock.json
	$(call npm_ci,testdata/lighthouse)
	@touch $@

bench-page: build test-deps mcpclient $(LIGHTHOUSE)
	CHROMIUM="$(BIN)/chromium" $(GO) run ./wasm/cmd/pagecost

# The bindings (js/react, js/vue) are files of their own, listed apart: a
# page that does not import one downloads none of it.
# It also writes testdata/bench/SIZES.md, the table the docs link to.
size: build
	@$(GO) run ./wasm/cmd/size -md testdata/bench/SIZES.md dist/modelcontext.wasm dist/modelcontext.js dist/modelcontext-runtime.js \
		js/react/react.js js/vue/vue.js

# npm_ci,dir[,flags] installs dir's locked packages from npm's cache when it
# has them, without asking the registry again (the lock file pins each
# version and its integrity, which npm checks either way; without
# --prefer-offline npm fetches every package's metadata and tarball again),
# and once more online if that fails, as when the cache predates a version
# the lock file pins.
npm_ci = cd $(1) && { npm ci --prefer-offline --no-audit --no-fund $(2) || \
	{ echo "npm ci in $(1): once more, online"; npm ci --no-audit --no-fund $(2); }; }

# test-deps installs what the tests need on a fresh machine: Chromium from
# Debian's packages, and wasmbrowsertest at the version go.mod pins, behind a
# `chromium` wrapper that keeps the browser off the network.
test-deps: $(BIN)/go_js_wasm_exec $(BIN)/chromium

$(BIN)/go_js_wasm_exec: go.mod go.sum
	@mkdir -p $(BIN)
	$(GO) build -o $@ github.com/agnivade/wasmbrowsertest

$(BIN)/chromium: testdata/chromium-wrapper.sh
	@mkdir -p $(BIN)
	@if ! command -v chromium >/dev/null 2>&1 && [ ! -x /usr/bin/chromium ]; then \
		echo "installing Chromium from Debian's packages"; \
		apt-get -o DPkg::Lock::Timeout=600 update -qq && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq chromium >/dev/null; \
	fi
	cp testdata/chromium-wrapper.sh $@ && chmod +x $@

# The stock MCP client the browser tests drive (the TypeScript SDK's Client on
# @mcp-b/transports' tab transport), the SDK's McpServer and MCP-B's
# @mcp-b/global, at the versions testdata/mcpclient/package-lock.json pins,
# bundled into testdata/out/. npm ci runs only when the lock file changed.
MCPCLIENT     := testdata/mcpclient
MCPCLIENT_OUT := testdata/out/mcpclient.js testdata/out/mcpserver.js testdata/out/mcpb-global.js

mcpclient: $(MCPCLIENT_OUT)

$(MCPCLIENT)/node_modules/.package-lock.json: $(MCPCLIENT)/package-lock.json
	$(call npm_ci,$(MCPCLIENT),--ignore-scripts)
	@touch $@

$(MCPCLIENT_OUT) &: $(MCPCLIENT)/node_modules/.package-lock.json $(MCPCLIENT)/package.json $(wildcard $(MCPCLIENT)/src/*.js)
	cd $(MCPCLIENT) && npm run --silent build

# The TypeScript types, checked with both pinned compilers (TypeScript 5.9 and
# 7): usage.ts (the API as page code uses it) and invalid.ts (descriptors that
# must not compile) against js/modelcontext.d.ts alone, then webmcp.ts with
# @mcp-b/webmcp-types in the same program, then every ```ts block of the
# repository's Markdown files, as written, with the options of Vite's
# TypeScript template (testdata/types/readme.mjs writes them to
# consumer/readme/).
TSCS := typescript typescript-7

types: testdata/types/node_modules/.package-lock.json
	node testdata/types/readme.mjs testdata/types/consumer/readme
	cd testdata/types && for tsc in $(TSCS); do for c in tsconfig.json tsconfig.webmcp.json tsconfig.readme.json; do \
		echo "$$tsc -p $$c"; node node_modules/$$tsc/bin/tsc -p $$c || exit 1; done; done

# The loader's source files (// @ts-check) type-checked with the same tsc,
# against the constants that jsbuild generates from Go; the test build's
# hooks with them, as they import the loader's modules. Then the extension's files,
# against Chrome's extension API (@types/chrome).
# PIECES_JS: the repository's JavaScript, which pieces.mjs holds to functions
# of at most 100 lines (a file over 600 is a warning).
PIECES_JS = $(shell find js demo -name node_modules -prune -o -name '*.js' -print)

check-loader: testdata/types/node_modules/.package-lock.json
	$(GO) run ./wasm/cmd/jsbuild -constants $(CACHE)/constants.js
	cd testdata/types && ./node_modules/.bin/tsc --noEmit --strict --allowJs --checkJs --target es2022 --lib dom,es2024 \
		--skipLibCheck --types node ../../js/loader/*.js ../../js/loader/runtime/*.js ../../js/testhooks/*.js ../../js/bindings/*.js ../../js/loader/env.d.ts $(CACHE)/constants.js
	cd testdata/types && ./node_modules/.bin/tsc --noEmit --strict --allowJs --checkJs --target es2022 --lib dom,es2024 \
		--skipLibCheck --types chrome ../../js/extension/*.js
	cd testdata/types && node pieces.mjs $(addprefix ../../,$(PIECES_JS))

testdata/types/node_modules/.package-lock.json: testdata/types/package-lock.json
	$(call npm_ci,testdata/types,--ignore-scripts)
	@touch $@

lint:
	@out=$$(gofmt -l wasm); if [ -n "$$out" ]; then echo "gofmt would change: $$out"; exit 1; fi
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./...

# Fuzz targets: a short run in make test (their seeds and found crashers
# run as plain tests in every go test anyway; the short run looks a little
# further, 50,000 executions a target), the search in make fuzz. Found
# crashers stay in each package's testdata/fuzz as regression seeds. The
# budgets are counts of executions (a few seconds here), not durations: with
# a duration, Go 1.26's fuzzing engine can fail at its deadline with "context
# deadline exceeded" and no input (golang/go#75804, fixed in Go 1.27); a
# count has no deadline to race.
FUZZ_TARGETS := wasm/registry:FuzzDecodeRegistration wasm/registry:FuzzTemplateMatch wasm/mcp:FuzzHandle \
	wasm/modelcontext/modelcontexttest:FuzzPushes wasm/modelcontext/modelcontexttest:FuzzTemplates

# test-host also runs each benchmark of the core once (-benchtime 1x), so
# that one whose expectations went stale fails here, not in make bench.
# jsbuild (the build command) and jsonpatch (the differ, pure functions)
# start no goroutine and share no state between tests: they run without
# -race, which made them take 23 CPU-seconds instead of 4.
test-host:
	$(GO) test -race -count=1 ./wasm/registry/... ./wasm/mcp/... ./wasm/abi/... ./wasm/internal/stats/... ./wasm/internal/docs/...
	$(GO) test -count=1 ./wasm/cmd/jsbuild/... ./wasm/internal/jsonpatch/...
	$(GO) test -count=1 -run '^$$' -bench . -benchtime 1x ./wasm/registry ./wasm/mcp
	@mkdir -p $(CACHE); for t in $(FUZZ_TARGETS); do \
		echo "fuzz $${t#*:} ($(FUZZTIME))"; \
		$(GO) test -run '^$$' -fuzz "^$${t#*:}$$" -fuzztime $(FUZZTIME) ./$${t%%:*} 2>&1 | tee $(CACHE)/fuzz.log; \
		if [ $${PIPESTATUS[0]} -ne 0 ]; then \
			grep -q "Failing input written" $(CACHE)/fuzz.log && exit 1; \
			echo "fuzz $${t#*:}: the fuzzing engine failed without a failing input (a loaded machine); once more"; \
			$(GO) test -run '^$$' -fuzz "^$${t#*:}$$" -fuzztime $(FUZZTIME) ./$${t%%:*} || exit 1; \
		fi; \
	done

# The bridge tests run under wasmbrowsertest against the real //go:wasmimport
# functions: wasmbrowsertest reads wasm_exec.js from $GOROOT, so it is handed
# a GOROOT holding a copy with wasm/bridge/testdata/testhost.js appended, the
# "modelcontext" import module of the tests. They build with the test
# build's tag, to test its exports too (wasm/bridge/testbuild_test.go).
BRIDGE_GOROOT := $(CACHE)/bridgetest-goroot

$(BRIDGE_GOROOT)/lib/wasm/wasm_exec.js: $(WASM_EXEC) wasm/bridge/testdata/testhost.js
	@mkdir -p $(dir $@)
	cat $(WASM_EXEC) wasm/bridge/testdata/testhost.js > $@

test-wasm: test-deps $(BRIDGE_GOROOT)/lib/wasm/wasm_exec.js
	PATH="$(BIN):$$PATH" GOOS=js GOARCH=wasm $(GO) test -count=1 -tags $(TEST_TAGS) -exec="env GOROOT=$(BRIDGE_GOROOT) $(BIN)/go_js_wasm_exec" ./wasm/bridge/...

# The commands' tests but those another target runs (jsbuild in test-host,
# pack in test-package, relay in test-relay), so that each runs once.
BROWSER_CMDS = $(shell $(GO) list ./wasm/cmd/... | grep -v -e /cmd/jsbuild -e /cmd/pack -e /cmd/relay)

# SWAPS: the libraries that swap fragments of a page (htmx, Turbo, Preact),
# pinned in testdata/swaps, which the markup tests serve at /swaps/.
SWAPS := testdata/swaps/node_modules/.package-lock.json

$(SWAPS): testdata/swaps/package-lock.json
	$(call npm_ci,testdata/swaps,--ignore-scripts)
	@touch $@

# test-browser runs in three parts, which make test runs side by side: the
# contract tests mostly wait on Chromium (well under a core), so processes
# each with its browser finish sooner together. The first two split
# wasm/e2e's tests by name, -run and -skip of one pattern, so that every
# test runs in exactly one of them (A to L and the MCP tests took about as
# long as the rest in make test's runs); the third runs the commands' tests.
.PHONY: test-browser test-browser-1 test-browser-2 test-browser-3
E2E_HALF := ^Test([A-L]|MCP)
test-browser: test-browser-1 test-browser-2 test-browser-3

test-browser-1: build build-test demo-app test-deps mcpclient $(SWAPS)
	CHROMIUM="$(BIN)/chromium" $(GO) test -count=1 -timeout 30m -run '$(E2E_HALF)' ./wasm/e2e/

test-browser-2: build build-test demo-app test-deps mcpclient $(SWAPS)
	CHROMIUM="$(BIN)/chromium" $(GO) test -count=1 -timeout 30m -skip '$(E2E_HALF)' ./wasm/e2e/

test-browser-3: build build-test demo-app test-deps mcpclient
	CHROMIUM="$(BIN)/chromium" $(GO) test -count=1 -timeout 30m ./wasm/internal/browsertest/... $(BROWSER_CMDS)

# test-goapi: the Go API for Go WebAssembly apps (wasm/modelcontext). On the
# host with -race: its host build, its test double (modelcontexttest) against
# the module's rules, and its docs test (a fresh module built from its README:
# its test run on the host, its app loaded beside the module in Chromium).
# Then its browser tests, compiled to WebAssembly and run by wasmbrowsertest,
# against the built module, which they embed from the package's testdata/dist
# (git-ignored copies): the test build's script and .wasm (its hooks give the
# tests the module's live counts); the double among them, side by side
# with the module. (The demo's Go app, wasm/cmd/delivery, has its host test
# on the double run by test-browser, with the other commands.)
GOAPI := wasm/modelcontext

test-goapi: build build-test test-deps
	cp $(TESTDIST)/modelcontext.js $(TESTDIST)/modelcontext-runtime.js $(TESTDIST)/modelcontext.wasm $(GOAPI)/testdata/dist/
	CHROMIUM="$(BIN)/chromium" $(GO) test -race -count=1 ./$(GOAPI)/...
	PATH="$(BIN):$$PATH" GOOS=js GOARCH=wasm $(GO) test -count=1 -exec="$(BIN)/go_js_wasm_exec" ./$(GOAPI)/...

# make test: first what its targets need installed or built, none of it a
# test (test-prep, at the end of this file), three jobs at a time so that
# npm's installs overlap Go's compiles; then every test target, four at a
# time, in the order of TEST_TARGETS: the longest first (their times on two
# cores are in testdata/bench/PERFORMANCE.md), and make starts the next one
# as soon as one ends, so that both cores stay busy to the end and no short
# target waits behind a long one. Every target still runs alone, and
# wasm/internal/docs's TestMakeTestRunsEveryTarget fails when a test target
# is missing from the list.
.PHONY: test-prep
TEST_TARGETS := test-relay test-browser-2 test-browser-1 test-next test-host test-package \
	test-browser-3 test-angular test-sveltekit test-frameworks types test-goapi test-nuxt \
	test-astro test-node test-edge lint test-harness check-loader test-recipes test-patch test-wasm

# -Oline: each line as it is written, so that progress shows while the
# targets run, never two half-lines mixed.
test:
	@$(MAKE) --no-print-directory -j3 -Oline test-prep
	@$(MAKE) --no-print-directory -j4 -Oline $(TEST_TARGETS)

# help lists the targets a developer runs; the fast lane first.
.PHONY: help
help:
	@echo "make test-host     the core on the host with -race, the build tools, fuzzing, the doc checks (under a minute): the fast lane"
	@echo "make check-loader  the loader's types and small pieces; make types: the .d.ts and every ts example"
	@echo "make test-browser  the contract and MCP in headless Chromium against dist/ (the longest part;"
	@echo "                   test-browser-1, -2 and -3 are its parts)"
	@echo "make test          everything above and below, as CI runs it (.ci/run)"
	@echo "make test-wasm test-goapi test-node test-patch test-edge test-package test-relay"
	@echo "make test-frameworks test-next test-angular test-nuxt test-sveltekit test-astro test-recipes test-harness"
	@echo "                   each part of make test alone"
	@echo "make demo          the demo shop on http://$(ADDR)/"
	@echo "make build size bench bench-agent pack edge fuzz devtools-screenshot"

# test-node: the package in Node.js, as a page author's tooling meets it,
# installed from the fresh tarball: node-import.mjs imports it, requires it
# and evaluates the classic script without a document (SSR, scripts); then a
# Vitest suite under the node, jsdom and happy-dom environments, with the
# js/FRAMEWORKS.md's Vitest example as written (pinned in testdata/vitest; npm ci runs
# only when its lock file changed).
.PHONY: test-node
VITEST := testdata/vitest

$(VITEST)/node_modules/.package-lock.json: $(VITEST)/package-lock.json
	$(call npm_ci,$(VITEST),--ignore-scripts)
	@touch $@

test-node: $(TARBALL) $(VITEST)/node_modules/.package-lock.json
	cd $(VITEST) && rm -rf node_modules/modelcontext && \
		npm install --no-save --ignore-scripts --no-audit --no-fund ../../$(TARBALL) && \
		node --unhandled-rejections=strict node-import.mjs && \
		node readme.mjs && ./node_modules/.bin/vitest run

# test-patch: the loader's differ (js/loader/runtime/patch.js) on random pairs,
# its patches applied by fast-json-patch (pinned in testdata/patch), and the
# drift corpus that wasm/internal/jsonpatch's test holds Go's differ to.
.PHONY: test-patch
testdata/patch/node_modules/.package-lock.json: testdata/patch/package-lock.json
	$(call npm_ci,testdata/patch,--ignore-scripts)
	@touch $@

test-patch: testdata/patch/node_modules/.package-lock.json
	cd testdata/patch && node patch.test.mjs

# test-relay: the relay (wasm/cmd/relay, wasm/relay) against pages in
# headless Chromium, with the Go SDK's client, the official MCP conformance
# suite's resources scenarios and the MCP Inspector's CLI. relay-tools
# installs those two, and the Node.js 22 they need, at the versions
# testdata/relay/package-lock.json pins; npm ci runs only when it changed.
.PHONY: test-relay relay-tools
RELAY_TOOLS := testdata/relay/node_modules/.package-lock.json

relay-tools: $(RELAY_TOOLS)

$(RELAY_TOOLS): testdata/relay/package-lock.json
	$(call npm_ci,testdata/relay)
	@touch $@

test-relay: build build-test test-deps relay-tools extension
	CHROMIUM="$(BIN)/chromium" $(GO) test -race -count=1 ./wasm/relay/... ./wasm/cmd/relay/...

# devtools-screenshot: the DevTools panel on the demo (wasm/relay's
# TestDevToolsPanel), written to testdata/devtools/ for js/extension/README.md.
.PHONY: devtools-screenshot
devtools-screenshot: build build-test test-deps extension
	DEVTOOLS_SCREENSHOT_DIR="$(CURDIR)/testdata/devtools" CHROMIUM="$(BIN)/chromium" $(GO) test -count=1 -run '^TestDevToolsPanel$$' ./wasm/relay/

# extension: the browser extension (js/extension), unpacked in
# dist/extension/ for chrome://extensions' "Load unpacked", its manifest
# stamped with the commit it was built from. native-host builds the relay
# into dist/relay and installs it as the extension's native messaging host
# for Chromium and Chrome (relay --install-native-host; HOST_ADDR, if set, is
# the loopback address it serves Streamable HTTP on, else the install picks a
# free port of its own).
.PHONY: extension native-host
EXTENSION_SOURCES := $(wildcard js/extension/*)
HOST_ADDR ?=

extension: dist/extension/manifest.json

dist/extension/manifest.json: $(EXTENSION_SOURCES)
	@rm -rf dist/extension && mkdir -p dist/extension
	cp $(filter-out js/extension/manifest.json js/extension/README.md,$(EXTENSION_SOURCES)) dist/extension/
	sed 's|"version": "\([^"]*\)",|"version": "\1", "version_name": "\1 ($(shell git describe --always --dirty 2>/dev/null || echo unknown))",|' js/extension/manifest.json > $@

native-host: extension
	@mkdir -p dist
	$(GO) build -o dist/relay ./wasm/cmd/relay
	dist/relay --install-native-host $(if $(HOST_ADDR),--http $(HOST_ADDR))

fuzz:
	$(MAKE) test-host FUZZTIME=6000000x

clean:
	rm -rf dist $(CACHE)

# ---- The demo as a Cloudflare Worker (wasm/cmd/edge) -----------------------
# edge-build stages the demo, the module and the MCP client bundle into
# wasm/cmd/edge/site/public/ (embedded whole: new files need no code change),
# builds the Worker's .wasm and puts Go's own wasm_exec.js beside it.
# edge serves it locally under workerd (pinned in testdata/edge), without
# network access; from wasm/cmd/edge, `npx wrangler deploy` publishes it.
EDGE        := wasm/cmd/edge
EDGE_SITE   := $(EDGE)/site/public
EDGE_ADDR   ?= 127.0.0.1:8787
WORKERD_DIR := testdata/edge
# The workerd binary itself (not npm's Node wrapper, so that signals reach it).
WORKERD      = $(shell cd $(WORKERD_DIR) && node -p "require('workerd').default")

edge-build: build mcpclient
	rm -rf $(EDGE_SITE) && mkdir -p $(EDGE_SITE)/vendor $(EDGE)/build
	cp -R demo $(EDGE_SITE)/demo
	cp js/extension/jsontree.js $(EDGE_SITE)/demo/ # the value tree the demo shares with the DevTools panel (wasm/cmd/serve: sharedFiles)
	mkdir -p $(EDGE_SITE)/static
	cp dist/modelcontext.js dist/modelcontext-runtime.js dist/modelcontext.mjs dist/modelcontext.wasm $(EDGE_SITE)/static/
	cp $(WASM_EXEC) $(EDGE_SITE)/static/wasm_exec.js
	echo '[]' > $(EDGE_SITE)/static/go-apps.json # the Go app would take the Worker over 3 MB
	cp testdata/out/mcpclient.js $(EDGE_SITE)/vendor/
	cp $(WASM_EXEC) $(EDGE)/build/wasm_exec.js
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags='-s -w' -o $(EDGE)/build/app.wasm ./$(EDGE)
	@echo "edge-build: $(EDGE)/build/app.wasm is $$(wc -c < $(EDGE)/build/app.wasm) bytes; the Worker uploads $$(cat $(EDGE)/build/app.wasm $(EDGE)/worker.mjs $(EDGE)/build/wasm_exec.js | gzip -9 | wc -c) bytes gzipped (the free plan allows 3 MB)"

$(WORKERD_DIR)/node_modules/.package-lock.json: $(WORKERD_DIR)/package-lock.json
	$(call npm_ci,$(WORKERD_DIR),--ignore-scripts)
	@touch $@

edge: edge-build $(WORKERD_DIR)/node_modules/.package-lock.json
	@echo "edge: http://$(EDGE_ADDR)/ (the Worker under workerd, no network access; Ctrl-C stops it)"
	cd $(EDGE) && exec $(WORKERD) serve workerd.capnp --socket-addr http=$(EDGE_ADDR)

# test-edge: the handler's rules (httptest), then the Worker under workerd
# (started and stopped by the tests): headers, 304s, and the demo in
# headless Chromium.
test-edge: edge-build test-deps $(WORKERD_DIR)/node_modules/.package-lock.json
	$(GO) test -race -count=1 ./wasm/serve/... ./wasm/internal/demosite/...
	CHROMIUM="$(BIN)/chromium" WORKERD="$(WORKERD)" $(GO) test -count=1 ./wasm/edgetest/...

# bench-visit: what a visitor pays, first and repeat visit to the demo's
# ready through net/http and through the Worker under workerd, in fresh
# Chromium profiles (results in testdata/out/visit.json).
bench-visit: edge-build test-deps $(WORKERD_DIR)/node_modules/.package-lock.json
	CHROMIUM="$(BIN)/chromium" WORKERD="$(WORKERD)" $(GO) run ./wasm/cmd/visit

# The npm package (wasm/cmd/pack): make pack stages dist/package/ and writes
# dist/modelcontext-<version>.tgz, after checking that js/package.json,
# CHANGELOG.md and the MCP server agree on the version, and then checks the
# tarball's files against package.json.
.PHONY: pack test-package
VERSION := $(shell sed -n 's/^  "version": "\(.*\)",$$/\1/p' js/package.json)
TARBALL := dist/modelcontext-$(VERSION).tgz

pack: $(TARBALL)

$(TARBALL): dist/modelcontext.wasm dist/modelcontext.js dist/modelcontext-runtime.js dist/modelcontext.mjs dist/modelcontext.cjs js/package.json js/README.md \
		js/modelcontext.d.ts $(wildcard js/react/* js/vue/*) LICENSE CHANGELOG.md $(wildcard wasm/cmd/pack/*.go) wasm/mcp/server.go
	$(GO) run ./wasm/cmd/pack -dist dist -o dist -goroot $(GOROOT)

# test-package tries the tarball as a user would. Each sample app in
# testdata/bundlers installs its locked bundler (npm ci, only when its lock file
# changed) and the fresh tarball (npm install --no-save), builds for production
# (npm run build) and builds src/bare.js, a side-effect import alone, with the
# bundler's own command line; wasm/bundlers then runs the builds in headless
# Chromium. testdata/types/consumer compiles against the installed tarball
# with moduleResolution bundler and node16, with the package in
# compilerOptions.types, next to @mcp-b/webmcp-types, and the docs' ```ts
# blocks (tsconfig.readme.json). wasm/cmd/pack's TestREADMEInstall runs the
# README's install commands in a fresh app folder.
BUNDLERS := vite webpack esbuild rollup parcel
bare_vite    := ./node_modules/.bin/vite build bare --outDir ../dist-bare --emptyOutDir --logLevel warn
bare_webpack := ./node_modules/.bin/webpack --mode production --entry ./src/bare.js --output-path dist-bare --no-stats
bare_esbuild := ./node_modules/.bin/esbuild src/bare.js --bundle --format=esm --minify --outdir=dist-bare --log-level=warning
bare_rollup  := ./node_modules/.bin/rollup -c --input src/bare.js --dir dist-bare --silent
bare_parcel  := ./node_modules/.bin/parcel build src/bare.js --dist-dir dist-bare --no-cache --log-level warn
# esbuild also builds the app as a classic script (an IIFE, esbuild's default
# format for the browser), which index-iife.html loads with a plain script tag.
more_esbuild := && ./node_modules/.bin/esbuild src/main.js --bundle --format=iife --minify --outdir=dist-iife --log-level=warning \
	&& cp node_modules/modelcontext/modelcontext.wasm dist-iife/

testdata/bundlers/%/node_modules/.package-lock.json: testdata/bundlers/%/package-lock.json
	$(call npm_ci,testdata/bundlers/$*,--ignore-scripts)
	@touch $@

define bundler_app
	cd testdata/bundlers/$(1) && rm -rf node_modules/modelcontext dist dist-bare dist-iife && \
		npm install --no-save --ignore-scripts --no-audit --no-fund ../../../$(TARBALL) && \
		npm run --silent build && $(bare_$(1)) $(more_$(1))

endef

test-package: $(TARBALL) test-deps testdata/types/node_modules/.package-lock.json \
		$(foreach b,$(BUNDLERS),testdata/bundlers/$(b)/node_modules/.package-lock.json)
	$(foreach b,$(BUNDLERS),$(call bundler_app,$(b)))
	cd testdata/types && rm -rf node_modules/modelcontext && \
		npm install --no-save --ignore-scripts --no-audit --no-fund ../../$(TARBALL)
	node testdata/types/readme.mjs testdata/types/consumer/readme
	cd testdata/types/consumer && for tsc in $(TSCS); do for c in bundler node16 types bare webmcp readme; do \
		echo "$$tsc -p tsconfig.$$c.json"; node ../node_modules/$$tsc/bin/tsc -p tsconfig.$$c.json || exit 1; done; done
	CHROMIUM="$(BIN)/chromium" $(GO) test -count=1 ./wasm/cmd/pack ./wasm/bundlers

# test-frameworks tries modelcontext/react, modelcontext/vue and js/FRAMEWORKS.md's
# store recipes against the tarball. Each app in testdata/frameworks installs
# its locked dependencies (npm ci, only when its lock file changed) and the
# fresh tarball (npm install --no-save); vite-react is built for production
# (dist/) and for development (dist-dev/, where StrictMode runs effects
# twice), vite-vue for production, and each renders its binding on the server
# (ssr.mjs, Node.js without a document); types type-checks both bindings' .d.ts
# as an app uses them. wasm/frameworks bundles each store recipe with the
# stores app's esbuild and drives every build in headless Chromium.
.PHONY: test-frameworks
FRAMEWORKS := vite-react vite-vue stores types
build_vite-react := npm run --silent build && \
	NODE_ENV=development ./node_modules/.bin/vite build --mode development --outDir dist-dev --logLevel warn && node ssr.mjs
build_vite-vue := npm run --silent build && node ssr.mjs
build_stores := true
build_types := ./node_modules/.bin/tsc -p .

testdata/frameworks/%/node_modules/.package-lock.json: testdata/frameworks/%/package-lock.json
	$(call npm_ci,testdata/frameworks/$*,--ignore-scripts)
	@touch $@

define framework_app
	cd testdata/frameworks/$(1) && rm -rf node_modules/modelcontext dist dist-dev && \
		npm install --no-save --ignore-scripts --no-audit --no-fund ../../../$(TARBALL) && $(build_$(1))

endef

test-frameworks: $(TARBALL) test-deps $(foreach a,$(FRAMEWORKS),testdata/frameworks/$(a)/node_modules/.package-lock.json)
	$(foreach a,$(FRAMEWORKS),$(call framework_app,$(a)))
	CHROMIUM="$(BIN)/chromium" $(GO) test -count=1 ./wasm/frameworks

# bench-frameworks (part of make bench): a push through useResource against
# the same push through a hand-written registerResource in effects, in one
# page of the vite-react production build (wasm/frameworks' TestPushCost).
.PHONY: bench-frameworks
bench: bench-frameworks
bench-frameworks: $(TARBALL) test-deps testdata/frameworks/vite-react/node_modules/.package-lock.json
	$(call framework_app,vite-react)
	CHROMIUM="$(BIN)/chromium" $(GO) test -count=1 -run '^TestPushCost$$' -v ./wasm/frameworks -args -push-cost

# bench-floods (part of make bench): a connected frame's four floods, held to
# their time bounds (the page's longest task of its own ≤ 50 ms, timer ticks),
# which make test only measures and logs (wasm/e2e's TestConnectFrameFloods).
.PHONY: bench-floods
bench: bench-floods
bench-floods: build build-test test-deps mcpclient
	CHROMIUM="$(BIN)/chromium" $(GO) test -count=1 -run '^TestConnectFrameFloods$$' -v ./wasm/e2e -args -floods-timing

# bench-devtools (part of make bench): a push with the DevTools panel's hook
# recording, against no panel and against the module with the inspection
# channel's checks taken out, in one page (wasm/relay's TestDevToolsPushCost).
.PHONY: bench-devtools
bench: bench-devtools
bench-devtools: build test-deps
	CHROMIUM="$(BIN)/chromium" $(GO) test -count=1 -run '^TestDevToolsPushCost$$' -v ./wasm/relay -args -devtools-cost

# bench-agent (part of make bench): what an agent receives while it follows
# the demo shop as a scripted visitor shops (over 100 actions): every
# resource each turn, changesSince and the changed ones whole, read_changes,
# an in-page agent that follows by {patch: true} subscriptions; and over MCP,
# with and without the changes capability. Then
# a 10 KB push with one {patch: true} subscriber against a plain push, and
# changesSince over 1,000 resources (wasm/cmd/agentsession; results in
# testdata/out/agentsession.json, and the table the docs link to in
# testdata/bench/AGENT.md). The tokens are counted by gpt-tokenizer at
# the version testdata/agentsession/package-lock.json pins; npm ci runs only
# when it changed.
.PHONY: bench-agent
AGENTSESSION := testdata/agentsession/node_modules/.package-lock.json
bench: bench-agent
bench-agent: build demo-app test-deps mcpclient $(AGENTSESSION)
	CHROMIUM="$(BIN)/chromium" GO="$(GO)" $(GO) run ./wasm/cmd/agentsession

$(AGENTSESSION): testdata/agentsession/package-lock.json
	$(call npm_ci,testdata/agentsession,--ignore-scripts)
	@touch $@

# test-next: the Next.js app (testdata/frameworks/next) against the tarball.
# npm ci runs only when its lock changed; the fresh tarball is installed with
# --no-save; `next build` (Turbopack) writes .next/ and `next build --webpack`
# .next-webpack/ (the app's NEXT_DIST_DIR), each printing into
# build-<bundler>.log, which the tests check. wasm/frameworks/nextjs then
# serves both builds with `next start`, runs `next dev` with each bundler and
# drives every one in headless Chromium.
.PHONY: test-next
NEXT_APP := testdata/frameworks/next
next_build = ( $(2) ./node_modules/.bin/next build $(3) > build-$(1).log 2>&1 || { cat build-$(1).log; exit 1; } )

$(NEXT_APP)/node_modules/.package-lock.json: $(NEXT_APP)/package-lock.json
	$(call npm_ci,$(NEXT_APP),--ignore-scripts)
	@touch $@

test-next: $(TARBALL) test-deps $(NEXT_APP)/node_modules/.package-lock.json
	cd $(NEXT_APP) && rm -rf node_modules/modelcontext && \
		npm install --no-save --ignore-scripts --no-audit --no-fund ../../../$(TARBALL) && \
		export NEXT_TELEMETRY_DISABLED=1 && \
		$(call next_build,turbopack,,) && $(call next_build,webpack,NEXT_DIST_DIR=.next-webpack,--webpack)
	NEXT_TELEMETRY_DISABLED=1 CHROMIUM="$(BIN)/chromium" $(GO) test -count=1 -timeout 20m ./wasm/frameworks/nextjs

# test-sveltekit: the SvelteKit 2 app (testdata/frameworks/sveltekit: Svelte 5,
# adapter-node) against the tarball. npm ci runs only when its lock changed;
# the fresh tarball is installed with --no-save; npm run build copies
# js/FRAMEWORKS.md's SvelteKit recipes into src/readme/, runs svelte-check
# (a warning fails it) and vite build, printing into build.log, which the
# tests check. wasm/frameworks/sveltekit serves the build with `node build`
# and drives it in headless Chromium.
#
# test-astro: the Astro 7 app (testdata/frameworks/astro: the Node adapter,
# a Preact island) the same way, with `astro check` and `astro build`, on
# the Node.js 22 its lock pins (the npm package node, first on PATH under
# npm run: Astro 7 wants 22.12 or later); its npm ci runs install scripts,
# for that package. wasm/frameworks/astro serves the build with the
# adapter's server on that Node.js.
#
# test-recipes: js/FRAMEWORKS.md's htmx, Turbo and Alpine.js pages, as
# written, with their libraries (locked in testdata/frameworks/recipes) and
# the tarball, served by wasm/frameworks/recipes' Go server.
#
# test-harness: Playwright and Puppeteer (playwright-core, puppeteer-core,
# locked in testdata/harness; no browser download) on a lazily booting page
# of the tarball, in the tests' Chromium: page.evaluate(() =>
# document.modelContext.ready) resolves, and the resource is read.
.PHONY: test-sveltekit test-astro test-recipes test-harness
SVELTEKIT_APP := testdata/frameworks/sveltekit
ASTRO_APP     := testdata/frameworks/astro
RECIPES_APP   := testdata/frameworks/recipes
HARNESS       := testdata/harness

$(ASTRO_APP)/node_modules/.package-lock.json: $(ASTRO_APP)/package-lock.json
	$(call npm_ci,$(ASTRO_APP))
	@touch $@

$(HARNESS)/node_modules/.package-lock.json: $(HARNESS)/package-lock.json
	$(call npm_ci,$(HARNESS),--ignore-scripts)
	@touch $@

# install_tarball,dir installs the fresh tarball into the app in dir.
install_tarball = cd $(1) && rm -rf node_modules/modelcontext && \
	npm install --no-save --ignore-scripts --no-audit --no-fund $(CURDIR)/$(TARBALL)

test-sveltekit: $(TARBALL) test-deps $(SVELTEKIT_APP)/node_modules/.package-lock.json
	$(call install_tarball,$(SVELTEKIT_APP)) && rm -rf build .svelte-kit && \
		{ npm run --silent build > build.log 2>&1 || { cat build.log; exit 1; }; }
	CHROMIUM="$(BIN)/chromium" $(GO) test -count=1 ./wasm/frameworks/sveltekit

test-astro: $(TARBALL) test-deps $(ASTRO_APP)/node_modules/.package-lock.json
	$(call install_tarball,$(ASTRO_APP)) && rm -rf dist .astro && export ASTRO_TELEMETRY_DISABLED=1 && \
		{ npm run --silent build > build.log 2>&1 || { cat build.log; exit 1; }; }
	CHROMIUM="$(BIN)/chromium" $(GO) test -count=1 ./wasm/frameworks/astro

test-recipes: $(TARBALL) test-deps $(RECIPES_APP)/node_modules/.package-lock.json
	$(call install_tarball,$(RECIPES_APP))
	CHROMIUM="$(BIN)/chromium" $(GO) test -count=1 ./wasm/frameworks/recipes

test-harness: $(TARBALL) test-deps $(HARNESS)/node_modules/.package-lock.json
	$(call install_tarball,$(HARNESS)) && CHROMIUM="$(BIN)/chromium" node --test harness.test.mjs

# test-angular: the Angular 22 workspace (testdata/frameworks/angular: the
# esbuild application builder; projects csr, the browser alone, and ssr,
# server-side rendering with / prerendered) against the tarball, with
# nothing about modelcontext in angular.json. Its npm ci runs install
# scripts, for the Node.js 22 the Angular CLI needs (the npm package node,
# which its lock pins, first on PATH); the fresh tarball is installed with
# --no-save; ng build csr and ng build ssr (each type-checks the app under
# strict with skipLibCheck off, beside Angular's own WebMCP types) print
# into build-<project>.log, which the tests check. wasm/frameworks/angular
# serves both builds (ssr with the app's own server on that Node.js), runs
# ng serve, and drives each in headless Chromium.
#
# test-nuxt: the Nuxt 4 app (testdata/frameworks/nuxt: Vite 7, Pinia, the
# modelcontext/nuxt module, one line of nuxt.config) the same way: nuxt
# typecheck (vue-tsc) into typecheck.log, nuxt build into build.log;
# wasm/frameworks/nuxt serves the build with Nitro's server on that
# Node.js, runs nuxt dev, and drives each in headless Chromium.
.PHONY: test-angular test-nuxt
ANGULAR_APP := testdata/frameworks/angular
NUXT_APP    := testdata/frameworks/nuxt
# on_node22 puts the app's pinned Node.js (and its CLIs) first on PATH.
on_node22 = export PATH="$$PWD/node_modules/.bin:$$PATH"
ng_build = { ng build $(1) > build-$(1).log 2>&1 || { cat build-$(1).log; exit 1; }; }

$(ANGULAR_APP)/node_modules/.package-lock.json: $(ANGULAR_APP)/package-lock.json
	$(call npm_ci,$(ANGULAR_APP))
	@touch $@

$(NUXT_APP)/node_modules/.package-lock.json: $(NUXT_APP)/package-lock.json
	$(call npm_ci,$(NUXT_APP))
	@touch $@

# The package ships js/nuxt (the modelcontext/nuxt module).
$(TARBALL): $(wildcard js/nuxt/*)

test-angular: $(TARBALL) test-deps $(ANGULAR_APP)/node_modules/.package-lock.json
	$(call install_tarball,$(ANGULAR_APP)) && rm -rf dist .angular && $(on_node22) && export NG_CLI_ANALYTICS=false && \
		$(call ng_build,csr) && $(call ng_build,ssr)
	NG_CLI_ANALYTICS=false CHROMIUM="$(BIN)/chromium" $(GO) test -count=1 -timeout 20m ./wasm/frameworks/angular

test-nuxt: $(TARBALL) test-deps $(NUXT_APP)/node_modules/.package-lock.json
	$(call install_tarball,$(NUXT_APP)) && rm -rf .nuxt .output && $(on_node22) && export NUXT_TELEMETRY_DISABLED=1 && \
		{ nuxt typecheck > typecheck.log 2>&1 || { cat typecheck.log; exit 1; }; } && \
		{ nuxt build > build.log 2>&1 || { cat build.log; exit 1; }; }
	NUXT_TELEMETRY_DISABLED=1 CHROMIUM="$(BIN)/chromium" $(GO) test -count=1 -timeout 20m ./wasm/frameworks/nuxt

# test-prep: every npm install, build and tool that make test's targets need
# (each target still names its own, so that it runs alone).
TEST_NPM := testdata/types/node_modules/.package-lock.json $(MCPCLIENT)/node_modules/.package-lock.json \
	$(VITEST)/node_modules/.package-lock.json testdata/patch/node_modules/.package-lock.json $(RELAY_TOOLS) \
	$(WORKERD_DIR)/node_modules/.package-lock.json \
	$(foreach b,$(BUNDLERS),testdata/bundlers/$(b)/node_modules/.package-lock.json) \
	$(foreach a,$(FRAMEWORKS),testdata/frameworks/$(a)/node_modules/.package-lock.json) \
	$(NEXT_APP)/node_modules/.package-lock.json $(SWAPS)
TEST_NPM += $(SVELTEKIT_APP)/node_modules/.package-lock.json $(ASTRO_APP)/node_modules/.package-lock.json \
	$(RECIPES_APP)/node_modules/.package-lock.json $(HARNESS)/node_modules/.package-lock.json

TEST_NPM += $(ANGULAR_APP)/node_modules/.package-lock.json $(NUXT_APP)/node_modules/.package-lock.json

test-prep: test-deps build-test demo-app mcpclient extension $(TARBALL) $(BRIDGE_GOROOT)/lib/wasm/wasm_exec.js $(TEST_NPM)
