package fuzz

// A numeric relaxation of the model for distance estimates (ours; the
// papers use h^FF and h^max on FDR tasks, which our integer IR lacks).
//
// Each variable keeps an interval of values, starting at the state's value.
// A relaxed layer applies every command whose guard may hold under the
// current intervals (three-valued interval evaluation) to the intervals and
// widens every assigned variable's interval by the interval of the right-
// hand side. Intervals only grow, and every concrete state reachable in k
// steps lies in the box of layer k, so:
//   - a condition that cannot hold in the box of any layer up to the
//     fixpoint can never hold: the distance is infinite (dead-end
//     detection, as paper 003's h^max test in Algorithm 1, line 8);
//   - the first layer in which a condition may hold is a lower bound on the
//     steps needed (h_max, admissible), and the sum of that layer over the
//     goal's top-level conjuncts is an h_add-style estimate (not admissible,
//     more informative, used to guide greedy search and the biases).

import "vigil/symbolic"

// goalRelaxCap bounds the layers of a sweep; a condition not reached by then
// gets distance goalRelaxCap (still a lower bound: it needs more steps).
const goalRelaxCap = 256

// goalRelax holds a model's relaxation.
type goalRelax struct {
	m     *symbolic.Model
	goals []*symbolic.Cond                    // the goal's top-level conjuncts
	lin   map[*symbolic.Cond]*symbolic.Linear // L - R of comparisons (nil: not linear)
	// ovf is set when an interval bound left int64 (integers are exact,
	// so the interval is then unknown): a comparison may go either way,
	// an assigned variable may take any value of its range.
	ovf bool
}

// The interval arithmetic is checked: a bound that leaves int64 sets
// r.ovf (the result is then meaningless).
func (r *goalRelax) add(a, b int) int {
	c, ok := symbolic.AddExact(a, b)
	r.ovf = r.ovf || !ok
	return c
}

func (r *goalRelax) sub(a, b int) int {
	c, ok := symbolic.SubExact(a, b)
	r.ovf = r.ovf || !ok
	return c
}

func (r *goalRelax) mul(a, b int) int {
	c, ok := symbolic.MulExact(a, b)
	r.ovf = r.ovf || !ok
	return c
}

func newGoalRelax(m *symbolic.Model, goal *symbolic.Cond) *goalRelax {
	r := &goalRelax{m: m, lin: map[*symbolic.Cond]*symbolic.Linear{}}
	var split func(c *symbolic.Cond)
	split = func(c *symbolic.Cond) {
		if c.Op == symbolic.CAnd {
			for _, a := range c.Args {
				split(a)
			}
			return
		}
		r.goals = append(r.goals, c)
	}
	split(goal)
	return r
}

// sweep runs relaxed layers from s and calls visit with each layer's
// intervals (layer 0 is s itself) until visit returns true, the intervals
// stop growing (it returns true: a fixpoint) or limit layers have run.
func (r *goalRelax) sweep(s symbolic.State, limit int, visit func(k int, lo, hi []int) bool) (fixpoint bool) {
	n := len(r.m.Vars)
	lo, hi := append([]int(nil), s...), append([]int(nil), s...)
	nlo, nhi := make([]int, n), make([]int, n)
	for k := 0; ; k++ {
		if visit(k, lo, hi) {
			return false
		}
		if k >= limit {
			return false
		}
		copy(nlo, lo)
		copy(nhi, hi)
		for i := range r.m.Commands {
			c := &r.m.Commands[i]
			if t, _ := r.cond(c.Guard, lo, hi); !t {
				continue
			}
			for _, o := range c.Outcomes {
				for _, a := range o.Assigns {
					r.ovf = false
					a0, b0 := r.expr(a.Value, lo, hi)
					v := &r.m.Vars[a.Var]
					if r.ovf {
						a0, b0 = v.Lo, v.Hi
					}
					a0, b0 = max(a0, v.Lo), min(b0, v.Hi)
					if a0 > b0 {
						continue // only range errors: no transition
					}
					nlo[a.Var] = min(nlo[a.Var], a0)
					nhi[a.Var] = max(nhi[a.Var], b0)
				}
			}
		}
		changed := false
		for v := 0; v < n; v++ {
			if nlo[v] != lo[v] || nhi[v] != hi[v] {
				changed = true
			}
		}
		if !changed {
			return true
		}
		lo, nlo = nlo, lo
		hi, nhi = nhi, hi
	}
}

// goalInf marks an infinite distance.
const goalInf = int(^uint(0) >> 2)

// goalDist returns h_max and h_add of the goal from s (goalInf when the
// goal can never hold).
func (r *goalRelax) goalDist(s symbolic.State) (hmax, hadd int) {
	first := make([]int, len(r.goals))
	for i := range first {
		first[i] = -1
	}
	left := len(r.goals)
	fix := r.sweep(s, goalRelaxCap, func(k int, lo, hi []int) bool {
		for i, c := range r.goals {
			if first[i] < 0 {
				if t, _ := r.cond(c, lo, hi); t {
					first[i] = k
					left--
				}
			}
		}
		return left == 0
	})
	for _, f := range first {
		if f < 0 {
			if fix {
				return goalInf, goalInf
			}
			f = goalRelaxCap + 1
		}
		hmax = max(hmax, f)
		hadd += f
	}
	return hmax, hadd
}

// relaxHistory is the boxes of a sweep's layers, for state-to-state
// distances.
type goalHistory struct {
	lo, hi [][]int
	fix    bool
}

func (r *goalRelax) history(s symbolic.State, limit int) *goalHistory {
	h := &goalHistory{}
	h.fix = r.sweep(s, limit, func(k int, lo, hi []int) bool {
		h.lo = append(h.lo, append([]int(nil), lo...))
		h.hi = append(h.hi, append([]int(nil), hi...))
		return false
	})
	return h
}

// dist is the h_add-style distance to state t: the sum over variables of
// the first layer whose box holds t's value (goalInf if some value is
// never reached).
func (h *goalHistory) dist(t symbolic.State) int {
	d := 0
	last := len(h.lo) - 1
	for v, x := range t {
		if x < h.lo[last][v] || x > h.hi[last][v] {
			if h.fix {
				return goalInf
			}
			d += last + 1
			continue
		}
		// Boxes grow with the layer: binary search the first that holds x.
		a, b := 0, last
		for a < b {
			m := (a + b) / 2
			if x >= h.lo[m][v] && x <= h.hi[m][v] {
				b = m
			} else {
				a = m + 1
			}
		}
		d += a
	}
	return d
}

// expr returns an interval holding every value of e on the box [lo, hi].
func (r *goalRelax) expr(e *symbolic.Expr, lo, hi []int) (int, int) {
	switch e.Op {
	case symbolic.OpConst:
		return e.K, e.K
	case symbolic.OpVar:
		return lo[e.Var], hi[e.Var]
	case symbolic.OpAdd:
		a, b := 0, 0
		for _, x := range e.Args {
			l, h := r.expr(x, lo, hi)
			a, b = r.add(a, l), r.add(b, h)
		}
		return a, b
	case symbolic.OpSub:
		l1, h1 := r.expr(e.Args[0], lo, hi)
		l2, h2 := r.expr(e.Args[1], lo, hi)
		return r.sub(l1, h2), r.sub(h1, l2)
	case symbolic.OpNeg:
		l, h := r.expr(e.Args[0], lo, hi)
		return r.sub(0, h), r.sub(0, l)
	case symbolic.OpMul:
		l, h := r.expr(e.Args[0], lo, hi)
		if e.K >= 0 {
			return r.mul(e.K, l), r.mul(e.K, h)
		}
		return r.mul(e.K, h), r.mul(e.K, l)
	case symbolic.OpDiv:
		l, h := r.expr(e.Args[0], lo, hi)
		return symbolic.FloorDiv(l, e.K), symbolic.FloorDiv(h, e.K)
	case symbolic.OpProd:
		l1, h1 := r.expr(e.Args[0], lo, hi)
		l2, h2 := r.expr(e.Args[1], lo, hi)
		a, b, c, d := r.mul(l1, l2), r.mul(l1, h2), r.mul(h1, l2), r.mul(h1, h2)
		return min(a, b, c, d), max(a, b, c, d)
	case symbolic.OpMin:
		l1, h1 := r.expr(e.Args[0], lo, hi)
		l2, h2 := r.expr(e.Args[1], lo, hi)
		return min(l1, l2), min(h1, h2)
	case symbolic.OpMax:
		l1, h1 := r.expr(e.Args[0], lo, hi)
		l2, h2 := r.expr(e.Args[1], lo, hi)
		return max(l1, l2), max(h1, h2)
	case symbolic.OpAbs:
		l, h := r.expr(e.Args[0], lo, hi)
		switch {
		case l >= 0:
			return l, h
		case h <= 0:
			return r.sub(0, h), r.sub(0, l)
		}
		return 0, max(r.sub(0, l), h)
	case symbolic.OpIte:
		t, f := r.cond(e.Cond, lo, hi)
		l1, h1 := r.expr(e.Args[0], lo, hi)
		l2, h2 := r.expr(e.Args[1], lo, hi)
		switch {
		case t && !f:
			return l1, h1
		case f && !t:
			return l2, h2
		}
		return min(l1, l2), max(h1, h2)
	case symbolic.OpBool:
		t, f := r.cond(e.Cond, lo, hi)
		a, b := 1, 0
		if f {
			a = 0
		}
		if t {
			b = 1
		}
		return a, b
	}
	panic("fuzz: bad expression op " + e.Op.String())
}

// cond evaluates c three-valued on the box: whether it may be true and
// whether it may be false somewhere in it.
func (r *goalRelax) cond(c *symbolic.Cond, lo, hi []int) (canTrue, canFalse bool) {
	switch c.Op {
	case symbolic.CTrue:
		return true, false
	case symbolic.CFalse:
		return false, true
	case symbolic.CVar:
		return hi[c.Var] != 0 || lo[c.Var] != 0, lo[c.Var] <= 0 && hi[c.Var] >= 0
	case symbolic.CCmp:
		// An overflow inside the comparison makes it unknown; it does not
		// spoil the expression around it.
		outer := r.ovf
		r.ovf = false
		defer func() {
			if r.ovf {
				canTrue, canFalse = true, true
			}
			r.ovf = outer
		}()
		var a, b int
		d, seen := r.lin[c]
		if !seen {
			if l, ok := symbolic.Linearize(&symbolic.Expr{Op: symbolic.OpSub, Args: []*symbolic.Expr{c.L, c.R}}); ok {
				d = &l
			}
			r.lin[c] = d
		}
		if d != nil {
			a, b = d.Const, d.Const
			for _, t := range d.Terms {
				if t.Coef > 0 {
					a, b = r.add(a, r.mul(t.Coef, lo[t.Var])), r.add(b, r.mul(t.Coef, hi[t.Var]))
				} else {
					a, b = r.add(a, r.mul(t.Coef, hi[t.Var])), r.add(b, r.mul(t.Coef, lo[t.Var]))
				}
			}
		} else {
			l1, h1 := r.expr(c.L, lo, hi)
			l2, h2 := r.expr(c.R, lo, hi)
			a, b = r.sub(l1, h2), r.sub(h1, l2)
		}
		// L - R ranges over [a, b].
		switch c.Cmp {
		case symbolic.Eq:
			return a <= 0 && b >= 0, a != 0 || b != 0
		case symbolic.Ne:
			return a != 0 || b != 0, a <= 0 && b >= 0
		case symbolic.Lt:
			return a < 0, b >= 0
		case symbolic.Le:
			return a <= 0, b > 0
		case symbolic.Gt:
			return b > 0, a <= 0
		default: // Ge
			return b >= 0, a < 0
		}
	case symbolic.CNot:
		t, f := r.cond(c.Args[0], lo, hi)
		return f, t
	case symbolic.CAnd:
		t, f := true, false
		for _, x := range c.Args {
			xt, xf := r.cond(x, lo, hi)
			t, f = t && xt, f || xf
		}
		return t, f
	case symbolic.COr:
		t, f := false, true
		for _, x := range c.Args {
			xt, xf := r.cond(x, lo, hi)
			t, f = t || xt, f && xf
		}
		return t, f
	case symbolic.CImplies:
		at, af := r.cond(c.Args[0], lo, hi)
		bt, bf := r.cond(c.Args[1], lo, hi)
		return af || bt, at && bf
	}
	panic("fuzz: bad condition op")
}
