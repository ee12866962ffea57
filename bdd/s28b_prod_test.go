package bdd_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"vigil/bdd"
	"vigil/internal/testutil"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	explicitconf "vigil/symbolic/explicit/conformance"
	"vigil/symbolic/gen"
)

// TestProductsConform: on generated models with products of variables
// (gen.Products), BDD verification agrees with BFS (with and without the
// policy, every order), its counterexamples replay and are shortest, and
// exploration counts agree. VIGIL_CONFORMANCE_SHIFT/SCALE widen the campaign.
func TestProductsConform(t *testing.T) {
	first, n := campaign(t, 1, models(t)/2)
	ctx := context.Background()
	compared, unsafe := 0, 0
	for seed := first; seed < first+uint64(n); seed++ {
		m := gen.Products(gen.Model(seed, gen.Options{}), rand.New(rand.NewPCG(seed, 1)))
		prop := m.Properties[0]
		g, err := explicit.New(m, prop)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		o := bdd.Order(seed % 3)
		for _, pd := range []*symbolic.PolicyDecl{nil, m.Policies[0]} {
			var dec explicit.Decider
			if pd != nil {
				if dec, err = explicit.NewDecider(m, pd); err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
			}
			want, werr := explicit.Search(ctx, g, explicit.Options{Policy: dec, StopAtUnsafe: true})
			got, gerr := bdd.Verify(ctx, m, prop, pd, bdd.Options{Order: o})
			switch {
			case werr != nil:
				if gerr == nil {
					t.Errorf("seed %d: BFS fails (%v), BDD says %v", seed, werr, got.Verdict)
				}
				continue
			case gerr != nil:
				t.Errorf("seed %d (policy %v): BFS says %v, BDD fails: %v", seed, pd != nil, want.Verdict, gerr)
				continue
			case got.Verdict.Explicit() != want.Verdict:
				t.Errorf("seed %d (policy %v, order %v): BFS says %v, BDD %v", seed, pd != nil, o, want.Verdict, got.Verdict)
				continue
			}
			compared++
			if got.Verdict == bdd.Unsafe {
				unsafe++
				if err := g.CheckCounterexample(dec, got.Trace); err != nil {
					t.Errorf("seed %d: %v", seed, err)
				}
				if len(got.Trace) != len(want.Trace) {
					t.Errorf("seed %d: counterexample of %d steps, the shortest has %d", seed, len(got.Trace)-1, len(want.Trace)-1)
				}
			}
			if diff, err := exploreBoth(m, pd, o); err == nil && diff != "" {
				t.Errorf("seed %d (policy %v, order %v): explore: %s", seed, pd != nil, o, diff)
			}
		}
	}
	t.Logf("%d models with products, %d verdicts compared (%d unsafe)", n, compared, unsafe)
	if compared < n/2 {
		t.Errorf("only %d verdicts compared on %d models", compared, n)
	}
}

// TestPropUProductsConform: BDD Prop-U on models with products agrees
// with explicit Prop-U, TarjanSafe and the reference on every state.
func TestPropUProductsConform(t *testing.T) {
	first, n := campaign(t, 200000, models(t)/4)
	conformPropU(t, first, n, gen.Options{}, func(m *symbolic.Model, seed uint64) (*symbolic.PolicyDecl, error) {
		gen.Products(m, rand.New(rand.NewPCG(seed, 1))) // the hook runs before the model is compiled
		return m.Policies[0], nil
	})
}

// campaign applies VIGIL_CONFORMANCE_SHIFT and VIGIL_CONFORMANCE_SCALE.
func campaign(t *testing.T, first uint64, n int) (uint64, int) {
	t.Helper()
	return explicitconf.Campaign(first, max(n, 1))
}

// TestShiftedConform: the BDD engine answers on the shifted model
// (gen.Shift: wide offsets, 42-bit intervals, a one-value variable) what BFS answers on the original, with
// counterexamples that replay in the shifted model and the same
// exploration counts.
func TestShiftedConform(t *testing.T) {
	first, n := campaign(t, 300000, models(t)/4)
	ctx := context.Background()
	compared := 0
	for seed := first; seed < first+uint64(n); seed++ {
		model := func() *symbolic.Model {
			m := gen.Model(seed, gen.Options{InitialStart: seed%2 == 0})
			if seed%3 == 0 {
				gen.Products(m, rand.New(rand.NewPCG(seed, 1)))
			}
			return m
		}
		m := model()
		sm := gen.Shift(model(), rand.New(rand.NewPCG(seed, 2)))
		o := bdd.Order(seed % 3)
		for i, pd := range []*symbolic.PolicyDecl{nil, m.Policies[0]} {
			var spd *symbolic.PolicyDecl
			if pd != nil {
				spd = sm.Policies[0]
			}
			g, dec, err := testutil.Explicit(m, m.Properties[0], pd)
			if err != nil {
				t.Fatal(err)
			}
			want, werr := explicit.Search(ctx, g, explicit.Options{Policy: dec, StopAtUnsafe: true})
			got, gerr := bdd.Verify(ctx, sm, sm.Properties[0], spd, bdd.Options{Order: o})
			if werr != nil {
				if gerr == nil {
					t.Errorf("seed %d: BFS fails on the original (%v), BDD on the shifted says %v", seed, werr, got.Verdict)
				}
				continue
			}
			if gerr != nil {
				t.Errorf("seed %d (policy %v): BFS says %v, BDD on the shifted model fails: %v", seed, i == 1, want.Verdict, gerr)
				continue
			}
			if got.Verdict.Explicit() != want.Verdict {
				t.Errorf("seed %d (policy %v, order %v): BFS says %v, BDD on the shifted model %v", seed, i == 1, o, want.Verdict, got.Verdict)
				continue
			}
			compared++
			if got.Verdict == bdd.Unsafe {
				sg, sdec, err := testutil.Explicit(sm, sm.Properties[0], spd)
				if err != nil {
					t.Fatal(err)
				}
				if err := sg.CheckCounterexample(sdec, got.Trace); err != nil {
					t.Errorf("seed %d: %v", seed, err)
				}
				if len(got.Trace) != len(want.Trace) {
					t.Errorf("seed %d: counterexample of %d steps, the shortest has %d", seed, len(got.Trace)-1, len(want.Trace)-1)
				}
			}
			wantX, err1 := explicit.Search(ctx, g, explicit.Options{Policy: dec})
			gotX, err2 := bdd.Explore(ctx, sm, sm.Properties[0], spd, bdd.Options{Order: o})
			if err1 == nil && err2 == nil && (gotX.States.Int64() != int64(wantX.Stats.States) || gotX.Transitions.Int64() != int64(wantX.Stats.Transitions) || gotX.Depth != wantX.Stats.Depth) {
				t.Errorf("seed %d (policy %v): shifted BDD explore %v states %v transitions depth %d, BFS %d %d %d", seed, i == 1, gotX.States, gotX.Transitions, gotX.Depth, wantX.Stats.States, wantX.Stats.Transitions, wantX.Stats.Depth)
			}
		}
	}
	t.Logf("%d models shifted, %d verdicts compared", n, compared)
	if compared < n/2 {
		t.Errorf("only %d verdicts compared on %d models", compared, n)
	}
}

// TestPropUShiftedConform: BDD Prop-U on shifted models (wide offsets, a
// one-value variable) agrees with explicit Prop-U, TarjanSafe and the
// reference on every state.
func TestPropUShiftedConform(t *testing.T) {
	first, n := campaign(t, 400000, models(t)/10)
	conformPropU(t, first, n, gen.Options{MaxVars: 3}, func(m *symbolic.Model, seed uint64) (*symbolic.PolicyDecl, error) {
		gen.Shift(m, rand.New(rand.NewPCG(seed, 2))) // the hook runs before the model is compiled
		return m.Policies[0], nil
	})
}
