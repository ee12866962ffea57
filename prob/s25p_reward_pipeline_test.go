package prob_test

import (
	"context"
	"math/big"
	"math/rand/v2"
	"testing"

	"vigil/prob"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// TestRewardPipeline asks Emin and Emax through the whole of vigil prob's
// path (Build, ChoiceRewards, Ask) on the conformance suite's random
// one-variable MDPs, with a state reward x (on exit) and random command
// costs (on steps): the exact method's value must lie within the ii
// bounds, Emin ≤ Emax, and each be infinite exactly where the probability
// solver finds the goal missed (Emin: Pmax < 1; Emax: Pmin < 1), from
// every start state.
func TestRewardPipeline(t *testing.T) {
	ctx := context.Background()
	finite, infinite := 0, 0
	for seed := uint64(1); seed <= 150; seed++ {
		m := randomMDP(seed)
		r := rand.New(rand.NewPCG(seed, 25))
		for ci := range m.Commands {
			if r.IntN(2) == 0 {
				m.Commands[ci].Cost = symbolic.Lit(1 + r.IntN(3))
			}
		}
		x := symbolic.V(0)
		rew := &symbolic.Reward{Name: "x", Exit: true, Steps: true, Edges: true,
			Parts: []symbolic.RewardPart{{At: symbolic.Compare(x, symbolic.Ge, symbolic.Lit(2)), Expr: x}}}
		if r.IntN(3) == 0 {
			rew.Steps, rew.Edges = false, false // zero-reward loops where x < 2
		}
		base := m.Properties[0]
		p := &symbolic.Property{Name: "e", Start: base.Start, Unsafe: symbolic.False(), Goal: base.Goal, FromModel: true}
		m.Properties = []*symbolic.Property{p}
		g, err := explicit.New(m, p)
		if err != nil {
			t.Fatal(err)
		}
		pm, err := prob.Build(ctx, g, prob.Options{Exact: true})
		if err != nil {
			t.Fatal(err)
		}
		var vals [2][]*big.Rat
		for i, op := range []string{"Emin", "Emax"} {
			p.Query = &symbolic.Query{Op: op, Filter: "values", Reward: rew}
			q, err := prob.PropertyQuery(p)
			if err != nil {
				t.Fatal(err)
			}
			ex, err := prob.Ask(ctx, pm, q, prob.SolveOptions{Method: prob.Exact})
			if err != nil {
				t.Fatalf("seed %d %s exact: %v", seed, op, err)
			}
			ii, err := prob.Ask(ctx, pm, q, prob.SolveOptions{Method: prob.II, Epsilon: 1e-8})
			if err != nil {
				t.Fatalf("seed %d %s ii: %v", seed, op, err)
			}
			pr, err := prob.Solve(ctx, pm, pm.Target(explicit.Goal), prob.SolveOptions{Max: op == "Emin", Method: prob.Exact})
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range ex.Values {
				w := ii.Values[k]
				e := v.Exact
				inf := ex.Result.IsInf(e)
				wantInf := pr.Exact[v.State].Cmp(big.NewRat(1, 1)) < 0
				if inf != wantInf {
					t.Fatalf("seed %d %s state %d: exact %s, but Pr(goal) %s", seed, op, v.State, e.RatString(), pr.Exact[v.State].RatString())
				}
				if inf {
					if w.Lower < 1e308 {
						t.Fatalf("seed %d %s state %d: ii [%g, %g], exact inf", seed, op, v.State, w.Lower, w.Upper)
					}
					vals[i] = append(vals[i], nil)
					infinite++
					continue
				}
				if new(big.Rat).SetFloat64(w.Lower).Cmp(e) > 0 || new(big.Rat).SetFloat64(w.Upper).Cmp(e) < 0 {
					t.Fatalf("seed %d %s state %d: ii [%g, %g] misses exact %s", seed, op, v.State, w.Lower, w.Upper, e.RatString())
				}
				vals[i] = append(vals[i], e)
				finite++
			}
		}
		for k := range vals[0] {
			if vals[0][k] == nil && vals[1][k] != nil || vals[0][k] != nil && vals[1][k] != nil && vals[0][k].Cmp(vals[1][k]) > 0 {
				t.Fatalf("seed %d start %d: Emin %v above Emax %v", seed, k, vals[0][k], vals[1][k])
			}
		}
	}
	if finite < 50 || infinite < 50 {
		t.Fatalf("the suite covers too little: %d finite and %d infinite values", finite, infinite)
	}
	t.Logf("%d finite and %d infinite values agree", finite, infinite)
}
