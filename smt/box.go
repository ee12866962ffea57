package smt

// Boxes and partial assignments.
//
// IC3 over bounded integers works with cubes of bound literals x >= k and
// x <= k (a partial assignment x = v is the pair x >= v, x <= v). A
// Literals value gives each bound literal, on the current or the next
// state, one Boolean assumption constant a with a => (bound) asserted once
// in its solver; a box is then a list of assumption constants, and the
// unsat core of a query names the bounds that matter.

import (
	"fmt"

	"vigil/symbolic"
)

// Lit is the bound literal Var >= K (Upper false) or Var <= K (Upper
// true); with Form set, it is the linear atom Form >= K (or Form <= K),
// and Var is the form's first variable (so that literals sort by
// variable). Forms are interned, so Lits compare with ==.
type Lit struct {
	Var   symbolic.VarID
	Upper bool
	K     int
	Form  *symbolic.Form
}

// FormLit returns the atom f >= k (upper false) or f <= k.
func FormLit(f *symbolic.Form, upper bool, k int) Lit {
	return Lit{Var: f.Terms()[0].Var, Upper: upper, K: k, Form: f}
}

func (l Lit) String() string {
	op := ">="
	if l.Upper {
		op = "<="
	}
	if l.Form != nil {
		return fmt.Sprintf("%s %s %d", l.Form.Format(nil), op, l.K)
	}
	return fmt.Sprintf("v%d %s %d", l.Var, op, l.K)
}

// Format writes l with m's variable names, e.g. "pos >= 3" or
// "x - y <= 0".
func (l Lit) Format(m *symbolic.Model) string {
	op := ">="
	if l.Upper {
		op = "<="
	}
	if l.Form != nil {
		return fmt.Sprintf("%s %s %d", l.Form.Format(m), op, l.K)
	}
	return fmt.Sprintf("%s %s %d", m.Vars[l.Var].Name, op, l.K)
}

// Negate returns the literal that holds exactly when l does not.
func (l Lit) Negate() Lit {
	if l.Upper {
		return Lit{Var: l.Var, K: l.K + 1, Form: l.Form}
	}
	return Lit{Var: l.Var, Upper: true, K: l.K - 1, Form: l.Form}
}

// Value returns the value l bounds in s: the variable's, or the form's.
func (l Lit) Value(s symbolic.State) int {
	if l.Form != nil {
		return l.Form.Eval(s)
	}
	return s[l.Var]
}

// Holds reports whether l holds in s.
func (l Lit) Holds(s symbolic.State) bool {
	if l.Upper {
		return l.Value(s) <= l.K
	}
	return l.Value(s) >= l.K
}

// Box returns the literals of the box lo <= v <= hi, skipping bounds that
// the variable's range already implies.
func Box(m *symbolic.Model, lo, hi []int) []Lit {
	var ls []Lit
	for i := range m.Vars {
		if lo[i] > m.Vars[i].Lo {
			ls = append(ls, Lit{Var: symbolic.VarID(i), K: lo[i]})
		}
		if hi[i] < m.Vars[i].Hi {
			ls = append(ls, Lit{Var: symbolic.VarID(i), Upper: true, K: hi[i]})
		}
	}
	return ls
}

// Point returns the literals of the partial assignment vars[i] = vals[i].
func Point(vars []symbolic.VarID, vals []int) []Lit {
	ls := make([]Lit, 0, 2*len(vars))
	for i, v := range vars {
		ls = append(ls, Lit{Var: v, K: vals[i]}, Lit{Var: v, Upper: true, K: vals[i]})
	}
	return ls
}

// Bound encodes l over vs.
func (e *Encoder) Bound(l Lit, vs []Term) Term {
	t := vs[l.Var]
	if l.Form != nil {
		ts := make([]Term, 0, len(l.Form.Terms()))
		for _, ft := range l.Form.Terms() {
			if ft.Coef == 1 {
				ts = append(ts, vs[ft.Var])
			} else {
				ts = append(ts, e.X.MulK(int64(ft.Coef), vs[ft.Var]))
			}
		}
		t = e.X.Add(ts...)
	}
	if l.Upper {
		return e.X.Le(t, e.X.Int(int64(l.K)))
	}
	return e.X.Ge(t, e.X.Int(int64(l.K)))
}

// Cube encodes the conjunction of ls over vs.
func (e *Encoder) Cube(ls []Lit, vs []Term) Term {
	ts := make([]Term, len(ls))
	for i, l := range ls {
		ts[i] = e.Bound(l, vs)
	}
	return e.X.And(ts...)
}

// Clause encodes the negation of the cube ls over vs: OR of the negated
// literals.
func (e *Encoder) Clause(ls []Lit, vs []Term) Term {
	ts := make([]Term, len(ls))
	for i, l := range ls {
		ts[i] = e.Bound(l.Negate(), vs)
	}
	return e.X.Or(ts...)
}

// Literals hands out assumption constants for bound literals of one
// solver, making each at most once.
type Literals struct {
	e      *Encoder
	s      *Solver
	scopes int // the solver's scope level when the literals were made
	cache  map[litKey]Term
}

type litKey struct {
	next bool
	l    Lit
}

// NewLiterals returns the assumption literals of solver s. The literals
// are pinned in the context (Context.Keep), so they survive the caller's
// Release. Their defining implications are asserted at s's current scope
// level: make them outside any Push whose Pop would remove them.
func (e *Encoder) NewLiterals(s *Solver) *Literals {
	return &Literals{e: e, s: s, scopes: s.Scopes(), cache: map[litKey]Term{}}
}

// Assume returns the assumption constant for l on the next state (next)
// or the current one.
func (a *Literals) Assume(l Lit, next bool) (Term, error) {
	k := litKey{next, l}
	if t, ok := a.cache[k]; ok {
		return t, nil
	}
	if n := a.s.Scopes(); n != a.scopes {
		return Term{}, fmt.Errorf("smt: new assumption literal %v made at scope level %d, not %d where its solver's literals live (a Pop would lose its definition)", l, n, a.scopes)
	}
	vs, side := a.e.Cur, "c"
	if next {
		vs, side = a.e.Next, "n"
	}
	kind := "ge"
	if l.Upper {
		kind = "le"
	}
	x := a.e.X
	mark := x.Mark()
	defer x.Release(mark)
	name := fmt.Sprintf("a.%s.%d.%s.%d", side, l.Var, kind, l.K)
	if l.Form != nil {
		name = fmt.Sprintf("a.%s.f(%s).%s.%d", side, l.Form.Key(), kind, l.K)
	}
	t := x.BoolConst(name)
	if err := a.s.Assert(x.Implies(t, a.e.Bound(l, vs))); err != nil {
		return Term{}, err
	}
	a.cache[k] = x.Keep(t)
	return t, nil
}

// AssumeAll appends the assumption constants of ls to dst.
func (a *Literals) AssumeAll(dst []Term, ls []Lit, next bool) ([]Term, error) {
	for _, l := range ls {
		t, err := a.Assume(l, next)
		if err != nil {
			return dst, err
		}
		dst = append(dst, t)
	}
	return dst, nil
}
