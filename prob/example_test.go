package prob_test

import (
	"context"
	"fmt"

	"vigil/prob"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// A fair coin in x=1 leads to the goal (x=2) or the unsafe state (x=0);
// "wait" loops. Over all label choices the chance of reaching the unsafe
// state is at most 1/2 (toss) and at least 0 (wait forever).
func ExampleAsk() {
	x := symbolic.V(0)
	m := &symbolic.Model{
		Name:   "coin",
		Vars:   []symbolic.Var{{Name: "x", Lo: 0, Hi: 2, HasInit: true, Init: 1}},
		Labels: []symbolic.Label{{Name: "toss"}, {Name: "wait"}},
		Commands: []symbolic.Command{
			{Label: 0, Guard: symbolic.Compare(x, symbolic.Eq, symbolic.Lit(1)), Outcomes: []symbolic.Outcome{
				{Assigns: []symbolic.Assign{{Var: 0, Value: symbolic.Lit(2)}}},
				{Assigns: []symbolic.Assign{{Var: 0, Value: symbolic.Lit(0)}}},
			}},
			{Label: 1, Guard: symbolic.True(), Outcomes: []symbolic.Outcome{{}}},
		},
	}
	p := &symbolic.Property{Name: "p", Unsafe: symbolic.Compare(x, symbolic.Eq, symbolic.Lit(0)), Goal: symbolic.Compare(x, symbolic.Eq, symbolic.Lit(2))}
	g, err := explicit.New(m, p)
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	pm, err := prob.Build(ctx, g, prob.Options{Exact: true})
	if err != nil {
		panic(err)
	}
	for _, max := range []bool{true, false} {
		q := prob.Query{Name: "p", Target: explicit.Unsafe, Max: max}
		a, err := prob.Ask(ctx, pm, q, prob.SolveOptions{Method: prob.Exact})
		if err != nil {
			panic(err)
		}
		label := m.Labels[pm.Schedule(a.Result)[0]].Name
		fmt.Printf("%s = %s (take %s in x=1)\n", q, a.Exact.RatString(), label)
	}
	// Output:
	// Pmax=? [F unsafe] = 1/2 (take toss in x=1)
	// Pmin=? [F unsafe] = 0 (take wait in x=1)
}
