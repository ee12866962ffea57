package ic3

// Concrete answers to PolIC3's state questions.
//
// Some of the questions PolIC3 asks Z3 are about the states of a box
// alone, not about transitions into a frame: does the box meet the bad
// region (meetsBad), which labels are applicable throughout it
// (sureLabels). Their answers never change during a run, and on a box of
// few states the explicit semantics answers them exactly by evaluating
// each state, for less than one SMT call costs: the answers are the same
// (the explicit engine is the ground truth that every counterexample is
// replayed in), only cheaper. The bad region's answer is also cached per
// box, since cells and candidate boxes come back.
//
// Questions about transitions (APFT) are refuted concretely where a state
// of the box has a real policy step into the frame (blocks, propagate,
// refuted); a positive answer, which needs the certifier's policy facts,
// always comes from SMT and the certifier.

import (
	"errors"
	"slices"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// smallBox is the number of states up to which a box's state questions
// are answered by evaluating its states (a few microseconds each) rather
// than by an SMT call (0.1-0.5 ms on the bench/polic3 models).
const smallBox = 64

// states returns the states of b (those of its bounding box where its
// linear atoms hold), or false when its bounding box has more than limit
// states.
func (r *run) states(b box, limit int) ([]symbolic.State, bool) {
	lo, hi := r.bounds(b)
	n := 1
	for i := range lo {
		if lo[i] > hi[i] {
			return nil, true // empty
		}
		w := hi[i] - lo[i] + 1
		if w > limit || n*w > limit {
			return nil, false
		}
		n *= w
	}
	out := make([]symbolic.State, 0, n)
	s := slices.Clone(symbolic.State(lo))
	for {
		if b.holds(s) {
			out = append(out, append(symbolic.State(nil), s...))
		}
		i := 0
		for ; i < len(s); i++ {
			if s[i] < hi[i] {
				s[i]++
				break
			}
			s[i] = lo[i]
		}
		if i == len(s) {
			return out, true
		}
	}
}

// exactBad reports whether t is in the solver's bad region: unsafe, or
// not terminal with an outcome of some command (any label) leaving a
// variable's range. known is false when evaluating an outcome fails for
// another reason (a probability out of range), which the solver's bad
// region does not count: the caller then asks SMT.
func (r *run) exactBad(t symbolic.State) (bad, known bool) {
	g, m := r.learned.g, r.m
	switch g.Status(t) {
	case explicit.Unsafe:
		return true, true
	case explicit.Goal:
		return false, true
	}
	for c := range m.Commands {
		if !g.Guard(t, c) {
			continue
		}
		for o := range m.Commands[c].Outcomes {
			if _, err := g.Apply(t, c, o); err != nil {
				var re *explicit.RangeError
				if !errors.As(err, &re) {
					return false, false
				}
				return true, true
			}
		}
	}
	return false, true
}

// badEntry is a cached answer of meetsBad.
type badEntry struct {
	hit bool
	w   symbolic.State
}

// meetsBadConcrete answers meetsBad for a learned policy from the cache
// or, on a small box, by evaluating its states; ok is false when SMT must
// answer.
func (r *run) meetsBadConcrete(b box, key string) (hit bool, w symbolic.State, ok bool) {
	if e, found := r.learned.bad[key]; found {
		return e.hit, e.w, true
	}
	ss, small := r.states(b, smallBox)
	if !small {
		return false, nil, false
	}
	for _, s := range ss {
		bad, known := r.exactBad(s)
		if !known {
			return false, nil, false
		}
		if bad {
			return true, s, true
		}
	}
	return false, nil, true
}

// sureConcrete returns the labels applicable in every state of a small
// box b (every label when b is empty), or false when b is not small.
func (r *run) sureConcrete(b box) ([]symbolic.LabelID, bool) {
	ss, small := r.states(b, smallBox)
	if !small {
		return nil, false
	}
	l := r.learned
	all := make([]bool, len(r.m.Labels))
	for i := range all {
		all[i] = true
	}
	for _, s := range ss {
		l.g.Applicable(s, &l.x)
		for i := range all {
			all[i] = all[i] && l.x.App[i]
		}
	}
	var sure []symbolic.LabelID
	for i, a := range all {
		if a {
			sure = append(sure, symbolic.LabelID(i))
		}
	}
	return sure, true
}

// stepsOut reports whether some state of the small box b has a real step
// under the policy's label into F_j (outside b when rel): then APFT(b,
// F_j) finds a transition too (a sound certifier never excludes a real
// one), and the SMT call is saved. False when there is none or b is not
// small.
func (r *run) stepsOut(b box, j int, rel bool) bool {
	ss, small := r.states(b, smallBox)
	if !small {
		return false
	}
	var c box
	if rel {
		c = b
	}
	for _, s := range ss {
		if r.policyStep(s, c, j) != nil {
			r.lastWitness = s
			return true
		}
	}
	return false
}
