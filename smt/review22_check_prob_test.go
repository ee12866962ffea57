package smt

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"vigil/symbolic"
	"vigil/symbolic/gen"
)

// TestReview22CheckBoundsProbabilities: `vigil check --bounds` looked at
// variable ranges only, so a state-dependent probability outside [0, 1]
// (a probability error in every engine) passed it. CheckBounds now asks
// it per outcome, and finds one exactly where enumerating the in-range,
// non-terminal states in which the command's guard holds finds the
// probability, computed here in big rationals, outside [0, 1] or
// undefined; each witness is such a state.
func TestReview22CheckBoundsProbabilities(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 40
	}
	found := 0
	for seed := uint64(1); seed <= uint64(n); seed++ {
		r := rand.New(rand.NewPCG(seed, 22))
		m := randModel(r)
		gen.StateProbs(m, r, 2)
		res, err := CheckBounds(m, CheckOptions{})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if len(res.Undecided) > 0 {
			t.Fatalf("seed %d: undecided %v", seed, res.Undecided)
		}
		got := map[[3]int]symbolic.State{}
		for _, v := range res.Violations {
			if v.Prob {
				got[[3]int{propIndex(m, v.Property), v.Command, v.Outcome}] = v.State
			}
		}
		for pi, p := range properties(m) {
			for ci := range m.Commands {
				c := &m.Commands[ci]
				for oi := range c.Outcomes {
					o := &c.Outcomes[oi]
					if !o.StateProb() {
						continue
					}
					bad := func(s symbolic.State) bool {
						if p != nil && (p.Unsafe.Holds(s) || p.Goal != nil && p.Goal.Holds(s)) || !c.Guard.Holds(s) {
							return false
						}
						for _, f := range o.ProbFactors {
							num, den := f.Num.EvalBig(s), f.Den.EvalBig(s)
							if den.Sign() == 0 {
								return true
							}
							q := new(big.Rat).SetFrac(num, den)
							if q.Sign() < 0 || q.Cmp(big.NewRat(1, 1)) > 0 {
								return true
							}
						}
						return false
					}
					want := false
					eachState(m, func(s symbolic.State) {
						want = want || bad(s)
					})
					w, ok := got[[3]int{pi, ci, oi}]
					if ok != want {
						t.Errorf("seed %d: property %d, command %d, outcome %d: CheckBounds finds a probability error %v, enumeration %v", seed, pi, ci, oi, ok, want)
					}
					if ok && !bad(w) {
						t.Errorf("seed %d: witness %s is no probability error", seed, m.FormatState(w))
					}
					if ok {
						found++
					}
				}
			}
		}
	}
	if found == 0 {
		t.Fatal("no probability error found: the test tests nothing")
	}
	t.Logf("%d probability errors found", found)
}

func propIndex(m *symbolic.Model, p *symbolic.Property) int {
	for i, q := range m.Properties {
		if q == p {
			return i
		}
	}
	return 0
}

// eachState calls f with every in-range state of m (reused).
func eachState(m *symbolic.Model, f func(s symbolic.State)) {
	s := make(symbolic.State, len(m.Vars))
	for i := range s {
		s[i] = m.Vars[i].Lo
	}
	for {
		f(s)
		i := 0
		for i < len(s) && s[i] == m.Vars[i].Hi {
			s[i] = m.Vars[i].Lo
			i++
		}
		if i == len(s) {
			return
		}
		s[i]++
	}
}
