package bdd_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"vigil/bdd"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	explicitconf "vigil/symbolic/explicit/conformance"
	"vigil/symbolic/gen"
)

// withProducts rewrites a generated model (symbolic/gen draws only linear
// expressions) so that it exercises the bit-blasted product of two
// non-constants (OpProd, what a JANI model's x*y lowers to): some
// assignments become clamp(e * w + c) for a variable w, some guard and
// property comparisons compare e * w with their constant. Ranges of gen's
// models start at -2..2, so products of negative and positive values and
// of ranges that are not powers of two all occur. It returns m.
func withProducts(m *symbolic.Model, seed uint64) *symbolic.Model {
	r := rand.New(rand.NewPCG(seed, 0x73323862))
	var ints []symbolic.VarID
	for i, v := range m.Vars {
		if !v.Bool {
			ints = append(ints, symbolic.VarID(i))
		}
	}
	if len(ints) == 0 {
		return m
	}
	prod := func(e *symbolic.Expr) *symbolic.Expr {
		w := ints[r.IntN(len(ints))]
		var p *symbolic.Expr = &symbolic.Expr{Op: symbolic.OpProd, Args: []*symbolic.Expr{e, symbolic.V(w)}}
		if r.IntN(3) == 0 { // a product of products
			w2 := ints[r.IntN(len(ints))]
			p = &symbolic.Expr{Op: symbolic.OpProd, Args: []*symbolic.Expr{symbolic.V(w2), p}}
		}
		if r.IntN(2) == 0 {
			p = &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{p, symbolic.Lit(r.IntN(5) - 2)}}
		}
		if r.IntN(4) == 0 {
			p = &symbolic.Expr{Op: symbolic.OpDiv, K: 1 + r.IntN(3), Args: []*symbolic.Expr{p}}
		}
		return p
	}
	var cond func(c *symbolic.Cond)
	cond = func(c *symbolic.Cond) {
		if c == nil {
			return
		}
		if c.Op == symbolic.CCmp && r.IntN(3) == 0 {
			c.L = prod(c.L)
		}
		for _, a := range c.Args {
			cond(a)
		}
	}
	for ci := range m.Commands {
		c := &m.Commands[ci]
		cond(c.Guard)
		for oi := range c.Outcomes {
			for ai := range c.Outcomes[oi].Assigns {
				a := &c.Outcomes[oi].Assigns[ai]
				v := &m.Vars[a.Var]
				if v.Bool || r.IntN(2) == 0 {
					continue
				}
				e := prod(a.Value)
				lo, hi := m.Bounds(e)
				if hi > v.Hi {
					e = &symbolic.Expr{Op: symbolic.OpMin, Args: []*symbolic.Expr{e, symbolic.Lit(v.Hi)}}
				}
				if lo < v.Lo {
					e = &symbolic.Expr{Op: symbolic.OpMax, Args: []*symbolic.Expr{e, symbolic.Lit(v.Lo)}}
				}
				a.Value = e
			}
		}
	}
	for _, p := range m.Properties {
		cond(p.Unsafe)
		cond(p.Goal)
	}
	for _, d := range m.Policies {
		for i := range d.Rules {
			cond(d.Rules[i].Cond)
		}
	}
	return m
}

// TestProductsConform: on generated models with products of variables,
// BDD verification agrees with BFS (with and without the policy, every
// order), its counterexamples replay and are shortest, and exploration
// counts agree. VIGIL_CONFORMANCE_SHIFT/SCALE widen the campaign.
func TestProductsConform(t *testing.T) {
	first, n := campaign(t, 1, models(t)/2)
	ctx := context.Background()
	compared, unsafe := 0, 0
	for seed := first; seed < first+uint64(n); seed++ {
		m := withProducts(gen.Model(seed, gen.Options{}), seed)
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
		withProducts(m, seed) // the hook runs before the model is compiled
		return m.Policies[0], nil
	})
}

// campaign applies VIGIL_CONFORMANCE_SHIFT and VIGIL_CONFORMANCE_SCALE.
func campaign(t *testing.T, first uint64, n int) (uint64, int) {
	t.Helper()
	return explicitconf.Campaign(first, max(n, 1))
}
