package explicit_test

import (
	"math/rand/v2"
	"testing"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// TestReview22bWeightedRunDTMC: a weighted run without a policy on a JANI
// dtmc takes each enabled command with equal probability, as vigil prob
// (prob.Build's fusion) and Storm read a dtmc: from x=1 label a has two
// commands (to 0 and to 2) and b one (to 2), so x=0 follows with 1/3. It
// was 1/4 (a label first, then one of its commands), so vigil run
// --outcomes weighted disagreed with vigil prob. An mdp keeps 1/4.
func TestReview22bWeightedRunDTMC(t *testing.T) {
	to := func(v int) []symbolic.Outcome {
		return []symbolic.Outcome{{Assigns: []symbolic.Assign{{Var: 0, Value: symbolic.Lit(v)}}}}
	}
	one := symbolic.Compare(symbolic.V(0), symbolic.Eq, symbolic.Lit(1))
	for _, c := range []struct {
		typ  string
		want float64
	}{{"dtmc", 1.0 / 3}, {"mdp", 1.0 / 4}, {"", 1.0 / 4}} {
		m := &symbolic.Model{Name: "d", Type: c.typ,
			Vars:   []symbolic.Var{{Name: "x", Lo: 0, Hi: 2, Init: 1}},
			Labels: []symbolic.Label{{Name: "a"}, {Name: "b"}},
			Commands: []symbolic.Command{
				{Label: 0, Guard: one, Outcomes: to(0)},
				{Label: 0, Guard: one, Outcomes: to(2)},
				{Label: 1, Guard: one, Outcomes: to(2)},
			},
		}
		for i := range m.Commands {
			m.Commands[i].Outcomes[0].Weight = symbolic.Rat{Num: 1, Den: 1}
			m.Commands[i].Outcomes[0].Prob = 1
		}
		g, err := explicit.New(m, nil)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(7, 8))
		const n = 30000
		zero := 0
		for range n {
			run, _, err := explicit.Simulate(g, symbolic.State{1}, explicit.SimOptions{Steps: 1, Outcomes: explicit.OutcomesWeighted, Rand: r})
			if err != nil {
				t.Fatal(err)
			}
			if run[len(run)-1].State[0] == 0 {
				zero++
			}
		}
		// 5 standard deviations of a frequency over n runs: 0.0136
		if got := float64(zero) / n; got < c.want-0.0137 || got > c.want+0.0137 {
			t.Errorf("type %q: x=0 after one weighted step in %.4f of the runs, want %.4f", c.typ, got, c.want)
		}
	}
}
