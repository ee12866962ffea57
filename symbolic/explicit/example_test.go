package explicit_test

import (
	"context"
	"fmt"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// A counter that a policy drives up by one or two; the environment may
// also reset it. Verifying the policy finds the shortest run to x == 3.
func ExampleSearch() {
	x := symbolic.VarID(0)
	add := func(k int) *symbolic.Expr {
		return &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{symbolic.V(x), symbolic.Lit(k)}}
	}
	m := &symbolic.Model{
		Name:   "counter",
		Vars:   []symbolic.Var{{Name: "x", Lo: 0, Hi: 4, HasInit: true, Init: 0}},
		Labels: []symbolic.Label{{Name: "step"}},
		Commands: []symbolic.Command{{
			Label: 0,
			Guard: symbolic.Compare(symbolic.V(x), symbolic.Lt, symbolic.Lit(3)),
			Outcomes: []symbolic.Outcome{
				{Assigns: []symbolic.Assign{{Var: x, Value: add(1)}}},
				{Assigns: []symbolic.Assign{{Var: x, Value: add(2)}}},
				{Assigns: []symbolic.Assign{{Var: x, Value: symbolic.Lit(0)}}},
			},
		}},
		Policies:   []*symbolic.PolicyDecl{{Name: "go", Kind: symbolic.KindRules, Rules: []symbolic.Rule{{Cond: symbolic.True(), Label: 0}}}},
		Properties: []*symbolic.Property{{Name: "p", Unsafe: symbolic.Compare(symbolic.V(x), symbolic.Eq, symbolic.Lit(3))}},
	}
	g, err := explicit.New(m, m.Properties[0])
	if err != nil {
		fmt.Println(err)
		return
	}
	pol, err := explicit.NewDecider(m, m.Policies[0])
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := explicit.Search(context.Background(), g, explicit.Options{Policy: pol, StopAtUnsafe: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Verdict, "after", res.Stats.States, "states")
	for _, st := range res.Trace {
		if st.Cmd < 0 {
			fmt.Println(m.FormatState(st.State))
			continue
		}
		fmt.Printf("%s -> %s, outcome %d\n", m.FormatState(st.State), m.Labels[st.Label].Name, st.Outcome+1)
	}
	// Output:
	// unsafe after 5 states
	// x=0 -> step, outcome 1
	// x=1 -> step, outcome 2
	// x=3
}
