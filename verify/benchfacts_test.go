package verify_test

import (
	"slices"
	"testing"

	"vigil/lang"
	_ "vigil/nn" // the network policy of oneway.spec
	"vigil/verify"
)

// BenchFacts lists the constants, the property ic3 decides, and the
// rules policy but not the network policy of oneway.spec.
func TestBenchFacts(t *testing.T) {
	m, diags := lang.LoadFile("../specs/oneway.spec", lang.Options{})
	if m == nil {
		t.Fatal(diags)
	}
	f := verify.BenchFacts(m)
	if !slices.Equal(f.Consts, []string{"L", "VMAX", "P"}) || !slices.Equal(f.Properties, []string{"no_overshoot"}) ||
		!slices.Equal(f.Policies, []string{"careful"}) || !f.HasPolicies || f.Log2States <= 0 {
		t.Errorf("BenchFacts = %+v", f)
	}
}

// RunCommand sorts the defines and quotes what a shell would split.
func TestRunCommand(t *testing.T) {
	got := verify.RunCommand("my model.spec", map[string]string{"N": "3", "L": "20"}, "", "pa.jani", "")
	if want := "vigil run 'my model.spec' -D L=20 -D N=3 --unsafe pa.jani"; got != want {
		t.Errorf("RunCommand = %q, want %q", got, want)
	}
}
