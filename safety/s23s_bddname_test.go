package safety_test

import (
	"context"
	"testing"

	"vigil/bdd"
	"vigil/safety"
	"vigil/symbolic"
	"vigil/symbolic/gen"
)

// TestS23sBDDNamesTheSameState: where a question's scope holds several
// erring states, propu-bdd (radius 0 and inf) names the same state, with
// the same error, as the explicit deciders: asked one state, and asked
// several states at once (as vigil safe --starts asks it), the error of
// the first state whose scope errs, as the explicit deciders asked those
// states in turn. Before, propu-bdd named the state of the first erring
// layer that the BDD's variable order puts first (sp.pick), and took all
// the states asked as one first layer.
func TestS23sBDDNamesTheSameState(t *testing.T) {
	ctx := context.Background()
	compared, multi := 0, 0
	for seed := uint64(1); seed <= 100; seed++ {
		var m *symbolic.Model
		if seed%2 == 0 {
			m = graphModel(t, seed)
		} else {
			m = gen.Model(seed, gen.Options{RangeErrors: true, MaxVars: 3, MaxRange: 5})
		}
		prop, pd, g, dec, ref := scopeSetup(t, m)
		for _, r := range []safety.Radius{0, safety.Inf} {
			// The explicit deciders' errors, one question each.
			want := make([]string, len(ref.ss))
			for i, s := range ref.ss {
				sp := safety.NewSpace(g, dec)
				d, err := safety.New("tarjan", sp, r, safety.Options{})
				if err != nil {
					t.Fatal(err)
				}
				id, err := sp.Intern(s)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := d.Decide(ctx, id); err != nil {
					want[i] = err.Error()
				}
			}
			res, err := bdd.PropU(ctx, m, prop, pd, r, nil, bdd.Options{})
			if err != nil {
				t.Fatal(err)
			}
			step := max(1, len(ref.ss)/10)
			for i := 0; i < len(ref.ss); i += step {
				_, err := res.Decide([]symbolic.State{ref.ss[i]})
				got := ""
				if err != nil {
					got = err.Error()
				}
				if got != want[i] {
					t.Fatalf("seed %d, radius %v, state %s: propu-bdd reports %q, the explicit deciders %q", seed, r, m.FormatState(ref.ss[i]), got, want[i])
				}
				compared++
				// Several states at once: the first error in turn.
				j := min(len(ref.ss), i+4)
				w := ""
				for k := i; k < j && w == ""; k++ {
					w = want[k]
				}
				_, err = res.Decide(ref.ss[i:j])
				got = ""
				if err != nil {
					got = err.Error()
				}
				if got != w {
					t.Fatalf("seed %d, radius %v, states %d..%d: propu-bdd reports %q, the explicit deciders asked in turn %q", seed, r, i, j-1, got, w)
				}
				if w != "" {
					multi++
				}
			}
		}
	}
	t.Logf("%d questions compared, %d groups of questions with an error", compared, multi)
}
