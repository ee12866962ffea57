package smtlib

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/gen"
)

// TestReview21qCHCProbErrors is TestCHCMatchesBFS on generated models
// some of whose outcomes have a state-dependent probability (a*x + b) /
// (c*y + d), as a JANI destination's x/2 lowers to. A probability outside
// [0, 1] (or a zero denominator) where the explicit engine expands the
// outcome is a range error there, so Spacer must find the bad states
// reachable (unsat) exactly where BFS fails with one. Before review 21q
// the export left probabilities out of vigil.rangeerr, and z3 found an
// invariant (sat) for such models.
func TestReview21qCHCProbErrors(t *testing.T) {
	needZ3(t)
	n := 120
	if testing.Short() {
		n = 30
	}
	want := map[string]string{}
	var ps []problem
	probErrs := 0
	for seed := uint64(2100); seed < uint64(2100+n); seed++ {
		m := gen.Model(seed, gen.Options{InitialStart: seed%2 == 0})
		gen.StateProbs(m, rand.New(rand.NewPCG(seed, 0x21)), 3)
		for _, pol := range []*symbolic.PolicyDecl{m.Policies[0], nil} {
			q := Question{Model: m, Property: m.Properties[0], Policy: pol}
			w, err := bfsVerdict(q)
			if err != nil {
				continue
			}
			if g, err := explicit.New(m, q.Property); err == nil {
				var dec explicit.Decider
				if pol != nil {
					dec, _ = explicit.NewDecider(m, pol)
				}
				var re *explicit.RangeError
				if _, err := explicit.Search(t.Context(), g, explicit.Options{Policy: dec, StopAtUnsafe: true}); errors.As(err, &re) && re.Prob {
					probErrs++
				}
			}
			var b strings.Builder
			if err := WriteCHC(&b, q); err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			name := fmt.Sprintf("gen%d/policy=%v", seed, pol != nil)
			want[name] = w
			ps = append(ps, problem{name, b.String()})
		}
	}
	if probErrs == 0 {
		t.Fatal("no reachable probability error: the test tests nothing")
	}
	got := runBatch(t, ps, 2, "-t:10000")
	for _, p := range ps {
		if lines := got[p.name]; len(lines) != 1 || lines[0] != want[p.name] && lines[0] != "unknown" {
			t.Errorf("%s: Spacer printed %q, the explicit engine answers %s\n%s", p.name, lines, want[p.name], p.text)
		}
	}
	t.Logf("%d questions, %d with a reachable probability error", len(ps), probErrs)
}
