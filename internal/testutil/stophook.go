package testutil

import (
	"context"
	"testing"

	"vigil/nn"
	"vigil/symbolic"
)

// StopHookIsPerRun checks that an engine's stop hook on a network policy
// (nn.Policy.StopOn, set so that certification queries give up once the
// run's context ends) lasts only the run: run is called with an ended
// context, a 2-variable walk model, a network policy given in memory and
// its declaration, and must not answer safe; after it, the policy's queries
// must answer as a fresh policy's do, not give up for a context that is
// gone.
func StopHookIsPerRun(t *testing.T, run func(ctx context.Context, m *symbolic.Model, p *nn.Policy, d *symbolic.PolicyDecl) (safe bool, err error)) {
	t.Helper()
	StopHookIsPerRunOf(t, func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (*nn.Policy, *symbolic.PolicyDecl, error) {
		return nn.Random(m, outs, seed, []int{16, 16})
	}, run)
}

// Excluder is a learned policy with a stop hook (nn.Policy, trees.Policy).
type Excluder interface {
	Exclude(lo, hi []int, a symbolic.LabelID, sure []symbolic.LabelID) (symbolic.Exclusion, symbolic.State, error)
	StopOn(<-chan struct{})
}

// StopHookIsPerRunOf is StopHookIsPerRun for any learned policy that
// random makes (the same policy for the same seed).
func StopHookIsPerRunOf[P Excluder](t *testing.T, random func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (P, *symbolic.PolicyDecl, error), run func(ctx context.Context, m *symbolic.Model, p P, d *symbolic.PolicyDecl) (safe bool, err error)) {
	t.Helper()
	m := LoadSource(t, "walk.spec", `model walk
var x : 0 .. 40 = 0
var y : 0 .. 40 = 0
action e when x < 40 -> x' = x + 1
action w when x > 0 -> x' = x - 1
action n when y < 40 -> y' = y + 1
action s when y > 0 -> y' = y - 1
property p { unsafe x == 40 && y == 40 }
`)
	outs := []symbolic.LabelID{0, 1, 2, 3}
	answers := func(p P) []symbolic.Exclusion {
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
		fresh, _, err := random(m, outs, seed)
		if err != nil {
			t.Fatal(err)
		}
		want := answers(fresh)
		p, d, err := random(m, outs, seed)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		safe, err := run(ctx, m, p, d)
		if err != nil {
			t.Fatal(err)
		}
		if safe {
			t.Fatalf("seed %d: a run with its context ended answered safe", seed)
		}
		got := answers(p)
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("seed %d: query %d after the stopped run: %v, a fresh policy: %v", seed, i, got[i], want[i])
			}
		}
	}
}
