package cert

// The box of start states the checker enumerates. The checker shares no
// code with the explicit engine, so it narrows the variables' ranges by
// the start condition itself, here, in exact (math/big) arithmetic: an
// invariant certificate of `start 3 <= x && x <= 4` over x : 0 .. 2^40
// was walked value by value up to MaxStartWork (283 s) and then refused
// as invalid (s33c). Narrowing only leaves out values that no start
// state has: every conjunct is still tested on every enumerated state.
//
// A conjunct narrows when it is (after pushing negations inward through
// !, &&, || and =>) a comparison between linear forms (constants, variables,
// +, -, constant multiples), which interval propagation applies to the
// box until a fixpoint, or a comparison of a constant with a form built
// from linear ones by / (floor division by a positive constant), max,
// min, abs and unary minus, where it implies linear bounds: x / 2 == 3
// implies 6 <= x <= 7, max(a, b) <= k implies a <= k and b <= k, abs(a)
// <= k implies -k <= a <= k. A Boolean variable x implies x >= 1 (it is
// true when non-zero; Booleans are 0 .. 1), !x implies x == 0. A
// disjunction narrows the box to the hull of its disjuncts' boxes.
// Anything else (an if-then-else, a product) narrows nothing.

import (
	"math/big"

	"vigil/symbolic"
)

// linForm is Const + sum Coef[v] * x_v; a nil Coef[v] is 0.
type linForm struct {
	c    *big.Int
	coef []*big.Int
}

// linear returns e as a linear form over n variables, or ok == false.
func linear(e *symbolic.Expr, n int) (linForm, bool) {
	switch e.Op {
	case symbolic.OpConst:
		return linForm{c: big.NewInt(int64(e.K)), coef: make([]*big.Int, n)}, true
	case symbolic.OpVar:
		if int(e.Var) < 0 || int(e.Var) >= n {
			return linForm{}, false
		}
		l := linForm{c: new(big.Int), coef: make([]*big.Int, n)}
		l.coef[e.Var] = big.NewInt(1)
		return l, true
	case symbolic.OpAdd, symbolic.OpSub:
		if len(e.Args) == 0 || (e.Op == symbolic.OpSub && len(e.Args) != 2) {
			return linForm{}, false
		}
		sum, ok := linear(e.Args[0], n)
		if !ok {
			return linForm{}, false
		}
		for _, a := range e.Args[1:] {
			l, ok := linear(a, n)
			if !ok {
				return linForm{}, false
			}
			if e.Op == symbolic.OpSub {
				l = l.scale(big.NewInt(-1))
			}
			sum = sum.add(l)
		}
		return sum, true
	case symbolic.OpNeg, symbolic.OpMul:
		if len(e.Args) != 1 {
			return linForm{}, false
		}
		l, ok := linear(e.Args[0], n)
		if !ok {
			return linForm{}, false
		}
		k := big.NewInt(-1)
		if e.Op == symbolic.OpMul {
			k = big.NewInt(int64(e.K))
		}
		return l.scale(k), true
	}
	return linForm{}, false
}

func (l linForm) scale(k *big.Int) linForm {
	r := linForm{c: new(big.Int).Mul(l.c, k), coef: make([]*big.Int, len(l.coef))}
	for v, a := range l.coef {
		if a != nil {
			r.coef[v] = new(big.Int).Mul(a, k)
		}
	}
	return r
}

func (l linForm) add(o linForm) linForm {
	r := linForm{c: new(big.Int).Add(l.c, o.c), coef: make([]*big.Int, len(l.coef))}
	for v := range l.coef {
		switch {
		case l.coef[v] == nil:
			r.coef[v] = o.coef[v]
		case o.coef[v] == nil:
			r.coef[v] = l.coef[v]
		default:
			r.coef[v] = new(big.Int).Add(l.coef[v], o.coef[v])
		}
	}
	return r
}

// plus returns l + k.
func (l linForm) plus(k int64) linForm {
	return linForm{c: new(big.Int).Add(l.c, big.NewInt(k)), coef: l.coef}
}

// constant reports whether l reads no variable.
func (l linForm) constant() bool {
	for _, a := range l.coef {
		if a != nil && a.Sign() != 0 {
			return false
		}
	}
	return true
}

// boxNarrower collects constraints "form <= 0" implied by the start
// condition and applies them to the box.
type boxNarrower struct {
	m     *symbolic.Model
	n     int
	cs    []linForm
	empty bool // a constraint that never holds
	// ors are the disjunctions among the conjuncts: the box is narrowed
	// to the hull of their disjuncts' boxes.
	ors [][]part
}

// part is a condition, negated when neg.
type part struct {
	c   *symbolic.Cond
	neg bool
}

// cond adds the constraints that c (or !c when neg) implies.
func (b *boxNarrower) cond(c *symbolic.Cond, neg bool) {
	switch c.Op {
	case symbolic.CTrue, symbolic.CFalse:
		if (c.Op == symbolic.CFalse) != neg {
			b.empty = true
		}
	case symbolic.CNot:
		if len(c.Args) == 1 {
			b.cond(c.Args[0], !neg)
		}
	case symbolic.CAnd, symbolic.COr:
		// a && b, and !(a || b) = !a && !b, imply what each part does;
		// a || b, and !(a && b) = !a || !b, the hull of their boxes.
		if (c.Op == symbolic.CAnd) != neg {
			for _, a := range c.Args {
				b.cond(a, neg)
			}
			return
		}
		var ds []part
		for _, a := range c.Args {
			ds = append(ds, part{a, neg})
		}
		b.ors = append(b.ors, ds)
	case symbolic.CImplies:
		// !(a => b) = a && !b; a => b = !a || b.
		if len(c.Args) != 2 {
			return
		}
		if neg {
			b.cond(c.Args[0], false)
			b.cond(c.Args[1], true)
			return
		}
		b.ors = append(b.ors, []part{{c.Args[0], true}, {c.Args[1], false}})
	case symbolic.CVar:
		if int(c.Var) < 0 || int(c.Var) >= b.n || b.m.Vars[c.Var].Lo < 0 {
			return // (a Boolean's range is 0 .. 1)
		}
		x := linForm{c: new(big.Int), coef: make([]*big.Int, b.n)}
		x.coef[c.Var] = big.NewInt(1)
		if neg { // x == 0
			b.cs = append(b.cs, x, x.scale(big.NewInt(-1)))
		} else { // x != 0 and x >= 0: 1 - x <= 0
			b.cs = append(b.cs, x.scale(big.NewInt(-1)).plus(1))
		}
	case symbolic.CCmp:
		op := c.Cmp
		if neg {
			op = op.Negate()
		}
		l, okL := linear(c.L, b.n)
		r, okR := linear(c.R, b.n)
		if okL && okR {
			b.cmp(l.add(r.scale(big.NewInt(-1))), op)
			return
		}
		// A constant against a form that is not linear.
		e := c.L
		var k linForm
		switch {
		case okR && r.constant():
			k = r
		case okL && l.constant():
			e, k, op = c.R, l, op.Flip()
		default:
			return
		}
		switch op {
		case symbolic.Le:
			b.upper(e, k.c)
		case symbolic.Lt:
			b.upper(e, new(big.Int).Sub(k.c, big.NewInt(1)))
		case symbolic.Ge:
			b.lower(e, k.c)
		case symbolic.Gt:
			b.lower(e, new(big.Int).Add(k.c, big.NewInt(1)))
		case symbolic.Eq:
			b.upper(e, k.c)
			b.lower(e, k.c)
		}
	}
}

// cmp adds the constraints of "d op 0".
func (b *boxNarrower) cmp(d linForm, op symbolic.CmpOp) {
	neg := d.scale(big.NewInt(-1))
	switch op {
	case symbolic.Le:
		b.cs = append(b.cs, d)
	case symbolic.Lt: // d + 1 <= 0
		b.cs = append(b.cs, d.plus(1))
	case symbolic.Ge:
		b.cs = append(b.cs, neg)
	case symbolic.Gt:
		b.cs = append(b.cs, neg.plus(1))
	case symbolic.Eq:
		b.cs = append(b.cs, d, neg)
	}
}

// upper adds constraints implied by e <= k.
func (b *boxNarrower) upper(e *symbolic.Expr, k *big.Int) {
	if l, ok := linear(e, b.n); ok {
		b.cs = append(b.cs, linForm{c: new(big.Int).Sub(l.c, k), coef: l.coef})
		return
	}
	switch e.Op {
	case symbolic.OpDiv: // floor(a / K) <= k  <=>  a < (k+1) K  <=>  a <= (k+1) K - 1
		if e.K > 0 && len(e.Args) == 1 {
			t := new(big.Int).Add(k, big.NewInt(1))
			t.Mul(t, big.NewInt(int64(e.K)))
			b.upper(e.Args[0], t.Sub(t, big.NewInt(1)))
		}
	case symbolic.OpMax: // both at most k
		for _, a := range e.Args {
			b.upper(a, k)
		}
	case symbolic.OpAbs: // -k <= a <= k (never when k < 0)
		if len(e.Args) == 1 {
			if k.Sign() < 0 {
				b.empty = true
				return
			}
			b.upper(e.Args[0], k)
			b.lower(e.Args[0], new(big.Int).Neg(k))
		}
	case symbolic.OpNeg: // a >= -k
		if len(e.Args) == 1 {
			b.lower(e.Args[0], new(big.Int).Neg(k))
		}
	}
}

// lower adds constraints implied by e >= k.
func (b *boxNarrower) lower(e *symbolic.Expr, k *big.Int) {
	if l, ok := linear(e, b.n); ok { // k - l <= 0
		b.cs = append(b.cs, linForm{c: new(big.Int).Sub(l.c, k), coef: l.coef}.scale(big.NewInt(-1)))
		return
	}
	switch e.Op {
	case symbolic.OpDiv: // floor(a / K) >= k  <=>  a >= k K
		if e.K > 0 && len(e.Args) == 1 {
			b.lower(e.Args[0], new(big.Int).Mul(k, big.NewInt(int64(e.K))))
		}
	case symbolic.OpMin: // both at least k
		for _, a := range e.Args {
			b.lower(a, k)
		}
	case symbolic.OpNeg: // a <= -k
		if len(e.Args) == 1 {
			b.upper(e.Args[0], new(big.Int).Neg(k))
		}
	}
}

// floorDiv returns floor(a / d), d != 0.
func floorDiv(a, d *big.Int) *big.Int {
	q, r := new(big.Int).QuoRem(a, d, new(big.Int))
	if r.Sign() != 0 && (r.Sign() < 0) != (d.Sign() < 0) {
		q.Sub(q, big.NewInt(1))
	}
	return q
}

// narrow tightens lo/hi (the variables' ranges on entry) under the
// constraints until a fixpoint; it returns false when no state of the box
// satisfies them.
func (b *boxNarrower) narrow(lo, hi []*big.Int) bool {
	if b.empty {
		return false
	}
	term := func(a *big.Int, v int) *big.Int { // the least a * x_v over the box
		p, q := new(big.Int).Mul(a, lo[v]), new(big.Int).Mul(a, hi[v])
		if p.Cmp(q) < 0 {
			return p
		}
		return q
	}
	// Every round but the last tightens a bound; bounds are integers in
	// a finite box, so this ends, but a round limit keeps slow
	// convergence (x <= y - 1, y <= x + 1 over wide ranges) short;
	// stopping early only narrows less.
	for round := 0; round < 256; round++ {
		changed := false
		for _, c := range b.cs {
			least := new(big.Int).Set(c.c)
			for v, a := range c.coef {
				if a != nil && a.Sign() != 0 {
					least.Add(least, term(a, v))
				}
			}
			if least.Sign() > 0 {
				return false // c > 0 everywhere in the box
			}
			for v, a := range c.coef {
				if a == nil || a.Sign() == 0 {
					continue
				}
				// a x_v <= -(least - term_v) = room
				room := new(big.Int).Sub(term(a, v), least)
				if a.Sign() > 0 {
					if u := floorDiv(room, a); u.Cmp(hi[v]) < 0 {
						hi[v], changed = u, true
					}
				} else {
					// x_v >= ceil(room / a) = -floor(-room / a)
					l := floorDiv(room.Neg(room), a)
					if l.Neg(l); l.Cmp(lo[v]) > 0 {
						lo[v], changed = l, true
					}
				}
				if lo[v].Cmp(hi[v]) > 0 {
					return false
				}
			}
		}
		if !changed {
			break
		}
	}
	return true
}

// startBox returns the box of values the start condition leaves to each
// variable within its range, or ok == false when it leaves none.
func startBox(m *symbolic.Model, start *symbolic.Cond) (lo, hi []int, ok bool) {
	n := len(m.Vars)
	blo, bhi := make([]*big.Int, n), make([]*big.Int, n)
	for i, v := range m.Vars {
		blo[i], bhi[i] = big.NewInt(int64(v.Lo)), big.NewInt(int64(v.Hi))
	}
	b := &boxNarrower{m: m, n: n}
	b.cond(start, false)
	if !b.narrow(blo, bhi) {
		return nil, nil, false
	}
	// A state satisfies one disjunct of each disjunction, so it lies in
	// that disjunct's box (narrowed with the other conjuncts' constraints):
	// the box shrinks to the hull of those. A disjunct whose box is empty
	// adds nothing; disjunctions nested in a disjunct narrow nothing.
	for _, ds := range b.ors {
		var hlo, hhi []*big.Int
		for _, d := range ds {
			sub := &boxNarrower{m: m, n: n, cs: append([]linForm(nil), b.cs...)}
			sub.cond(d.c, d.neg)
			dlo, dhi := append([]*big.Int(nil), blo...), append([]*big.Int(nil), bhi...)
			if !sub.narrow(dlo, dhi) {
				continue
			}
			if hlo == nil {
				hlo, hhi = dlo, dhi
				continue
			}
			for i := range hlo {
				if dlo[i].Cmp(hlo[i]) < 0 {
					hlo[i] = dlo[i]
				}
				if dhi[i].Cmp(hhi[i]) > 0 {
					hhi[i] = dhi[i]
				}
			}
		}
		if hlo == nil {
			return nil, nil, false // no disjunct holds in the box
		}
		blo, bhi = hlo, hhi // within the box: narrowing only tightens
	}
	if len(b.ors) > 0 && !b.narrow(blo, bhi) {
		return nil, nil, false
	}
	lo, hi = make([]int, n), make([]int, n)
	for i := range m.Vars { // within the ranges: bounds only tighten
		lo[i], hi[i] = int(blo[i].Int64()), int(bhi[i].Int64())
	}
	return lo, hi, true
}
