package gen_test

import (
	"os"
	"path/filepath"
	"testing"

	"vigil/lang"
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
	dir := t.TempDir()
	for seed := uint64(1); seed <= 150; seed++ {
		m := gen.Model(seed, gen.Options{Large: true, RangeErrors: seed%3 == 0})
		path := filepath.Join(dir, m.Name+".spec")
		if err := os.WriteFile(path, []byte(print(t, m)), 0o644); err != nil {
			t.Fatal(err)
		}
		m2, diags := lang.Load(path, lang.Options{})
		if diags.HasErrors() {
			t.Fatalf("seed %d: the front end rejects the printed model:\n%s\n%s", seed, diags.Render(), print(t, m))
		}
		a, errA := search(m)
		b, errB := search(m2)
		if (errA == nil) != (errB == nil) {
			t.Fatalf("seed %d: IR error %v, front-end error %v", seed, errA, errB)
		}
		if errA == nil && (a.States != b.States || a.Transitions != b.Transitions || a.Unsafe != b.Unsafe || a.Goal != b.Goal || a.Stuck != b.Stuck || a.Deadlocks != b.Deadlocks) {
			t.Fatalf("seed %d: IR %+v, through the front end %+v\n%s", seed, a, b, print(t, m))
		}
	}
}
