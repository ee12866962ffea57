package prob_test

import (
	"context"
	"math/big"
	"testing"

	"vigil/prob"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// A command with 65536 outcomes (as a synchronised JANI command may have)
// into 1000 distinct states: Build merges the outcomes that lead to the
// same state (65 or 66 each, probability k/65536) without searching the
// row for each, and a cancelled context stops it within the row rather
// than after it.
func TestWideRow(t *testing.T) {
	const n, k = 1 << 16, 1000
	x := symbolic.V(0)
	os := make([]symbolic.Outcome, n)
	for i := range os {
		os[i] = symbolic.Outcome{Assigns: []symbolic.Assign{{Var: 0, Value: symbolic.Lit(1 + i%k)}}}
	}
	m := &symbolic.Model{
		Name:     "wide",
		Vars:     []symbolic.Var{{Name: "x", Lo: 0, Hi: k, HasInit: true, Init: 0}},
		Labels:   []symbolic.Label{{Name: "a"}},
		Commands: []symbolic.Command{{Label: 0, Guard: symbolic.Compare(x, symbolic.Eq, symbolic.Lit(0)), Outcomes: os}},
	}
	p := &symbolic.Property{Name: "p", Unsafe: symbolic.Compare(x, symbolic.Eq, symbolic.Lit(1)), Goal: symbolic.Compare(x, symbolic.Eq, symbolic.Lit(2))}
	g, err := explicit.New(m, p)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := prob.Build(ctx, g, prob.Options{}); err == nil {
		t.Errorf("Build of a wide row with a cancelled context: no error")
	}
	pm, err := prob.Build(context.Background(), g, prob.Options{Exact: true})
	if err != nil {
		t.Fatal(err)
	}
	from, to := pm.Entries(0)
	if got := int(to - from); got != k {
		t.Fatalf("%d entries, want %d", got, k)
	}
	sum := new(big.Rat)
	for e := from; e < to; e++ {
		v := int(pm.StateOf(pm.To[e])[0])
		want := big.NewRat(int64((n-v)/k+1), n) // outcomes i with 1 + i%k == v
		if pm.Exact[e].Cmp(want) != 0 {
			t.Errorf("x=%d: probability %s, want %s", v, pm.Exact[e].RatString(), want.RatString())
		}
		sum.Add(sum, pm.Exact[e])
	}
	if sum.Cmp(big.NewRat(1, 1)) != 0 {
		t.Errorf("probabilities sum to %s", sum.RatString())
	}
}
