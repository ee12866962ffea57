package bdd_test

import (
	"testing"

	"vigil/bdd"
	"vigil/symbolic"
	"vigil/symbolic/gen"
)

// TestReview17bSquaringWideRanges: TestSquaringExact's comparison on
// models of wider ranges (up to 60 values, so runs of dozens of steps and
// relations of several bits a variable), of one outcome a command (long
// chains) or more, starting in one state or many: with squaring tried at
// once, Verify, Explore and Prop-U (r = 0, every state) answer exactly as
// the layered rounds do.
func TestReview17bSquaringWideRanges(t *testing.T) {
	n := models(t) / 25
	compared := 0
	for seed := uint64(1); seed <= uint64(n); seed++ {
		opt := gen.Options{MaxVars: 2 + int(seed%2), MaxRange: 60 - 40*int(seed%2), MaxLabels: 2, MaxCommands: 3, MaxOutcomes: 1 + int(seed%3/2), RangeErrors: seed%4 == 0, InitialStart: seed%2 == 0}
		m := gen.Model(seed+5000, opt)
		o := bdd.Order(seed % 3)
		for _, pd := range []*symbolic.PolicyDecl{nil, m.Policies[0]} {
			var want, got string
			text := func() string { return verifyText(m, pd, o) + "\n" + exploreText(m, pd, o) }
			withSquaring(-1, 1<<20, func() { want = text() })
			withSquaring(0, 1<<20, func() { got = text() })
			if got != want {
				t.Errorf("seed %d (%+v), policy %v: Verify and Explore with squaring\n got %s\nwant %s", seed, opt, pd != nil, got, want)
			}
			compared++
		}
		var want, got string
		withSquaring(-1, 1<<20, func() { want = propuText(m, m.Policies[0], 0, o) })
		withSquaring(0, 1<<20, func() { got = propuText(m, m.Policies[0], 0, o) })
		if got != want {
			t.Errorf("seed %d (%+v): Prop-U r=0 with squaring\n got %.2000s\nwant %.2000s", seed, opt, got, want)
		}
		compared++
	}
	t.Logf("%d answers compared", compared)
}
