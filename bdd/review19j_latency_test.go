package bdd_test

import (
	"context"
	"testing"

	"vigil/bdd"
	"vigil/lang"
	"vigil/nn"
	"vigil/safety"
	"vigil/symbolic"
)

const gridSpec = `model grid
var x : 0 .. 999 = 0
var y : 0 .. 999 = 0
action right when x < 999 -> x' = x + 1
action up when y < 999 -> y' = y + 1
property p {
    start x == 0 && y == 0
    unsafe x == 999 && y == 999
}
`

// TestReview19jPolicyStop: a network evaluated on every state of a model
// of 10^6 states (Prop-U at r = 0 over all states) stops soon after the
// context ends. The evaluation runs under the manager's lock, outside any
// rudd call, so the caller cannot abandon it: it went on over every state
// (1.4 s after a deadline with 64x64 hidden units on a loaded machine,
// seconds with larger networks), now it checks the context every
// policyCheckEvery states.
func TestReview19jPolicyStop(t *testing.T) {
	m, d := lang.LoadSource("grid.spec", []byte(gridSpec), lang.Options{})
	if d.HasErrors() {
		t.Fatal(d.Render())
	}
	exec, pd, err := nn.Random(m, []symbolic.LabelID{0, 1}, 3, []int{4})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []safety.Radius{0} { // r = inf evaluates no policy
		ctx, cancel := context.WithCancel(context.Background())
		c := &cancelling{Policy: exec, n: 1000, cancel: cancel}
		res, err := bdd.PropU(ctx, m, m.Properties[0], pd, r, nil, bdd.Options{Executable: c})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if res.Complete || c.calls.Load() > 1000+256 {
			t.Errorf("r=%v: complete %v, %d evaluations; the context ended at the 1000th", r, res.Complete, c.calls.Load())
		}
	}
}
