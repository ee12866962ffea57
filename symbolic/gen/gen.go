// Package gen generates small random models for differential testing of
// vigil's engines. A model has a few bounded integer and Boolean variables,
// labelled guarded commands whose outcomes use the whole expression
// language (linear terms, min, max, abs, if-then-else, division by a
// positive constant, Boolean conditions), a rules policy and a property.
//
// Models respect the .spec language's typing: Boolean variables appear only
// as conditions, never inside integer expressions, so every generated
// model can be printed (symbolic.Print) and loaded back.
//
// Generation is deterministic: the same seed and Options give the same
// model on every platform. By default every assignment is clamped into its
// variable's range (using min and max), so exploration never meets a range
// error; with Options.RangeErrors some assignments are left unclamped so
// that engines can be tested on the errors they must report.
package gen

import (
	"fmt"
	"math"
	"math/rand/v2"

	"vigil/symbolic"
)

// Options bound the size of generated models. Zero fields take the
// defaults of Default.
type Options struct {
	MaxVars     int  // variables: 1..MaxVars
	MaxRange    int  // integer variables have ranges of at most MaxRange values
	MaxLabels   int  // labels: 1..MaxLabels
	MaxCommands int  // commands: 1..MaxCommands, at least one per label
	MaxOutcomes int  // outcomes per command: 1..MaxOutcomes
	MaxDepth    int  // expression nesting depth
	RangeErrors bool // leave some assignments unclamped
	// Large makes some expressions and comparisons use constants near
	// 2^62 and 2^63-1, so that their intermediate values leave int64
	// while their values stay small (integers are exact: (x*B + x*B)/B
	// is 2x). Ranges stay small, so BFS still works; such models may be
	// refused by the BDD engine.
	Large bool
	// InitialStart gives the property no start condition: the question
	// starts in the initial-value state alone, moved (the first state in
	// the order of the variables' values) out of the unsafe states when
	// it is in them and some state is not, so that the verdict turns on
	// the transitions (and a policy's choices) rather than on a start set
	// that meets the unsafe states. The model is otherwise the one of the
	// same seed without it.
	InitialStart bool
}

// Default is the option set used for zero fields: models of at most a few
// thousand states.
var Default = Options{MaxVars: 4, MaxRange: 6, MaxLabels: 3, MaxCommands: 5, MaxOutcomes: 3, MaxDepth: 2}

func (o Options) withDefaults() Options {
	d := Default
	if o.MaxVars > 0 {
		d.MaxVars = o.MaxVars
	}
	if o.MaxRange > 1 {
		d.MaxRange = o.MaxRange
	}
	if o.MaxLabels > 0 {
		d.MaxLabels = o.MaxLabels
	}
	if o.MaxCommands > 0 {
		d.MaxCommands = o.MaxCommands
	}
	if o.MaxOutcomes > 0 {
		d.MaxOutcomes = o.MaxOutcomes
	}
	if o.MaxDepth > 0 {
		d.MaxDepth = o.MaxDepth
	}
	d.RangeErrors = o.RangeErrors
	d.Large = o.Large
	d.InitialStart = o.InitialStart
	return d
}

type gen struct {
	r   *rand.Rand
	m   *symbolic.Model
	opt Options
}

// Model returns the random model of seed. It always has exactly one
// property (named "p") and one rules policy (named "pi").
func Model(seed uint64, opt Options) *symbolic.Model {
	g := &gen{r: rand.New(rand.NewPCG(seed, 0x76696769)), opt: opt.withDefaults()}
	m := &symbolic.Model{Name: fmt.Sprintf("gen%d", seed)}
	g.m = m
	nv := 1 + g.r.IntN(g.opt.MaxVars)
	for i := 0; i < nv; i++ {
		v := symbolic.Var{Name: fmt.Sprintf("v%d", i)}
		if g.r.IntN(4) == 0 {
			v.Name = fmt.Sprintf("b%d", i)
			v.Bool, v.Lo, v.Hi = true, 0, 1
		} else {
			v.Lo = g.r.IntN(5) - 2
			v.Hi = v.Lo + 1 + g.r.IntN(g.opt.MaxRange-1)
		}
		v.HasInit = true
		v.Init = v.Lo + g.r.IntN(v.Size())
		m.Vars = append(m.Vars, v)
	}
	nl := 1 + g.r.IntN(g.opt.MaxLabels)
	for i := 0; i < nl; i++ {
		m.Labels = append(m.Labels, symbolic.Label{Name: fmt.Sprintf("a%d", i)})
	}
	// Every label gets a command (the .spec language declares labels
	// through actions), then some more at random.
	nc := max(nl, 1+g.r.IntN(g.opt.MaxCommands))
	for i := 0; i < nc; i++ {
		m.Commands = append(m.Commands, g.command(i))
	}
	m.Policies = []*symbolic.PolicyDecl{g.policy()}
	m.Properties = []*symbolic.Property{g.property()}
	if g.opt.InitialStart {
		g.safeInitial()
	}
	return m
}

func (g *gen) pos(line int) symbolic.Pos {
	return symbolic.Pos{File: g.m.Name + ".spec", Line: line, Col: 1}
}

func (g *gen) command(i int) symbolic.Command {
	c := symbolic.Command{Label: symbolic.LabelID(g.r.IntN(len(g.m.Labels))), Pos: g.pos(10 + i)}
	if i < len(g.m.Labels) {
		c.Label = symbolic.LabelID(i)
	}
	if g.r.IntN(5) == 0 {
		c.Guard = symbolic.True()
	} else {
		c.Guard = g.cond(1)
	}
	no := 1 + g.r.IntN(g.opt.MaxOutcomes)
	for k := 0; k < no; k++ {
		o := symbolic.Outcome{Pos: g.pos(10 + i)}
		for v := range g.m.Vars {
			if g.r.IntN(3) != 0 {
				continue
			}
			o.Assigns = append(o.Assigns, symbolic.Assign{Var: symbolic.VarID(v), Value: g.assignValue(symbolic.VarID(v))})
		}
		o.Prob = 1 / float64(no)
		c.Outcomes = append(c.Outcomes, o)
	}
	return c
}

// assignValue returns a value for v that stays in range unless range
// errors are wanted.
func (g *gen) assignValue(v symbolic.VarID) *symbolic.Expr {
	vr := &g.m.Vars[v]
	if vr.Bool {
		return &symbolic.Expr{Op: symbolic.OpBool, Cond: g.cond(1)}
	}
	e := g.expr(g.opt.MaxDepth)
	lo, hi := g.m.Bounds(e)
	if lo >= vr.Lo && hi <= vr.Hi {
		return e
	}
	if g.opt.RangeErrors && g.r.IntN(3) == 0 {
		return e
	}
	if hi > vr.Hi {
		e = &symbolic.Expr{Op: symbolic.OpMin, Args: []*symbolic.Expr{e, symbolic.Lit(vr.Hi)}}
	}
	if lo < vr.Lo {
		e = &symbolic.Expr{Op: symbolic.OpMax, Args: []*symbolic.Expr{e, symbolic.Lit(vr.Lo)}}
	}
	return e
}

func (g *gen) anyVar() symbolic.VarID { return symbolic.VarID(g.r.IntN(len(g.m.Vars))) }

func (g *gen) intVar() (symbolic.VarID, bool) {
	start := g.r.IntN(len(g.m.Vars))
	for k := range g.m.Vars {
		v := (start + k) % len(g.m.Vars)
		if !g.m.Vars[v].Bool {
			return symbolic.VarID(v), true
		}
	}
	return 0, false
}

func (g *gen) expr(depth int) *symbolic.Expr {
	if depth <= 0 || g.r.IntN(3) == 0 {
		if v, ok := g.intVar(); ok && g.r.IntN(3) != 0 {
			return symbolic.V(v)
		}
		return symbolic.Lit(g.r.IntN(7) - 3)
	}
	d := depth - 1
	if g.opt.Large && g.r.IntN(3) == 0 {
		if e, ok := g.large(d); ok {
			return e
		}
	}
	switch g.r.IntN(10) {
	case 0:
		return &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{g.expr(d), g.expr(d)}}
	case 1:
		return &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{g.expr(0), symbolic.Lit(g.r.IntN(5) - 2)}}
	case 2:
		return &symbolic.Expr{Op: symbolic.OpSub, Args: []*symbolic.Expr{g.expr(d), g.expr(d)}}
	case 3:
		return &symbolic.Expr{Op: symbolic.OpMul, K: g.r.IntN(5) - 2, Args: []*symbolic.Expr{g.expr(d)}}
	case 4:
		return &symbolic.Expr{Op: symbolic.OpDiv, K: 1 + g.r.IntN(3), Args: []*symbolic.Expr{g.expr(d)}}
	case 5:
		return &symbolic.Expr{Op: symbolic.OpMin, Args: []*symbolic.Expr{g.expr(d), g.expr(d)}}
	case 6:
		return &symbolic.Expr{Op: symbolic.OpMax, Args: []*symbolic.Expr{g.expr(d), g.expr(d)}}
	case 7:
		return &symbolic.Expr{Op: symbolic.OpAbs, Args: []*symbolic.Expr{g.expr(d)}}
	case 8:
		return &symbolic.Expr{Op: symbolic.OpIte, Cond: g.cond(1), Args: []*symbolic.Expr{g.expr(d), g.expr(d)}}
	}
	return &symbolic.Expr{Op: symbolic.OpNeg, Args: []*symbolic.Expr{g.expr(d)}}
}

// bigConst returns a positive constant near 2^62 or 2^63-1.
func (g *gen) bigConst() int {
	switch g.r.IntN(5) {
	case 0:
		return 1 << 62
	case 1:
		return 1<<62 + 1 + g.r.IntN(4)
	case 2:
		return math.MaxInt64 - g.r.IntN(3)
	case 3:
		return 1<<61 + g.r.IntN(3)
	}
	return 3037000500 // just above sqrt(2^63)
}

// withVar returns an expression of depth at most d that reads a variable,
// so that the front end does not fold it (a folded constant beyond int64
// is an error).
func (g *gen) withVar(d int) (*symbolic.Expr, bool) {
	v, ok := g.intVar()
	if !ok {
		return nil, false
	}
	if g.r.IntN(2) == 0 {
		return symbolic.V(v), true
	}
	return &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{symbolic.V(v), g.expr(d)}}, true
}

// large returns an expression whose intermediate values may leave int64
// while its own values stay near those of a small expression e.
func (g *gen) large(d int) (*symbolic.Expr, bool) {
	e, ok := g.withVar(d)
	if !ok {
		return nil, false
	}
	b := g.bigConst()
	mul := func(k int, a *symbolic.Expr) *symbolic.Expr {
		return &symbolic.Expr{Op: symbolic.OpMul, K: k, Args: []*symbolic.Expr{a}}
	}
	div := func(a *symbolic.Expr, k int) *symbolic.Expr {
		return &symbolic.Expr{Op: symbolic.OpDiv, K: k, Args: []*symbolic.Expr{a}}
	}
	op := func(o symbolic.Op, as ...*symbolic.Expr) *symbolic.Expr { return &symbolic.Expr{Op: o, Args: as} }
	switch g.r.IntN(7) {
	case 0: // (e*B + e*B) / B == 2e (the example)
		return div(op(symbolic.OpAdd, mul(b, e), mul(b, e)), b), true
	case 1: // (e + K) - K' with K, K' near 2^63-1 or -2^63
		k, k2 := math.MaxInt64-g.r.IntN(4), 0
		if g.r.IntN(2) == 0 {
			k = math.MinInt64 + g.r.IntN(3)
			k2 = k + g.r.IntN(3)
		} else {
			k2 = k - g.r.IntN(3)
		}
		if g.r.IntN(3) == 0 { // e + K compared with a constant
			c := &symbolic.Expr{Op: symbolic.OpIte, Cond: symbolic.Compare(op(symbolic.OpAdd, e, symbolic.Lit(k)), symbolic.CmpOp(g.r.IntN(6)), symbolic.Lit(k2)), Args: []*symbolic.Expr{symbolic.Lit(1), symbolic.Lit(0)}}
			return c, true
		}
		return op(symbolic.OpSub, op(symbolic.OpAdd, e, symbolic.Lit(k)), symbolic.Lit(k2)), true
	case 2: // max(min(e*B, c), -c): the sign of e, scaled
		c := 1 + g.r.IntN(3)
		return op(symbolic.OpMax, op(symbolic.OpMin, mul(b, e), symbolic.Lit(c)), symbolic.Lit(-c)), true
	case 3: // e*B / B == e; -(e*B) / B == -e
		if g.r.IntN(2) == 0 {
			return div(op(symbolic.OpNeg, mul(b, e)), b), true
		}
		return div(mul(b, e), b), true
	case 4: // abs(e*B) / B == abs(e)
		return div(op(symbolic.OpAbs, mul(b, e)), b), true
	case 5: // (e*B - e*B) + e: Linearize sees through it
		return op(symbolic.OpAdd, op(symbolic.OpSub, mul(b, e), mul(b, e)), e), true
	}
	// if e*B > K then 1 else 0: a comparison beyond int64
	c := &symbolic.Expr{Op: symbolic.OpIte, Cond: symbolic.Compare(mul(b, e), symbolic.CmpOp(g.r.IntN(6)), symbolic.Lit(b)), Args: []*symbolic.Expr{symbolic.Lit(1), symbolic.Lit(0)}}
	return c, true
}

// largeAtom compares two expressions whose values leave int64: B*v with
// B*w, or a large expression with a constant.
func (g *gen) largeAtom() (*symbolic.Cond, bool) {
	b := g.bigConst()
	op := symbolic.CmpOp(g.r.IntN(6))
	if g.r.IntN(2) == 0 {
		v, ok1 := g.withVar(0)
		w, ok2 := g.withVar(0)
		if !ok1 || !ok2 {
			return nil, false
		}
		l := &symbolic.Expr{Op: symbolic.OpMul, K: b, Args: []*symbolic.Expr{v}}
		r := &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{{Op: symbolic.OpMul, K: b, Args: []*symbolic.Expr{w}}, symbolic.Lit(g.r.IntN(3) - 1)}}
		return symbolic.Compare(l, op, r), true
	}
	if g.r.IntN(3) == 0 { // e + MinInt64 (+ small) OP c: beyond the int64 constants
		e, ok := g.withVar(0)
		if !ok {
			return nil, false
		}
		l := &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{e, symbolic.Lit(math.MinInt64 + g.r.IntN(2))}}
		return symbolic.Compare(l, op, symbolic.Lit(g.r.IntN(3)-1)), true
	}
	e, ok := g.large(0)
	if !ok {
		return nil, false
	}
	return symbolic.Compare(e, op, symbolic.Lit(g.r.IntN(7)-3)), true
}

// atom is a comparison of a variable (or a small linear term) with a
// constant in or near its range, or a Boolean variable.
func (g *gen) atom() *symbolic.Cond {
	if g.opt.Large && g.r.IntN(4) == 0 {
		if c, ok := g.largeAtom(); ok {
			return c
		}
	}
	v := g.anyVar()
	vr := &g.m.Vars[v]
	if vr.Bool {
		c := &symbolic.Cond{Op: symbolic.CVar, Var: v}
		if g.r.IntN(2) == 0 {
			return symbolic.Not(c)
		}
		return c
	}
	k := vr.Lo - 1 + g.r.IntN(vr.Size()+2)
	l := symbolic.V(v)
	if w, ok := g.intVar(); ok && g.r.IntN(4) == 0 {
		l = &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{l, symbolic.V(w)}}
	}
	return symbolic.Compare(l, symbolic.CmpOp(g.r.IntN(6)), symbolic.Lit(k))
}

func (g *gen) cond(depth int) *symbolic.Cond {
	if depth <= 0 || g.r.IntN(2) == 0 {
		return g.atom()
	}
	d := depth - 1
	switch g.r.IntN(4) {
	case 0:
		return &symbolic.Cond{Op: symbolic.CAnd, Args: []*symbolic.Cond{g.cond(d), g.cond(d)}}
	case 1:
		return &symbolic.Cond{Op: symbolic.COr, Args: []*symbolic.Cond{g.cond(d), g.cond(d)}}
	case 2:
		return &symbolic.Cond{Op: symbolic.CImplies, Args: []*symbolic.Cond{g.cond(d), g.cond(d)}}
	}
	return &symbolic.Cond{Op: symbolic.CNot, Args: []*symbolic.Cond{g.cond(d)}}
}

func (g *gen) policy() *symbolic.PolicyDecl {
	d := &symbolic.PolicyDecl{Name: "pi", Kind: symbolic.KindRules, Pos: g.pos(50)}
	n := 1 + g.r.IntN(4)
	for i := 0; i < n; i++ {
		d.Rules = append(d.Rules, symbolic.Rule{Cond: g.cond(1), Label: symbolic.LabelID(g.r.IntN(len(g.m.Labels))), Pos: g.pos(51 + i)})
	}
	if g.r.IntN(4) != 0 {
		d.Rules = append(d.Rules, symbolic.Rule{Cond: symbolic.True(), Label: symbolic.LabelID(g.r.IntN(len(g.m.Labels))), Pos: g.pos(51 + n)})
	}
	return d
}

func (g *gen) property() *symbolic.Property {
	p := &symbolic.Property{Name: "p", Pos: g.pos(60)}
	switch g.r.IntN(4) {
	case 0: // no start condition: the initial-value state
	case 1:
		p.Start = symbolic.True()
	default:
		// A conjunction of bounds and one arbitrary condition, the shape
		// start-state enumeration must exploit.
		var cs []*symbolic.Cond
		for i := 0; i < 1+g.r.IntN(3); i++ {
			cs = append(cs, g.atom())
		}
		if g.r.IntN(2) == 0 {
			cs = append(cs, g.cond(1))
		}
		p.Start = symbolic.And(cs...)
	}
	p.Unsafe = g.cond(1)
	if g.r.IntN(3) == 0 {
		p.Unsafe = &symbolic.Cond{Op: symbolic.CAnd, Args: []*symbolic.Cond{g.atom(), g.atom()}}
	}
	if g.r.IntN(2) == 0 {
		p.Goal = g.cond(1)
	}
	return p
}

// safeInitial drops the property's start condition and moves the initial
// state out of the unsafe states, to the first state (first variable
// varying fastest) that is not unsafe, if there is one.
func (g *gen) safeInitial() {
	m := g.m
	p := m.Properties[0]
	p.Start = nil
	s := make(symbolic.State, len(m.Vars))
	for v := range m.Vars {
		s[v] = m.Vars[v].Init
	}
	if !p.Unsafe.Holds(s) {
		return
	}
	for v := range m.Vars {
		s[v] = m.Vars[v].Lo
	}
	for {
		if !p.Unsafe.Holds(s) {
			for v := range m.Vars {
				m.Vars[v].Init = s[v]
			}
			return
		}
		v := 0
		for v < len(s) && s[v] == m.Vars[v].Hi {
			s[v] = m.Vars[v].Lo
			v++
		}
		if v == len(s) {
			return
		}
		s[v]++
	}
}

// StateProbs gives about one outcome in every `every` of m a
// state-dependent probability (as a JANI destination's x/2 or (N-c)/N):
// one factor Num/Den (Outcome.ProbFactors), or about one time in three
// two or three, as synchronised JANI edges give. Num is k·v + b over one
// variable, Den a constant in -1..3 or another such expression, so that a
// factor lies outside [0, 1], or divides by zero, in some states and not
// in others (and a product of two negative factors is positive). It
// returns the number of outcomes it changed.
func StateProbs(m *symbolic.Model, r *rand.Rand, every int) int {
	lin := func() *symbolic.Expr {
		v := symbolic.VarID(r.IntN(len(m.Vars)))
		return &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{{Op: symbolic.OpMul, K: r.IntN(5) - 2, Args: []*symbolic.Expr{symbolic.V(v)}}, symbolic.Lit(r.IntN(7) - 2)}}
	}
	n := 0
	for ci := range m.Commands {
		for oi := range m.Commands[ci].Outcomes {
			if r.IntN(every) != 0 {
				continue
			}
			o := &m.Commands[ci].Outcomes[oi]
			k := 1
			if r.IntN(3) == 0 {
				k = 2 + r.IntN(2)
			}
			o.ProbFactors = nil
			for range k {
				f := symbolic.ProbFactor{Num: lin(), Den: lin(), Pos: o.Pos}
				if r.IntN(2) == 0 {
					f.Den = symbolic.Lit(r.IntN(5) - 1)
				}
				o.ProbFactors = append(o.ProbFactors, f)
			}
			n++
		}
	}
	return n
}
