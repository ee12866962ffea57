package bdd

// The encoding of a model: every variable v with range lo..hi is stored as
// the unsigned number v-lo in n = bits.Len(hi-lo) BDD variables, once for
// the current state and once for the next. Encodings above hi-lo are not
// states; every state set the package builds lies inside the domain dom.
// Expressions become bit vectors (bitvec.go) over the current bits,
// conditions become BDDs over them.

import (
	"time"

	"context"
	"errors"
	"fmt"
	"math/big"
	"math/bits"
	"strings"

	"github.com/dalzilio/rudd"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// Order is the BDD variable order.
type Order uint8

const (
	// OrderInterleaved: variables in declaration order, each one's bits
	// most significant first, the current bit followed by its next bit.
	OrderInterleaved Order = iota
	// OrderBitwise: the bits of equal significance of all variables
	// together (most significant first), current and next adjacent; good
	// when variables are compared or added to each other.
	OrderBitwise
	// OrderBlocked: all current bits (as in OrderInterleaved), then all
	// next bits. It is there to show what interleaving buys.
	OrderBlocked
	// OrderAuto: OrderInterleaved, unless encoding the model (domain,
	// property, guards, outcomes, policy and start set) under it needs
	// more nodes than under OrderBitwise (see setup in reach.go: trials
	// of both with growing node allowances). Stats.Order says which one
	// ran.
	OrderAuto
)

// Orders lists the names ParseOrder accepts.
var Orders = []string{"interleaved", "bitwise", "blocked", "auto"}

func (o Order) String() string { return Orders[o] }

// ParseOrder reads an order name.
func ParseOrder(s string) (Order, error) {
	for i, n := range Orders {
		if n == s {
			return Order(i), nil
		}
	}
	return 0, fmt.Errorf("bdd: variable order %q: want one of %s", s, strings.Join(Orders, ", "))
}

// MaxVarBits is the largest number of bits of one variable.
const MaxVarBits = 62

type varEnc struct {
	n    int
	lo   int
	hi   int
	cur  []int // BDD variable of bit i (least significant first)
	next []int
	mid  []int // auxiliary copy, for composing relations (closure.go)
}

// space is the encoded model under one property.
type space struct {
	m    *mgr
	M    *symbolic.Model
	prop *symbolic.Property
	g    *explicit.Generator // the explicit semantics, for witnesses

	vars       []varEnc
	nvars      int // BDD variables (current, next and auxiliary bits)
	stateVars  int // current and next bits (the figure reported in Stats)
	curLevels  []int
	nextLevels []int
	midLevels  []int
	curCube    Node // all current bits
	nextCube   Node

	dom    Node
	unsafe Node // dom ∧ unsafe condition
	goal   Node // dom ∧ goal ∧ ¬unsafe
	open   Node // dom ∧ ¬unsafe ∧ ¬goal

	cmds    []cmdEnc
	byLabel [][]int
	app     []Node // per label: dom ∧ some guard of the label holds
	hasApp  Node
	errAll  Node // open states where some enabled command has an out-of-range outcome

	order  Order // the order of the levels (never OrderAuto)
	trials int   // OrderAuto's trials before this one (Stats.OrderTrials)

	// starts' result and error, when setup built the start set in a
	// trial of OrderAuto (startsDone).
	startsMemo Node
	startsErr  error
	startsDone bool

	lastProgress time.Time     // the end of the last progress sample (see progress)
	progressCost time.Duration // its cost

	// closure.go's relations and renamings, built on first use.
	frameMemo            []Node
	nextToMid, midToNext rudd.Replacer
	toNextAll, toCurAll  rudd.Replacer

	exprMemo map[*symbolic.Expr]bvec
	condMemo map[*symbolic.Cond]Node
	varMemo  []bvec
	repMemo  map[string]*outRename
}

type cmdEnc struct {
	guard Node // dom ∧ guard
	outs  []outEnc
	err   Node // guard ∧ some outcome leaves a range
}

type outEnc struct {
	vars  []symbolic.VarID // assigned variables (identity assignments dropped)
	eq    []Node           // per assigned variable: next_v = value(current)
	err   Node             // some assigned value is out of range, or the probability outside [0, 1] (not ∧ guard)
	sets  []Node           // per assigned variable: the cube of its next bits
	curQ  []Node           // image: current bits quantified after eq[j]
	names *outRename
}

type outRename struct {
	toNext, toCur interface {
		Replace(int32) (int32, bool)
		Id() int
	}
}

// newSpace encodes m under prop (nil: no property). It checks the model
// with the explicit engine first (opt.Compiled, or a compile of its own
// when that is of another model), so that both engines reject the same
// malformed models.
func newSpace(ctx context.Context, M *symbolic.Model, prop *symbolic.Property, opt Options) (*space, error) {
	g := opt.Compiled
	if g == nil || g.M != M || g.Prop != prop {
		var err error
		if g, err = explicit.NewContext(ctx, M, prop); err != nil {
			return nil, err
		}
	}
	var err error
	sp := &space{M: M, prop: prop, g: g, exprMemo: map[*symbolic.Expr]bvec{}, condMemo: map[*symbolic.Cond]Node{}, repMemo: map[string]*outRename{}}
	sp.vars = make([]varEnc, len(M.Vars))
	total := 0
	for i := range M.Vars {
		v := &M.Vars[i]
		span := uint64(v.Hi) - uint64(v.Lo)
		n := bits.Len64(span)
		if v.Hi < v.Lo || n > MaxVarBits {
			return nil, fmt.Errorf("bdd: %s: variable %s has range %d..%d, which needs %d bits; the BDD engine encodes at most %d bits per variable", v.Pos, v.Name, v.Lo, v.Hi, n, MaxVarBits)
		}
		sp.vars[i] = varEnc{n: n, lo: v.Lo, hi: v.Hi, cur: make([]int, n), next: make([]int, n), mid: make([]int, n)}
		total += n
	}
	// A third copy of the bits lets closure.go compose relations; an
	// unused BDD variable costs no nodes.
	sp.nvars = max(3*total, 3)
	sp.stateVars = max(2*total, 2)
	sp.order = opt.Order
	sp.assignLevels(opt.Order)
	budget := opt.MaxNodes
	if budget == 0 {
		budget = DefaultMaxNodes
	}
	if sp.m, err = newMgr(ctx, sp.nvars, sp.stateVars, budget); err != nil {
		return nil, err
	}
	return sp, nil
}

// assignLevels places the current, next and auxiliary bits of every
// variable: the three copies of a bit are adjacent (current first) except
// in OrderBlocked, and in every order the renamings closure.go uses
// (current to next, next to auxiliary, and back) keep the levels' order.
func (sp *space) assignLevels(o Order) {
	level := 0
	put := func(v, i int) {
		sp.vars[v].cur[i] = level
		sp.vars[v].next[i] = level + 1
		sp.vars[v].mid[i] = level + 2
		level += 3
	}
	switch o {
	case OrderBitwise:
		top := 0
		for _, v := range sp.vars {
			top = max(top, v.n)
		}
		for i := top - 1; i >= 0; i-- {
			for v := range sp.vars {
				if i < sp.vars[v].n {
					put(v, i)
				}
			}
		}
	case OrderBlocked:
		total := 0
		for _, v := range sp.vars {
			total += v.n
		}
		for v := range sp.vars {
			for i := sp.vars[v].n - 1; i >= 0; i-- {
				sp.vars[v].cur[i] = level
				sp.vars[v].next[i] = total + level
				sp.vars[v].mid[i] = 2*total + level
				level++
			}
		}
	default:
		for v := range sp.vars {
			for i := sp.vars[v].n - 1; i >= 0; i-- {
				put(v, i)
			}
		}
	}
	for _, v := range sp.vars {
		sp.curLevels = append(sp.curLevels, v.cur...)
		sp.nextLevels = append(sp.nextLevels, v.next...)
		sp.midLevels = append(sp.midLevels, v.mid...)
	}
}

// encode builds the domain, the property's sets, the guards and the
// outcome relations. It runs inside a protected computation.
func (sp *space) encode() error {
	m := sp.m
	sp.curCube = m.set(sp.curLevels)
	sp.nextCube = m.set(sp.nextLevels)
	sp.dom = m.tru()
	for v := range sp.vars {
		ve := &sp.vars[v]
		if ve.n == 0 || (uint64(ve.hi)-uint64(ve.lo))+1 == 1<<uint(ve.n) {
			continue
		}
		// Every encoding, not only the in-range ones: the interval must
		// not let cmp decide the comparison.
		u := sp.unsignedVec(ve.cur, 0, 1<<uint(ve.n)-1)
		le := m.not(m.cmp(m.cst(ve.hi-ve.lo), opLt, u))
		sp.dom = m.and(sp.dom, le)
	}
	sp.varMemo = make([]bvec, len(sp.vars))
	sp.unsafe, sp.goal = m.fls(), m.fls()
	if sp.prop != nil {
		u, err := sp.cond(sp.prop.Unsafe, "the unsafe condition of property "+sp.prop.Name)
		if err != nil {
			return err
		}
		sp.unsafe = m.and(sp.dom, u)
		if sp.prop.Goal != nil {
			gc, err := sp.cond(sp.prop.Goal, "the goal condition of property "+sp.prop.Name)
			if err != nil {
				return err
			}
			sp.goal = m.diff(m.and(sp.dom, gc), sp.unsafe)
		}
	}
	sp.open = m.diff(m.diff(sp.dom, sp.unsafe), sp.goal)
	sp.byLabel = make([][]int, len(sp.M.Labels))
	sp.app = make([]Node, len(sp.M.Labels))
	for l := range sp.app {
		sp.app[l] = m.fls()
	}
	sp.hasApp = m.fls()
	sp.errAll = m.fls()
	for ci := range sp.M.Commands {
		c := &sp.M.Commands[ci]
		what := fmt.Sprintf("the guard of action %s (%s)", sp.M.Labels[c.Label].Name, c.Pos)
		g, err := sp.cond(c.Guard, what)
		if err != nil {
			return err
		}
		ce := cmdEnc{guard: m.and(sp.dom, g), err: m.fls()}
		for oi := range c.Outcomes {
			oe, err := sp.outcome(c, oi)
			if err != nil {
				return err
			}
			ce.err = m.or(ce.err, m.and(ce.guard, oe.err))
			ce.outs = append(ce.outs, oe)
		}
		sp.cmds = append(sp.cmds, ce)
		sp.byLabel[c.Label] = append(sp.byLabel[c.Label], ci)
		sp.app[c.Label] = m.or(sp.app[c.Label], ce.guard)
		sp.errAll = m.or(sp.errAll, ce.err)
	}
	for _, a := range sp.app {
		sp.hasApp = m.or(sp.hasApp, a)
	}
	sp.errAll = m.and(sp.errAll, sp.open)
	return nil
}

// unsignedVec is the vector of the unsigned number in the given bits.
func (sp *space) unsignedVec(levels []int, lo, hi int) bvec {
	v := bvec{bits: make([]Node, len(levels)+1), lo: lo, hi: hi}
	for i, l := range levels {
		v.bits[i] = sp.m.ithvar(l)
	}
	v.bits[len(levels)] = sp.m.fls()
	return v
}

// varVec is the value of variable v in the current state.
func (sp *space) varVec(v symbolic.VarID) bvec {
	if sp.varMemo[v].bits != nil {
		return sp.varMemo[v]
	}
	ve := &sp.vars[v]
	u := sp.unsignedVec(ve.cur, 0, ve.hi-ve.lo)
	r := u
	if ve.lo != 0 {
		var err error
		if r, err = sp.m.add(u, sp.m.cst(ve.lo)); err != nil {
			panic("bdd: internal error: variable offset overflows")
		}
		r.lo, r.hi = ve.lo, ve.hi
	}
	sp.varMemo[v] = r
	return r
}

// exprError names an expression that cannot be encoded.
func (sp *space) exprError(e *symbolic.Expr, where, why string) error {
	pos := ""
	if e.Pos.IsValid() {
		pos = e.Pos.String() + ": "
	}
	return fmt.Errorf("bdd: %sin %s: expression %s: %s", pos, where, sp.M.ExprString(e), why)
}

// expr encodes e over the current bits.
func (sp *space) expr(e *symbolic.Expr, where string) (bvec, error) {
	if v, ok := sp.exprMemo[e]; ok {
		return v, nil
	}
	m := sp.m
	arg := func(i int) (bvec, error) { return sp.expr(e.Args[i], where) }
	var r bvec
	var err error
	switch e.Op {
	case symbolic.OpConst:
		r = m.cst(e.K)
	case symbolic.OpVar:
		r = sp.varVec(e.Var)
	case symbolic.OpAdd:
		if r, err = arg(0); err != nil {
			return bvec{}, err
		}
		for i := 1; i < len(e.Args) && err == nil; i++ {
			var b bvec
			if b, err = arg(i); err == nil {
				r, err = m.add(r, b)
			}
		}
	case symbolic.OpSub, symbolic.OpMin, symbolic.OpMax, symbolic.OpProd:
		var a, b bvec
		if a, err = arg(0); err != nil {
			return bvec{}, err
		}
		if b, err = arg(1); err != nil {
			return bvec{}, err
		}
		switch e.Op {
		case symbolic.OpSub:
			r, err = m.sub(a, b)
		case symbolic.OpProd:
			r, err = m.mul(a, b)
		case symbolic.OpMin:
			r = m.minv(a, b)
		default:
			r = m.maxv(a, b)
		}
	case symbolic.OpNeg, symbolic.OpMul, symbolic.OpDiv, symbolic.OpAbs:
		var a bvec
		if a, err = arg(0); err != nil {
			return bvec{}, err
		}
		switch e.Op {
		case symbolic.OpNeg:
			r, err = m.neg(a)
		case symbolic.OpMul:
			r, err = m.mulConst(a, e.K)
		case symbolic.OpDiv:
			if e.K <= 0 {
				return bvec{}, sp.exprError(e, where, fmt.Sprintf("division by %d; the divisor must be a positive constant", e.K))
			}
			r, _, err = m.divmod(a, e.K)
		default:
			r, err = m.absv(a)
		}
	case symbolic.OpIte:
		var c Node
		var a, b bvec
		if c, err = sp.cond(e.Cond, where); err != nil {
			return bvec{}, err
		}
		if a, err = arg(0); err != nil {
			return bvec{}, err
		}
		if b, err = arg(1); err != nil {
			return bvec{}, err
		}
		r = m.mux(c, a, b)
	case symbolic.OpBool:
		var c Node
		if c, err = sp.cond(e.Cond, where); err != nil {
			return bvec{}, err
		}
		r = bvec{bits: []Node{c, m.fls()}, lo: 0, hi: 1}
		if m.isTrue(c) || m.isFalse(c) {
			k := 0
			if m.isTrue(c) {
				k = 1
			}
			r = m.cst(k)
		}
	default:
		return bvec{}, sp.exprError(e, where, fmt.Sprintf("the BDD engine cannot encode operator %s", e.Op))
	}
	if err != nil {
		if errors.Is(err, errWide) {
			return bvec{}, sp.exprError(e, where, fmt.Sprintf("its values need more than %d bits", maxWidth))
		}
		return bvec{}, err
	}
	sp.exprMemo[e] = r
	return r, nil
}

// cond encodes c over the current bits (not restricted to the domain).
func (sp *space) cond(c *symbolic.Cond, where string) (Node, error) {
	if n, ok := sp.condMemo[c]; ok {
		return n, nil
	}
	m := sp.m
	var r Node
	switch c.Op {
	case symbolic.CTrue:
		r = m.tru()
	case symbolic.CFalse:
		r = m.fls()
	case symbolic.CVar:
		ve := &sp.vars[c.Var]
		if ve.lo == 0 && ve.hi == 1 {
			r = m.ithvar(ve.cur[0])
		} else {
			r = m.not(m.cmp(sp.varVec(c.Var), opEq, m.cst(0)))
		}
	case symbolic.CCmp:
		a, err := sp.expr(c.L, where)
		if err != nil {
			return nil, err
		}
		b, err := sp.expr(c.R, where)
		if err != nil {
			return nil, err
		}
		switch c.Cmp {
		case symbolic.Eq:
			r = m.cmp(a, opEq, b)
		case symbolic.Ne:
			r = m.not(m.cmp(a, opEq, b))
		case symbolic.Lt:
			r = m.cmp(a, opLt, b)
		case symbolic.Le:
			r = m.not(m.cmp(b, opLt, a))
		case symbolic.Gt:
			r = m.cmp(b, opLt, a)
		case symbolic.Ge:
			r = m.not(m.cmp(a, opLt, b))
		default:
			return nil, fmt.Errorf("bdd: %s: in %s: unknown comparison %d", c.Pos, where, c.Cmp)
		}
	case symbolic.CNot:
		a, err := sp.cond(c.Args[0], where)
		if err != nil {
			return nil, err
		}
		r = m.not(a)
	case symbolic.CAnd, symbolic.COr:
		r = m.from(c.Op == symbolic.CAnd)
		for _, x := range c.Args {
			a, err := sp.cond(x, where)
			if err != nil {
				return nil, err
			}
			if c.Op == symbolic.CAnd {
				r = m.and(r, a)
			} else {
				r = m.or(r, a)
			}
		}
	case symbolic.CImplies:
		a, err := sp.cond(c.Args[0], where)
		if err != nil {
			return nil, err
		}
		b, err := sp.cond(c.Args[1], where)
		if err != nil {
			return nil, err
		}
		r = m.imp(a, b)
	default:
		return nil, fmt.Errorf("bdd: %s: in %s: the BDD engine cannot encode condition operator %d", c.Pos, where, c.Op)
	}
	sp.condMemo[c] = r
	return r, nil
}

// outcome encodes outcome oi of command c: per assigned variable the
// relation next = value and the out-of-range condition, to which the
// condition that the outcome's probability lies outside [0, 1] is added.
func (sp *space) outcome(c *symbolic.Command, oi int) (outEnc, error) {
	m := sp.m
	o := &c.Outcomes[oi]
	oe := outEnc{err: m.fls()}
	if bad := o.BadProb(); bad.Op != symbolic.CFalse {
		// a probability outside [0, 1]: the explicit engine's range error
		e, err := sp.cond(bad, fmt.Sprintf("action %s (%s), outcome %d, its probability", sp.M.Labels[c.Label].Name, c.Pos, oi+1))
		if err != nil {
			return outEnc{}, err
		}
		oe.err = e
	}
	var reads [][]bool // per kept assignment: the variables its value reads
	for _, a := range o.Assigns {
		if a.Value.Op == symbolic.OpVar && a.Value.Var == a.Var {
			continue // x' = x changes nothing
		}
		ve := &sp.vars[a.Var]
		what := fmt.Sprintf("action %s (%s), outcome %d, the value of %s'", sp.M.Labels[c.Label].Name, c.Pos, oi+1, sp.M.Vars[a.Var].Name)
		val, err := sp.expr(a.Value, what)
		if err != nil {
			return outEnc{}, err
		}
		// Out of range: value < lo or value > hi.
		if val.lo < ve.lo {
			oe.err = m.or(oe.err, m.cmp(val, opLt, m.cst(ve.lo)))
		}
		if val.hi > ve.hi {
			oe.err = m.or(oe.err, m.cmp(m.cst(ve.hi), opLt, val))
		}
		// next = value: the next bits (unsigned, offset lo) equal value-lo.
		nv := sp.unsignedVec(ve.next, 0, ve.hi-ve.lo)
		var eq Node
		if shifted, err := m.sub(val, m.cst(ve.lo)); err == nil {
			eq = m.cmp(nv, opEq, shifted)
		} else {
			// value - lo leaves int64 only where the value lies outside
			// the range (a range error above, and no successor): the
			// value clamped into the range, where it lies within it
			in := m.and(m.not(m.cmp(val, opLt, m.cst(ve.lo))), m.not(m.cmp(m.cst(ve.hi), opLt, val)))
			cl := m.minv(m.maxv(val, m.cst(ve.lo)), m.cst(ve.hi))
			shifted, err := m.sub(cl, m.cst(ve.lo))
			if err != nil {
				return outEnc{}, sp.exprError(a.Value, what, fmt.Sprintf("its values need more than %d bits", maxWidth))
			}
			eq = m.and(in, m.cmp(nv, opEq, shifted))
		}
		oe.vars = append(oe.vars, a.Var)
		oe.eq = append(oe.eq, eq)
		oe.sets = append(oe.sets, m.set(ve.next))
		r := make([]bool, len(sp.vars))
		a.Value.Vars(func(v symbolic.VarID) { r[v] = true })
		reads = append(reads, r)
	}
	// Early quantification for images: the current bits of an assigned
	// variable are quantified with the last conjunct that reads them (the
	// first one when none does).
	q := make([][]int, len(oe.vars))
	for _, v := range oe.vars {
		last := 0
		for k := range oe.vars {
			if reads[k][v] {
				last = k
			}
		}
		q[last] = append(q[last], sp.vars[v].cur...)
	}
	for j := range oe.vars {
		oe.curQ = append(oe.curQ, m.set(q[j]))
	}
	oe.names = sp.renaming(oe.vars)
	return oe, nil
}

// renaming returns the replacers current<->next for a set of variables.
func (sp *space) renaming(vs []symbolic.VarID) *outRename {
	key := fmt.Sprint(vs)
	if r, ok := sp.repMemo[key]; ok {
		return r
	}
	var cur, next []int
	for _, v := range vs {
		cur = append(cur, sp.vars[v].cur...)
		next = append(next, sp.vars[v].next...)
	}
	r := &outRename{toNext: sp.m.replacer(cur, next), toCur: sp.m.replacer(next, cur)}
	sp.repMemo[key] = r
	return r
}

// pre returns the states from which outcome o leads into x (not
// restricted to the guard): ∃next_A. x[cur_A := next_A] ∧ ∧ eq_v,
// quantifying each variable's next bits right after its conjunct.
func (sp *space) pre(o *outEnc, x Node) Node {
	if len(o.vars) == 0 {
		return x
	}
	r := sp.m.replace(x, o.names.toNext)
	for j := range o.vars {
		r = sp.m.relprod(r, o.eq[j], o.sets[j])
	}
	return r
}

// post returns the successors by outcome o of the states s (s already
// restricted to the guard).
func (sp *space) post(o *outEnc, s Node) Node {
	if len(o.vars) == 0 {
		return s
	}
	r := s
	for j := range o.vars {
		r = sp.m.relprod(r, o.eq[j], o.curQ[j])
	}
	return sp.m.replace(r, o.names.toCur)
}

// cube returns the BDD of the single state s (in range).
func (sp *space) cube(s symbolic.State) Node {
	m := sp.m
	r := m.tru()
	for v := len(sp.vars) - 1; v >= 0; v-- {
		ve := &sp.vars[v]
		u := uint64(s[v] - ve.lo)
		for i := 0; i < ve.n; i++ {
			if u>>uint(i)&1 == 1 {
				r = m.and(r, m.ithvar(ve.cur[i]))
			} else {
				r = m.and(r, m.nithvar(ve.cur[i]))
			}
		}
	}
	return r
}

// pick returns some state of the non-empty set x (⊆ dom): it follows a
// path to True, don't-care bits 0.
func (sp *space) pick(x Node) symbolic.State {
	m := sp.m
	m.usable()
	val := make(map[int]bool)
	n := x
	for !m.isTrue(n) {
		if m.isFalse(n) {
			panic("bdd: internal error: pick from the empty set")
		}
		lvl := m.b.Label(n)
		lo := m.check(m.b.Low(n))
		if !m.isFalse(lo) {
			n = lo
			continue
		}
		val[lvl] = true
		n = m.check(m.b.High(n))
	}
	return sp.decode(func(level int) bool { return val[level] })
}

// decode reads a state from an assignment of the current bits.
func (sp *space) decode(bit func(level int) bool) symbolic.State {
	s := make(symbolic.State, len(sp.vars))
	for v := range sp.vars {
		ve := &sp.vars[v]
		u := 0
		for i := 0; i < ve.n; i++ {
			if bit(ve.cur[i]) {
				u |= 1 << uint(i)
			}
		}
		s[v] = ve.lo + u
	}
	return s
}

// count returns the number of states in x (⊆ dom, over current bits).
func (sp *space) count(x Node) *big.Int {
	c := sp.m.satcount(x)
	// Satcount counts over every BDD variable; x does not depend on the
	// next bits (or on padding variables).
	free := sp.nvars - len(sp.curLevels)
	c.Rsh(c, uint(free))
	return c
}
