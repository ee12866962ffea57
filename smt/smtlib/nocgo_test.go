package smtlib

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestBuildsWithoutCgo builds the package with CGO_ENABLED=0: it must not
// depend on the Z3 binding (package smt), so that the text it writes owes
// nothing to the binding's encoder and tools without a C toolchain can
// write certificates and exports.
func TestBuildsWithoutCgo(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	cmd := exec.Command(goBin, "build", "-o", os.DevNull, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("CGO_ENABLED=0 go build vigil/smt/smtlib: %v\n%s", err, out)
	}
	cmd = exec.Command(goBin, "list", "-deps", ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	for _, dep := range []string{"vigil/smt", "runtime/cgo"} {
		if slices.Contains(deps, dep) {
			t.Errorf("vigil/smt/smtlib depends on %s", dep)
		}
	}
}
