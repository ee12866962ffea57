package jani

// Arrays (the JANI "arrays" extension). An array variable of type
// {"kind": "array", "base": T} with T bool or a bounded int, and an
// initial value {"op": "av", "elements": [...]} or {"op": "ac", "var": i,
// "length": n, "exp": e} of constant length, becomes one IR variable per
// element, NAME[0], NAME[1], ..., as a .spec array does (lang/spec.md,
// "Arrays"). An access {"op": "aa", "exp": NAME, "index": I} is the
// element when I is constant, and a case split over the elements I can
// name otherwise; an assignment to {"op": "aa", ...} assigns the element,
// or every element I can name (`a[k]' = if I == k then v else a[k]`).
// JANI leaves an index out of bounds undefined, and .spec makes it a
// range error; the import takes the indices that provably stay in range
// (interval analysis over the variables' ranges) and refuses the others,
// so that every engine means the same.

import (
	"math/big"
	"strconv"
	"strings"

	"vigil/symbolic"
)

// maxArray bounds an imported array's length.
const maxArray = 100_000

// arrayVar declares the elements of array variable vi, declared by v with
// type tn; irv carries the name and position.
func (ml *modelLoader) arrayVar(vi *varInfo, v, tn *node, irv symbolic.Var, sc scope) bool {
	ml.members(tn, "an array type", "kind", "base")
	base := tn.get("base")
	elem := symbolic.Var{Pos: irv.Pos}
	switch {
	case base != nil && base.kind == kString && base.str == "bool":
		elem.Bool, elem.Lo, elem.Hi = true, 0, 1
	case base != nil && base.kind == kObject:
		kind := base.get("kind")
		b := base.get("base")
		lo, hi := base.get("lower-bound"), base.get("upper-bound")
		ml.members(base, "a bounded type", "kind", "base", "lower-bound", "upper-bound")
		if kind == nil || kind.kind != kString || kind.str != "bounded" || b == nil || b.kind != kString || b.str != "int" || lo == nil || hi == nil {
			ml.unsupported(base, "arrays of %s (%q): vigil imports arrays of bool and of bounded int", base.describe(), vi.name)
			return false
		}
		l, ok1 := ml.bound(lo, sc)
		h, ok2 := ml.bound(hi, sc)
		if !ok1 || !ok2 {
			return false
		}
		if l > h {
			ml.errorf(base, "array %q has an empty element range %d..%d", vi.name, l, h)
			return false
		}
		elem.Lo, elem.Hi = l, h
	default:
		what := "no base"
		if base != nil {
			what = base.describe()
		}
		ml.unsupported(tn, "arrays of %s (%q): vigil imports arrays of bool and of bounded int", what, vi.name)
		return false
	}
	iv := v.get("initial-value")
	if iv == nil {
		ml.unsupported(v, "array %q without an initial value (vigil takes an array's length from it)", vi.name)
		return false
	}
	inits, ok := ml.arrayValue(iv, sc, vi.name)
	if !ok {
		return false
	}
	for k, x := range inits {
		if elem.Bool != (x.t == tBool) {
			ml.errorf(iv, "type error: element %d of the initial value of %q has the wrong type", k, vi.name)
			return false
		}
		i, ok := ratInt(x.k)
		if !ok || i < elem.Lo || i > elem.Hi {
			ml.errorf(iv, "element %d of the initial value of %q, %s, is outside its range %d..%d", k, vi.name, x.k.RatString(), elem.Lo, elem.Hi)
			return false
		}
		e := elem
		e.Name = ident(vi.name) + "[" + strconv.Itoa(k) + "]"
		e.HasInit, e.Init = true, i
		ei := &varInfo{id: symbolic.VarID(len(ml.m.Vars)), isBool: elem.Bool, name: vi.name + "[" + strconv.Itoa(k) + "]", node: v}
		ml.m.Vars = append(ml.m.Vars, e)
		vi.elems = append(vi.elems, ei)
	}
	return true
}

// arrayValue folds a constant array value: av or ac.
func (ml *modelLoader) arrayValue(n *node, sc scope, name string) ([]val, bool) {
	op := n.get("op")
	if n.kind != kObject || op == nil || op.kind != kString || op.str != "av" && op.str != "ac" {
		ml.unsupported(n, "the initial value of array %q: vigil takes an array value {\"op\": \"av\"} or {\"op\": \"ac\"} of constant length", name)
		return nil, false
	}
	if op.str == "av" {
		els, ok := ml.arr(n, "elements", true)
		if !ok {
			return nil, false
		}
		if len(els) == 0 || len(els) > maxArray {
			ml.errorf(n, "array %q has %d elements: an array has 1 to %d", name, len(els), maxArray)
			return nil, false
		}
		out := make([]val, len(els))
		for i, el := range els {
			v, ok := ml.constant(el, sc, "an element of the initial value of "+name)
			if !ok {
				return nil, false
			}
			out[i] = v
		}
		return out, true
	}
	vn, ln, en := n.get("var"), n.get("length"), n.get("exp")
	if vn == nil || vn.kind != kString || ln == nil || en == nil {
		ml.errorf(n, "array constructor needs \"var\" (a name), \"length\" and \"exp\"")
		return nil, false
	}
	lv, ok := ml.constant(ln, sc, "the length of the initial value of "+name)
	if !ok {
		return nil, false
	}
	length, ok := ratInt(lv.k)
	if !ok || lv.t == tBool || length < 1 || length > maxArray {
		ml.errorf(ln, "array %q has length %s: an array has 1 to %d elements", name, lv.k.RatString(), maxArray)
		return nil, false
	}
	out := make([]val, length)
	for i := range out {
		k := i
		inner := func(id string) (ref, bool) {
			if id == vn.str {
				return ref{isConst: true, val: constInt(int64(k))}, true
			}
			return sc(id)
		}
		v, ok := ml.constant(en, inner, "an element of the initial value of "+name)
		if !ok {
			return nil, false
		}
		out[i] = v
	}
	return out, true
}

// array resolves the array an access or an element assignment names.
func (l *lowerer) array(n *node, sc scope) (ref, bool) {
	exp := n.get("exp")
	if exp == nil || exp.kind != kString {
		l.unsupported(n, "arrays (an access to an array that is not a variable's name)")
		return ref{}, false
	}
	r, ok := sc(exp.str)
	if !ok {
		if !l.rejected[exp.str] {
			l.errorf(exp, "undeclared identifier %q", exp.str)
		}
		return ref{}, false
	}
	if r.elems == nil {
		switch {
		case r.feature != "":
			l.unsupported(exp, "%s (%q)", r.feature, exp.str) // an array refused at its declaration
		case r.transient && !r.isBool:
			// a transient array is read as a reward, as every transient
			// variable but a Boolean
			l.unsupported(exp, "reading transient variable %q outside rewards and labels", exp.str)
		default:
			l.errorf(exp, "%q is not an array", exp.str)
		}
		return ref{}, false
	}
	return r, true
}

// index lowers an index of array r: a constant k, or an integer
// expression and the elements lo..hi it can name (ok is false when it
// may leave the array's range, which is reported).
func (l *lowerer) index(n *node, r ref, sc scope, name string) (k int, idx *symbolic.Expr, lo, hi int, ok bool) {
	in := n.get("index")
	if in == nil {
		l.errorf(n, "array access needs \"index\"")
		return 0, nil, 0, 0, false
	}
	v, ok := l.expr(in, sc)
	if !ok {
		return 0, nil, 0, 0, false
	}
	if v.isConst() {
		k, ok := ratInt(v.k)
		if !ok || v.t == tBool || k < 0 || k >= len(r.elems) {
			l.errorf(in, "index %s is outside the range 0..%d of array %q", v.k.RatString(), len(r.elems)-1, name)
			return 0, nil, 0, 0, false
		}
		return k, nil, k, k, true
	}
	e, ok := l.integer(in, v)
	if !ok {
		return 0, nil, 0, 0, false
	}
	if l.bounds == nil {
		l.unsupported(in, "a variable index of array %q here", name)
		return 0, nil, 0, 0, false
	}
	lo, hi = l.bounds(e)
	if lo < 0 || hi >= len(r.elems) {
		l.unsupported(in, "an index of array %q that may leave its range 0..%d (it takes %d..%d over the variables' ranges): JANI leaves such an access undefined; vigil imports indices that provably stay in range", name, len(r.elems)-1, lo, hi)
		return 0, nil, 0, 0, false
	}
	return 0, e, lo, hi, true
}

func eqCond(e *symbolic.Expr, k int, op symbolic.CmpOp) *symbolic.Cond {
	return &symbolic.Cond{Op: symbolic.CCmp, Cmp: op, L: e, R: symbolic.Lit(k)}
}

// access lowers {"op": "aa", "exp": NAME, "index": I}.
func (l *lowerer) access(n *node, sc scope) (val, bool) {
	r, ok := l.array(n, sc)
	if !ok {
		return val{}, false
	}
	name := n.get("exp").str
	k, idx, lo, hi, ok := l.index(n, r, sc, name)
	if !ok {
		return val{}, false
	}
	elem := func(k int) val {
		if r.isBool {
			return val{t: tBool, c: &symbolic.Cond{Op: symbolic.CVar, Var: r.elems[k]}}
		}
		return val{t: tInt, e: symbolic.V(r.elems[k]), den: 1}
	}
	if idx == nil || lo == hi {
		return elem(max(k, lo)), true
	}
	if r.isBool {
		var terms []*symbolic.Cond
		for k := lo; k <= hi; k++ {
			terms = append(terms, symbolic.And(eqCond(idx, k, symbolic.Eq), elem(k).c))
		}
		return boolVal(symbolic.Or(terms...)), true
	}
	e := symbolic.V(r.elems[hi])
	for k := hi - 1; k >= lo; k-- {
		e = &symbolic.Expr{Op: symbolic.OpIte, Cond: eqCond(idx, k, symbolic.Eq), Args: []*symbolic.Expr{symbolic.V(r.elems[k]), e}}
	}
	return val{t: tInt, e: e, den: 1}, true
}

// elementAssign lowers an assignment whose ref is {"op": "aa", ...}.
func (ml *modelLoader) elementAssign(a *automaton, an, rn *node, sc scope) ([]asg, bool) {
	r, ok := ml.array(rn, sc)
	if !ok {
		return nil, false
	}
	name := rn.get("exp").str
	vi := ml.lookupVar(a, name)
	if vi == nil || len(vi.elems) != len(r.elems) {
		ml.errorf(rn, "cannot assign to %q", name)
		return nil, false
	}
	k, idx, lo, hi, ok := ml.index(rn, r, sc, name)
	if !ok {
		return nil, false
	}
	level := 0
	if ix := an.get("index"); ix != nil {
		v, ok := ml.constant(ix, ml.constScope, "an assignment index")
		if !ok {
			return nil, false
		}
		if level, ok = ratInt(v.k); !ok || v.t == tBool {
			ml.errorf(ix, "an assignment index must be an integer")
			return nil, false
		}
	}
	vn := an.get("value")
	if vn == nil {
		ml.errorf(an, "assignment has no \"value\"")
		return nil, false
	}
	var c *symbolic.Cond
	var e *symbolic.Expr
	if r.isBool {
		c, ok = ml.cond(vn, sc)
	} else {
		e, ok = ml.intExpr(vn, sc)
	}
	if !ok {
		return nil, false
	}
	if idx == nil {
		v := e
		if r.isBool {
			v = boolAssign(c)
		}
		return []asg{{v: vi.elems[k], level: level, value: v, node: an}}, true
	}
	var out []asg
	for k := lo; k <= hi; k++ {
		var v *symbolic.Expr
		if r.isBool {
			keep := &symbolic.Cond{Op: symbolic.CVar, Var: r.elems[k]}
			v = boolAssign(symbolic.Or(symbolic.And(eqCond(idx, k, symbolic.Eq), c), symbolic.And(eqCond(idx, k, symbolic.Ne), keep)))
		} else {
			v = &symbolic.Expr{Op: symbolic.OpIte, Cond: eqCond(idx, k, symbolic.Eq), Args: []*symbolic.Expr{e, symbolic.V(r.elems[k])}}
		}
		out = append(out, asg{v: vi.elems[k], level: level, value: v, node: an})
	}
	return out, true
}

// narrow makes the array indices of what is evaluated where c holds
// bounded by the variables' ranges as c's conjuncts VAR op CONST narrow
// them (a guard x == 0 keeps A[x] in range); restore undoes it.
func (ml *modelLoader) narrow(c *symbolic.Cond) (restore func()) {
	vars := ml.m.Vars
	lo, hi := make([]int, len(vars)), make([]int, len(vars))
	for i, v := range vars {
		lo[i], hi[i] = v.Lo, v.Hi
	}
	var m *symbolic.Model
	if conjBounds(c, lo, hi) {
		cp := *ml.m
		cp.Vars = append([]symbolic.Var(nil), vars...)
		for i := range cp.Vars {
			if lo[i] <= hi[i] { // else c never holds: what it guards is never evaluated
				cp.Vars[i].Lo, cp.Vars[i].Hi = lo[i], hi[i]
			}
		}
		m = &cp
	}
	if m == nil {
		return func() {}
	}
	old, oldWide := ml.bounds, ml.unnarrowed
	ml.bounds, ml.unnarrowed = exactBounds(m), old
	return func() { ml.bounds, ml.unnarrowed = old, oldWide }
}

// leveled reports whether assignment an may be performed after another
// assignment of its edge (or of an edge it synchronises with) wrote a
// variable: its "index" is not 0, or some assignment of the model has a
// negative or non-literal index. What it reads then holds those values,
// not the source state's, so the guard's narrowing does not bound them:
// with guard x == 0, x := x - 4 at index 0 and r := x % 3 at index 1
// read x = -4 at index 1, which the narrowing to x = 0 took for
// non-negative (r became the floor modulo 2, not Storm's -1), and
// a[x] after x := 3 took a[0] and dropped the write (no range error).
func (ml *modelLoader) leveled(an *node) bool {
	if ml.unnarrowed == nil {
		return false
	}
	if ml.levelsBelowZero {
		return true
	}
	ix := an.get("index")
	return ix != nil && !(ix.kind == kNumber && isZeroLit(ix.str))
}

func isZeroLit(s string) bool {
	v, ok := new(big.Rat).SetString(s)
	return ok && v.Sign() == 0
}

// negativeLevels reports whether some assignment in the JANI document
// under n has an "index" that is not a non-negative number literal (a
// negative one is performed before index 0: no assignment's guard
// narrowing then holds).
func negativeLevels(n *node) bool {
	if n == nil {
		return false
	}
	for i, k := range n.keys {
		v := n.vals[i]
		if k == "assignments" && v.kind == kArray {
			for _, a := range v.vals {
				if ix := a.get("index"); ix != nil && !(ix.kind == kNumber && !strings.HasPrefix(ix.str, "-")) {
					return true
				}
			}
		}
	}
	for _, v := range n.vals {
		if negativeLevels(v) {
			return true
		}
	}
	return false
}

// maxEnumerate bounds the states exactBounds evaluates an expression in.
const maxEnumerate = 1 << 12

// exactBounds bounds an integer expression over m's variables' ranges as
// m.Bounds does, and, where the variables it reads have at most
// maxEnumerate value combinations, exactly, by evaluating it in each: the
// intervals of m.Bounds lose what an expression's parts share, so that
// (i + 1) % 3 with i in 0..2, i + 1 - 3 * ((i + 1) / 3), took -2..3 and
// an array of 3 refused it as an index that may leave its range.
func exactBounds(m *symbolic.Model) func(*symbolic.Expr) (lo, hi int) {
	return func(e *symbolic.Expr) (int, int) {
		lo, hi := m.Bounds(e)
		var vars []symbolic.VarID
		seen := map[symbolic.VarID]bool{}
		n := 1
		var walk func(x *symbolic.Expr) bool
		var walkc func(c *symbolic.Cond) bool
		add := func(v symbolic.VarID) bool {
			if !seen[v] {
				seen[v] = true
				vars = append(vars, v)
				r := m.Vars[v].Hi - m.Vars[v].Lo + 1
				if r <= 0 || n > maxEnumerate/r {
					return false
				}
				n *= r
			}
			return true
		}
		walk = func(x *symbolic.Expr) bool {
			if x == nil {
				return true
			}
			if x.Op == symbolic.OpVar && !add(x.Var) {
				return false
			}
			for _, a := range x.Args {
				if !walk(a) {
					return false
				}
			}
			return walkc(x.Cond)
		}
		walkc = func(c *symbolic.Cond) bool {
			if c == nil {
				return true
			}
			if c.Op == symbolic.CVar && !add(c.Var) {
				return false
			}
			if !walk(c.L) || !walk(c.R) {
				return false
			}
			for _, a := range c.Args {
				if !walkc(a) {
					return false
				}
			}
			return true
		}
		if !walk(e) || len(vars) == 0 || !m.Fits(e) {
			return lo, hi
		}
		s := make(symbolic.State, len(m.Vars))
		for _, v := range vars {
			s[v] = m.Vars[v].Lo
		}
		elo, ehi := e.Eval(s), e.Eval(s)
		for {
			// the next combination, the first variable fastest
			i := 0
			for ; i < len(vars); i++ {
				v := vars[i]
				if s[v] < m.Vars[v].Hi {
					s[v]++
					break
				}
				s[v] = m.Vars[v].Lo
			}
			if i == len(vars) {
				break
			}
			x := e.Eval(s)
			elo, ehi = min(elo, x), max(ehi, x)
		}
		return max(lo, elo), min(hi, ehi)
	}
}
