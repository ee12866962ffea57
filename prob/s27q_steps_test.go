package prob

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"

	"vigil/symbolic/explicit"
)

// TestStepBoundedLateChanges (s27q): step-bounded rounds update only
// the states with a successor whose value changed in the last round
// (1f9b86a). On layered MDPs whose goal lies far down a chain of loops,
// a value can stay 0 for dozens of rounds and then change, or stop
// changing and start again as a longer path arrives: P(F≤k goal), max
// and min, for k up to 90, exact and ii, against rounds of the plain
// Bellman update of every state in rationals.
func TestStepBoundedLateChanges(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 90))
	for i := range 40 {
		sp := layeredSpec(r, 5+r.IntN(40))
		m, _ := sp.model()
		for _, max := range []bool{false, true} {
			k := 1 + r.IntN(90)
			// the reference: k rounds from 1 on the goal states
			n := len(sp.goal)
			x := make([]*big.Rat, n)
			for s := range x {
				x[s] = new(big.Rat)
				if sp.goal[s] {
					x[s].SetInt64(1)
				}
			}
			for range k {
				next := make([]*big.Rat, n)
				for s := range n {
					if sp.goal[s] || len(sp.choices[s]) == 0 {
						next[s] = x[s]
						continue
					}
					var best *big.Rat
					for _, c := range sp.choices[s] {
						v := new(big.Rat)
						for j, t := range c.to {
							v.Add(v, new(big.Rat).Mul(c.p[j], x[t]))
						}
						if best == nil || max && v.Cmp(best) > 0 || !max && v.Cmp(best) < 0 {
							best = v
						}
					}
					next[s] = best
				}
				x = next
			}
			q := Query{Name: "p", Target: explicit.Goal, Max: max}
			for _, method := range []Method{Exact, II} {
				name := fmt.Sprintf("mdp%d/max=%v/k=%d/%s", i, max, k, method)
				res, err := stepBounded(context.Background(), m, q, 0, k, SolveOptions{Max: max, Method: method})
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				for s := range n {
					if method == Exact && res.Exact[s].Cmp(x[s]) != 0 {
						t.Fatalf("%s: state %d: %s, want %s\n%s", name, s, res.Exact[s].RatString(), x[s].RatString(), specText(sp))
					}
					if new(big.Rat).SetFloat64(res.Lower[s]).Cmp(x[s]) > 0 || new(big.Rat).SetFloat64(res.Upper[s]).Cmp(x[s]) < 0 {
						t.Fatalf("%s: state %d: [%v, %v] misses %s\n%s", name, s, res.Lower[s], res.Upper[s], x[s].RatString(), specText(sp))
					}
				}
			}
		}
	}
}
