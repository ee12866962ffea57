package nn_test

import (
	"fmt"

	"vigil/lang"
	"vigil/nn"
	"vigil/symbolic"
)

// The network of braking_net.spec at N = 10^9 never chooses up where
// v >= d (down, applicable where v >= 1, wins there), but on the bounding
// box of that region, the whole square, up wins below the diagonal.
func ExamplePolicy_ExcludeWithin() {
	m, diags := lang.Load("../bench/ic3scaling/learned/braking_net.spec", lang.Options{Defines: map[string]string{"N": "1000000000"}})
	if diags.HasErrors() {
		fmt.Println(diags.Render())
		return
	}
	pol, err := symbolic.Instantiate(m, m.Policies[0])
	if err != nil {
		fmt.Println(err)
		return
	}
	p := pol.(*nn.Policy)
	up, down := symbolic.LabelID(p.Decl.Outputs[2]), symbolic.LabelID(p.Decl.Outputs[3])
	lo, hi := []int{0, 1}, []int{1000000000, 1000000000} // d, v
	vMinusD := symbolic.NewForm([]symbolic.Term{{Coef: 1, Var: 1}, {Coef: -1, Var: 0}})

	box, _, _ := p.Exclude(lo, hi, up, []symbolic.LabelID{down})
	region, _, _ := p.ExcludeWithin(lo, hi, []symbolic.Atom{{Form: vMinusD, K: 0}}, up, []symbolic.LabelID{down})
	fmt.Println("bounding box:", box)
	fmt.Println("v - d >= 0:", region)
	// Output:
	// bounding box: possible
	// v - d >= 0: excluded
}
