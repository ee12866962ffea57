package trees

// The decision query over a region that is not a box
// (symbolic.RegionCertifiable): the integer states of a box that satisfy
// linear atoms.
//
// Over the ensemble on state variables (Policy.varEns) the search's cells
// are integer intervals of the variables, so each search state's box is a
// box of states. stateRegion shrinks it to the atoms' consequences
// (symbolic.AtomRegion.Tighten) and drops it when no state satisfies
// them; a box it keeps may still hold none, which only costs time. The
// representative point of a state must satisfy the atoms to count as a
// candidate: when it does not, a state of the region in the box is looked
// for (AtomRegion.Find). A complete state (every tree constant on its box)
// is decided by any state of the region in it; when the search for one
// runs out of budget the answer is Unknown, never Proved. The bounds are
// those of the box, which holds the region: Proved stays sound.
//
// The input-space fallback (excludesBySplitting) drops the state boxes
// that cannot meet the atoms, narrows the input box of an input over
// several variables to the bounds that atoms of a proportional form put
// on it (inputBounds, below), and enumerates the states of the region in
// small boxes.

import (
	"fmt"
	"math"
	"math/big"

	"vigil/symbolic"
)

// stateRegion restricts a search over the state-variable ensemble to the
// states that satisfy reg.
type stateRegion struct {
	reg    *symbolic.AtomRegion
	lo, hi []int
	st     symbolic.State
	// unsure records a complete search state whose box may hold a state
	// of the region that Find did not settle in its budget.
	unsure bool
}

// findBudget and findNear are the node budgets of AtomRegion.Find for a
// complete search state (which it decides) and for a candidate point of
// an incomplete one.
const (
	findBudget = 1 << 12
	findNear   = 32
)

func newStateRegion(reg *symbolic.AtomRegion, nvars int) *stateRegion {
	return &stateRegion{reg: reg, lo: make([]int, nvars), hi: make([]int, nvars), st: make(symbolic.State, nvars)}
}

// intBox writes the integer states of n's cell box (within the search's
// box) into r.lo, r.hi; false when it holds none.
func (r *stateRegion) intBox(s *searcher, n *node) bool {
	for f := 0; f < s.nf; f++ {
		lo, hi := s.lo[f], s.hi[f]
		cuts := s.e.cuts[f]
		if c := n.box[2*f]; c > 0 {
			lo = max(lo, cuts[c-1])
		}
		if c := int(n.box[2*f+1]); c < len(cuts) {
			hi = min(hi, math.Nextafter(cuts[c], math.Inf(-1)))
		}
		lo, hi = math.Ceil(lo), math.Floor(hi)
		if !(lo <= hi) {
			return false
		}
		r.lo[f], r.hi[f] = int(lo), int(hi)
	}
	return true
}

// admit shrinks n's cell box to the cells that hold the atoms'
// consequences and reports whether any is left.
func (r *stateRegion) admit(s *searcher, n *node) bool {
	if !r.intBox(s, n) || !r.reg.Tighten(r.lo, r.hi) {
		return false
	}
	for f := 0; f < s.nf; f++ {
		n.box[2*f] = int32(s.e.cellOf(f, float64(r.lo[f])))
		n.box[2*f+1] = int32(s.e.cellOf(f, float64(r.hi[f])))
	}
	return true
}

// pick moves the representative point s.x of n into the region when it
// is not there: candidate reports that s.x is a state of the region,
// empty that n's box holds none. A complete state whose box the search
// for one did not settle makes the answer unsure.
func (r *stateRegion) pick(s *searcher, n *node) (candidate, empty bool) {
	for f := range r.st {
		r.st[f] = int(s.x[f])
	}
	if r.reg.Holds(r.st) {
		return true, false
	}
	if !r.intBox(s, n) {
		return false, true
	}
	budget := findNear
	if n.complete {
		budget = findBudget
	}
	st, res := r.reg.Find(r.lo, r.hi, r.st, budget)
	switch res {
	case symbolic.FindFound:
		for f := range st {
			s.x[f] = float64(st[f])
		}
		return true, false
	case symbolic.FindEmpty:
		return false, true
	}
	if n.complete {
		r.unsure = true
	}
	return false, false
}

// ExcludesWithin is Excludes over the states of the box lo..hi that
// satisfy every atom: Proved if a is never chosen there, Refuted with a
// state of the region where a beats every sure output, Unknown when the
// budget runs out. With no atoms it is Excludes. An atom with a nil form
// or a variable out of range is an error. WitnessLo..WitnessHi bound
// states with the witness's scores, which need not satisfy the atoms.
func (p *Policy) ExcludesWithin(lo, hi []int, atoms []symbolic.Atom, a int, sure []int, opt Options) (StateResult, error) {
	if len(atoms) == 0 {
		return p.Excludes(lo, hi, a, sure, opt)
	}
	reg, err := symbolic.NewAtomRegion(len(p.vars), atoms)
	if err != nil {
		return StateResult{}, fmt.Errorf("trees: policy %s: %w", p.Decl.Name, err)
	}
	if err := p.checkBox(lo, hi); err != nil {
		return StateResult{}, err
	}
	opt = p.withStop(opt)
	lo, hi = append([]int(nil), lo...), append([]int(nil), hi...)
	if !reg.Tighten(lo, hi) {
		return StateResult{Verdict: Proved}, nil // no state satisfies the atoms
	}
	if p.varEns == nil || !p.inRanges(lo, hi) {
		return p.excludesBySplitting(lo, hi, a, sure, opt, reg, p.inputBounds(atoms))
	}
	return p.excludesLifted(lo, hi, a, sure, opt, newStateRegion(reg, len(p.vars)))
}

// ExcludeWithin is ExcludesWithin with labels and the default Options,
// as symbolic.RegionCertifiable asks it.
func (p *Policy) ExcludeWithin(lo, hi []int, atoms []symbolic.Atom, a symbolic.LabelID, sure []symbolic.LabelID) (symbolic.Exclusion, symbolic.State, error) {
	sure = p.Decl.Rivals(sure) // argmax all: a must beat every output
	if len(atoms) == 0 {
		return p.Exclude(lo, hi, a, sure)
	}
	if _, err := symbolic.NewAtomRegion(len(p.vars), atoms); err != nil {
		return symbolic.Undecided, nil, fmt.Errorf("trees: policy %s: %w", p.Decl.Name, err)
	}
	ai := p.OutputIndex(a)
	if ai < 0 {
		return symbolic.Excluded, nil, nil // never an output: never chosen
	}
	r, err := p.ExcludesWithin(lo, hi, atoms, ai, p.sureIndices(sure), Options{})
	return r.exclusion(err)
}

var _ symbolic.RegionCertifiable = (*Policy)(nil)

// Inputs over several variables (the input-space fallback over a region).
//
// An input that reads several variables, such as (d - v - 2) / N, is
// Eval(s) = round64(X(s) / L) with X = n0 + sum n_j x_j an integer form
// (L the least common denominator of its coefficients). Over a box its
// range is that of the box's corners (InputBox), which for a region like
// d - v <= 1 spans the whole line of the input: every box the fallback
// splits would straddle the threshold, and the split would go on down to
// single states. An atom of the region whose form is a multiple r of X's
// variable part bounds X (X <= r K for r > 0 and the atom F <= K), and
// rounding is monotone, so the input is bounded by its values at the
// bound: inputBounds narrows the input box to them.

// inputBound is the part of the region's atoms that bounds one input: X
// within xlo..xhi (each nil when no atom bounds that side).
type inputBound struct {
	n0, l    *big.Int // input = round64((n0 + sum n_j x_j) / l)
	xlo, xhi *big.Int
}

// scaledForm returns input a as n0 + sum n_j x_j over the least common
// denominator l (terms merged per variable, zero coefficients dropped).
func scaledForm(a *symbolic.Affine) (n map[symbolic.VarID]*big.Int, n0, l *big.Int) {
	l = big.NewInt(1)
	lcm := func(d int64) {
		if d == 0 {
			return
		}
		bd := big.NewInt(d)
		g := new(big.Int).GCD(nil, nil, l, bd)
		l.Mul(l, bd.Quo(bd, g))
		l.Abs(l)
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
	n0 = scale(a.Const)
	n = map[symbolic.VarID]*big.Int{}
	for _, t := range a.Terms {
		c := scale(t.Coef)
		if old := n[t.Var]; old != nil {
			c.Add(c, old)
		}
		n[t.Var] = c
	}
	for v, c := range n {
		if c.Sign() == 0 {
			delete(n, v)
		}
	}
	return n, n0, l
}

// ratio returns r with n = r * f term by term (same variables), or nil.
func ratio(n map[symbolic.VarID]*big.Int, f *symbolic.Form) *big.Rat {
	ts := f.Terms()
	if len(ts) != len(n) || len(ts) == 0 {
		return nil
	}
	var r *big.Rat
	for _, t := range ts {
		c := n[t.Var]
		if c == nil {
			return nil
		}
		q := new(big.Rat).SetFrac(c, big.NewInt(int64(t.Coef)))
		if r == nil {
			r = q
		} else if r.Cmp(q) != 0 {
			return nil
		}
	}
	return r
}

// inputBounds returns, per input of p that reads several variables, the
// bounds that atoms put on its integer form (nil entries elsewhere); nil
// when no atom bounds any input.
func (p *Policy) inputBounds(atoms []symbolic.Atom) []*inputBound {
	var out []*inputBound
	for i := range p.Decl.Inputs {
		n, n0, l := scaledForm(&p.Decl.Inputs[i])
		if len(n) < 2 {
			continue
		}
		var b *inputBound
		for _, at := range atoms {
			if at.Form == nil {
				continue
			}
			r := ratio(n, at.Form)
			if r == nil {
				continue
			}
			// X = r F: F <= K gives X <= r K for r > 0, X >= r K for r < 0.
			x := new(big.Rat).Mul(r, new(big.Rat).SetInt64(int64(at.K)))
			upper := at.Upper == (r.Sign() > 0)
			if b == nil {
				b = &inputBound{n0: n0, l: l}
			}
			if upper {
				k := floorRat(x)
				if b.xhi == nil || k.Cmp(b.xhi) < 0 {
					b.xhi = k
				}
			} else {
				k := ceilRat(x)
				if b.xlo == nil || k.Cmp(b.xlo) > 0 {
					b.xlo = k
				}
			}
		}
		if b != nil {
			if out == nil {
				out = make([]*inputBound, len(p.Decl.Inputs))
			}
			out[i] = b
		}
	}
	return out
}

// floorRat is the floor of x (Euclidean division by its positive
// denominator).
func floorRat(x *big.Rat) *big.Int { return new(big.Int).Div(x.Num(), x.Denom()) }

// ceilRat is the ceiling of x.
func ceilRat(x *big.Rat) *big.Int {
	q := floorRat(x)
	if !x.IsInt() {
		q.Add(q, big.NewInt(1))
	}
	return q
}

// value is the input at the integer form's value x: round64((n0 + x) / l).
func (b *inputBound) value(x *big.Int) float64 {
	f, _ := new(big.Rat).SetFrac(new(big.Int).Add(b.n0, x), b.l).Float64()
	return f
}

// narrow intersects the input box of a state box with the bounds; false
// when some input's interval becomes empty (no state of the region in
// the box).
func narrow(box Box, bounds []*inputBound) bool {
	for i, b := range bounds {
		if b == nil {
			continue
		}
		if b.xlo != nil {
			box[i].Lo = math.Max(box[i].Lo, b.value(b.xlo))
		}
		if b.xhi != nil {
			box[i].Hi = math.Min(box[i].Hi, b.value(b.xhi))
		}
		if !(box[i].Lo <= box[i].Hi) {
			return false
		}
	}
	return true
}
