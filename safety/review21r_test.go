package safety_test

import (
	"context"
	"testing"

	"vigil/internal/testutil"
	"vigil/symbolic"

	"vigil/safety"
	"vigil/safety/conformance"
	"vigil/symbolic/gen"
)

// TestReview21rWideRadii runs the suite at radii where the pair tables
// leave their dense form (2 up) and where their budget windows are
// narrower than the radius (64 up), on models of up to a few hundred
// states, so that states are reached with many budgets, in both orders,
// and windows regrow towards 0 and towards the radius.
func TestReview21rWideRadii(t *testing.T) {
	for _, algo := range safety.Algorithms {
		if algo == "tarjan-path" {
			continue
		}
		t.Run(algo, func(t *testing.T) {
			t.Parallel()
			opt := conformance.Options{
				Models: models(t) / 8, FirstSeed: 210000, Check: checkCert, CertEvery: 5,
				Radii: []safety.Radius{3, 63, 64, 65, 70, 130},
				Gen:   gen.Options{MaxVars: 3, MaxRange: 8, MaxLabels: 4, MaxCommands: 6, MaxOutcomes: 3, MaxDepth: 1},
			}
			conformance.Run(t, decider(t, algo, safety.Options{Order: safety.OrderLearn, Seed: 3}), opt)
		})
	}
}

// TestReview21rPropURegionWithinBound: Prop-U builds its region (every
// transition of every pair reached) before it propagates; with 16
// self-loop labels (deviations) and radius 2^20 on 100 states, the region
// took 19 transitions a pair, uncounted, and grew past 9 GB ("fatal error:
// out of memory") before its 2^26 pairs were held (session 20 refused the
// radius at once). It must be refused with the pairs error once pairs
// and transitions pass the bound, lowered here to 2^16: after at most
// bound/8 expansions (19 transitions each).
func TestReview21rPropURegionWithinBound(t *testing.T) {
	const bound = 1 << 16
	defer safety.SetMaxPairs(bound)()
	m := testutil.LoadSource(t, "spins.spec", spinsSpec(`action down when x > 0 -> x' = x - 1
action die -> x' = 99
action stay when x == 0 -> skip
property p { unsafe x == 99 }
policy rules diver { when x == 0 -> stay otherwise -> die }
`))
	g, dec, err := testutil.Explicit(m, m.Property(""), m.Policy("diver"))
	if err != nil {
		t.Fatal(err)
	}
	sp := safety.NewSpace(g, dec)
	d := safety.NewPropU(sp, safety.MaxRadius)
	id, err := sp.Intern(symbolic.State{70, 0})
	if err != nil {
		t.Fatal(err)
	}
	ok, err := d.Decide(context.Background(), id)
	if err == nil || !pairsErr.MatchString(err.Error()) {
		t.Fatalf("propu: %v, %v; want the pairs error", ok, err)
	}
	if e := d.Stats().Expanded; e > bound/8 {
		t.Errorf("propu: refused after %d expansions (19 transitions each), more than %d", e, bound/8)
	}
}
