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

// shifted returns a copy of m in which every integer variable v is stored
// as v + K_v for a large offset K_v (up to ±2^40, so that the encoding's
// lower bounds and the bit-vector intervals lie far from 0 and need 42
// bits): every read of v becomes (v - K_v) and every assignment e becomes
// e + K_v. A new variable s has a range of one value (0 BDD bits, which
// gen never draws; JANI's bounded types may have them) and is read and
// assigned without changing any value. The shifted
// model has the same runs as m, so every engine must answer as on m.
func shifted(m *symbolic.Model, seed uint64) *symbolic.Model {
	r := rand.New(rand.NewPCG(seed, 0x73686966))
	offsets := []int{1<<40 + 7, -(1 << 40) - 3, 1000003, -999983, 0}
	k := make([]int, len(m.Vars))
	c := *m
	c.Vars = append([]symbolic.Var(nil), m.Vars...)
	for i := range c.Vars {
		if !c.Vars[i].Bool {
			k[i] = offsets[r.IntN(len(offsets))]
			v := &c.Vars[i]
			v.Lo, v.Hi, v.Init = v.Lo+k[i], v.Hi+k[i], v.Init+k[i]
		}
	}
	// The one-value variable s = sv, read as (s - sv) beside variable 0
	// and assigned max(s, sv - 1) by every outcome.
	sv := offsets[r.IntN(len(offsets))] + r.IntN(5) - 2
	sid := symbolic.VarID(len(c.Vars))
	c.Vars = append(c.Vars, symbolic.Var{Name: "s", Lo: sv, Hi: sv, HasInit: true, Init: sv})
	var rx func(e *symbolic.Expr) *symbolic.Expr
	var rc func(x *symbolic.Cond) *symbolic.Cond
	rx = func(e *symbolic.Expr) *symbolic.Expr {
		if e == nil {
			return nil
		}
		if e.Op == symbolic.OpVar && k[e.Var] != 0 {
			return &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{symbolic.V(e.Var), symbolic.Lit(-k[e.Var])}}
		}
		if e.Op == symbolic.OpVar && e.Var == 0 && !m.Vars[0].Bool {
			return &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{symbolic.V(e.Var), symbolic.V(sid), symbolic.Lit(-sv)}}
		}
		n := *e
		n.Args = nil
		for _, a := range e.Args {
			n.Args = append(n.Args, rx(a))
		}
		n.Cond = rc(e.Cond)
		return &n
	}
	rc = func(x *symbolic.Cond) *symbolic.Cond {
		if x == nil {
			return nil
		}
		n := *x
		n.L, n.R = rx(x.L), rx(x.R)
		n.Args = nil
		for _, a := range x.Args {
			n.Args = append(n.Args, rc(a))
		}
		return &n
	}
	c.Commands = nil
	for _, cmd := range m.Commands {
		nc := cmd
		nc.Guard = rc(cmd.Guard)
		nc.Outcomes = nil
		for _, o := range cmd.Outcomes {
			no := o
			no.Assigns = nil
			for _, a := range o.Assigns {
				v := rx(a.Value)
				if k[a.Var] != 0 {
					v = &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{v, symbolic.Lit(k[a.Var])}}
				}
				no.Assigns = append(no.Assigns, symbolic.Assign{Var: a.Var, Value: v})
			}
			no.Assigns = append(no.Assigns, symbolic.Assign{Var: sid, Value: &symbolic.Expr{Op: symbolic.OpMax, Args: []*symbolic.Expr{symbolic.V(sid), symbolic.Lit(sv - 1)}}})
			nc.Outcomes = append(nc.Outcomes, no)
		}
		c.Commands = append(c.Commands, nc)
	}
	c.Properties = nil
	for _, p := range m.Properties {
		np := *p
		np.Start, np.Unsafe, np.Goal = rc(p.Start), rc(p.Unsafe), rc(p.Goal)
		c.Properties = append(c.Properties, &np)
	}
	c.Policies = nil
	for _, d := range m.Policies {
		nd := *d
		nd.Rules = nil
		for _, ru := range d.Rules {
			ru.Cond = rc(ru.Cond)
			nd.Rules = append(nd.Rules, ru)
		}
		c.Policies = append(c.Policies, &nd)
	}
	return &c
}

// TestShiftedConform: the BDD engine answers on the shifted model (wide
// offsets, 42-bit intervals) what BFS answers on the original, with
// counterexamples that replay in the shifted model and the same
// exploration counts.
func TestShiftedConform(t *testing.T) {
	first, n := campaign(t, 300000, models(t)/4)
	ctx := context.Background()
	compared := 0
	for seed := first; seed < first+uint64(n); seed++ {
		m := gen.Model(seed, gen.Options{InitialStart: seed%2 == 0})
		if seed%3 == 0 {
			m = withProducts(m, seed)
		}
		sm := shifted(m, seed)
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
		*m = *shifted(m, seed) // the hook runs before the model is compiled
		return m.Policies[0], nil
	})
}
