package smt

// Model checks that need no search: range errors and deadlocks. Both ask,
// per property, about the non-terminal in-range states (all in-range states
// when the model has no property); neither looks at reachability.

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"time"

	"vigil/internal/phrase"
	"vigil/internal/vigilerr"
	"vigil/symbolic"
)

// CheckOptions bound the checks of this file.
type CheckOptions struct {
	// Limits bound each query; the zero value means DefaultLimits.
	Limits Limits
	// Context stops the checks early: the query it interrupts answers
	// Unknown, and CheckBounds asks no further query (Stopped).
	Context context.Context
	// First makes CheckBounds stop at the first query answered with a
	// violation or left undecided (Stopped), for a caller that only asks
	// whether the model is free of range errors: that answer is the same
	// (both lists empty), with the work of one witness.
	First bool
}

// DefaultLimits bound each query of CheckBounds and FindDeadlocks.
var DefaultLimits = Limits{Timeout: 30 * time.Second}

// Query names one question of CheckBounds: can outcome Outcome (0-based)
// of command Command give variable Var a value outside its range, from a
// non-terminal in-range state where the guard holds?
//
// With Prob set the question is instead whether the outcome's
// state-dependent probability can lie outside [0, 1] or divide by zero
// there (symbolic.Outcome.BadProb: a probability error, a range error of
// the outcome's probability in every engine); Var is then -1.
type Query struct {
	Property *symbolic.Property // nil when the model has no property
	Command  int
	Outcome  int
	Var      symbolic.VarID
	Prob     bool
}

// BoundsViolation is a Query answered yes, with a witness.
type BoundsViolation struct {
	Query
	State symbolic.State // the witness state
	Value int            // the value the outcome gives Var there (0 for Prob)
}

// Undecided is a query Z3 gave up on (timeout, resource limit, interrupt).
type Undecided struct {
	Query
	Reason string
}

// BoundsResult is the outcome of CheckBounds.
type BoundsResult struct {
	Violations []BoundsViolation
	Undecided  []Undecided
	// Stopped reports that the check ended before asking every query
	// (CheckOptions.First, or the context): the lists then hold what was
	// found up to the stop, and they are not both empty.
	Stopped bool
}

// properties returns the model's properties, or a single nil (no terminal
// states) when it has none.
func properties(m *symbolic.Model) []*symbolic.Property {
	if len(m.Properties) == 0 {
		return []*symbolic.Property{nil}
	}
	return m.Properties
}

// checker is a context, an encoder and one solver for one property.
type checker struct {
	x    *Context
	e    *Encoder
	s    *Solver
	opts CheckOptions
}

func newChecker(m *symbolic.Model, opts CheckOptions) (*checker, error) {
	if opts.Limits == (Limits{}) {
		opts.Limits = DefaultLimits
	}
	if opts.Context == nil {
		opts.Context = context.Background()
	}
	x, err := NewContext()
	if err != nil {
		return nil, err
	}
	// a large model's encoding takes seconds of term constructions,
	// which Z3's interrupt does not reach: they poll the context too
	if opts.Context.Done() != nil {
		x.StopWhen(opts.Context)
	}
	e, err := NewEncoder(x, m)
	if err != nil {
		x.Close()
		return nil, err
	}
	return &checker{x: x, e: e, opts: opts}, nil
}

// reset starts a fresh solver asserting "Cur is an in-range non-terminal
// state of p".
func (c *checker) reset(p *symbolic.Property) error {
	if err := c.resetRange(); err != nil {
		return err
	}
	return c.s.Assert(c.x.Not(c.e.Terminal(p, c.e.Cur)))
}

// resetRange starts a fresh solver asserting "Cur is an in-range state".
func (c *checker) resetRange() error {
	if c.s != nil {
		c.s.Close()
	}
	s, err := c.x.NewSolver()
	if err != nil {
		return err
	}
	c.s = s
	if err := s.SetLimits(c.opts.Limits); err != nil {
		return err
	}
	return s.Assert(c.e.InRange(c.e.Cur))
}

// check decides t with the solver's assertions and returns the current
// state of a model when there is one.
func (c *checker) check(t Term) (Result, symbolic.State, error) {
	if err := c.s.Push(); err != nil {
		return Unknown, nil, err
	}
	defer c.s.Pop(1)
	if err := c.s.Assert(t); err != nil {
		return Unknown, nil, err
	}
	r, err := c.s.CheckContext(c.opts.Context)
	if err != nil || r != Sat {
		return r, nil, err
	}
	st, err := c.e.Decode(c.s, c.e.Cur)
	return r, st, err
}

// CheckBounds decides, for every property, command outcome and assigned
// variable, whether the outcome can leave the variable's range from an
// in-range non-terminal state in which the command's guard holds. With
// opts.First it stops at the first query answered yes or left undecided,
// and a stopped context ends it within the query it interrupts, its
// encoding included (Stopped; that query is undecided).
func CheckBounds(m *symbolic.Model, opts CheckOptions) (*BoundsResult, error) {
	if opts.Context == nil {
		opts.Context = context.Background()
	}
	var c *checker // made by the first query asked
	defer func() {
		if c != nil {
			c.x.Close()
		}
	}()
	var cur *symbolic.Property // the property c's solver is reset for
	stale := false             // c's solver gave up on a query
	res := &BoundsResult{}
	// ask decides the query whose formula term builds (within a mark of
	// the context's terms); a witness must replay: value gives the
	// outcome's value there and whether it is the error claimed. It sets
	// res.Stopped when no further query is to be asked. A stop of the
	// context during the encoding (StopWhen) leaves the query undecided,
	// as one during its check does.
	ask := func(q Query, pos symbolic.Pos, term func(x *Context, e *Encoder) Term, value func(symbolic.State) (int, bool)) error {
		r, st, err := func() (Result, symbolic.State, error) {
			if c == nil {
				var err error
				if c, err = newChecker(m, opts); err != nil {
					return Unknown, nil, err
				}
			}
			if c.s == nil || cur != q.Property || stale {
				if err := c.reset(q.Property); err != nil {
					return Unknown, nil, err
				}
				cur, stale = q.Property, false
			}
			mark := c.x.Mark()
			defer c.x.Release(mark)
			return c.check(term(c.x, c.e))
		}()
		switch {
		case err != nil && errors.Is(err, ErrStopped) && opts.Context.Err() != nil:
			res.Undecided = append(res.Undecided, Undecided{q, stopWhy(opts.Context)})
			res.Stopped = true
		case err != nil:
			return err
		case r == Unknown:
			why := c.s.ReasonUnknown()
			if cerr := opts.Context.Err(); cerr != nil {
				why = stopWhy(opts.Context)
				res.Stopped = true
			}
			res.Undecided = append(res.Undecided, Undecided{q, why})
			res.Stopped = res.Stopped || opts.First
			// the solver answers nothing more (smt.Solver's lost): the
			// next query gets a fresh one
			stale = true
		case r == Sat:
			val, bad := value(st)
			if !m.Commands[q.Command].Guard.Holds(st) || !bad {
				return vigilerr.InternalAtf("smt", pos, "witness %s does not replay", m.FormatState(st))
			}
			res.Violations = append(res.Violations, BoundsViolation{q, st, val})
			res.Stopped = opts.First
		}
		return nil
	}
	for _, p := range properties(m) {
		for ci := range m.Commands {
			cmd := &m.Commands[ci]
			for oi := range cmd.Outcomes {
				for _, a := range cmd.Outcomes[oi].Assigns {
					v := &m.Vars[a.Var]
					if lo, hi := m.Bounds(a.Value); lo >= v.Lo && hi <= v.Hi {
						continue // interval arithmetic already proves it
					}
					err := ask(Query{Property: p, Command: ci, Outcome: oi, Var: a.Var}, cmd.Pos, func(x *Context, e *Encoder) Term {
						rhs := e.Expr(a.Value, e.Cur)
						return x.And(e.Cond(cmd.Guard, e.Cur), x.Or(x.Lt(rhs, x.Int(int64(v.Lo))), x.Gt(rhs, x.Int(int64(v.Hi)))))
					}, func(st symbolic.State) (int, bool) {
						val := a.Value.Eval(st)
						return val, val < v.Lo || val > v.Hi
					})
					if err != nil {
						return nil, err
					}
					if res.Stopped {
						return res, nil
					}
				}
				// the outcome's state-dependent probability
				bad := cmd.Outcomes[oi].BadProb()
				if bad.Op == symbolic.CFalse {
					continue
				}
				err := ask(Query{Property: p, Command: ci, Outcome: oi, Var: -1, Prob: true}, cmd.Outcomes[oi].Pos, func(x *Context, e *Encoder) Term {
					return x.And(e.Cond(cmd.Guard, e.Cur), e.Cond(bad, e.Cur))
				}, func(st symbolic.State) (int, bool) { return 0, bad.Holds(st) })
				if err != nil {
					return nil, err
				}
				if res.Stopped {
					return res, nil
				}
			}
		}
	}
	return res, nil
}

// Deadlock is an in-range state, non-terminal for Property, in which no
// command is applicable.
type Deadlock struct {
	Property *symbolic.Property // nil when the model has no property
	State    symbolic.State
}

// DeadlockResult is the outcome of FindDeadlocks: at most one witness per
// property, and the properties whose query was undecided.
type DeadlockResult struct {
	Deadlocks []Deadlock
	Undecided []Undecided // only Property and Reason are set
}

// FindDeadlocks looks, per property, for an in-range non-terminal state in
// which no command's guard holds.
func FindDeadlocks(m *symbolic.Model, opts CheckOptions) (*DeadlockResult, error) {
	res := &DeadlockResult{}
	stopped := func(p *symbolic.Property, err error) (*DeadlockResult, error) {
		if opts.isStop(err) { // ask no further property
			res.Undecided = append(res.Undecided, Undecided{Query{Property: p}, stopWhy(opts.Context)})
			return res, nil
		}
		return nil, err
	}
	c, err := newChecker(m, opts)
	if err != nil {
		return stopped(properties(m)[0], err)
	}
	defer c.x.Close()
	x, e := c.x, c.e
	none := make([]Term, len(m.Commands))
	for i := range m.Commands {
		none[i] = x.Not(e.Cond(m.Commands[i].Guard, e.Cur))
	}
	stuck := x.And(none...)
	for _, p := range properties(m) {
		if err := c.reset(p); err != nil {
			return stopped(p, err)
		}
		r, st, err := c.check(stuck)
		switch {
		case err != nil:
			return stopped(p, err)
		case r == Unknown:
			why := c.s.ReasonUnknown()
			if cerr := c.opts.Context.Err(); cerr != nil {
				res.Undecided = append(res.Undecided, Undecided{Query{Property: p}, stopWhy(c.opts.Context)})
				return res, nil // ask no further property
			}
			res.Undecided = append(res.Undecided, Undecided{Query{Property: p}, why})
		case r == Sat:
			for i := range m.Commands {
				if m.Commands[i].Guard.Holds(st) {
					return nil, vigilerr.InternalAtf("smt", m.Commands[i].Pos, "deadlock witness %s does not replay", m.FormatState(st))
				}
			}
			res.Deadlocks = append(res.Deadlocks, Deadlock{p, st})
		}
	}
	return res, nil
}

// Overflow is Z3's answer for one place (a guard, an assignment, a
// condition) where interval analysis finds that some expression may leave
// the 64-bit integers (symbolic.Model.OverflowNodes): a witness state and
// the innermost expression whose exact value lies outside int64 there, or
// no state (Overflow then names the innermost suspect).
type Overflow struct {
	symbolic.Overflow
	Where   string         // "the guard of action a", "the assignment to x' of action a", ...
	Pos     symbolic.Pos   // of the expression, else of the place (a command, property or rule)
	State   symbolic.State // the witness; nil when no state gives such a value
	Value   *big.Int       // the expression's exact value in State
	Unknown string         // set when Z3 gave up (the reason)
}

// CheckOverflow asks Z3, for every expression that interval analysis finds
// may leave the 64-bit integers, whether some in-range state (for an
// assignment: one where the command's guard holds) gives it a value
// outside int64. Integers are exact, so such a value is no error; it only
// makes the BDD engine refuse the model. The value is the one the
// expression has in the state, whether or not an enclosing if evaluates
// it there.
func CheckOverflow(m *symbolic.Model, opts CheckOptions) ([]Overflow, error) {
	type site struct {
		e     *symbolic.Expr
		c     *symbolic.Cond
		guard *symbolic.Cond // nil: none
		where string
		pos   symbolic.Pos
	}
	var sites []site
	for i := range m.Commands {
		cmd := &m.Commands[i]
		name := m.Labels[cmd.Label].Name
		sites = append(sites, site{c: cmd.Guard, where: "the guard of action " + name + " (" + cmd.Pos.String() + ")", pos: cmd.Pos})
		for oi, o := range cmd.Outcomes {
			for _, a := range o.Assigns {
				sites = append(sites, site{e: a.Value, guard: cmd.Guard, where: fmt.Sprintf("the assignment to %s' of action %s (%s), outcome %d", m.Vars[a.Var].Name, name, cmd.Pos, oi+1), pos: cmd.Pos})
			}
		}
	}
	for _, p := range m.Properties {
		for _, pc := range []struct {
			c    *symbolic.Cond
			what string
		}{{p.Start, "start"}, {p.Unsafe, "unsafe"}, {p.Goal, "goal"}} {
			if pc.c != nil {
				sites = append(sites, site{c: pc.c, where: "the " + pc.what + " condition of property " + p.Name, pos: p.Pos})
			}
		}
	}
	for _, d := range m.Policies {
		for _, r := range d.Rules {
			sites = append(sites, site{c: r.Cond, where: "a rule of policy " + d.Name + " (" + r.Pos.String() + ")", pos: r.Pos})
		}
	}
	var out []Overflow
	var c *checker
	for _, st := range sites {
		ovs := m.OverflowNodes(st.e, st.c)
		if len(ovs) == 0 {
			continue
		}
		// stopped: this site undecided, no further site asked
		stop := func() []Overflow {
			o := Overflow{Overflow: ovs[0], Where: st.where, Unknown: stopWhy(opts.Context)}
			if o.Pos = o.Expr.Pos; !o.Pos.IsValid() {
				o.Pos = st.pos
			}
			return append(out, o)
		}
		if c == nil {
			var err error
			if c, err = newChecker(m, opts); err != nil {
				if opts.isStop(err) {
					return stop(), nil
				}
				return nil, err
			}
			defer c.x.Close()
			if err := c.resetRange(); err != nil {
				if opts.isStop(err) {
					return stop(), nil
				}
				return nil, err
			}
		}
		x, e := c.x, c.e
		// One question per site: does some node leave int64?
		mark := x.Mark()
		var some []Term
		for _, ov := range ovs {
			v := e.Expr(ov.Expr, e.Cur)
			some = append(some, x.Lt(v, x.Int(math.MinInt64)), x.Gt(v, x.Int(math.MaxInt64)))
		}
		q := x.Or(some...)
		if st.guard != nil {
			q = x.And(e.Cond(st.guard, e.Cur), q)
		}
		r, s, err := c.check(q)
		x.Release(mark)
		// Report the innermost node beyond int64 in the witness, or the
		// innermost node of the site when there is none.
		o := Overflow{Overflow: ovs[0], Where: st.where}
		switch {
		case opts.isStop(err):
			return stop(), nil
		case err != nil:
			return nil, err
		case r == Unknown && c.opts.Context.Err() != nil:
			// stopped: this site undecided, no further site asked
			o.Unknown = stopWhy(c.opts.Context)
			if o.Pos = o.Expr.Pos; !o.Pos.IsValid() {
				o.Pos = st.pos
			}
			return append(out, o), nil
		case r == Unknown:
			// never empty: an empty reason reads as "no overflow"
			if o.Unknown = c.s.ReasonUnknown(); o.Unknown == "" {
				o.Unknown = "unknown"
			}
			// the solver answers nothing more (smt.Solver's lost): the
			// next site gets a fresh one
			if err := c.resetRange(); err != nil {
				if opts.isStop(err) {
					return stop(), nil
				}
				return nil, err
			}
		case r == Sat:
			o.State = s
			for _, ov := range ovs {
				if v := ov.Expr.EvalBig(s); !v.IsInt64() {
					o.Overflow, o.Value = ov, v
					break
				}
			}
			if o.Value == nil || st.guard != nil && !st.guard.Holds(s) {
				return nil, vigilerr.InternalAtf("smt", ovs[0].Expr.Pos, "overflow witness %s does not replay", m.FormatState(s))
			}
		}
		if o.Pos = o.Expr.Pos; !o.Pos.IsValid() {
			o.Pos = st.pos
		}
		out = append(out, o)
	}
	return out, nil
}

// StartSatisfiable decides whether some in-range state satisfies p's start
// condition: Sat with a witness, Unsat when none does (every engine then
// reports the error "no state satisfies the start condition"), Unknown when
// Z3 gave up. A property without a start condition has the initial-value
// state as its one start state.
func StartSatisfiable(m *symbolic.Model, p *symbolic.Property, opts CheckOptions) (Result, symbolic.State, error) {
	if p == nil || p.Start == nil {
		s, err := m.InitialState()
		if err != nil {
			return Unknown, nil, err
		}
		return Sat, s, nil
	}
	c, err := newChecker(m, opts)
	if opts.isStop(err) {
		return Unknown, nil, nil // as a check the context stops
	}
	if err != nil {
		return Unknown, nil, err
	}
	defer c.x.Close()
	if err := c.resetRange(); err != nil {
		if opts.isStop(err) {
			return Unknown, nil, nil
		}
		return Unknown, nil, err
	}
	r, st, err := c.check(c.e.Cond(p.Start, c.e.Cur))
	if opts.isStop(err) {
		return Unknown, nil, nil
	}
	if err != nil {
		return Unknown, nil, err
	}
	if r == Sat && !p.Start.Holds(st) {
		return Unknown, nil, vigilerr.InternalAtf("smt", p.Start.Pos, "start witness %s does not replay", m.FormatState(st))
	}
	return r, st, nil
}

// Satisfiable decides whether some in-range state of m satisfies c, in
// the form jani.ExportOptions.Satisfiable takes: a witness when one does,
// none when none does, else neither (err says why Z3 gave up, if it
// said).
func Satisfiable(m *symbolic.Model, c *symbolic.Cond, opts CheckOptions) (witness symbolic.State, none bool, err error) {
	r, st, err := StartSatisfiable(m, &symbolic.Property{Name: "condition", Start: c, Unsafe: symbolic.False()}, opts)
	switch {
	case err != nil:
		return nil, false, err
	case r == Sat:
		return st, false, nil
	case r == Unsat:
		return nil, true, nil
	}
	return nil, false, fmt.Errorf("Z3 gave no answer within its limits (%s, resource limit %d)", opts.Limits.Timeout, opts.Limits.Rlimit)
}

// isStop reports whether err is the encoding's stop (StopWhen) by
// opts.Context: not a failure, the query it cut short is undecided.
func (opts CheckOptions) isStop(err error) bool {
	return err != nil && opts.Context != nil && opts.Context.Err() != nil && errors.Is(err, ErrStopped)
}

// stopWhy says why ctx stopped a query: "stopped by the timeout",
// "interrupted", with the cause when the canceller gave one.
func stopWhy(ctx context.Context) string {
	why := phrase.Stopped(phrase.StopReason(ctx))
	if cause := context.Cause(ctx); cause != nil && cause != ctx.Err() {
		why += " (" + cause.Error() + ")"
	}
	return why
}
