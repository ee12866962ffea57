package cert

// Regions of policy facts: a box and linear atoms (a relational lemma's
// cell). The checks over boxes keep their boxes and count only the
// states that satisfy the atoms; the tests here are sound (a part of a
// box they drop holds no state of the region).

import (
	"context"
	"fmt"

	"vigil/smt"
	"vigil/symbolic"
)

// atomString writes a as "x - 2*y <= 3" with m's variable names.
func atomString(m *symbolic.Model, a symbolic.Atom) string {
	if a.Form == nil {
		return "(an atom without terms)"
	}
	op := ">="
	if a.Upper {
		op = "<="
	}
	return fmt.Sprintf("%s %s %d", a.Form.Format(m), op, a.K)
}

// atomOnBox tells whether atom a holds in every state of lo..hi (all) or
// in none (none).
func atomOnBox(a symbolic.Atom, lo, hi []int) (all, none bool) {
	flo, fhi := a.Form.RangeIn(lo, hi)
	if a.Upper {
		return fhi <= a.K, flo > a.K
	}
	return flo >= a.K, fhi < a.K
}

// cutAtoms returns the atoms that cut the box lo..hi (those that hold in
// some of its states and fail in others), and whether one fails in every
// state (the region is then empty).
func cutAtoms(lo, hi []int, atoms []symbolic.Atom) (cut []symbolic.Atom, empty bool) {
	for _, a := range atoms {
		all, none := atomOnBox(a, lo, hi)
		switch {
		case none:
			return nil, true
		case !all:
			cut = append(cut, a)
		}
	}
	return cut, false
}

// disjoint reports whether some atom fails in every state of lo..hi: no
// state of the box is in the region.
func disjoint(lo, hi []int, atoms []symbolic.Atom) bool {
	for _, a := range atoms {
		if _, none := atomOnBox(a, lo, hi); none {
			return true
		}
	}
	return false
}

// atomTerms encodes the atoms over the integer state terms.
func atomTerms(x *smt.Context, state []smt.Term, atoms []symbolic.Atom) []smt.Term {
	var out []smt.Term
	for _, a := range atoms {
		var sum []smt.Term
		for _, t := range a.Form.Terms() {
			sum = append(sum, x.MulK(int64(t.Coef), state[t.Var]))
		}
		lhs := x.Add(sum...)
		if a.Upper {
			out = append(out, x.Le(lhs, x.Int(int64(a.K))))
		} else {
			out = append(out, x.Ge(lhs, x.Int(int64(a.K))))
		}
	}
	return out
}

// regionEnumerate is the largest box whose states regionPoint scans
// rather than asking Z3.
const regionEnumerate = 1 << 16

// regionPoint returns a state of the box lo..hi that satisfies the atoms,
// or nil when there is none: by scanning a small box, else by the real
// relaxation's feasibility and then Z3 over the integers.
func regionPoint(ctx context.Context, lo, hi []int, atoms []symbolic.Atom) (symbolic.State, error) {
	holds := func(s symbolic.State) bool {
		for _, a := range atoms {
			if !a.Holds(s) {
				return false
			}
		}
		return true
	}
	if boxSize(lo, hi) <= regionEnumerate {
		var found symbolic.State
		errFound := fmt.Errorf("found")
		err := eachBoxState(ctx, lo, hi, func(s symbolic.State) error {
			if holds(s) {
				found = append(symbolic.State(nil), s...)
				return errFound
			}
			return nil
		})
		if err != nil && err != errFound {
			return nil, err
		}
		return found, nil
	}
	if _, ok := newPolytope(lo, hi, atoms); !ok {
		return nil, nil
	}
	x, err := smt.NewContext()
	if err != nil {
		return nil, err
	}
	defer x.Close()
	sv, err := x.NewSolver()
	if err != nil {
		return nil, err
	}
	state := make([]smt.Term, len(lo))
	var cs []smt.Term
	for v := range lo {
		state[v] = x.IntConst(fmt.Sprintf("x%d", v))
		cs = append(cs, x.Ge(state[v], x.Int(int64(lo[v]))), x.Le(state[v], x.Int(int64(hi[v]))))
	}
	cs = append(cs, atomTerms(x, state, atoms)...)
	if err := x.Err(); err != nil {
		return nil, errorf("encoding a fact's region: %w", err)
	}
	for _, c := range cs {
		if err := sv.Assert(c); err != nil {
			return nil, err
		}
	}
	res, err := sv.CheckContext(ctx)
	if err != nil {
		return nil, err
	}
	switch res {
	case smt.Unsat:
		return nil, nil
	case smt.Unknown:
		if ctx.Err() == nil {
			return nil, undecided(ctx, "policy fact", sv.ReasonUnknown())
		}
		return nil, errorf("policy fact not re-checked: Z3 gave no answer on a point of the fact's region (%s)", sv.ReasonUnknown())
	}
	vals := make([]int64, len(state))
	if err := sv.Eval(state, vals); err != nil {
		return nil, err
	}
	s := make(symbolic.State, len(vals))
	for v, k := range vals {
		s[v] = int(k)
	}
	if !inBox(s, lo, hi) || !holds(s) {
		return nil, errorf("Z3's point %v of a fact's region is not in it; this is a bug of the fact checker", s)
	}
	return s, nil
}
