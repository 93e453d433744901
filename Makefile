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

# The TypeScript types, checked by compiling the README's examples
# (testdata/types/usage.ts) with the pinned tsc.
types: testdata/types/node_modules/.package-lock.json
	cd testdata/types && ./node_modules/.bin/tsc --noEmit --strict --target es2022 --lib dom,es2022 \
		--module esnext --moduleResolution bundler usage.ts ../../js/modelcontext.d.ts

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

test: lint types test-host test-wasm test-browser test-relay

# test-relay: the relay (wasm/cmd/relay, wasm/relay) against pages in
# headless Chromium, with the Go SDK's client, the official MCP conformance
# suite's resources scenarios and the MCP Inspector's CLI. relay-tools
# installs those two, and the Node.js 22 they need, at the versions
# testdata/relay/package-lock.json pins; npm ci runs only when it changed.
.PHONY: test-relay relay-tools
RELAY_TOOLS := testdata/relay/node_modules/.package-lock.json

relay-tools: $(RELAY_TOOLS)

$(RELAY_TOOLS): testdata/relay/package-lock.json
	cd testdata/relay && npm ci --no-audit --no-fund
	@touch $@

test-relay: build test-deps relay-tools
	CHROMIUM="$(BIN)/chromium" $(GO) test -race -count=1 ./wasm/relay/... ./wasm/cmd/relay/...

fuzz:
	$(MAKE) test-host FUZZTIME=2m

clean:
	rm -rf dist $(CACHE)
