package bdd_test

import (
	"context"
	"testing"

	"vigil/bdd"
	"vigil/safety"
	"vigil/symbolic/gen"
)

// TestPropUInfSquaring: Prop-U at r = ∞ with squaring passes over the
// states of one applicable label (tried at once, after 2 rounds, or
// abandoned for lack of nodes) answers exactly as the layered rounds do,
// for every state, with the same range errors (Decide, StartCounts), on
// generated models of long runs (ranges up to 60, one or two labels, one
// outcome a command or more); and on some of them the passes save rounds.
func TestPropUInfSquaring(t *testing.T) {
	ctx := context.Background()
	n := models(t) / 10
	compared, saved := 0, 0
	for seed := uint64(1); seed <= uint64(n); seed++ {
		opt := gen.Options{MaxVars: 1 + int(seed%2), MaxRange: 60 - 30*int(seed%2), MaxLabels: 1 + int(seed%3/2), MaxCommands: 3, MaxOutcomes: 1 + int(seed%4/3), RangeErrors: seed%5 == 0}
		m := gen.Model(seed+7000, opt)
		o := bdd.Order(seed % 3)
		var want string
		var off *bdd.Safety
		withSquaring(-1, 1<<20, func() {
			want = propuText(m, nil, safety.Inf, o)
			off, _ = bdd.PropU(ctx, m, m.Properties[0], nil, safety.Inf, nil, bdd.Options{Order: o})
		})
		for _, c := range [][2]int{{0, 1 << 20}, {2, 1 << 20}, {0, 1}} {
			var got string
			var on *bdd.Safety
			withSquaring(c[0], c[1], func() {
				got = propuText(m, nil, safety.Inf, o)
				on, _ = bdd.PropU(ctx, m, m.Properties[0], nil, safety.Inf, nil, bdd.Options{Order: o})
			})
			if got != want {
				t.Errorf("seed %d (%+v), squaring after %d rounds, allowance %d: Prop-U r=inf\n got %.3000s\nwant %.3000s", seed, opt, c[0], c[1], got, want)
			}
			compared++
			if c[0] == 0 && c[1] > 1 && off != nil && on != nil && on.Stats.Iterations-on.Stats.Squarings < off.Stats.Iterations {
				saved++
			}
		}
	}
	t.Logf("%d answers compared; squaring saved rounds on %d models", compared, saved)
	if saved == 0 {
		t.Error("squaring never saved a round: the test misses its case")
	}
}
