package explicit_test

import (
	"context"
	"testing"

	"vigil/symbolic/explicit"
	"vigil/symbolic/gen"
)

// TestDifferentialLarge is TestDifferential on models whose expressions
// leave int64 (gen.Options.Large): the compiled engine, which computes
// unchecked only where interval analysis proves int64 enough, must agree
// with the reference interpreter (symbolic's exact Eval/Holds) on every
// state, successor, verdict and range error.
func TestDifferentialLarge(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 100
	}
	var rangeErrs, unsafe, safe int
	for seed := uint64(1); seed <= uint64(n); seed++ {
		opt := gen.Options{Large: true, RangeErrors: seed%4 == 0}
		if seed%2 == 1 {
			opt.MaxVars, opt.MaxRange, opt.MaxCommands = 5, 8, 8
		}
		m := gen.Model(seed, opt)
		prop, pol, g, dec := engines(t, seed, m)
		for _, withPolicy := range []bool{false, true} {
			r := &ref{m: m, p: prop}
			opts := explicit.Options{}
			if withPolicy {
				r.policy, opts.Policy = pol, dec
			}
			want, rangeErr := searchMatches(t, seed, withPolicy, r, g, opts)
			if rangeErr {
				rangeErrs++
			}
			if want == nil {
				continue
			}
			opts.StopAtUnsafe = true
			v, err := explicit.Search(context.Background(), g, opts)
			if err != nil {
				t.Fatalf("seed %d verify: %v", seed, err)
			}
			switch {
			case want.unsafe == 0 && v.Verdict != explicit.Safe:
				t.Fatalf("seed %d: verdict %v, reference says safe", seed, v.Verdict)
			case want.unsafe == 0:
				safe++
			case v.Verdict != explicit.UnsafeVerdict:
				t.Fatalf("seed %d: verdict %v, reference says unsafe", seed, v.Verdict)
			default:
				unsafe++
				if withPolicy {
					replay(t, seed, r, v.Trace)
				}
			}
		}
	}
	t.Logf("%d models: %d unsafe, %d safe verdicts, %d range errors", n, unsafe, safe, rangeErrs)
	if unsafe == 0 || safe == 0 || rangeErrs == 0 {
		t.Errorf("generator lacks variety: %d unsafe, %d safe, %d range errors", unsafe, safe, rangeErrs)
	}
}
