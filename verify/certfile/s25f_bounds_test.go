package certfile

// TestS25fCheckBoundsBruteForce compares smt.CheckBounds, which vigil
// check --bounds prints as a proof and on which safety/cert skips its
// scope search (noRangeErrors), with brute force: an outcome leaves a
// range from an in-range state, non-terminal for some property, where
// its command's guard holds. Generated models with range errors and
// constants beyond int64.

import (
	"math/big"
	"testing"

	"vigil/smt"
	"vigil/symbolic"
	"vigil/symbolic/gen"
)

func TestS25fCheckBoundsBruteForce(t *testing.T) {
	n := 400
	if testing.Short() {
		n = 80
	}
	errs, free := 0, 0
	for seed := uint64(1); seed <= uint64(n); seed++ {
		m := gen.Model(seed, gen.Options{RangeErrors: true, Large: seed%2 == 0})
		want := false
		for _, s := range gen.States(m) {
			for _, p := range m.Properties {
				if p.Unsafe.Holds(s) || p.Goal != nil && p.Goal.Holds(s) {
					continue
				}
				for ci := range m.Commands {
					c := &m.Commands[ci]
					if !c.Guard.Holds(s) {
						continue
					}
					for oi := range c.Outcomes {
						for _, a := range c.Outcomes[oi].Assigns {
							v := a.Value.EvalBig(s)
							va := m.Vars[a.Var]
							if v.Cmp(big.NewInt(int64(va.Lo))) < 0 || v.Cmp(big.NewInt(int64(va.Hi))) > 0 {
								want = true
							}
						}
						if len(c.Outcomes[oi].ProbFactors) > 0 && c.Outcomes[oi].BadProb().Holds(s) {
							want = true
						}
					}
				}
			}
		}
		res, err := smt.CheckBounds(m, smt.CheckOptions{})
		if err != nil {
			t.Fatal(err)
		}
		got := len(res.Violations) > 0 || len(res.Undecided) > 0
		if got != want {
			t.Errorf("seed %d: brute force finds a range error: %v, CheckBounds: %d violations, %d undecided\n%s", seed, want, len(res.Violations), len(res.Undecided), printModel(m))
		}
		if want {
			errs++
		} else {
			free++
		}
		_ = symbolic.NoLabel
	}
	t.Logf("%d models with range errors, %d free", errs, free)
}
