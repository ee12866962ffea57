package bdd_test

import (
	"math/rand/v2"
	"testing"

	"vigil/symbolic/gen"
)

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
		if gen.StateProbs(m, rand.New(rand.NewPCG(seed, 0x21)), 3) == 0 {
			continue
		}
		c.model(t, seed, m)
	}
	if c.probErrs == 0 {
		t.Fatal("no generated model has a reachable probability error: the test tests nothing")
	}
	t.Logf("%d probability errors in BFS", c.probErrs)
}
