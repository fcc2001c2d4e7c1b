# ipatlas: the README's two commands are `make run` and `make test`.
GO       ?= go
BIN      := bin/ipatlas
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
DATA     ?= ./var/data
# MIRROR: a local directory of sources (air-gapped installs, CI): MIRROR=../shared/data
MIRROR   ?=
ADDR     ?= 127.0.0.1:8080
DEMO     ?= demo@ipatlas.local
FUZZTIME ?= 10s

MIRROR_FLAG := $(if $(MIRROR),--mirror $(MIRROR),)

.PHONY: build run data data-update test fmt-check vet lint unit test-snapshot bench fuzz clean

build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "-s -w -X main.version=$(VERSION)" -o $(BIN) ./cmd/ipatlas

# data builds the snapshot once; `make data-update` rebuilds it from the (cached) sources.
data: build
	@test -f $(DATA)/ipatlas.snapshot || $(BIN) data update --data $(DATA) $(MIRROR_FLAG)

data-update: build
	$(BIN) data update --data $(DATA) $(MIRROR_FLAG)

# run serves on $(ADDR) with a demo account; its key is printed (a new one each run).
run: data
	@key=$$($(BIN) keys create --email $(DEMO) --plan unlimited 2>/dev/null || $(BIN) keys regenerate --email $(DEMO) --wait 0s) && \
	echo "" && echo "Demo API key: $$key" && \
	echo "Try:  curl 'http://$(ADDR)/data/country-info?code=IE&localityLanguage=de&key='$$key" && echo "" && \
	exec $(BIN) serve --addr $(ADDR) --data $(DATA)

test: fmt-check vet lint unit

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	@# modernc.org/sqlite needs exactly the modernc.org/libc it was generated against.
	@test "$$($(GO) list -m -f '{{.Version}}' modernc.org/libc)" = "$$(awk '$$1=="modernc.org/libc"{print $$2}' $$($(GO) list -m -f '{{.Dir}}' modernc.org/sqlite)/go.mod)" || \
		{ echo "modernc.org/libc does not match what modernc.org/sqlite requires"; exit 1; }

# vet also checks the other 64-bit targets users run the server on (arm64 has its own
# assembly in internal/prefetch; Windows and macOS their own file and signal code).
CROSS_TARGETS := linux/arm64 darwin/arm64 windows/amd64

vet:
	$(GO) vet ./...
	@for t in $(CROSS_TARGETS); do echo "go vet ($$t)"; \
		GOOS=$${t%/*} GOARCH=$${t#*/} CGO_ENABLED=0 $(GO) vet ./... || exit 1; done

# lint runs staticcheck at a pinned version, fetched through the module proxy like any module.
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2

lint:
	$(GO) run $(STATICCHECK) ./...

# test-snapshot builds the full real-data snapshot that the real-data tests read (through
# IPATLAS_TEST_SNAPSHOT): npm sources through the shared test cache, the others from
# ../shared/data where it exists. A warm cache makes this about 30 s.
TEST_CACHE  ?= $${XDG_CACHE_HOME:-$$HOME/.cache}/ipatlas-test-cache
TEST_MIRROR ?= $(wildcard ../shared/data)
TEST_DATA   := var/test-data

test-snapshot: build
	$(BIN) data update --data $(TEST_DATA) --cache $(TEST_CACHE) $(if $(TEST_MIRROR),--mirror $(TEST_MIRROR),)

# unit runs every test with the race detector; fuzz targets run their seed corpora.
unit: test-snapshot
	IPATLAS_TEST_SNAPSHOT=$(abspath $(TEST_DATA))/ipatlas.snapshot $(GO) test -race -count=1 -timeout 20m ./...

# bench runs the Go benchmarks (on the real snapshot where they need it), then the load
# test: a real server on 127.0.0.1, every endpoint in turn, CPU per request as a ratio to
# the static baseline (cmd/loadtest), as fast as the server answers and then paced at
# LOAD_RATE requests/s for every endpoint alike (docs/performance.md says why both).
LOAD_DURATION ?= 5s
LOAD_RATE     ?= 10000

bench: test-snapshot
	IPATLAS_TEST_SNAPSHOT=$(abspath $(TEST_DATA))/ipatlas.snapshot $(GO) test -run '^$$' -bench . -benchmem ./...
	$(GO) run ./cmd/loadtest --bin $(BIN) --data $(TEST_DATA) --duration $(LOAD_DURATION)
	$(GO) run ./cmd/loadtest --bin $(BIN) --data $(TEST_DATA) --duration $(LOAD_DURATION) --rate $(LOAD_RATE)

# fuzz runs each fuzz target for $(FUZZTIME).
fuzz:
	@for pkg in $$($(GO) list ./...); do \
		for f in $$($(GO) test -list '^Fuzz' $$pkg 2>/dev/null | grep '^Fuzz'); do \
			echo "== $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
		done; \
	done

clean:
	rm -rf bin
