package prob_test

import (
	"context"
	"math/big"
	"os"
	"path/filepath"
	"testing"

	"vigil/lang"
	"vigil/prob"
	"vigil/symbolic/explicit"
)

// TestRewardConsensusCorpus computes QVBS consensus.2's expected steps
// (Emin and Emax of the location reward "steps", accumulated on exit,
// until finished) by both methods: the exact value must lie in the ii
// bounds. No published reference is at hand, so the values for K=2 (48
// and 75) are the two methods' agreement, pinned so that a change shows.
func TestRewardConsensusCorpus(t *testing.T) {
	path := filepath.Join(qvbsDir, "consensus.2.jani")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("QVBS corpus absent (%v): consensus.2's expected steps are not checked", err)
	}
	for _, c := range []struct {
		k, property, want string
	}{{"2", "steps_min", "48"}, {"2", "steps_max", "75"}, {"4", "steps_min", ""}, {"4", "steps_max", ""}} {
		m, diags := lang.LoadJANI(path, map[string]string{"K": c.k})
		if diags.HasErrors() {
			t.Fatal(diags.Render())
		}
		p := m.Property(c.property)
		if p == nil {
			t.Fatalf("K=%s: no property %s", c.k, c.property)
		}
		q, err := prob.PropertyQuery(p)
		if err != nil {
			t.Fatalf("K=%s %s: %v", c.k, c.property, err)
		}
		g, err := explicit.New(m, p)
		if err != nil {
			t.Fatal(err)
		}
		pm, err := prob.Build(context.Background(), g, prob.Options{Exact: true})
		if err != nil {
			t.Fatal(err)
		}
		ex, err := prob.Ask(context.Background(), pm, q, prob.SolveOptions{Method: prob.Exact, MaxExact: 10000})
		if err != nil {
			t.Fatalf("K=%s %s exact: %v", c.k, c.property, err)
		}
		ii, err := prob.Ask(context.Background(), pm, q, prob.SolveOptions{Method: prob.II, Epsilon: 1e-9})
		if err != nil {
			t.Fatalf("K=%s %s ii: %v", c.k, c.property, err)
		}
		if ex.Exact == nil {
			t.Fatalf("K=%s %s: no exact value", c.k, c.property)
		}
		if c.want != "" && ex.Exact.RatString() != c.want {
			t.Errorf("K=%s %s: exact %s, want %s", c.k, c.property, ex.Exact.RatString(), c.want)
		}
		lo, hi := new(big.Rat).SetFloat64(ii.Lower), new(big.Rat).SetFloat64(ii.Upper)
		if lo.Cmp(ex.Exact) > 0 || hi.Cmp(ex.Exact) < 0 || ii.Upper-ii.Lower > 1e-8*ii.Upper {
			t.Errorf("K=%s %s: ii [%g, %g] and exact %s disagree", c.k, c.property, ii.Lower, ii.Upper, ex.Exact.RatString())
		}
		t.Logf("K=%s %s = %s (ii [%.12g, %.12g], %d states)", c.k, c.property, ex.Exact.RatString(), ii.Lower, ii.Upper, pm.NumStates())
	}
}
