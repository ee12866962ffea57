# vigil's tasks. `make demo` sets up a fresh Debian machine and runs the main
# job on a shipped example; `make test` is the test command CI runs.

GO ?= go

.PHONY: setup build test lint bench demo fuzz fuzz-all

# staticcheck's version is pinned so that CI's verdict does not change under us.
STATICCHECK_VERSION ?= v0.8.2
GOBIN ?= $(shell $(GO) env GOPATH)/bin

# Z3 is the system dependency of the build: libz3-dev for the smt package,
# the z3 binary to check invariant certificates and run Spacer on the CHC
# export. The tests also render every HTML page vigil writes in Debian's
# headless chromium (they skip that check, saying so, without it).
setup:
	@echo '==> Z3 (libz3-dev, z3) and chromium for the HTML tests (installed with apt-get if missing)'
	@if ! [ -f /usr/include/z3.h ] || ! command -v z3 >/dev/null || ! command -v chromium >/dev/null; then \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq libz3-dev z3 chromium; \
	fi
	@echo '==> Go modules (go mod download)'
	$(GO) mod download

build:
	@echo '==> building ./vigil (the first build compiles the Z3 bindings: a minute or two; packages are listed as they compile)'
	$(GO) build -v -o vigil ./cmd/vigil

test:
	$(GO) vet ./...
	$(GO) test -timeout 30m ./...

# staticcheck over every package; installed (pinned version) when missing.
# It fails loudly when it cannot be installed: CI must not skip it silently.
lint:
	@if ! [ -x "$(GOBIN)/staticcheck" ] || ! "$(GOBIN)/staticcheck" -version | grep -q "($(STATICCHECK_VERSION:v%=%))"; then \
		echo "==> installing staticcheck $(STATICCHECK_VERSION)"; \
		$(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION) || { echo "lint: cannot install staticcheck $(STATICCHECK_VERSION) (is the Go module proxy reachable?)" >&2; exit 1; }; \
	fi
	"$(GOBIN)/staticcheck" ./...

bench:
	$(GO) test -run '^$$' -bench . -benchtime 3x ./...

# The careful policy of specs/oneway.spec is unsafe on purpose: verify
# exits 3 with a counterexample, and any other exit code fails the demo.
demo: setup build
	@echo '==> vigil check specs/oneway.spec'
	./vigil check specs/oneway.spec
	@echo '==> vigil verify specs/oneway.spec --engine bfs --policy careful (expected: unsafe, exit 3)'
	@./vigil verify specs/oneway.spec --engine bfs --policy careful; rc=$$?; \
	if [ $$rc -ne 3 ]; then echo "demo: expected exit 3 (unsafe, with a counterexample), got $$rc" >&2; exit 1; fi
	@echo '==> vigil verify specs/rover.spec --engine ic3 --policy careful (expected: safe, exit 0)'
	./vigil verify specs/rover.spec --engine ic3 --policy careful --cert rover.inv.smt2
	@echo '==> vigil cert check rover.inv.smt2'
	./vigil cert check rover.inv.smt2
	@echo '==> vigil verify specs/rover.spec --engine polic3 --policy rover_16x16 (a trained network; expected: safe, exit 0)'
	./vigil verify specs/rover.spec --engine polic3 --policy rover_16x16 --cert rover-net.inv.smt2
	@echo '==> vigil cert check rover-net.inv.smt2 (re-checks the policy facts against the network)'
	./vigil cert check rover-net.inv.smt2

# Ten minutes of fuzzing of the front end (parse, check, format, print).
fuzz:
	cd lang && $(GO) test -run '^$$' -fuzz FuzzFrontEnd -fuzztime 10m .

# Every fuzz target of every package in turn, FUZZTIME each (default 30s),
# with -fuzzminimizetime 0: the model loaders' seeds are files of
# kilobytes, and minimizing each new input would take most of the time
# (trees/FIGURES.md). A crasher is kept in the package's testdata/fuzz.
FUZZTIME ?= 30s
fuzz-all:
	@set -e; for pkg in $$($(GO) list ./...); do \
	  dir=$$($(GO) list -f '{{.Dir}}' $$pkg); \
	  for t in $$(grep -ho '^func Fuzz[A-Za-z0-9_]*' $$dir/*_test.go 2>/dev/null | sed 's/^func //'); do \
	    echo "==> $$pkg $$t"; \
	    $(GO) test $$pkg -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) -fuzzminimizetime 0; \
	  done; \
	done
