package explicit_test

import (
	"context"
	"testing"

	"vigil/symbolic/explicit"
	"vigil/symbolic/gen"
)

// TestNaiveSearchAgrees: the baseline of vigil bench reaches the states
// Search reaches and takes the same transitions, with and without the
// policy, so that the benchmark compares two stores of one search.
func TestNaiveSearchAgrees(t *testing.T) {
	compared := 0
	for seed := uint64(1); seed <= 60; seed++ {
		m := gen.Model(seed, gen.Options{MaxVars: 5, MaxRange: 8, MaxCommands: 8})
		g, err := explicit.New(m, m.Properties[0])
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		dec, err := explicit.NewDecider(m, m.Policies[0])
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		for _, d := range []explicit.Decider{nil, dec} {
			res, err := explicit.Search(context.Background(), g, explicit.Options{Policy: d})
			states, transitions, _, nerr := explicit.NaiveSearch(context.Background(), g, d, func(int, int) {})
			if (err == nil) != (nerr == nil) {
				t.Fatalf("seed %d: Search: %v; NaiveSearch: %v", seed, err, nerr)
			}
			if err != nil {
				continue // both refuse the model (no start state, a range error)
			}
			compared++
			if states != res.Stats.States || transitions != res.Stats.Transitions {
				t.Errorf("seed %d (policy %v): NaiveSearch reached %d states by %d transitions, Search %d by %d",
					seed, d != nil, states, transitions, res.Stats.States, res.Stats.Transitions)
			}
		}
	}
	if compared < 30 {
		t.Errorf("only %d searches compared", compared)
	}
}
