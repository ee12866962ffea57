package ic3_test

import (
	"context"
	"testing"

	"vigil/ic3"
	"vigil/internal/testutil"
	"vigil/nn"
	"vigil/symbolic"
)

// TestReview19hStopDoesNotOutliveCheck: PolIC3 makes the network
// policy's certification queries give up once its context ends (StopOn,
// fd6f696). A policy given in memory (ic3.Options.Learned, as
// verify.Question.Executable) outlives the run: after a run whose context
// ended, the policy's queries must answer as a fresh policy's do, not
// give up at once for a context that is gone.
func TestReview19hStopDoesNotOutliveCheck(t *testing.T) {
	m := testutil.LoadSource(t, "walk.spec", `model walk
var x : 0 .. 40 = 0
var y : 0 .. 40 = 0
action e when x < 40 -> x' = x + 1
action w when x > 0 -> x' = x - 1
action n when y < 40 -> y' = y + 1
action s when y > 0 -> y' = y - 1
property p { unsafe x == 40 && y == 40 }
`)
	outs := []symbolic.LabelID{0, 1, 2, 3}
	answers := func(p *nn.Policy) []symbolic.Exclusion {
		var out []symbolic.Exclusion
		for lo := 0; lo < 40; lo += 7 {
			for w := 3; w < 40-lo; w += 11 {
				for _, a := range outs {
					ex, _, err := p.Exclude([]int{lo, lo}, []int{lo + w, lo + w}, a, outs)
					if err != nil {
						t.Fatal(err)
					}
					out = append(out, ex)
				}
			}
		}
		return out
	}
	for seed := uint64(1); seed <= 4; seed++ {
		fresh, _, err := nn.Random(m, outs, seed, []int{16, 16})
		if err != nil {
			t.Fatal(err)
		}
		want := answers(fresh)
		p, d, err := nn.Random(m, outs, seed, []int{16, 16})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		res, err := ic3.Check(ctx, m, m.Properties[0], d, ic3.Options{Generalize: true, Learned: p})
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict != ic3.Unknown {
			t.Fatalf("seed %d: a run with its context ended answered %v", seed, res.Verdict)
		}
		got := answers(p)
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("seed %d: query %d after the stopped run: %v, a fresh policy: %v", seed, i, got[i], want[i])
			}
		}
	}
}
