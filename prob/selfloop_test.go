package prob_test

import (
	"context"
	"math/big"
	"math/rand/v2"
	"testing"
	"time"

	"vigil/prob"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// States x = 1 .. 3 each have labels whose commands loop with a weight
// close to the whole (up to 1 - 1e-18, which is 1 in float64) and leave to
// the goal (x = 4), the unsafe state (x = 0) or the next state. Interval
// iteration would need about 1/(1 - loop) sweeps; it must solve each
// state's self-loop directly, and its bounds must contain the exact value
// (compared as rationals, without slack).
func TestSelfLoopDirect(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 1))
	x := symbolic.V(0)
	to := func(v int) symbolic.Outcome {
		return symbolic.Outcome{Assigns: []symbolic.Assign{{Var: 0, Value: symbolic.Lit(v)}}}
	}
	w := func() int64 { return 1 + r.Int64N(1000) }
	for seed := 0; seed < 60; seed++ {
		m := &symbolic.Model{
			Name:   "loops",
			Vars:   []symbolic.Var{{Name: "x", Lo: 0, Hi: 4, HasInit: true, Init: 1}},
			Labels: []symbolic.Label{{Name: "a"}, {Name: "b"}},
		}
		for s := 1; s <= 3; s++ {
			for l := 0; l < 2; l++ {
				loop := []int64{999999999999999998, 999999999, 3, 0}[r.IntN(4)]
				os := []symbolic.Outcome{to(s), to(4), to(0), to(s + 1)}
				ws := []int64{loop, w(), w(), w()}
				if r.IntN(3) == 0 {
					ws[1] = 0 // no way to the goal from here
				}
				for i := range os {
					os[i].Weight = symbolic.Rat{Num: ws[i], Den: 1}
				}
				m.Commands = append(m.Commands, symbolic.Command{Label: symbolic.LabelID(l), Guard: symbolic.Compare(x, symbolic.Eq, symbolic.Lit(s)), Outcomes: os})
			}
		}
		p := &symbolic.Property{Name: "p", Unsafe: symbolic.Compare(x, symbolic.Eq, symbolic.Lit(0)), Goal: symbolic.Compare(x, symbolic.Eq, symbolic.Lit(4))}
		g, err := explicit.New(m, p)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		pm, err := prob.Build(ctx, g, prob.Options{Exact: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, target := range []explicit.Status{explicit.Unsafe, explicit.Goal} {
			for _, max := range []bool{true, false} {
				ex, err := prob.Solve(ctx, pm, pm.Target(target), prob.SolveOptions{Max: max, Method: prob.Exact})
				if err != nil {
					t.Fatalf("seed %d: exact: %v", seed, err)
				}
				ii, err := prob.Solve(ctx, pm, pm.Target(target), prob.SolveOptions{Max: max})
				if err != nil {
					t.Fatalf("seed %d: ii: %v", seed, err)
				}
				for s := range ex.Exact {
					lo, hi := new(big.Rat).SetFloat64(ii.Lower[s]), new(big.Rat).SetFloat64(ii.Upper[s])
					if lo.Cmp(ex.Exact[s]) > 0 || hi.Cmp(ex.Exact[s]) < 0 {
						t.Errorf("seed %d %v max=%v: state %s: bounds [%g, %g] miss %s", seed, target, max, m.FormatState(pm.StateOf(uint32(s))), ii.Lower[s], ii.Upper[s], ex.Exact[s].FloatString(20))
					}
					if d := ii.Upper[s] - ii.Lower[s]; d > 1e-6*ii.Lower[s] {
						t.Errorf("seed %d %v max=%v: state %s: bounds [%g, %g] not within epsilon", seed, target, max, m.FormatState(pm.StateOf(uint32(s))), ii.Lower[s], ii.Upper[s])
					}
				}
			}
		}
		cancel()
	}
}
