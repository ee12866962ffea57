package safety_test

import (
	"context"
	"errors"
	"testing"

	"vigil/safety"
	"vigil/symbolic/explicit"
	"vigil/symbolic/gen"
)

// TestVIRangeErrorsLikePropU: on models with out-of-range outcomes, VI
// fails on a state exactly when Prop-U does (both explore the (state,
// budget) pairs the radius allows, so at radius 0 only what the tested
// policy reaches), with a range error, and otherwise they agree.
func TestVIRangeErrorsLikePropU(t *testing.T) {
	ctx := context.Background()
	asked, errs, answered0 := 0, 0, 0
	for seed := uint64(1); seed <= uint64(models(t)/5); seed++ {
		m := gen.Model(seed, gen.Options{RangeErrors: true, MaxVars: 3, MaxRange: 5})
		prop, pd := m.Properties[0], m.Policies[0]
		g, err := explicit.New(m, prop)
		if err != nil {
			t.Fatal(err)
		}
		dec, err := explicit.NewDecider(m, pd)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range []safety.Radius{0, 1, 2, safety.Inf} {
			for _, s := range gen.States(m) {
				verdict := func(algo string) (bool, error) {
					sp := safety.NewSpace(g, dec)
					d, err := safety.New(algo, sp, r, safety.Options{})
					if err != nil {
						t.Fatal(err)
					}
					id, err := sp.Intern(s)
					if err != nil {
						t.Fatal(err)
					}
					return d.Decide(ctx, id)
				}
				want, werr := verdict("propu")
				got, gerr := verdict("vi")
				asked++
				var re *explicit.RangeError
				switch {
				case (werr != nil) != (gerr != nil):
					t.Fatalf("seed %d, radius %v, state %s: propu %v (%v), vi %v (%v)", seed, r, m.FormatState(s), want, werr, got, gerr)
				case werr != nil:
					errs++
					if !errors.As(gerr, &re) {
						t.Fatalf("seed %d, radius %v, state %s: vi fails with %v, want a range error", seed, r, m.FormatState(s), gerr)
					}
				case got != want:
					t.Fatalf("seed %d, radius %v, state %s: propu says safe=%v, vi %v", seed, r, m.FormatState(s), want, got)
				case r == 0:
					answered0++
				}
			}
		}
	}
	t.Logf("%d questions, %d range errors in both, %d answers at radius 0", asked, errs, answered0)
	if errs == 0 || answered0 == 0 {
		t.Errorf("%d range errors, %d answers at radius 0: the test compares too little", errs, answered0)
	}
}
