package bdd_test

import (
	"math/rand/v2"
	"testing"

	"vigil/symbolic"
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
	var c bfsCompare
	for seed := uint64(1); seed <= uint64(models(t)/2); seed++ {
		m := gen.Model(seed, gen.Options{InitialStart: seed%2 == 0})
		if withProbs(m, seed) == 0 {
			continue
		}
		c.model(t, seed, m)
	}
	if c.probErrs == 0 {
		t.Fatal("no generated model has a reachable probability error: the test tests nothing")
	}
	t.Logf("%d probability errors in BFS", c.probErrs)
}
