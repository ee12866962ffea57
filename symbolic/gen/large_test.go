package gen_test

import (
	"testing"

	"vigil/symbolic/explicit"
	"vigil/symbolic/gen"
)

// TestLargeOverflows: with Options.Large, generated models stay valid and
// in range, and many of them have expressions whose intermediate values
// leave int64 (the point of the option).
func TestLargeOverflows(t *testing.T) {
	over := 0
	const n = 300
	for seed := uint64(0); seed < n; seed++ {
		m := gen.Model(seed, gen.Options{Large: true})
		if err := explicit.Validate(m); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		found := false
		for _, c := range m.Commands {
			found = found || len(m.Overflows(nil, c.Guard)) > 0
			for _, o := range c.Outcomes {
				for _, a := range o.Assigns {
					found = found || len(m.Overflows(a.Value, nil)) > 0
					lo, hi := m.Bounds(a.Value)
					v := m.Vars[a.Var]
					if lo < v.Lo || hi > v.Hi {
						t.Fatalf("seed %d: %s' = %s may leave %d..%d", seed, v.Name, m.ExprString(a.Value), v.Lo, v.Hi)
					}
				}
			}
		}
		if found {
			over++
		}
	}
	if over < n/3 {
		t.Errorf("only %d of %d models have an expression that may leave int64", over, n)
	}
	t.Logf("%d of %d models have an expression that may leave int64", over, n)
}

// TestLargeThroughFrontEnd: the printed large models load (no folded
// constant beyond int64) and the explicit engine sees the same transition
// system.
func TestLargeThroughFrontEnd(t *testing.T) {
	throughFrontEnd(t, func(seed uint64) gen.Options { return gen.Options{Large: true, RangeErrors: seed%3 == 0} })
}
