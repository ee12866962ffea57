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
	"math/big"
	"slices"
	"strconv"

	"vigil/symbolic"
)

// frac is num/den, each a lowered numeric value (constant or linear).
type frac struct{ num, den val }

// probFrac lowers a probability expression to a fraction, allowing
// division by non-constant expressions under +, -, * and / (and in the
// body of a real function called there: callFrac). Errors go to l.
func (l *lowerer) probFrac(n *node, sc scope) (frac, bool) {
	if n == nil {
		l.errorf(n, "missing operand")
		return frac{}, false
	}
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
		operand := func(key string) (frac, bool) {
			c := n.get(key)
			if c == nil {
				l.errorf(n, "operator %q needs %q", op, key)
				return frac{}, false
			}
			return l.probFrac(c, sc)
		}
		a, ok1 := operand("left")
		b, ok2 := operand("right")
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
	case "call":
		return l.callFrac(n, sc)
	}
	v, ok := l.expr(n, sc)
	if ok && !v.numeric() {
		l.errorf(n, "type error: a probability must be a number")
		return frac{}, false
	}
	return frac{v, constInt(1)}, ok
}

// intFrac turns a fraction of linear values into integer expressions
// P/Q with the same value, exactly: a constant beyond the IR's literals
// (maxLit), such as the denominator 2^90 of a product of three
// probabilities over 2^30 (which vigil export --jani writes as one
// destination's probability), becomes a linear expression of literals
// (bigLit) instead of an error. The engines evaluate factors exactly
// (mathematical integers), so nothing is rounded.
func (l *lowerer) intFrac(n *node, f frac) (p, q *symbolic.Expr, ok bool) {
	en, dn, ok1 := l.bigParts(n, f.num)
	ed, dd, ok2 := l.bigParts(n, f.den)
	if !ok1 || !ok2 {
		return nil, nil, false
	}
	// (en/dn) / (ed/dd) = (en*dd) / (ed*dn), after dividing dn and dd
	// by their greatest common divisor
	g := new(big.Int).GCD(nil, nil, dn, dd)
	dn, dd = new(big.Int).Quo(dn, g), new(big.Int).Quo(dd, g)
	return mulBig(en, dd), mulBig(ed, dn), true
}

// bigParts is v as e/d: e an exact integer expression, d > 0.
func (l *lowerer) bigParts(n *node, v val) (*symbolic.Expr, *big.Int, bool) {
	if v.isConst() {
		return bigLit(v.k.Num()), new(big.Int).Set(v.k.Denom()), true
	}
	return v.e, big.NewInt(v.den), true
}

// bigBase is the base of bigLit's Horner form.
const bigBase = 1 << 30

// bigLit is the integer c as an expression: a literal where |c| <= maxLit,
// else (c / 2^30) * 2^30 + c % 2^30, the quotient in the same form (a
// linear expression of literals that the engines evaluate exactly).
func bigLit(c *big.Int) *symbolic.Expr {
	if c.IsInt64() && c.Int64() <= maxLit && c.Int64() >= -maxLit {
		return symbolic.Lit(int(c.Int64()))
	}
	q, r := new(big.Int).QuoRem(c, big.NewInt(bigBase), new(big.Int))
	hi := &symbolic.Expr{Op: symbolic.OpMul, K: bigBase, Args: []*symbolic.Expr{bigLit(q)}}
	if r.Sign() == 0 {
		return hi
	}
	return &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{hi, symbolic.Lit(int(r.Int64()))}}
}

// mulBig is e * c exactly, linear in e: a factor beyond the literals is
// split as bigLit splits a constant.
func mulBig(e *symbolic.Expr, c *big.Int) *symbolic.Expr {
	switch {
	case c.Sign() == 0:
		return symbolic.Lit(0)
	case c.IsInt64() && c.Int64() == 1:
		return e
	case e.Op == symbolic.OpConst:
		return bigLit(new(big.Int).Mul(c, big.NewInt(int64(e.K))))
	case c.IsInt64() && c.Int64() <= maxLit && c.Int64() >= -maxLit:
		return &symbolic.Expr{Op: symbolic.OpMul, K: int(c.Int64()), Args: []*symbolic.Expr{e}}
	}
	q, r := new(big.Int).QuoRem(c, big.NewInt(bigBase), new(big.Int))
	hi := &symbolic.Expr{Op: symbolic.OpMul, K: bigBase, Args: []*symbolic.Expr{mulBig(e, q)}}
	if r.Sign() == 0 {
		return hi
	}
	return &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{hi, mulBig(e, r)}}
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
// live (splitPieces), the probability-error commands through addZeroSum.
func (ml *modelLoader) splitLive(cmd symbolic.Command, live []*symbolic.Cond, at *node) {
	pieces, zero, tooMany := splitPieces(ml.m, cmd, live)
	if tooMany {
		ml.note(at, "more than %d state-dependent probabilities in one transition: its outcomes are kept in every state", maxSplit)
	}
	noted := !slices.ContainsFunc(live, func(c *symbolic.Cond) bool { return c != nil })
	for i, c := range pieces {
		if zero[i] {
			ml.addZeroSum(c, c.Guard)
			continue
		}
		if !noted {
			noted = ml.noteConstSum(c, at)
		}
		ml.m.Commands = append(ml.m.Commands, c)
	}
}

// noteConstSum notes a piece of a split transition (splitLive) left with
// constant probabilities only, where its state-dependent ones are 0, when
// they do not sum to 1 in a state where the piece is enabled: vigil prob
// normalises them as weights, as it does the constant probabilities of a
// whole transition (compose.go), which the import notes; the piece's were
// normalised without a word (0.5, x/4 and 0.3 at x = 0: 5/8 where Storm's
// reading gives 1/2). The state is found among the values of the
// variables the piece's guard reads (at most maxSumStates of them; none
// found, or too many, no note). It reports whether it noted.
func (ml *modelLoader) noteConstSum(c symbolic.Command, at *node) bool {
	sum := new(big.Rat)
	for _, o := range c.Outcomes {
		if o.StateProb() || !o.Weight.IsSet() {
			return false
		}
		sum.Add(sum, big.NewRat(o.Weight.Num, o.Weight.Den))
	}
	if sum.Cmp(big.NewRat(1, 1)) == 0 || never(ml.m, c.Guard) {
		return false
	}
	st := witness(ml.m, c.Guard)
	if st == nil {
		return false
	}
	ml.note(at, "in state %s, where the state-dependent probabilities of this transition are 0, the others sum to %s, not 1: vigil prob reads them as weights (divided by their sum), where Storm takes them as they are", ml.m.FormatState(st), sum.RatString())
	return true
}

// maxSumStates bounds witness's search.
const maxSumStates = 1 << 16

// witness is a state where c holds, found by enumerating the values of
// the variables c reads (the others at their lower bounds); nil when there
// is none or they have more than maxSumStates combinations.
func witness(m *symbolic.Model, c *symbolic.Cond) symbolic.State {
	st, _ := findState(m, c)
	return st
}

// findState is witness, and says whether the search was complete: a nil
// state with complete true shows that c holds in no state within the
// variables' ranges.
func findState(m *symbolic.Model, c *symbolic.Cond) (symbolic.State, bool) {
	read := map[symbolic.VarID]bool{}
	c.Vars(func(v symbolic.VarID) { read[v] = true })
	st := make(symbolic.State, len(m.Vars))
	var vs []symbolic.VarID
	n := 1
	for i, v := range m.Vars {
		st[i] = v.Lo
		if read[symbolic.VarID(i)] {
			vs = append(vs, symbolic.VarID(i))
			if n *= v.Size(); n > maxSumStates || n <= 0 {
				return nil, false
			}
		}
	}
	for {
		if c.Holds(st) {
			return st, true
		}
		i := 0
		for ; i < len(vs); i++ {
			v := m.Vars[vs[i]]
			if st[vs[i]] < v.Hi {
				st[vs[i]]++
				break
			}
			st[vs[i]] = v.Lo
		}
		if i == len(vs) {
			return nil, true
		}
	}
}

// splitPieces splits cmd by which of its outcomes are live: live[i] is
// nil for an outcome that is always possible, else the condition under
// which its probability is positive. Each combination of live outcomes
// gets a command guarded by the conjunction of the live and dead
// conditions; the combination without outcomes gets a command with a
// probability error (zeroSum, marked in zero). tooMany says cmd has more
// than maxSplit state-dependent outcomes and was kept whole. The result
// depends on m's variables' ranges and cmd alone: vigil export --jani
// calls it to recognise the pieces of one JANI edge and merge them back
// (mergeSplits).
func splitPieces(m *symbolic.Model, cmd symbolic.Command, live []*symbolic.Cond) (pieces []symbolic.Command, zero []bool, tooMany bool) {
	add := func(c symbolic.Command, z bool) {
		pieces, zero = append(pieces, c), append(zero, z)
	}
	// An outcome whose live condition is a conjunct of the guard is live
	// wherever the command is enabled, and one whose negation is, dead
	// there (dropped). vigil export --jani writes each command of a split
	// as an edge guarded by its live and dead conditions; read back, the
	// edge was split again on every outcome, into 2^k commands of which
	// all but one have contradictory guards (an edge of 8 state-dependent
	// destinations: 255 edges exported, then 6,491, then 63,801).
	var guard map[string]bool
	var kept []symbolic.Outcome
	var keptLive []*symbolic.Cond
	for i, c := range live {
		if c != nil && guard == nil {
			guard = map[string]bool{}
			conjuncts(cmd.Guard, func(a *symbolic.Cond) { guard[m.CondString(a)] = true })
		}
		switch {
		case c == nil:
		case guard[m.CondString(c)]:
			c = nil
		case guard[m.CondString(symbolic.Not(c))]:
			continue
		}
		kept, keptLive = append(kept, cmd.Outcomes[i]), append(keptLive, c)
	}
	if len(kept) == 0 {
		// every outcome is dead wherever the command is enabled: no
		// distribution, a probability error there
		if !never(m, cmd.Guard) {
			add(zeroSum(cmd, cmd.Guard), true)
		}
		return
	}
	cmd.Outcomes, live = kept, keptLive
	var dep []int
	for i, c := range live {
		if c != nil {
			dep = append(dep, i)
		}
	}
	if len(dep) == 0 {
		add(cmd, false)
		return
	}
	// whether the combination without outcomes is empty: the
	// probabilities cannot all be 0 where the command is enabled
	noneDead := len(dep) < len(cmd.Outcomes) || sumNonzero(cmd.Outcomes)
	if len(dep) > maxSplit {
		tooMany = true
		add(cmd, false)
		if !noneDead {
			// where all are 0, a probability error all the same
			dead := []*symbolic.Cond{cmd.Guard}
			for _, i := range dep {
				dead = append(dead, symbolic.Not(live[i]))
			}
			if g := symbolic.And(dead...); !never(m, g) {
				add(zeroSum(cmd, g), true)
			}
		}
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
			// every destination has probability 0 here: no
			// distribution, a probability error where it is enabled
			// (no command where the guard's bounds on single variables
			// show it never holds, as x == 1 does for x*3/2 == 0)
			if !noneDead && !never(m, c.Guard) {
				add(zeroSum(cmd, c.Guard), true)
			}
			continue
		}
		add(c, false)
	}
	return
}

// sumNonzero reports whether the probabilities of outs, each one factor
// num/den, cannot all be 0 where each is defined, shown by linear forms:
// the factors share one denominator d and their numerators sum to k*d
// for a constant k != 0 (x/(N-c) and 1 - x/(N-c), whose numerators x and
// N-c-x sum to N-c). Then all numerators 0 makes d 0, where every factor
// divides by zero, which is no combination of dead outcomes (a division
// by zero keeps its outcome: liveProb). False means "not shown".
func sumNonzero(outs []symbolic.Outcome) bool {
	var den symbolic.Linear
	sum := map[symbolic.VarID]*big.Int{}
	konst := new(big.Int)
	for i := range outs {
		if len(outs[i].ProbFactors) != 1 {
			return false
		}
		f := outs[i].ProbFactors[0]
		d, ok := symbolic.Linearize(f.Den)
		if !ok {
			return false
		}
		if i == 0 {
			den = d
		} else if !slices.Equal(d.Terms, den.Terms) || d.Const != den.Const {
			return false
		}
		n, ok := symbolic.Linearize(f.Num)
		if !ok {
			return false
		}
		konst.Add(konst, big.NewInt(int64(n.Const)))
		for _, t := range n.Terms {
			if sum[t.Var] == nil {
				sum[t.Var] = new(big.Int)
			}
			sum[t.Var].Add(sum[t.Var], big.NewInt(int64(t.Coef)))
		}
	}
	// the numerators' sum is k*den with k = sum/den at den's first
	// coefficient (or constant), checked at every coefficient
	var k *big.Rat
	if len(den.Terms) > 0 {
		t := den.Terms[0]
		k = new(big.Rat).SetFrac(orZero(sum[t.Var]), big.NewInt(int64(t.Coef)))
	} else if den.Const != 0 {
		k = new(big.Rat).SetFrac(konst, big.NewInt(int64(den.Const)))
	} else {
		return false
	}
	if k.Sign() == 0 {
		return false
	}
	times := func(c int) *big.Rat { return new(big.Rat).Mul(k, new(big.Rat).SetInt64(int64(c))) }
	if times(den.Const).Cmp(new(big.Rat).SetInt(konst)) != 0 {
		return false
	}
	seen := 0
	for _, t := range den.Terms {
		if times(t.Coef).Cmp(new(big.Rat).SetInt(orZero(sum[t.Var]))) != 0 {
			return false
		}
		seen++
	}
	for v, c := range sum {
		if c.Sign() != 0 && !slices.ContainsFunc(den.Terms, func(t symbolic.Term) bool { return t.Var == v }) {
			return false
		}
	}
	return seen == len(den.Terms)
}

// orZero is x, or 0 when x is nil.
func orZero(x *big.Int) *big.Int {
	if x == nil {
		return new(big.Int)
	}
	return x
}

// zeroSum is cmd in the states of guard, where it is enabled and the
// probabilities of all its destinations are 0. They sum to 0, not 1: JANI
// requires a distribution wherever an edge is enabled (Storm throws "Probabilities do
// not sum to one" with --explchecks, and otherwise keeps the edge as a
// choice with no successors), and no weights are there to normalise. So
// the edge is not dropped there (which would hide its destinations, or
// make a deadlock of the state): it gets one outcome whose probability
// is the factor 0/0 (symbolic.ProbFactor.ZeroSum), a probability error
// that every engine reports where the command is enabled and expanded,
// as any other.
func zeroSum(cmd symbolic.Command, guard *symbolic.Cond) symbolic.Command {
	cmd.Guard = guard
	cmd.Outcomes = []symbolic.Outcome{{
		Prob:        1,
		ProbFactors: []symbolic.ProbFactor{{Num: symbolic.Lit(0), Den: symbolic.Lit(0), Pos: cmd.Pos, ZeroSum: true}},
		Pos:         cmd.Pos,
	}}
	return cmd
}

// addZeroSum appends zeroSum(cmd, guard) unless a zeroSum command of the
// same label and guard is there already: one more would say nothing more
// (the same probability error in the same states). vigil export --jani
// writes the zeroSum command of an edge kept whole (more than maxSplit
// state-dependent destinations) as an edge of its own, and read back, the
// whole edge made its zeroSum command again beside it: one edge more on
// every export ∘ import round.
func (ml *modelLoader) addZeroSum(cmd symbolic.Command, guard *symbolic.Cond) {
	key := strconv.Itoa(int(cmd.Label)) + "\x00" + ml.m.CondString(guard)
	if ml.zeroSums[key] {
		return
	}
	if ml.zeroSums == nil {
		ml.zeroSums = map[string]bool{}
	}
	ml.zeroSums[key] = true
	ml.m.Commands = append(ml.m.Commands, zeroSum(cmd, guard))
}

// never reports whether interval evaluation shows that c holds in no
// state within the variables' ranges, once those ranges are narrowed by
// c's conjuncts that bound one variable by a constant (x == 1, x < 3, a
// Boolean b or !b). False means "not shown".
func never(m *symbolic.Model, c *symbolic.Cond) bool {
	vars := m.Vars
	lo, hi := make([]int, len(vars)), make([]int, len(vars))
	for i, v := range vars {
		lo[i], hi[i] = v.Lo, v.Hi
	}
	conjBounds(c, lo, hi)
	for i := range lo {
		if lo[i] > hi[i] {
			return true
		}
	}
	return symbolic.CondBox(c, lo, hi) == symbolic.BoxFalse
}

// conjBounds narrows lo and hi, per variable, by c's conjuncts that bound
// one variable by a constant of magnitude below maxLit (x == 1, 3 > x, a
// Boolean b or !b): where c holds, each variable lies in its narrowed
// range. A variable whose range becomes empty (lo > hi) shows that c
// never holds. It reports whether some range narrowed.
func conjBounds(c *symbolic.Cond, lo, hi []int) (narrowed bool) {
	set := func(v symbolic.VarID, l, h int) {
		if l > lo[v] || h < hi[v] {
			lo[v], hi[v], narrowed = max(lo[v], l), min(hi[v], h), true
		}
	}
	var conj func(c *symbolic.Cond)
	conj = func(c *symbolic.Cond) {
		switch c.Op {
		case symbolic.CAnd:
			for _, a := range c.Args {
				conj(a)
			}
		case symbolic.CVar:
			set(c.Var, 1, hi[c.Var])
		case symbolic.CNot:
			if a := c.Args[0]; a.Op == symbolic.CVar {
				set(a.Var, lo[a.Var], 0)
			}
		case symbolic.CCmp:
			l, r, op := c.L, c.R, c.Cmp
			if l.Op == symbolic.OpConst && r.Op == symbolic.OpVar {
				l, r = r, l
				op = map[symbolic.CmpOp]symbolic.CmpOp{symbolic.Eq: symbolic.Eq, symbolic.Ne: symbolic.Ne, symbolic.Lt: symbolic.Gt, symbolic.Le: symbolic.Ge, symbolic.Gt: symbolic.Lt, symbolic.Ge: symbolic.Le}[op]
			}
			if l.Op != symbolic.OpVar || r.Op != symbolic.OpConst || r.K >= maxLit || r.K <= -maxLit {
				return
			}
			v, k := l.Var, r.K
			switch op {
			case symbolic.Eq:
				set(v, k, k)
			case symbolic.Lt:
				set(v, lo[v], k-1)
			case symbolic.Le:
				set(v, lo[v], k)
			case symbolic.Gt:
				set(v, k+1, hi[v])
			case symbolic.Ge:
				set(v, k, hi[v])
			}
		}
	}
	conj(c)
	return narrowed
}
