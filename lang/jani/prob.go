package jani

// State-dependent probabilities. A destination's probability may read the
// state (QVBS nand: x/(N-c)). vigil keeps every outcome as possible (the
// FOND view), but like Storm it drops an outcome in the states where its
// probability is 0 (and only there: a negative one, one above 1, or a
// division by zero, is a probability error, as is such a factor of a
// product of synchronised edges' probabilities, even beside a factor 0). The probability is lowered to a fraction num/den of two
// linear integer expressions (division by a variable expression is allowed
// here), from which the lowering derives
//
//   - the condition "probability != 0, or some factor is no probability"
//     (liveProb; synchronised edges give a product of factors), which
//     guards the outcome: a command
//     with such outcomes is split into one command per combination of live
//     outcomes (see splitLive), so every engine sees the same transitions;
//   - the factors Outcome.ProbFactors, one per destination whose
//     probability reads the state (and one for the product of the
//     constant ones, when not 1), whose product simulation and vigil prob
//     weigh the outcome by and each of which the explicit engine checks
//     against [0, 1] in every state it expands.
//
// Products of variables in a probability give OpProd (non-linear: the
// explicit and BDD engines evaluate it, the SMT-based ones refuse it). A
// division by a variable inside min, max, ite, floor or a comparison is an
// "unsupported feature" error.

import (
	"vigil/symbolic"
)

// frac is num/den, each a lowered numeric value (constant or linear).
type frac struct{ num, den val }

// probFrac lowers a probability expression to a fraction, allowing
// division by non-constant expressions under +, -, * and /. Errors go to l.
func (l *lowerer) probFrac(n *node, sc scope) (frac, bool) {
	op := ""
	if n.kind == kObject {
		if o := n.get("op"); o != nil && o.kind == kString {
			op = o.str
		}
	}
	switch op {
	case "+", "-", "*", "/":
		if op == "-" && n.get("left") == nil {
			break
		}
		a, ok1 := l.probFrac(n.get("left"), sc)
		b, ok2 := l.probFrac(n.get("right"), sc)
		if !ok1 || !ok2 {
			return frac{}, false
		}
		mul := func(x, y val) (val, bool) { return l.binary(n, "*", x, y) }
		switch op {
		case "/":
			num, ok1 := mul(a.num, b.den)
			den, ok2 := mul(a.den, b.num)
			return frac{num, den}, ok1 && ok2
		case "*":
			num, ok1 := mul(a.num, b.num)
			den, ok2 := mul(a.den, b.den)
			return frac{num, den}, ok1 && ok2
		}
		x, ok1 := mul(a.num, b.den)
		y, ok2 := mul(b.num, a.den)
		den, ok3 := mul(a.den, b.den)
		if !ok1 || !ok2 || !ok3 {
			return frac{}, false
		}
		num, ok := l.binary(n, op, x, y)
		return frac{num, den}, ok
	}
	if n == nil {
		l.errorf(n, "missing operand")
		return frac{}, false
	}
	v, ok := l.expr(n, sc)
	if ok && !v.numeric() {
		l.errorf(n, "type error: a probability must be a number")
		return frac{}, false
	}
	return frac{v, constInt(1)}, ok
}

// intFrac turns a fraction of linear values into integer expressions
// P/Q with the same value.
func (l *lowerer) intFrac(n *node, f frac) (p, q *symbolic.Expr, ok bool) {
	en, dn, ok1 := l.num(n, f.num)
	ed, dd, ok2 := l.num(n, f.den)
	if !ok1 || !ok2 {
		return nil, nil, false
	}
	// (en/dn) / (ed/dd) = (en*dd) / (ed*dn)
	if p, ok = l.scale(n, en, dd); !ok {
		return nil, nil, false
	}
	q, ok = l.scale(n, ed, dn)
	return p, q, ok
}

// nonzero is the condition "p/q is not 0": p != 0, or q == 0 (a division
// by zero, which is no probability 0 but an error the engines report).
func nonzero(p, q *symbolic.Expr) *symbolic.Cond {
	zero := symbolic.Lit(0)
	if p.Op == symbolic.OpConst {
		if p.K != 0 {
			return symbolic.True()
		}
		return symbolic.Compare(q, symbolic.Eq, zero)
	}
	ne := symbolic.Compare(p, symbolic.Ne, zero)
	if q.Op == symbolic.OpConst {
		if q.K != 0 {
			return ne
		}
		return symbolic.True()
	}
	return symbolic.Or(ne, symbolic.Compare(q, symbolic.Eq, zero))
}

// liveProb is the condition under which outcome o, whose probability
// depends on the state, is kept: its probability (the product of its
// factors) is not 0, or some factor is no probability (BadProb), which
// the engines report as an error where the outcome is expanded. So the
// outcome is dropped only where the product is 0 and every factor lies
// in [0, 1]: a factor 0 does not hide another that is negative, above 1
// or divides by zero.
func liveProb(o *symbolic.Outcome) *symbolic.Cond {
	if len(o.ProbFactors) == 1 {
		// p/q != 0 implies nothing more: where p == 0 and q != 0 the
		// factor is 0, in [0, 1]
		f := o.ProbFactors[0]
		return nonzero(f.Num, f.Den)
	}
	var nz []*symbolic.Cond
	for _, f := range o.ProbFactors {
		nz = append(nz, nonzero(f.Num, f.Den))
	}
	return symbolic.Or(symbolic.And(nz...), o.BadProb())
}

// maxSplit bounds the state-dependent outcomes of one command that
// splitLive splits on (2^maxSplit commands at most).
const maxSplit = 8

// splitLive appends cmd to the model, split by which of its outcomes are
// live: live[i] is nil for an outcome that is always possible, else the
// condition under which its probability is positive. Each combination of
// live outcomes gets a command guarded by the conjunction of the live and
// dead conditions; a combination without outcomes gets none.
func (ml *modelLoader) splitLive(cmd symbolic.Command, live []*symbolic.Cond, at *node) {
	var dep []int
	for i, c := range live {
		if c != nil {
			dep = append(dep, i)
		}
	}
	if len(dep) == 0 {
		ml.m.Commands = append(ml.m.Commands, cmd)
		return
	}
	if len(dep) > maxSplit {
		ml.note(at, "more than %d state-dependent probabilities in one transition: its outcomes are kept in every state", maxSplit)
		ml.m.Commands = append(ml.m.Commands, cmd)
		return
	}
	for mask := 0; mask < 1<<len(dep); mask++ {
		guard := []*symbolic.Cond{cmd.Guard}
		on := map[int]bool{}
		for j, i := range dep {
			if mask&(1<<j) != 0 {
				guard = append(guard, live[i])
				on[i] = true
			} else {
				guard = append(guard, symbolic.Not(live[i]))
			}
		}
		c := cmd
		c.Guard = symbolic.And(guard...)
		if c.Guard.Op == symbolic.CFalse {
			continue
		}
		c.Outcomes = nil
		for i, o := range cmd.Outcomes {
			if live[i] == nil || on[i] {
				c.Outcomes = append(c.Outcomes, o)
			}
		}
		if len(c.Outcomes) == 0 {
			continue
		}
		ml.m.Commands = append(ml.m.Commands, c)
	}
}
