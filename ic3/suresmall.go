package ic3

import (
	"slices"

	"vigil/symbolic"
)

// A policy fact says that label a is never chosen in its region given
// that the labels of Sure are applicable throughout it; the certificate
// checks each sure label's applicability over the region as a check of
// its own, asked together with consecution (ic3/cert). APFT records every
// label applicable throughout the box it certified on (up to seven of
// beluga's eight), though one or two of them beat a in every state of a
// small region: on be2_64x64_safe of bench/polic3 the certificate of
// 9,775 facts held 52,269 sure checks (4,398 of the facts on one state
// each), and they made most of the check's time (24.6 s of Z3).
//
// shrinkSure narrows the Sure of each fact whose region holds at most
// sureStates states to the labels that win against a in them: in each
// state, the label the policy would choose among Sure and a (never a, or
// the fact would be false there). The smaller set is certified again
// (excluded), and kept only when the certifier proves the fact with it;
// a region with one network input is one evaluation. A fact that holds
// within the disequality invariant only keeps its set (its states outside
// D are not evaluated).

// sureStates bounds the states of a fact's region that shrinkSure
// evaluates.
const sureStates = 256

// shrinkSure narrows the sure labels of facts (over the invariant's boxes
// inv) in place, as described above.
func (r *run) shrinkSure(inv []box, facts []Fact) error {
	l := r.learned
	pol := l.pol
	scores := make([]float64, len(pol.Outputs()))
	for i := range facts {
		f := &facts[i]
		if f.Differ || len(f.Sure) <= 1 {
			continue
		}
		region := append(slices.Clone(inv[f.Box]), f.Within...).sorted()
		ss, small := r.states(region, sureStates)
		if !small || len(ss) == 0 {
			continue
		}
		inSure := func(a symbolic.LabelID) bool { return a == f.Label || slices.Contains(f.Sure, a) }
		var win []symbolic.LabelID
		for _, s := range ss {
			w, err := symbolic.Decide(pol, s, inSure, scores)
			if err != nil || w == f.Label || !slices.Contains(f.Sure, w) {
				win = nil
				break
			}
			if !slices.Contains(win, w) {
				win = append(win, w)
			}
		}
		if len(win) == 0 || len(win) >= len(f.Sure) {
			continue
		}
		slices.Sort(win)
		ok, _, err := r.excluded(region, f.Label, win)
		if err != nil {
			return err
		}
		if ok && !r.lastDiffer {
			f.Sure = win
		}
	}
	return nil
}
