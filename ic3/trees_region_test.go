package ic3_test

import "testing"

// TestPolIC3BrakingTrees: braking_trees' ensemble splits on inputs over
// two variables, so PolIC3 learns relational cells for it
// (relationalPays); with trees' region certifier (inputs narrowed by the
// region's atoms) it proves the family at N = 10^3 and 10^9 with policy
// facts over regions with linear atoms, and the certificate passes the
// independent checker (which turns each split into a linear atom). With
// boxes only, no N was proved in 20 s.
func TestPolIC3BrakingTrees(t *testing.T) {
	for _, n := range []string{"1000", "1000000000"} {
		res := provedWithRegions(t, "braking_trees.spec", n)
		if res.Stats.RelLemmas == 0 || regionFacts(res.Invariant, res.Facts) == 0 {
			t.Errorf("N=%s: %d relational lemmas, %d policy facts over regions with atoms", n, res.Stats.RelLemmas, regionFacts(res.Invariant, res.Facts))
		}
	}
}
