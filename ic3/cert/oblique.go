package cert

// Ensembles whose splits read inputs over several variables.
//
// An input such as (d - v - 2) / N is Eval(s) = round64((n0 + X(s)) / L),
// with X = sum n_j x_j an integer form over the state and L the least
// common denominator of the input's coefficients (symbolic.Affine.Eval
// rounds the exact rational value once). Rounding is monotone, so the
// split "input < T" holds exactly for the states whose X lies below the
// least integer K with !(round64((n0 + K) / L) < T): the split is the
// linear atom X <= K - 1, and its other side X >= K. K is found by a
// binary search over X's range on the box, each value computed exactly
// with math/big. A leaf's region is then a box with linear atoms, and
// the leaf search of leafRegions goes on as for boxes: a part of the box
// is dropped when an atom fails on all of it (disjoint) or the real
// relaxation of its atoms, the fact's among them, is empty (the exact
// simplex of simplex.go), and a cell of leaf combinations where the
// label may be chosen fails the fact only at an integer point of its
// region (regionPoint), which evaluation then confirms. Without this, the
// box was enumerated state by state, up to MaxCells states: braking_trees
// at N = 10^6 has 10^12.

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"vigil/symbolic"
)

// obliqueInput is an input over several variables as an integer form:
// the input is round64((n0 + form) / l).
type obliqueInput struct {
	form  *symbolic.Form
	n0, l *big.Int
}

// newOblique writes input a as an integer form, or reports false when a
// coefficient does not fit an int or the form's values over m's ranges
// could overflow (symbolic.Form.Fits).
func newOblique(m *symbolic.Model, a *symbolic.Affine) (*obliqueInput, bool) {
	l := big.NewInt(1)
	lcm := func(d int64) {
		if d == 0 {
			return
		}
		bd := new(big.Int).Abs(big.NewInt(d))
		g := new(big.Int).GCD(nil, nil, l, bd)
		l.Mul(l, bd.Quo(bd, g))
	}
	lcm(a.Const.Den)
	for _, t := range a.Terms {
		lcm(t.Coef.Den)
	}
	scale := func(r symbolic.Rat) *big.Int {
		if r.Den == 0 {
			return new(big.Int)
		}
		x := new(big.Int).Mul(big.NewInt(r.Num), l)
		return x.Quo(x, big.NewInt(r.Den))
	}
	coef := map[symbolic.VarID]*big.Int{}
	for _, t := range a.Terms {
		c := scale(t.Coef)
		if old := coef[t.Var]; old != nil {
			c.Add(c, old)
		}
		coef[t.Var] = c
	}
	var ts []symbolic.Term
	for v, c := range coef {
		if c.Sign() == 0 {
			continue
		}
		if !c.IsInt64() || c.Int64() != int64(int(c.Int64())) {
			return nil, false
		}
		ts = append(ts, symbolic.Term{Coef: int(c.Int64()), Var: v})
	}
	f := symbolic.NewForm(ts)
	if f == nil || !f.Fits(m) {
		return nil, false
	}
	return &obliqueInput{form: f, n0: scale(a.Const), l: l}, true
}

// below reports whether the input is below t where the form's value is x.
func (o *obliqueInput) below(x int, t float64) bool {
	v, _ := new(big.Rat).SetFrac(new(big.Int).Add(o.n0, big.NewInt(int64(x))), o.l).Float64()
	return v < t
}

// cut returns the least form value K in flo..fhi with the input not
// below t (fhi + 1 when there is none): the split goes left exactly
// where the form is at most K - 1.
func (o *obliqueInput) cut(flo, fhi int, t float64) int {
	lo, hi := flo, fhi+1
	for lo < hi {
		mid := lo + (hi-lo)/2
		if !o.below(mid, t) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// ensembleOblique decides the fact for an ensemble with a split on an
// input over several variables (see above). When such an input has no
// integer form that fits, the box's states are enumerated, up to
// MaxCells, as before.
func (q *question) ensembleOblique(ctx context.Context, p symbolic.Params, lo, hi []int) error {
	e, inputs := p.Ensemble, p.Decl.Inputs
	sps := make([]*splitter, len(inputs))
	obs := make([]*obliqueInput, len(inputs))
	for ti := range e.Trees {
		for _, n := range e.Trees[ti].Nodes {
			if n.Feature < 0 || sps[n.Feature] != nil || obs[n.Feature] != nil {
				continue
			}
			if sp, ok := newSplitter(&inputs[n.Feature], len(q.m.Vars)); ok {
				sps[n.Feature] = sp
				continue
			}
			o, ok := newOblique(q.m, &inputs[n.Feature])
			if !ok {
				return q.enumerate(ctx, lo, hi, fmt.Sprintf("input %d of policy %s reads several variables with coefficients too large for an exact linear form", n.Feature+1, p.Decl.Name))
			}
			obs[n.Feature] = o
		}
	}
	return q.leafCells(ctx, p, sps, obs, lo, hi)
}

// feasible reports whether the box lo..hi with the fact's atoms and
// extra may hold a state: no atom fails on the whole box, and the real
// relaxation has a point (sound: false only when no integer state is in
// the region). extra holds at most one bound per form and side
// (joinAtoms). Over one form alone the relaxation's values of the form
// are an interval, so the test is the form's bounds against its range
// on the box; with several forms it is the exact simplex.
func (q *question) feasible(lo, hi []int, extra []symbolic.Atom) bool {
	if disjoint(lo, hi, q.atoms) || disjoint(lo, hi, extra) {
		return false
	}
	if len(extra) == 0 {
		return true // Check tested the box with the fact's atoms
	}
	all, ok := joinAtoms(q.atoms, extra)
	if !ok {
		return false
	}
	if f := all[0].Form; len(all) <= 2 && all[len(all)-1].Form == f {
		flo, fhi := f.RangeIn(lo, hi)
		for _, a := range all {
			if a.Upper {
				fhi = min(fhi, a.K)
			} else {
				flo = max(flo, a.K)
			}
		}
		return flo <= fhi
	}
	_, ok = newPolytope(lo, hi, all)
	return ok
}

// joinAtoms returns the atoms of a and b with only the tightest bound
// per form and side (forms are interned: one pointer per form), sorted
// by form; ok is false when two bounds of a form contradict each other.
func joinAtoms(a, b []symbolic.Atom) (out []symbolic.Atom, ok bool) {
	add := func(x symbolic.Atom) {
		for i := range out {
			if out[i].Form == x.Form && out[i].Upper == x.Upper {
				if x.Upper && x.K < out[i].K || !x.Upper && x.K > out[i].K {
					out[i].K = x.K
				}
				return
			}
		}
		out = append(out, x)
	}
	for _, x := range a {
		add(x)
	}
	for _, x := range b {
		add(x)
	}
	slices.SortFunc(out, func(x, y symbolic.Atom) int {
		if c := strings.Compare(x.Form.Key(), y.Form.Key()); c != 0 {
			return c
		}
		if x.Upper == y.Upper {
			return 0
		}
		if x.Upper {
			return 1
		}
		return -1
	})
	for i := 0; i+1 < len(out); i++ {
		if x, y := out[i], out[i+1]; x.Form == y.Form && !x.Upper && y.Upper && x.K > y.K {
			return nil, false
		}
	}
	return out, true
}

// leafRegions returns the regions of the box lo..hi that reach each
// leaf of t, counting them in *total against cellLimit; parts of the box
// that no state of the fact's region lies in are skipped. obs is nil
// when no split reads an input over several variables; the regions then
// have no atoms.
func (q *question) leafRegions(t *symbolic.Tree, sps []*splitter, obs []*obliqueInput, lo, hi []int, total *int) ([]leafRegion, error) {
	var regs []leafRegion
	var walk func(i int, lo, hi []int, atoms []symbolic.Atom) error
	walk = func(i int, lo, hi []int, atoms []symbolic.Atom) error {
		if !q.feasible(lo, hi, atoms) {
			return nil
		}
		n := &t.Nodes[i]
		if n.Feature < 0 {
			if *total++; *total > cellLimit {
				return errTooManyRegions
			}
			regs = append(regs, leafRegion{lo: lo, hi: hi, atoms: atoms, leaf: n.Leaf})
			return nil
		}
		if o := obliqueAt(obs, n.Feature); o != nil {
			flo, fhi := o.form.RangeIn(lo, hi)
			k := o.cut(flo, fhi, n.Threshold)
			if k > flo {
				left, ok := joinAtoms(atoms, []symbolic.Atom{{Form: o.form, Upper: true, K: k - 1}})
				if k > fhi {
					left, ok = atoms, true // the whole box goes left
				}
				if ok {
					if err := walk(n.Left, lo, hi, left); err != nil {
						return err
					}
				}
			}
			if k <= fhi {
				right, ok := joinAtoms(atoms, []symbolic.Atom{{Form: o.form, K: k}})
				if k <= flo {
					right, ok = atoms, true
				}
				if ok {
					return walk(n.Right, lo, hi, right)
				}
			}
			return nil
		}
		sp := sps[n.Feature]
		if sp.v < 0 {
			if sp.konst < n.Threshold {
				return walk(n.Left, lo, hi, atoms)
			}
			return walk(n.Right, lo, hi, atoms)
		}
		left, right, err := sp.split(lo[sp.v], hi[sp.v], n.Threshold)
		if err != nil {
			return err
		}
		for _, side := range []struct {
			child int
			vals  []valueSpan
		}{{n.Left, left}, {n.Right, right}} {
			for _, sv := range side.vals {
				l, h := append([]int(nil), lo...), append([]int(nil), hi...)
				l[sp.v], h[sp.v] = sv.lo, sv.hi
				if err := walk(side.child, l, h, atoms); err != nil {
					return err
				}
			}
		}
		return nil
	}
	err := walk(0, lo, hi, nil)
	return regs, err
}

// obliqueAt is obs[i], nil when obs is (no input is oblique).
func obliqueAt(obs []*obliqueInput, i int) *obliqueInput {
	if obs == nil {
		return nil
	}
	return obs[i]
}
