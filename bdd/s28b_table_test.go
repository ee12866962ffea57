package bdd_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"vigil/bdd"
	"vigil/internal/testutil"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/gen"
)

// TestS28bTableConforms: table policies with stuck states, inapplicable
// labels, overridden rows and rows that are no state: BDD verification and
// exploration agree with the explicit engine, counterexamples replay.
func TestS28bTableConforms(t *testing.T) {
	first, n := campaign(t, 500000, models(t)/4)
	ctx := context.Background()
	compared := 0
	for seed := first; seed < first+uint64(n); seed++ {
		m := gen.Model(seed, gen.Options{InitialStart: seed%2 == 0})
		pd := gen.Table(m, rand.New(rand.NewPCG(seed, 3)))
		m.Policies = append(m.Policies, pd)
		prop := m.Properties[0]
		o := bdd.Order(seed % 3)
		g, dec, err := testutil.Explicit(m, prop, pd)
		if err != nil {
			t.Fatal(err)
		}
		want, werr := explicit.Search(ctx, g, explicit.Options{Policy: dec, StopAtUnsafe: true})
		if werr != nil {
			continue
		}
		got, err := bdd.Verify(ctx, m, prop, pd, bdd.Options{Order: o})
		if err != nil {
			t.Errorf("seed %d: %v", seed, err)
			continue
		}
		if got.Verdict.Explicit() != want.Verdict {
			t.Errorf("seed %d (order %v): BFS says %v, BDD %v", seed, o, want.Verdict, got.Verdict)
			continue
		}
		compared++
		if got.Verdict == bdd.Unsafe {
			if err := g.CheckCounterexample(dec, got.Trace); err != nil {
				t.Errorf("seed %d: %v", seed, err)
			}
			if len(got.Trace) != len(want.Trace) {
				t.Errorf("seed %d: counterexample of %d steps, the shortest has %d", seed, len(got.Trace)-1, len(want.Trace)-1)
			}
		}
		if diff, err := exploreBoth(m, pd, o); err == nil && diff != "" {
			t.Errorf("seed %d (order %v): explore: %s", seed, o, diff)
		}
	}
	t.Logf("%d models with table policies, %d verdicts compared", n, compared)
	if compared < n/2 {
		t.Errorf("only %d verdicts compared on %d models", compared, n)
	}
}

// TestS28bPropUTableConforms: BDD Prop-U under random table policies
// agrees with explicit Prop-U, TarjanSafe and the reference on every
// state (r = 0 follows the table, stuck states included).
func TestS28bPropUTableConforms(t *testing.T) {
	first, n := campaign(t, 600000, models(t)/10)
	conformPropU(t, first, n, gen.Options{}, func(m *symbolic.Model, seed uint64) (*symbolic.PolicyDecl, error) {
		return gen.Table(m, rand.New(rand.NewPCG(seed, 3))), nil
	})
}
