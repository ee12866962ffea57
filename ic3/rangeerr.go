package ic3

// Range errors under a learned policy.
//
// A range error is the policy's: an outcome of the label the policy
// chooses leaves a variable's range (lang/spec.md). SMT does not know a
// learned policy, so the solver's bad region counts a label's range
// errors wherever no certified fact excludes that label (solver.rfacts):
// an over-approximation of the bad states, exact on concrete states
// (exactBad). Where SMT finds a state of that region that is not bad (its
// erring labels are not the policy's choice there), PolIC3 certifies, as
// for a transition, that an erring label is never chosen over the box it
// asked about, or a sub-box around the state (excludeAround, down to the
// state alone), and takes that region out of the bad region
// (rangeRefine). The facts only shrink the bad region towards the true
// one, so every clause learned against a larger bad region stays valid.
//
// The certificate restates what it needs per invariant box
// (rangeFacts): for each label with a range error somewhere in the box,
// facts whose regions cover those states, which ic3/cert re-checks like
// every fact, and whose safety check counts a label's range errors only
// outside them, as consecution counts its steps.

import (
	"slices"

	"vigil/smt"
	"vigil/symbolic"
)

// maxRangeRefines bounds the regions one question about the bad region
// certifies before it keeps the state it found as bad (sound: a candidate
// box is then not taken, a start or a transition into the bad region
// stays possible).
const maxRangeRefines = 16

// rangeCovered reports whether a range-error fact of label a holds t.
func (r *run) rangeCovered(a symbolic.LabelID, t symbolic.State) bool {
	if int(a) >= len(r.sv.rfacts) {
		return false
	}
	for _, b := range r.sv.rfacts[a] {
		if b.holds(t) {
			return true
		}
	}
	return false
}

// rangeRefine takes w, a state of box b in the solver's bad region that
// is not bad for the policy (exactBad), out of the bad region: for each
// label with a range error in w that no fact excludes there (the policy
// does not choose it in w), it certifies that the label is never chosen
// in b, or else in a sub-box of b around w (excludeAround), and records
// the region (solver.addRangeFact). It reports false when some such label
// could not be certified (the caller keeps w as bad), or when w is bad.
func (r *run) rangeRefine(b box, w symbolic.State) (bool, error) {
	if bad, known := r.exactBad(w); bad || !known {
		return false, nil
	}
	ch, err := r.choice(w)
	if err != nil {
		return false, err
	}
	var sure []symbolic.LabelID
	sureDone := false
	progress := false
	for _, a := range r.erring(w) {
		if a == ch {
			return false, nil // exactBad says otherwise: keep it bad
		}
		if r.rangeCovered(a, w) {
			continue
		}
		if !sureDone {
			if sure, err = r.sureLabels(b); err != nil {
				return false, err
			}
			sureDone = true
		}
		region := b
		ok, v, err := r.excluded(b, a, sure)
		if err != nil {
			return false, err
		}
		if !ok {
			if region, _, ok, err = r.excludeAround(b, w, a, sure, v); err != nil || !ok {
				return false, err
			}
		}
		r.stats.RangeFacts++
		if err := r.sv.addRangeFact(a, slices.Clone(region)); err != nil {
			return false, err
		}
		progress = true
	}
	return progress, nil
}

// rangeFacts adds to facts, for the invariant's box b (index i), the
// policy facts that the certificate's range-error checks need: for each
// label with a range error in some state of b (within the disequality
// invariant) outside the regions of b's facts for that label, an
// exclusion over b or over a sub-box around such a state. ok is false
// when a label cannot be excluded there (the policy may choose it: not an
// invariant of the policy) or the solver answers unknown.
func (r *run) rangeFacts(b box, i int, facts *[]Fact) (ok bool, err error) {
	sv := r.sv
	if err := r.flushRetired(); err != nil {
		return false, err
	}
	if err := sv.ready(); err != nil {
		return false, err
	}
	// One query first: most boxes hold no range error of any label (a
	// guarded model has none anywhere).
	var errs []smt.Term
	for a := range sv.canErr {
		if r.errsSomewhere(symbolic.LabelID(a)) {
			errs = append(errs, sv.rerrCur[a])
		}
	}
	if len(errs) == 0 {
		return true, nil
	}
	res, _, err := sv.checkCur(b, sv.x.Or(errs...), sv.curDiffer)
	if err != nil || res == smt.Unknown {
		return false, err
	}
	if res == smt.Unsat {
		return true, nil
	}
	var sure []symbolic.LabelID
	sureDone := false
	for a := range r.m.Labels {
		a := symbolic.LabelID(a)
		if !r.errsSomewhere(a) {
			continue
		}
		for n := 0; ; n++ {
			if n == subBoxesFinal {
				return false, nil
			}
			res, w, whole, err := r.rangeWitness(b, i, a, *facts)
			if err != nil || res == smt.Unknown {
				return false, err
			}
			if whole || res == smt.Unsat {
				break
			}
			if ch, err := r.choice(w); err != nil || ch == a {
				return false, err // a range error of the policy's own label
			}
			if !sureDone {
				if sure, err = r.sureLabels(b); err != nil {
					return false, err
				}
				sureDone = true
			}
			ok, v, err := r.excluded(b, a, sure)
			if err != nil {
				return false, err
			}
			if ok {
				*facts = append(*facts, Fact{Box: i, Label: a, Sure: sure, Differ: r.lastDiffer})
				continue
			}
			cb, cs, ok, err := r.excludeAround(b, w, a, sure, v)
			if err != nil || !ok {
				return false, err
			}
			differ := r.lastDiffer
			r.stats.SubBoxes++
			*facts = append(*facts, Fact{Box: i, Label: a, Sure: cs, Within: cb, Differ: differ})
		}
	}
	return true, nil
}

// rangeWitness asks for a state of box b (within the disequality
// invariant) where label a has a range error, outside the regions of the
// facts of box i for a; whole reports that one of them covers b.
func (r *run) rangeWitness(b box, i int, a symbolic.LabelID, facts []Fact) (res smt.Result, w symbolic.State, whole bool, err error) {
	sv := r.sv
	x := sv.x
	mark := x.Mark()
	defer x.Release(mark)
	acts := []smt.Term{sv.rerrCur[a], sv.curDiffer}
	for _, f := range facts {
		if f.Box != i || f.Label != a {
			continue
		}
		if len(f.Within) == 0 {
			return smt.Unsat, nil, true, nil
		}
		acts = append(acts, x.Not(sv.st.E.Cube(f.Within, sv.st.E.Cur)))
	}
	res, w, err = sv.checkCur(b, acts...)
	return res, w, false, err
}

// errsSomewhere reports whether label a has a range error in some state
// at all (solver.findErrLabels, asked once per run), so that the
// certificate's range-error facts cost nothing on a model whose guards
// keep every outcome in range.
func (r *run) errsSomewhere(a symbolic.LabelID) bool {
	return int(a) < len(r.sv.errLabels) && r.sv.errLabels[a]
}

// hull returns the bounding box of b's bounding box and the state t: the
// region rangeRefine first tries for a successor t of b's states (a
// label the policy does not choose near b's successors is often not
// chosen over all of them).
func (r *run) hull(b box, t symbolic.State) box {
	lo, hi := r.bounds(b)
	for v := range lo {
		lo[v], hi[v] = min(lo[v], t[v]), max(hi[v], t[v])
	}
	return r.boxOf(lo, hi)
}

// errModel is the number of states up to which the labels with a range
// error somewhere are found by evaluating every state (errLabelsByEvaluation)
// rather than by the solver's SMT checks in a Z3 context of their own.
const errModel = 1 << 14

// errLabelsByEvaluation sets the solver's errLabels (what findErrLabels
// asks Z3) on a model of at most errModel states by evaluating each
// state: a label has a range error somewhere when erring names it in some
// state. An outcome that fails to evaluate for another reason counts as a
// range error too, which only makes the bad region count the label's
// range errors (sv.build's per-label form), never fewer. On the small
// models this spares the Z3 context that findErrLabels makes (2-4 ms of
// a 20 ms PolIC3 run on bench/polic3's tr1).
func (r *run) errLabelsByEvaluation() {
	if !slices.Contains(r.sv.canErr, true) {
		return // findErrLabels answers without a context
	}
	states, small := r.states(nil, errModel)
	if !small {
		return
	}
	errs := make([]bool, len(r.m.Labels))
	for _, t := range states {
		for _, a := range r.erring(t) {
			errs[a] = true
		}
	}
	r.sv.errLabels = errs
}
