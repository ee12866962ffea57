package bdd_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"vigil/bdd"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/gen"
)

// withProbs gives some outcomes of m a state-dependent probability
// (symbolic.Outcome.ProbNum/ProbDen, as a JANI destination's x/2 or
// x/(N-c) lowers to): (a*x + b) / (c*y + d) with small coefficients, so
// that it lies outside [0, 1] or divides by zero in some states and not
// in others. Shared by the differential tests of review 21q.
func withProbs(m *symbolic.Model, seed uint64) int {
	r := rand.New(rand.NewPCG(seed, 0x21))
	lin := func() *symbolic.Expr {
		v := symbolic.VarID(r.IntN(len(m.Vars)))
		k, b := r.IntN(5)-2, r.IntN(7)-2
		return &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{{Op: symbolic.OpMul, K: k, Args: []*symbolic.Expr{symbolic.V(v)}}, symbolic.Lit(b)}}
	}
	n := 0
	for ci := range m.Commands {
		for oi := range m.Commands[ci].Outcomes {
			if r.IntN(3) != 0 {
				continue
			}
			o := &m.Commands[ci].Outcomes[oi]
			o.ProbNum = lin()
			if r.IntN(2) == 0 {
				o.ProbDen = symbolic.Lit(r.IntN(5) - 1)
			} else {
				o.ProbDen = lin()
			}
			n++
		}
	}
	return n
}

// TestReview21qProbErrorsLikeBFS: a state-dependent probability outside
// [0, 1] (or a division by zero) is a range error of the outcome. Before
// review 21q the explicit engine reported it and the BDD engine ignored
// it, answering safe where BFS failed. On generated models with such
// probabilities, verification now fails with the explicit engine's error
// wherever BFS does (up to the layer rule of TestVerifyRangeErrors), and
// agrees with BFS on the verdict elsewhere.
func TestReview21qProbErrorsLikeBFS(t *testing.T) {
	ctx := context.Background()
	n := models(t) / 2
	probErrs := 0
	for seed := uint64(1); seed <= uint64(n); seed++ {
		m := gen.Model(seed, gen.Options{InitialStart: seed%2 == 0})
		if withProbs(m, seed) == 0 {
			continue
		}
		prop := m.Properties[0]
		g, err := explicit.New(m, prop)
		if err != nil {
			t.Fatal(err)
		}
		for _, pd := range []*symbolic.PolicyDecl{nil, m.Policies[0]} {
			var dec explicit.Decider
			if pd != nil {
				dec, _ = explicit.NewDecider(m, pd)
			}
			want, werr := explicit.Search(ctx, g, explicit.Options{Policy: dec, StopAtUnsafe: true})
			got, gerr := bdd.Verify(ctx, m, prop, pd, bdd.Options{})
			var re *explicit.RangeError
			switch {
			case werr != nil && errors.As(werr, &re):
				if re.Prob {
					probErrs++
				}
				if gerr != nil && errors.As(gerr, &re) {
					// the error replays: the explicit engine meets it in its state
					if err := g.ErrorAt(re.State, dec); err == nil || err.Error() != gerr.Error() {
						t.Errorf("seed %d: BDD's error %v does not replay (%v)", seed, gerr, err)
					}
					continue
				}
				if gerr == nil && got.Verdict == bdd.Unsafe && depthOf(g, dec, re.State) == len(got.Trace)-1 {
					if err := g.CheckCounterexample(dec, got.Trace); err != nil {
						t.Errorf("seed %d: %v", seed, err)
					}
					continue
				}
				t.Errorf("seed %d (policy %v): BFS: %v; BDD: %v %v", seed, pd != nil, werr, got, gerr)
			case werr != nil:
				if gerr == nil {
					t.Errorf("seed %d: BFS fails (%v), BDD does not", seed, werr)
				}
			case gerr != nil:
				t.Errorf("seed %d (policy %v): BFS says %v, BDD fails: %v", seed, pd != nil, want.Verdict, gerr)
			case got.Verdict.Explicit() != want.Verdict:
				t.Errorf("seed %d (policy %v): BFS says %v, BDD %v", seed, pd != nil, want.Verdict, got.Verdict)
			}
		}
	}
	if probErrs == 0 {
		t.Fatal("no generated model has a reachable probability error: the test tests nothing")
	}
	t.Logf("%d probability errors in BFS", probErrs)
}
