package gen

import (
	"math/rand/v2"

	"vigil/symbolic"
)

// Products rewrites m, a generated model, in place so that it uses the
// product of two non-constants (OpProd, what a JANI model's x*y lowers
// to; Model draws only linear expressions): about half the integer
// assignments become clamp(e * w [* w2] [+ c] [/ k]) for variables w, w2
// (clamped into the variable's range with min and max), and about a third
// of the comparisons in guards, properties and rules compare e * w
// instead of e. It returns m.
func Products(m *symbolic.Model, r *rand.Rand) *symbolic.Model {
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
		p := &symbolic.Expr{Op: symbolic.OpProd, Args: []*symbolic.Expr{e, symbolic.V(ints[r.IntN(len(ints))])}}
		if r.IntN(3) == 0 { // a product of products
			p = &symbolic.Expr{Op: symbolic.OpProd, Args: []*symbolic.Expr{symbolic.V(ints[r.IntN(len(ints))]), p}}
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
		cond(p.Start)
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

// Shift rewrites m, a generated model, in place into one with the same
// runs whose integer variables are stored far from 0: variable v becomes
// v + K_v for an offset K_v up to ±2^40 (so that encodings' lower bounds
// and the intervals of bit-vector and interval reasoning need 42 bits),
// every read of v becomes (v - K_v) and every assignment e to it e + K_v.
// A new last variable s has a range of one value (Model never draws
// one; JANI's bounded types may have them): every outcome assigns it
// max(s, s0 - 1), and reads of variable 0 (when an integer) become
// v0 + s - s0. States of m and of the result correspond one to one (x
// to x + K, and s0), so every engine must answer on the result as on m.
// It returns m.
func Shift(m *symbolic.Model, r *rand.Rand) *symbolic.Model {
	offsets := []int{1<<40 + 7, -(1 << 40) - 3, 1000003, -999983, 0}
	k := make([]int, len(m.Vars))
	for i := range m.Vars {
		if v := &m.Vars[i]; !v.Bool {
			k[i] = offsets[r.IntN(len(offsets))]
			v.Lo, v.Hi, v.Init = v.Lo+k[i], v.Hi+k[i], v.Init+k[i]
		}
	}
	s0 := offsets[r.IntN(len(offsets))] + r.IntN(5) - 2
	sid := symbolic.VarID(len(m.Vars))
	int0 := !m.Vars[0].Bool
	m.Vars = append(m.Vars, symbolic.Var{Name: "s", Lo: s0, Hi: s0, HasInit: true, Init: s0})
	var rx func(e *symbolic.Expr) *symbolic.Expr
	var rc func(x *symbolic.Cond) *symbolic.Cond
	rx = func(e *symbolic.Expr) *symbolic.Expr {
		if e == nil {
			return nil
		}
		if e.Op == symbolic.OpVar {
			if e.Var == 0 && int0 {
				return &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{symbolic.V(e.Var), symbolic.V(sid), symbolic.Lit(-s0 - k[0])}}
			}
			if k[e.Var] != 0 {
				return &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{symbolic.V(e.Var), symbolic.Lit(-k[e.Var])}}
			}
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
	for ci := range m.Commands {
		c := &m.Commands[ci]
		c.Guard = rc(c.Guard)
		for oi := range c.Outcomes {
			o := &c.Outcomes[oi]
			as := make([]symbolic.Assign, 0, len(o.Assigns)+1)
			for _, a := range o.Assigns {
				v := rx(a.Value)
				if k[a.Var] != 0 {
					v = &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{v, symbolic.Lit(k[a.Var])}}
				}
				as = append(as, symbolic.Assign{Var: a.Var, Value: v})
			}
			o.Assigns = append(as, symbolic.Assign{Var: sid, Value: &symbolic.Expr{Op: symbolic.OpMax, Args: []*symbolic.Expr{symbolic.V(sid), symbolic.Lit(s0 - 1)}}})
		}
	}
	for _, p := range m.Properties {
		p.Start, p.Unsafe, p.Goal = rc(p.Start), rc(p.Unsafe), rc(p.Goal)
	}
	for _, d := range m.Policies {
		for i := range d.Rules {
			d.Rules[i].Cond = rc(d.Rules[i].Cond)
		}
	}
	return m
}

// Table returns a random table policy for m (named "tab", not added to
// m.Policies): rows for a random share of the states (the others are
// stuck), with random labels, mostly applicable; some states get two rows
// (the last one counts), and a few rows are not states (a value out of
// range), which never match.
func Table(m *symbolic.Model, r *rand.Rand) *symbolic.PolicyDecl {
	d := &symbolic.PolicyDecl{Name: "tab", Kind: symbolic.KindTable, Table: &symbolic.Table{}}
	add := func(s symbolic.State, l symbolic.LabelID) {
		d.Table.Rows = append(d.Table.Rows, append(symbolic.State(nil), s...))
		d.Table.Labels = append(d.Table.Labels, l)
	}
	all := States(m)
	app := make([]bool, len(m.Labels))
	for _, s := range all {
		if r.IntN(5) == 0 {
			continue // stuck
		}
		m.Applicable(s, app)
		l := symbolic.LabelID(r.IntN(len(m.Labels)))
		if r.IntN(3) != 0 { // mostly an applicable label, when there is one
			for k := range app {
				if app[(int(l)+k)%len(app)] {
					l = symbolic.LabelID((int(l) + k) % len(app))
					break
				}
			}
		}
		add(s, l)
		if r.IntN(6) == 0 { // overridden by a later row
			add(s, symbolic.LabelID(r.IntN(len(m.Labels))))
		}
		if r.IntN(20) == 0 { // not a state
			t := append(symbolic.State(nil), s...)
			t[0] = m.Vars[0].Hi + 1
			add(t, symbolic.LabelID(r.IntN(len(m.Labels))))
		}
	}
	r.Shuffle(len(d.Table.Rows), func(i, j int) {
		// keep the order of rows of one state: swap only rows of
		// different states
		if m.FormatState(d.Table.Rows[i]) != m.FormatState(d.Table.Rows[j]) {
			d.Table.Rows[i], d.Table.Rows[j] = d.Table.Rows[j], d.Table.Rows[i]
			d.Table.Labels[i], d.Table.Labels[j] = d.Table.Labels[j], d.Table.Labels[i]
		}
	})
	return d
}
