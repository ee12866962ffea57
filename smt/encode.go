package smt

// Encoding of the symbolic IR.
//
// A state is a vector of integer constants, one per model variable; an
// Encoder holds two such vectors, Cur and Next. Booleans are 0/1 integers,
// exactly as in the IR, and a Boolean variable "holds" when it is non-zero
// (Cond.Holds reads it that way too). Every expression is encoded exactly:
// min, max, abs and if become ite terms, and division by a positive
// constant is SMT-LIB's div, which is the floor for positive divisors.
//
// The transition relation (Transition) introduces one Boolean per command
// outcome, o[c][j], and defines the command choice cmd[c] = OR_j o[c][j]
// and the label choice lab[a] = OR_{c of label a} cmd[c]:
//
//	exactly one o[c][j] holds                   (an integer choice ch)
//	cmd[c]  => guard_c(Cur)
//	o[c][j] => Next[v] == rhs(Cur) for each assignment v' = rhs
//	Next[v] == Cur[v] unless an outcome assigning v is chosen (frame)
//	Cur, Next in range; Cur not terminal (unsafe or goal of the property)
//
// A transition whose outcome would leave a variable's range is not a
// transition (the model is in error there; CheckBounds finds such places),
// so requiring Next in range drops exactly those.

import (
	"fmt"

	"vigil/symbolic"
)

// Encoder encodes one model's conditions and expressions over a Context.
type Encoder struct {
	X   *Context
	M   *symbolic.Model
	Cur []Term // current-state variables, named like the model's
	// Next are the next-state variables, named with a trailing '.
	Next []Term
	ntr  int // transitions made, for fresh names
}

// NewEncoder declares the current- and next-state variables of m in x.
func NewEncoder(x *Context, m *symbolic.Model) (*Encoder, error) {
	e := &Encoder{X: x, M: m, Cur: make([]Term, len(m.Vars)), Next: make([]Term, len(m.Vars))}
	for i := range m.Vars {
		e.Cur[i] = x.IntConst(m.Vars[i].Name)
		e.Next[i] = x.IntConst(m.Vars[i].Name + "'")
	}
	return e, x.Err()
}

// Expr encodes ex over the state variables vs (Cur or Next).
func (e *Encoder) Expr(ex *symbolic.Expr, vs []Term) Term {
	x := e.X
	if ex == nil {
		x.fail(fmt.Errorf("smt: nil expression"))
		return Term{}
	}
	switch ex.Op {
	case symbolic.OpConst:
		return x.Int(int64(ex.K))
	case symbolic.OpVar:
		if int(ex.Var) < 0 || int(ex.Var) >= len(vs) {
			x.fail(fmt.Errorf("smt: %s: variable index %d out of range", ex.Pos, ex.Var))
			return Term{}
		}
		return vs[ex.Var]
	case symbolic.OpAdd:
		ts := make([]Term, len(ex.Args))
		for i, a := range ex.Args {
			ts[i] = e.Expr(a, vs)
		}
		return x.Add(ts...)
	case symbolic.OpSub:
		return x.Sub(e.Expr(ex.Args[0], vs), e.Expr(ex.Args[1], vs))
	case symbolic.OpNeg:
		return x.Neg(e.Expr(ex.Args[0], vs))
	case symbolic.OpMul:
		return x.MulK(int64(ex.K), e.Expr(ex.Args[0], vs))
	case symbolic.OpDiv:
		return x.DivK(e.Expr(ex.Args[0], vs), int64(ex.K))
	case symbolic.OpProd:
		x.fail(fmt.Errorf("smt: %s: a product of two variables (non-linear arithmetic) cannot be encoded in linear integer arithmetic; use the explicit engine (--engine bfs) or BDDs", ex.Pos))
		return Term{}
	case symbolic.OpMin, symbolic.OpMax:
		a, b := e.Expr(ex.Args[0], vs), e.Expr(ex.Args[1], vs)
		if ex.Op == symbolic.OpMin {
			return x.Ite(x.Le(a, b), a, b)
		}
		return x.Ite(x.Ge(a, b), a, b)
	case symbolic.OpAbs:
		a := e.Expr(ex.Args[0], vs)
		return x.Ite(x.Ge(a, x.Int(0)), a, x.Neg(a))
	case symbolic.OpIte:
		return x.Ite(e.Cond(ex.Cond, vs), e.Expr(ex.Args[0], vs), e.Expr(ex.Args[1], vs))
	case symbolic.OpBool:
		return x.Ite(e.Cond(ex.Cond, vs), x.Int(1), x.Int(0))
	}
	x.fail(fmt.Errorf("smt: %s: unknown expression op %v", ex.Pos, ex.Op))
	return Term{}
}

// Cond encodes c over the state variables vs.
func (e *Encoder) Cond(c *symbolic.Cond, vs []Term) Term {
	x := e.X
	if c == nil {
		x.fail(fmt.Errorf("smt: nil condition"))
		return Term{}
	}
	switch c.Op {
	case symbolic.CTrue:
		return x.True()
	case symbolic.CFalse:
		return x.False()
	case symbolic.CVar:
		if int(c.Var) < 0 || int(c.Var) >= len(vs) {
			x.fail(fmt.Errorf("smt: %s: variable index %d out of range", c.Pos, c.Var))
			return Term{}
		}
		return x.Ne(vs[c.Var], x.Int(0))
	case symbolic.CCmp:
		l, r := e.Expr(c.L, vs), e.Expr(c.R, vs)
		switch c.Cmp {
		case symbolic.Eq:
			return x.Eq(l, r)
		case symbolic.Ne:
			return x.Ne(l, r)
		case symbolic.Lt:
			return x.Lt(l, r)
		case symbolic.Le:
			return x.Le(l, r)
		case symbolic.Gt:
			return x.Gt(l, r)
		case symbolic.Ge:
			return x.Ge(l, r)
		}
	case symbolic.CNot:
		return x.Not(e.Cond(c.Args[0], vs))
	case symbolic.CAnd, symbolic.COr:
		ts := make([]Term, len(c.Args))
		for i, a := range c.Args {
			ts[i] = e.Cond(a, vs)
		}
		if c.Op == symbolic.CAnd {
			return x.And(ts...)
		}
		return x.Or(ts...)
	case symbolic.CImplies:
		return x.Implies(e.Cond(c.Args[0], vs), e.Cond(c.Args[1], vs))
	}
	x.fail(fmt.Errorf("smt: %s: unknown condition op %d", c.Pos, c.Op))
	return Term{}
}

// InRange returns the conjunction of the variables' ranges over vs.
func (e *Encoder) InRange(vs []Term) Term {
	x := e.X
	ts := make([]Term, 0, 2*len(vs))
	for i := range e.M.Vars {
		v := &e.M.Vars[i]
		ts = append(ts, x.Ge(vs[i], x.Int(int64(v.Lo))), x.Le(vs[i], x.Int(int64(v.Hi))))
	}
	return x.And(ts...)
}

// Terminal returns "vs is a terminal state of p" (unsafe or goal); false
// when p is nil.
func (e *Encoder) Terminal(p *symbolic.Property, vs []Term) Term {
	if p == nil {
		return e.X.False()
	}
	ts := []Term{e.Cond(p.Unsafe, vs)}
	if p.Goal != nil {
		ts = append(ts, e.Cond(p.Goal, vs))
	}
	return e.X.Or(ts...)
}

// State returns "vs equals s".
func (e *Encoder) State(s symbolic.State, vs []Term) Term {
	x := e.X
	ts := make([]Term, len(vs))
	for i := range vs {
		ts[i] = x.Eq(vs[i], x.Int(int64(s[i])))
	}
	return x.And(ts...)
}

// Decode reads the state vs in the solver's model of the last Sat check.
func (e *Encoder) Decode(s *Solver, vs []Term) (symbolic.State, error) {
	vals := make([]int64, len(vs))
	if err := s.Eval(vs, vals); err != nil {
		return nil, err
	}
	st := make(symbolic.State, len(vs))
	for i, v := range vals {
		st[i] = int(v)
	}
	return st, nil
}

// fail records err as the context's first error.
func (x *Context) fail(err error) {
	if x.err == nil {
		x.err = err
	}
}

// TransOptions select the transition relation Transition builds.
type TransOptions struct {
	// Property's unsafe and goal states have no successors; nil: no state
	// is terminal.
	Property *symbolic.Property
	// Labels restricts the relation to commands of these labels; nil
	// means every label.
	Labels []symbolic.LabelID
	// Policy restricts the relation to the label the policy chooses (see
	// Encoder.Chosen); nil: any applicable label. Only rules and table
	// policies can be encoded exactly.
	Policy *symbolic.PolicyDecl
}

// Transition is the encoded transition relation of a model.
type Transition struct {
	// Formula is the relation over Cur, Next and the choice Booleans.
	Formula Term
	// Outcome[c][j] holds when outcome j of command c is taken; the zero
	// Term for commands outside TransOptions.Labels.
	Outcome [][]Term
	// Command[c] holds when command c is taken (false when excluded).
	Command []Term
	// Label[a] is a Boolean constant that holds when a command of label a
	// is taken (never for excluded labels); usable as an assumption.
	Label []Term
}

// Transition encodes the transition relation selected by opts (see the
// design note at the top of this file). Each call makes fresh choice
// Booleans, so several relations can live in one solver.
func (e *Encoder) Transition(opts TransOptions) (*Transition, error) {
	x, m := e.X, e.M
	e.ntr++
	tag := e.ntr
	allowed := make([]bool, len(m.Labels))
	if opts.Labels == nil {
		for i := range allowed {
			allowed[i] = true
		}
	}
	for _, l := range opts.Labels {
		if int(l) < 0 || int(l) >= len(m.Labels) {
			return nil, fmt.Errorf("smt: label %d out of range", l)
		}
		allowed[l] = true
	}
	tr := &Transition{
		Outcome: make([][]Term, len(m.Commands)),
		Command: make([]Term, len(m.Commands)),
		Label:   make([]Term, len(m.Labels)),
	}
	var all []Term                           // every outcome Boolean
	assigning := make([][]Term, len(m.Vars)) // outcome Booleans that assign v
	byLabel := make([][]Term, len(m.Labels)) // command Booleans per label
	parts := []Term{e.InRange(e.Cur), e.InRange(e.Next), x.Not(e.Terminal(opts.Property, e.Cur))}
	for ci := range m.Commands {
		c := &m.Commands[ci]
		if int(c.Label) < 0 || int(c.Label) >= len(m.Labels) {
			return nil, fmt.Errorf("smt: %s: command has label %d out of range", c.Pos, c.Label)
		}
		if !allowed[c.Label] {
			tr.Command[ci] = x.False()
			continue
		}
		os := make([]Term, len(c.Outcomes))
		for j := range c.Outcomes {
			o := x.BoolConst(fmt.Sprintf("t%d.o%d.%d", tag, ci, j))
			os[j] = o
			all = append(all, o)
			eqs := make([]Term, 0, len(c.Outcomes[j].Assigns))
			for _, a := range c.Outcomes[j].Assigns {
				if int(a.Var) < 0 || int(a.Var) >= len(m.Vars) {
					return nil, fmt.Errorf("smt: %s: assignment to variable %d out of range", a.Pos, a.Var)
				}
				eqs = append(eqs, x.Eq(e.Next[a.Var], e.Expr(a.Value, e.Cur)))
				assigning[a.Var] = append(assigning[a.Var], o)
			}
			if len(eqs) > 0 {
				parts = append(parts, x.Implies(o, x.And(eqs...)))
			}
		}
		tr.Outcome[ci] = os
		cmd := x.BoolConst(fmt.Sprintf("t%d.c%d", tag, ci))
		tr.Command[ci] = cmd
		byLabel[c.Label] = append(byLabel[c.Label], cmd)
		parts = append(parts, x.Iff(cmd, x.Or(os...)), x.Implies(cmd, e.Cond(c.Guard, e.Cur)))
	}
	// Exactly one outcome: an integer choice ch in [0, len(all)) with
	// all[k] <=> ch == k. (Z3 4.8.12's atmost constraint loses models
	// under push/pop with blocking clauses, and pairwise exclusion is
	// quadratic.)
	ch := x.IntConst(fmt.Sprintf("t%d.ch", tag))
	parts = append(parts, x.Ge(ch, x.Int(0)), x.Lt(ch, x.Int(int64(len(all)))))
	for k, o := range all {
		parts = append(parts, x.Iff(o, x.Eq(ch, x.Int(int64(k)))))
	}
	for v := range m.Vars {
		parts = append(parts, x.Or(append(assigning[v], x.Eq(e.Next[v], e.Cur[v]))...))
	}
	for l := range m.Labels {
		lab := x.BoolConst(fmt.Sprintf("t%d.l%d", tag, l))
		tr.Label[l] = lab
		parts = append(parts, x.Iff(lab, x.Or(byLabel[l]...)))
	}
	if opts.Policy != nil {
		chosen, err := e.Chosen(opts.Policy, e.Cur)
		if err != nil {
			return nil, err
		}
		for l := range m.Labels {
			parts = append(parts, x.Implies(tr.Label[l], chosen[l]))
		}
	}
	tr.Formula = x.And(parts...)
	if err := x.Err(); err != nil {
		return nil, err
	}
	return tr, nil
}

// Applicable returns, per label, "some command of the label has a true
// guard in vs".
func (e *Encoder) Applicable(vs []Term) []Term {
	x, m := e.X, e.M
	by := make([][]Term, len(m.Labels))
	for ci := range m.Commands {
		c := &m.Commands[ci]
		if int(c.Label) >= 0 && int(c.Label) < len(by) {
			by[c.Label] = append(by[c.Label], e.Cond(c.Guard, vs))
		}
	}
	app := make([]Term, len(m.Labels))
	for l := range app {
		app[l] = x.Or(by[l]...)
	}
	return app
}

// Chosen returns, per label, "the policy chooses the label in vs", exactly
// as the explicit engine decides: a rules policy takes the first rule whose
// condition holds and whose label is applicable; a table policy takes the
// label of the (last) row equal to the state when it is applicable. No label holds
// where the policy is stuck. Learned policies (nn, trees) cannot be encoded
// exactly and are an error.
func (e *Encoder) Chosen(d *symbolic.PolicyDecl, vs []Term) ([]Term, error) {
	x, m := e.X, e.M
	app := e.Applicable(vs)
	by := make([][]Term, len(m.Labels))
	label := func(l symbolic.LabelID) error {
		if int(l) < 0 || int(l) >= len(m.Labels) {
			return fmt.Errorf("smt: %s: policy %s names label %d, which model %s lacks", d.Pos, d.Name, l, m.Name)
		}
		return nil
	}
	switch d.Kind {
	case symbolic.KindRules:
		var earlier []Term // "an earlier rule fires"
		for _, r := range d.Rules {
			if err := label(r.Label); err != nil {
				return nil, err
			}
			fires := x.And(e.Cond(r.Cond, vs), app[r.Label])
			sel := fires
			if len(earlier) > 0 {
				sel = x.And(fires, x.Not(x.Or(earlier...)))
			}
			by[r.Label] = append(by[r.Label], sel)
			earlier = append(earlier, fires)
		}
	case symbolic.KindTable:
		if d.Table != nil {
			// A state listed twice takes its last row's label, as in the
			// explicit engine, bdd and the certificate checker.
			last := map[string]int{}
			for i, row := range d.Table.Rows {
				last[fmt.Sprint(row)] = i
			}
			for i, row := range d.Table.Rows {
				if last[fmt.Sprint(row)] != i {
					continue // overridden by a later row
				}
				l := d.Table.Labels[i]
				if err := label(l); err != nil {
					return nil, err
				}
				if len(row) != len(vs) {
					return nil, fmt.Errorf("smt: %s: policy %s: table row %d has %d values, the model has %d variables", d.Pos, d.Name, i+1, len(row), len(vs))
				}
				by[l] = append(by[l], e.State(row, vs))
			}
		}
		for l := range by {
			if len(by[l]) > 0 {
				by[l] = []Term{x.And(app[l], x.Or(by[l]...))}
			}
		}
	default:
		return nil, fmt.Errorf("smt: %s: policy %s is a %s policy; only rules and table policies can be encoded exactly in SMT", d.Pos, d.Name, d.Kind)
	}
	out := make([]Term, len(m.Labels))
	for l := range out {
		out[l] = x.Or(by[l]...)
	}
	return out, x.Err()
}

// RangeError returns "in vs, a command the relation allows (opts: its
// labels and policy) has an outcome that leaves some variable's range, or
// whose state-dependent probability lies outside [0, 1] or divides by zero
// (symbolic.Outcome.BadProb)": the states where the explicit engine
// reports a range error. vs must not
// be terminal for the error to matter; the caller adds that.
func (e *Encoder) RangeError(opts TransOptions, vs []Term) (Term, error) {
	per, err := e.rangeErrors(opts, vs)
	if err != nil {
		return Term{}, err
	}
	var all []Term // in command order, as one disjunction
	for _, t := range per {
		all = append(all, t.t)
	}
	return e.X.Or(all...), e.X.Err()
}

// labelTerm is a command's range error with the command's label.
type labelTerm struct {
	l symbolic.LabelID
	t Term
}

// RangeErrors is RangeError per label: element a is "in vs, a command of
// label a the relation allows has an outcome that leaves some variable's
// range" (false for a label without such a command). A learned policy
// (PolIC3) needs them apart: a range error counts only under a label the
// policy is not proved never to choose in vs.
func (e *Encoder) RangeErrors(opts TransOptions, vs []Term) ([]Term, error) {
	per, err := e.rangeErrors(opts, vs)
	if err != nil {
		return nil, err
	}
	by := make([][]Term, len(e.M.Labels))
	for _, t := range per {
		by[t.l] = append(by[t.l], t.t)
	}
	out := make([]Term, len(by))
	for l := range out {
		out[l] = e.X.Or(by[l]...)
	}
	return out, e.X.Err()
}

// rangeErrors returns the range error of each command that can have one,
// in command order.
func (e *Encoder) rangeErrors(opts TransOptions, vs []Term) ([]labelTerm, error) {
	x, m := e.X, e.M
	allowed := make([]bool, len(m.Labels))
	for i := range allowed {
		allowed[i] = opts.Labels == nil
	}
	for _, l := range opts.Labels {
		if int(l) >= 0 && int(l) < len(allowed) {
			allowed[l] = true
		}
	}
	var chosen []Term
	if opts.Policy != nil {
		var err error
		if chosen, err = e.Chosen(opts.Policy, vs); err != nil {
			return nil, err
		}
	}
	var errs []labelTerm
	for ci := range m.Commands {
		c := &m.Commands[ci]
		if int(c.Label) < 0 || int(c.Label) >= len(m.Labels) || !allowed[c.Label] {
			continue
		}
		var outs []Term
		for j := range c.Outcomes {
			var leave []Term
			if bad := c.Outcomes[j].BadProb(); bad.Op != symbolic.CFalse {
				leave = append(leave, e.Cond(bad, vs)) // the explicit engine checks it first
			}
			for _, a := range c.Outcomes[j].Assigns {
				v := &m.Vars[a.Var]
				if lo, hi := m.Bounds(a.Value); lo >= v.Lo && hi <= v.Hi {
					continue // cannot leave the range
				}
				val := e.Expr(a.Value, vs)
				leave = append(leave, x.Lt(val, x.Int(int64(v.Lo))), x.Gt(val, x.Int(int64(v.Hi))))
			}
			if len(leave) > 0 {
				outs = append(outs, x.Or(leave...))
			}
		}
		if len(outs) == 0 {
			continue
		}
		t := x.And(e.Cond(c.Guard, vs), x.Or(outs...))
		if chosen != nil {
			t = x.And(t, chosen[c.Label])
		}
		errs = append(errs, labelTerm{c.Label, t})
	}
	return errs, x.Err()
}
