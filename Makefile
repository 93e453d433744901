# The two front doors: `make demo` serves the demo on 127.0.0.1, `make test`
# runs every test (installing Chromium and wasmbrowsertest when missing).
GO       ?= go
GOROOT   := $(shell $(GO) env GOROOT)
WASM_EXEC := $(GOROOT)/lib/wasm/wasm_exec.js
CACHE    := $(CURDIR)/.cache
BIN      := $(CACHE)/bin
ADDR     ?= 127.0.0.1:8080
FUZZTIME ?= 5s
GO_SOURCES := $(shell find wasm -name '*.go' -not -name '*_test.go' -not -path 'wasm/cmd/*') wasm/cmd/modelcontext/main.go go.mod

.PHONY: build demo test test-deps test-host test-wasm test-browser lint types fuzz size bench clean mcpclient

build: dist/modelcontext.wasm dist/modelcontext.js dist/modelcontext.mjs

dist/modelcontext.wasm: $(GO_SOURCES)
	@mkdir -p dist
	GOOS=js GOARCH=wasm $(GO) build -trimpath -gcflags=all=-l -ldflags='-s -w' -o $@ ./wasm/cmd/modelcontext

# The classic script and the ES module: the loader with Go's own wasm_exec.js
# (from the Go that built the .wasm) folded in, one file each.
dist/modelcontext.js dist/modelcontext.mjs &: js/loader.js $(WASM_EXEC) wasm/cmd/jsbuild/main.go
	$(GO) run ./wasm/cmd/jsbuild -o dist -wasm-exec $(WASM_EXEC)

demo: build mcpclient
	$(GO) run ./wasm/cmd/serve -addr $(ADDR) -demo demo -dist dist -vendor testdata/out

# bench: the module side by side with the plain-JS reference, and its MCP
# server against MCP-B's through the same stock client, in headless
# Chromium (results in testdata/out/bench.json), then the pure core's hot paths.
bench: build test-deps mcpclient
	CHROMIUM="$(BIN)/chromium" GO="$(GO)" $(GO) run ./wasm/cmd/bench
	$(GO) test -run '^$$' -bench . -benchmem ./wasm/registry

size: build
	@$(GO) run ./wasm/cmd/size dist/modelcontext.wasm dist/modelcontext.js

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
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
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
	cd $(MCPCLIENT) && npm ci --ignore-scripts --no-audit --no-fund
	@touch $@

$(MCPCLIENT_OUT) &: $(MCPCLIENT)/node_modules/.package-lock.json $(MCPCLIENT)/package.json $(wildcard $(MCPCLIENT)/src/*.js)
	cd $(MCPCLIENT) && npm run --silent build

# The TypeScript types, checked with both pinned compilers (TypeScript 5.9 and
# 7): the README's examples in usage.ts and invalid.ts (descriptors that must
# not compile) against js/modelcontext.d.ts alone, then webmcp.ts with
# @mcp-b/webmcp-types in the same program.
TSCS := typescript typescript-7

types: testdata/types/node_modules/.package-lock.json
	cd testdata/types && for tsc in $(TSCS); do for c in tsconfig.json tsconfig.webmcp.json; do \
		echo "$$tsc -p $$c"; node node_modules/$$tsc/bin/tsc -p $$c || exit 1; done; done

testdata/types/node_modules/.package-lock.json: testdata/types/package-lock.json
	cd testdata/types && npm ci --ignore-scripts --no-audit --no-fund
	@touch $@

lint:
	@out=$$(gofmt -l wasm); if [ -n "$$out" ]; then echo "gofmt would change: $$out"; exit 1; fi
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./...

# Fuzz targets: a short run in make test, a longer one in make fuzz. Found
# crashers stay in each package's testdata/fuzz as regression seeds.
FUZZ_TARGETS := wasm/registry:FuzzDecodeDescriptor wasm/registry:FuzzTemplateMatch wasm/mcp:FuzzHandle

test-host:
	$(GO) test -race -count=1 ./wasm/registry/... ./wasm/mcp/...
	@for t in $(FUZZ_TARGETS); do \
		echo "fuzz $${t#*:} ($(FUZZTIME))"; \
		$(GO) test -run '^$$' -fuzz "^$${t#*:}$$" -fuzztime $(FUZZTIME) ./$${t%%:*} || exit 1; \
	done

test-wasm: test-deps
	PATH="$(BIN):$$PATH" GOOS=js GOARCH=wasm $(GO) test -tags bridgetest -count=1 -exec="$(BIN)/go_js_wasm_exec" ./wasm/bridge/...

test-browser: build test-deps mcpclient
	CHROMIUM="$(BIN)/chromium" $(GO) test -count=1 ./wasm/e2e/... ./wasm/cmd/...

test: lint types test-host test-wasm test-browser test-package

fuzz:
	$(MAKE) test-host FUZZTIME=2m

clean:
	rm -rf dist $(CACHE)

# The npm package (wasm/cmd/pack): make pack stages dist/package/ and writes
# dist/modelcontext-<version>.tgz, after checking that js/package.json,
# CHANGELOG.md and the MCP server agree on the version, and then checks the
# tarball's files against package.json.
.PHONY: pack test-package
VERSION := $(shell sed -n 's/^  "version": "\(.*\)",$$/\1/p' js/package.json)
TARBALL := dist/modelcontext-$(VERSION).tgz

pack: $(TARBALL)

$(TARBALL): dist/modelcontext.wasm dist/modelcontext.js dist/modelcontext.mjs js/package.json js/README.md \
		js/modelcontext.d.ts LICENSE CHANGELOG.md $(wildcard wasm/cmd/pack/*.go) wasm/mcp/server.go
	$(GO) run ./wasm/cmd/pack -dist dist -o dist -goroot $(GOROOT)

# test-package tries the tarball as a user would. Each sample app in
# testdata/bundlers installs its locked bundler (npm ci, only when its lock file
# changed) and the fresh tarball (npm install --no-save), builds for production
# (npm run build) and builds src/bare.js, a side-effect import alone, with the
# bundler's own command line; wasm/bundlers then runs the builds in headless
# Chromium. testdata/types/consumer compiles against the installed tarball
# with moduleResolution bundler and node16, with the package in
# compilerOptions.types, and next to @mcp-b/webmcp-types.
BUNDLERS := vite webpack esbuild rollup
bare_vite    := ./node_modules/.bin/vite build bare --outDir ../dist-bare --emptyOutDir --logLevel warn
bare_webpack := ./node_modules/.bin/webpack --mode production --entry ./src/bare.js --output-path dist-bare --no-stats
bare_esbuild := ./node_modules/.bin/esbuild src/bare.js --bundle --format=esm --minify --outdir=dist-bare --log-level=warning
bare_rollup  := ./node_modules/.bin/rollup -c --input src/bare.js --dir dist-bare --silent

testdata/bundlers/%/node_modules/.package-lock.json: testdata/bundlers/%/package-lock.json
	cd testdata/bundlers/$* && npm ci --ignore-scripts --no-audit --no-fund
	@touch $@

define bundler_app
	cd testdata/bundlers/$(1) && rm -rf node_modules/modelcontext dist dist-bare && \
		npm install --no-save --ignore-scripts --no-audit --no-fund ../../../$(TARBALL) && \
		npm run --silent build && $(bare_$(1))

endef

test-package: $(TARBALL) test-deps testdata/types/node_modules/.package-lock.json \
		$(foreach b,$(BUNDLERS),testdata/bundlers/$(b)/node_modules/.package-lock.json)
	$(foreach b,$(BUNDLERS),$(call bundler_app,$(b)))
	cd testdata/types && rm -rf node_modules/modelcontext && \
		npm install --no-save --ignore-scripts --no-audit --no-fund ../../$(TARBALL)
	cd testdata/types/consumer && for tsc in $(TSCS); do for c in bundler node16 types bare webmcp; do \
		echo "$$tsc -p tsconfig.$$c.json"; node ../node_modules/$$tsc/bin/tsc -p tsconfig.$$c.json || exit 1; done; done
	CHROMIUM="$(BIN)/chromium" $(GO) test -count=1 ./wasm/cmd/pack ./wasm/bundlers
