# vigil's tasks. `make demo` sets up a fresh Debian machine and runs the main
# job on a shipped example; `make test` is the test command CI runs.

GO ?= go

.PHONY: setup build test bench demo fuzz

# Z3 is the only system dependency: libz3-dev for the smt package, the z3
# binary to check invariant certificates and run Spacer on the CHC export.
setup:
	@if ! [ -f /usr/include/z3.h ] || ! command -v z3 >/dev/null; then \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq libz3-dev z3; \
	fi
	$(GO) mod download

build:
	$(GO) build -o vigil ./cmd/vigil

test:
	$(GO) vet ./...
	$(GO) test ./...

bench:
	$(GO) test -run '^$$' -bench . -benchtime 3x ./...

demo: setup build
	./vigil check specs/oneway.spec
	./vigil verify specs/oneway.spec --engine bfs --policy careful; test $$? -le 3
	./vigil verify specs/rover.spec --engine ic3 --policy careful --cert rover.inv.smt2
	./vigil cert check rover.inv.smt2

# Ten minutes of fuzzing of the front end (parse, check, format, print).
fuzz:
	cd lang && $(GO) test -run '^$$' -fuzz FuzzFrontEnd -fuzztime 10m .
