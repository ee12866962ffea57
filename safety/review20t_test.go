package safety_test

import (
	"context"
	"strings"
	"testing"

	"vigil/internal/testutil"
	"vigil/safety"
	"vigil/safety/conformance"
	"vigil/symbolic"
	"vigil/symbolic/gen"
)

// TestReview20tRadiusAboveStates asks every decider for radii at and above
// the number of the model's states (at most 9 here), where the deciders
// search with that number instead (cert.BudgetCap): the answers must match
// the reference computed with the full radius, and the unsafe
// certificates, whose budgets stop at the number of states, must check.
func TestReview20tRadiusAboveStates(t *testing.T) {
	for _, algo := range safety.Algorithms {
		t.Run(algo, func(t *testing.T) {
			t.Parallel()
			opt := conformance.Options{
				Models: models(t) / 4, FirstSeed: 200000, Check: checkCert,
				Radii: []safety.Radius{2, 3, 8, 9, 10, 17},
				Gen:   gen.Options{MaxVars: 2, MaxRange: 3, MaxLabels: 4, MaxCommands: 6, MaxOutcomes: 3, MaxDepth: 1},
			}
			conformance.Run(t, decider(t, algo, safety.Options{Order: safety.OrderLearn, Seed: 3}), opt)
		})
	}
}

// TestReview20tHugeRadius: the ladder needs exactly 40 deviations from
// x=40 and has 50 states, so every decider searches radius 2^20 as 50 and
// answers as at radius 40 (safe), and at 39 (not safe); with a wide unused
// variable the states no longer bound the radius, and the deciders, which
// keep records only of the (state, budget) pairs they reach (41 here),
// answer radius 30000 and 2^20 (they refused both before, beyond 2^20
// states times budgets). On the walker's model every pair (x, b) is
// reached and not safe, and every decider refuses once it holds more pairs
// than the bound (lowered here to 2^20 from MaxPairs, so that the test
// allocates little), with an error.
func TestReview20tHugeRadius(t *testing.T) {
	defer safety.SetMaxPairs(1 << 20)()
	const ladder = `model ladder
var x : 0 .. 49 = 40
var z : 0 .. ZMAX = 0
action down when x > 0 -> x' = x - 1
action die -> x' = 49
action stay when x == 0 -> skip
property p { unsafe x == 49 }
policy rules diver { when x == 0 -> stay otherwise -> die }
`
	const walker = `model h
var x : 0 .. 100 = 0
var z : 0 .. ZMAX = 0
action walk when x < 100 -> x' = x + 1
action stay -> skip
action back when x > 0 -> x' = x - 1
property p { unsafe x == 100 }
policy rules diver { otherwise -> walk }
`
	for _, algo := range safety.Algorithms {
		for _, c := range []struct {
			src    string
			x      int
			zmax   string
			r      safety.Radius
			safe   bool
			errors bool
		}{
			{ladder, 40, "0", 39, false, false}, {ladder, 40, "0", 40, true, false}, {ladder, 40, "0", safety.MaxRadius, true, false},
			{ladder, 40, "1000000", 1000, true, false}, {ladder, 40, "1000000", 30000, true, false}, {ladder, 40, "1000000", safety.MaxRadius, true, false},
			{walker, 0, "1000000", 100, false, false}, {walker, 0, "1000000", 30000, false, true}, {walker, 0, "1000000", safety.MaxRadius, false, true},
		} {
			m := testutil.LoadSource(t, "ladder.spec", strings.Replace(c.src, "ZMAX", c.zmax, 1))
			g, dec, err := testutil.Explicit(m, m.Property(""), m.Policy("diver"))
			if err != nil {
				t.Fatal(err)
			}
			sp := safety.NewSpace(g, dec)
			d, err := safety.New(algo, sp, c.r, safety.Options{})
			if err != nil {
				t.Fatal(err)
			}
			id, err := sp.Intern(symbolic.State{c.x, 0})
			if err != nil {
				t.Fatal(err)
			}
			ok, err := d.Decide(context.Background(), id)
			switch {
			case c.errors:
				if err == nil || !strings.Contains(err.Error(), "(state, remaining budget) pairs (") || !strings.Contains(err.Error(), "use a smaller radius") {
					t.Errorf("%s, %s, z up to %s, radius %v: %v, %v; want the pairs error", algo, m.Name, c.zmax, c.r, ok, err)
				}
			case err != nil || ok != c.safe:
				t.Errorf("%s, %s, z up to %s, radius %v: %v, %v; want %v", algo, m.Name, c.zmax, c.r, ok, err, c.safe)
			}
		}
	}
}
