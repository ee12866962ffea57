package ppa_test

import (
	"context"
	"testing"

	"vigil/internal/testutil"
	"vigil/ppa"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/trees"
)

// TestS32uPPATreesStopIsPerRun: PPA gives a tree policy its context's
// Done (trees.Policy.StopOn, as for networks), and only for the run: a
// run with its context ended answers unknown, and the policy given in
// memory answers afterwards as a fresh one does. Before, trees.Policy
// had no StopOn and a tree query ran on after SIGTERM or --timeout.
func TestS32uPPATreesStopIsPerRun(t *testing.T) {
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
	answers := func(p *trees.Policy) []symbolic.Exclusion {
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
	// ic3 finds the hook through this interface (ppa.stoppable)
	var _ interface{ StopOn(<-chan struct{}) } = (*trees.Policy)(nil)
	for seed := uint64(1); seed <= 4; seed++ {
		fresh, _, err := trees.Random(m, outs, seed, 12, 4)
		if err != nil {
			t.Fatal(err)
		}
		want := answers(fresh)
		p, d, err := trees.Random(m, outs, seed, 12, 4)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		res, err := ppa.Check(ctx, m, m.Properties[0], d, ppa.Options{Policy: p})
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict != explicit.Unknown {
			t.Errorf("seed %d: a run with its context ended answered %v", seed, res.Verdict)
		}
		got := answers(p)
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("seed %d: query %d after the stopped run: %v, a fresh policy: %v", seed, i, got[i], want[i])
			}
		}
	}
}
