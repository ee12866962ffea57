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
// that cannot meet the atoms and enumerates the states of the region in
// small ones.

import (
	"fmt"
	"math"

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
	lo, hi = append([]int(nil), lo...), append([]int(nil), hi...)
	if !reg.Tighten(lo, hi) {
		return StateResult{Verdict: Proved}, nil // no state satisfies the atoms
	}
	if p.varEns == nil {
		return p.excludesBySplitting(lo, hi, a, sure, opt, reg)
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
	if err != nil {
		return symbolic.Undecided, nil, err
	}
	switch r.Verdict {
	case Proved:
		return symbolic.Excluded, nil, nil
	case Refuted:
		return symbolic.Possible, r.Witness, nil
	}
	return symbolic.Undecided, nil, nil
}

var _ symbolic.RegionCertifiable = (*Policy)(nil)
