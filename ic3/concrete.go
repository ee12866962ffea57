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

// statesD returns the states of b that satisfy the disequality invariant
// D (differ.go), or false when there are more than limit of them; without
// D, the states of b (states). The questions that evaluation answers on
// them (meetsBad, stepsOut, APFT) are asked within D anyway: the solver
// asserts D, and the invariant lies in D. On npuzzle a box of 32,768
// states whose cells hold five tiles between them holds 120 states of D.
func (r *run) statesD(b box, limit int) ([]symbolic.State, bool) {
	if r.differ == nil {
		return r.states(b, limit)
	}
	if ss, small := r.states(b, limit); small {
		return ss, true // (the callers skip the states outside D)
	}
	lo, hi := r.bounds(b)
	var out []symbolic.State
	complete := r.differ.eachUpTo(lo, hi, limit, func(s symbolic.State) bool {
		if b.holds(s) {
			out = append(out, slices.Clone(s))
		}
		return true
	})
	return out, complete
}

// exactBad reports whether t is bad for the policy: unsafe, or not
// terminal with an outcome of a command of the label the policy chooses
// there leaving a variable's range (the range error the explicit engine
// reports). A range error of a label the policy does not choose in t is
// none: such a label is never taken there. The solver's bad region
// over-approximates this (a label's range errors count wherever no
// certified fact excludes it, solver.addRangeFact), so an answer by
// evaluation is exact where SMT's may not be. known is false when the
// policy or an outcome cannot be evaluated for another reason (a
// probability out of range), which the solver's bad region does not
// count: the caller then asks SMT.
func (r *run) exactBad(t symbolic.State) (bad, known bool) {
	g, m := r.learned.g, r.m
	switch g.Status(t) {
	case explicit.Unsafe:
		return true, true
	case explicit.Goal:
		return false, true
	}
	a, err := r.choice(t)
	if err != nil {
		return false, false
	}
	if a == symbolic.NoLabel {
		return false, true
	}
	for c := range m.Commands {
		if m.Commands[c].Label != a || !g.Guard(t, c) {
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

// erring returns the labels with a command enabled in t (not terminal)
// that has an outcome leaving a variable's range: the labels whose range
// errors the solver's bad region counts in t unless a fact excludes them.
func (r *run) erring(t symbolic.State) []symbolic.LabelID {
	g, m := r.learned.g, r.m
	if g.Status(t) != explicit.Open {
		return nil
	}
	var out []symbolic.LabelID
	for c := range m.Commands {
		lab := m.Commands[c].Label
		if slices.Contains(out, lab) || !g.Guard(t, c) {
			continue
		}
		for o := range m.Commands[c].Outcomes {
			if _, err := g.Apply(t, c, o); err != nil {
				out = append(out, lab)
				break
			}
		}
	}
	return out
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
	ss, small := r.statesD(b, smallBox)
	if !small {
		return false, nil, false
	}
	for _, s := range ss {
		if !r.inD(s) {
			continue // the invariant lies in D
		}
		bad, known := r.exactBad(s)
		if !known {
			return false, nil, false
		}
		if bad {
			r.evaluated(key, true, s)
			return true, s, true
		}
	}
	r.evaluated(key, false, nil)
	return false, nil, true
}

// evaluated caches the bad region's answer for the box of key, found by
// evaluation, and counts it.
func (r *run) evaluated(key string, hit bool, w symbolic.State) {
	r.learned.bad[key] = badEntry{hit, w}
	r.stats.Evaluated++
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
	ss, small := r.statesD(b, smallBox)
	if !small {
		return false
	}
	var c box
	if rel {
		c = b
	}
	for _, s := range ss {
		if r.inD(s) && r.policyStep(s, c, j) != nil {
			r.lastWitness = s
			return true
		}
	}
	return false
}

// apftSmall is the number of states up to which APFT on a box is decided
// by evaluating the policy on each state (apftConcrete): about the policy
// evaluations of one certifier call. Measured on bench/polic3 (whole
// process, against 16): transport tr2 64x64 0.56 -> 0.16 s, beluga be1
// 64x64 8.6 -> 2.3 s, blocks bl8 trees 2.2 -> 1.4 s, npuzzle 2x3 64x64
// unknown at 10 s -> safe in 6 s; 1024 gained another 10-30% on some,
// at a growing cost for larger networks, so it stays at 256.
const apftSmall = 256

// apftConcrete decides APFT(b, F_j) (∧ ¬b when rel) on a box of at most
// apftSmall states by evaluation: the policy's label in each state, and
// each successor under it, as the explicit engine computes them. The
// answer is exact where SMT with the certifier is an over-approximation
// (a label the certifier cannot exclude counts as possible), so it blocks
// what SMT would and sometimes more. The policy facts a safe answer needs
// are certified afterwards for the whole invariant by certifyInvariant,
// with SMT and the certifier, and checked by ic3/cert as always. ok is
// false when b is larger or a state cannot be evaluated (SMT answers).
// On "no transition" the box itself is the core (r.lastCore), and the
// solver's coreLevel is the lowest level among the clauses that exclude
// the successors (see jump).
func (r *run) apftConcrete(b box, j int, rel bool) (possible, ok bool) {
	ss, small := r.statesD(b, apftSmall)
	if !small {
		return false, false
	}
	l := r.learned
	g, m := l.g, r.m
	low := noLevel
	for _, s := range ss {
		if g.Status(s) != explicit.Open || !r.inD(s) {
			continue
		}
		a, err := r.choice(s)
		if err != nil {
			return false, false
		}
		if a == symbolic.NoLabel {
			continue
		}
		for c := range m.Commands {
			if m.Commands[c].Label != a || !g.Guard(s, c) {
				continue
			}
			for o := range m.Commands[c].Outcomes {
				u, err := g.Apply(s, c, o)
				if err != nil {
					return false, false // a range error: b meets the bad region
				}
				if rel && b.holds(u) {
					continue
				}
				if j == 0 {
					bad, known := r.exactBad(u)
					if !known {
						return false, false
					}
					if bad {
						r.lastWitness = s
						return true, true
					}
					continue
				}
				L := r.levelOf(u)
				if L < j {
					r.lastWitness = s
					return true, true
				}
				low = min(low, L)
			}
		}
	}
	r.lastCore = slices.Clone(b).sorted()
	r.sv.coreLevel = low
	return false, true
}

// factsConcrete computes the policy facts of the invariant's box b (index
// i; the invariant is F_k's complement, the boxes of levels ≥ k) when b has
// at most apftSmall states, without SMT: in each state the policy's label
// must keep every successor in the invariant (else ok is false), and each
// other applicable label with a successor outside the invariant, or with
// an outcome that leaves a variable's range, needs a certified exclusion
// there, on the whole box (with the labels applicable
// throughout b as sure) or, where that fails, on the bounding box of the
// states that need it, or else on each such state alone (with the labels
// applicable there; on a box of more than smallBox states only for up to
// pointFacts states, else SMT computes the facts). These are the facts
// ic3/cert checks against the policy, and its consecution checks that they
// cover every step out of the invariant. done is false when b is larger or a state cannot be
// evaluated: APFT with SMT computes the facts then.
//
// The limit is APFT's own (apftConcrete): with the states' levels and
// decisions remembered (memo.go), evaluation costs a fraction of the SMT
// path's search for witnesses and sub-boxes. On be1_64x64_safe of
// bench/polic3, whose 37 invariant boxes of 65-256 states took 0.37 s
// that way (the limit was smallBox, 64), the whole process went from 1.51
// to 1.13 s, with 711 facts instead of 563.
func (r *run) factsConcrete(b box, i, k int) (facts []Fact, ok, done bool, err error) {
	ss, small := r.statesD(b, apftSmall)
	if !small {
		return nil, false, false, nil
	}
	l := r.learned
	g, m := l.g, r.m
	need := make([][]symbolic.State, len(m.Labels)) // per label: states it must not be chosen in
	for _, s := range ss {
		if g.Status(s) != explicit.Open || !r.inD(s) {
			continue // outside D: outside the invariant
		}
		a, err := r.choice(s)
		if err != nil {
			return nil, false, false, nil
		}
		// labels with a step out of the invariant or a range error (which
		// the certificate's range-error checks count, like a step out,
		// unless a fact excludes the label)
		out := make([]bool, len(m.Labels))
		for c := range m.Commands {
			lab := m.Commands[c].Label
			if out[lab] || !g.Guard(s, c) {
				continue
			}
			for o := range m.Commands[c].Outcomes {
				u, err := g.Apply(s, c, o)
				if err != nil {
					var re *explicit.RangeError
					if !errors.As(err, &re) {
						return nil, false, false, nil
					}
					out[lab] = true
					break
				}
				if !r.blockedAt(u, k) {
					out[lab] = true
					break
				}
			}
		}
		for lab, o := range out {
			switch {
			case !o:
			case symbolic.LabelID(lab) == a:
				r.lastWitness = s
				return nil, false, true, nil // a real step out: not an invariant
			default:
				need[lab] = append(need[lab], s)
			}
		}
	}
	var sure []symbolic.LabelID
	for a, states := range need {
		if len(states) == 0 {
			continue
		}
		if sure == nil {
			if sure, err = r.factSure(b); err != nil {
				return nil, false, true, err
			}
		}
		ok, _, err := r.excluded(b, symbolic.LabelID(a), sure)
		if err != nil {
			return nil, false, true, err
		}
		if ok {
			facts = append(facts, Fact{Box: i, Label: symbolic.LabelID(a), Sure: sure, Differ: r.lastDiffer})
			continue
		}
		// The bounding box of the states that need the exclusion, then
		// each of them alone: fewer facts make a cheaper certificate.
		if len(states) > 1 {
			lo, hi := slices.Clone(states[0]), slices.Clone(states[0])
			for _, s := range states[1:] {
				for v := range s {
					lo[v], hi[v] = min(lo[v], s[v]), max(hi[v], s[v])
				}
			}
			sub := r.subRegion(b, lo, hi)
			ss, err := r.factSure(sub)
			if err != nil {
				return nil, false, true, err
			}
			ok, _, err := r.excluded(sub, symbolic.LabelID(a), ss)
			if err != nil {
				return nil, false, true, err
			}
			if ok {
				r.stats.SubBoxes++
				facts = append(facts, Fact{Box: i, Label: symbolic.LabelID(a), Sure: ss, Within: sub, Differ: r.lastDiffer})
				continue
			}
		}
		if len(ss) > smallBox && len(states) > pointFacts {
			// One fact per state for many states makes a large
			// certificate: APFT's sub-box search finds fewer, larger
			// regions.
			return nil, false, false, nil
		}
		for _, s := range states {
			p := point(r.m, s)
			ps, _ := r.sureConcrete(p)
			ok, _, err := r.excluded(p, symbolic.LabelID(a), ps)
			if err != nil || !ok {
				return nil, false, true, err
			}
			r.stats.SubBoxes++
			facts = append(facts, Fact{Box: i, Label: symbolic.LabelID(a), Sure: ps, Within: p, Differ: r.lastDiffer})
		}
	}
	return facts, true, true, nil
}

// factSure returns the labels applicable throughout b for factsConcrete:
// by evaluation on a box of at most smallBox states, else none, or, within
// a disequality invariant, by SMT (sureLabels), where b may be small only
// within D while the sure labels must hold on the whole box for a fact
// the certifier proves there. (SMT for the boxes of 65-256 states without
// D too: be1_32x32_safe 1,616 -> 1,734 SMT calls, 869 -> 785 facts, no CPU
// gained.)
func (r *run) factSure(b box) ([]symbolic.LabelID, error) {
	if s, small := r.sureConcrete(b); small || r.differ == nil {
		return s, nil
	}
	return r.sureLabels(b)
}

// pointFacts is the number of states of a box of more than smallBox
// states up to which factsConcrete certifies a label's exclusion on each
// state alone, where the whole box and the states' bounding box fail: as
// many facts as a box of smallBox states can need, which factsConcrete
// always took. More go to APFT's sub-box search: on np2x3_trees_safe of
// bench/polic3, 72-216 states per label and box, 2,580 facts in all, 0.5 s
// to check, instead of 141 facts; on be1_64x64_safe, 1-46 states, 711
// facts instead of 563, and 1.26 -> 1.09 s for the whole process.
const pointFacts = smallBox

// fewStarts is the size of the start condition's bounding box up to which
// a learned run enumerates its start states once and answers the start
// queries (a bad start state; a start state in F_N) by evaluation.
const fewStarts = 4096

// concreteStarts returns the start states of a learned run when their
// bounding box has at most fewStarts states and each can be evaluated
// (none is bad for want of a known answer), or false: the start queries
// then go to SMT. bad is the index of the first bad start state, or -1.
func (r *run) concreteStarts() (starts []symbolic.State, bad int, ok bool) {
	bad = -1
	if r.learned == nil {
		return nil, -1, false
	}
	g := r.learned.g
	lo, hi, found := g.StartBounds()
	if !found {
		return nil, -1, false // no start state: SMT says so as before
	}
	n := 1
	for i := range lo {
		if g.Prop == nil || g.Prop.Start == nil {
			break // the initial state alone
		}
		w := hi[i] - lo[i] + 1
		if w <= 0 || w > fewStarts || n*w > fewStarts {
			return nil, -1, false
		}
		n *= w
	}
	err := g.StartsContext(r.sv.ctx, func(s symbolic.State) bool {
		starts = append(starts, slices.Clone(s))
		return true
	})
	if err != nil {
		return nil, -1, false
	}
	for i, s := range starts {
		b, known := r.exactBad(s)
		if !known {
			return nil, -1, false
		}
		if b {
			bad = i
			break
		}
	}
	r.stats.Evaluated++
	return starts, bad, true
}

// startOutside returns a start state in F_N (no clause of a level ≥ N
// excludes it), evaluated on the enumerated starts, or false. The scan
// goes on from the start state found last, round the list, so that
// successive start states come from all over the start region, as Z3's
// models do, not from one corner.
func (r *run) startOutside(starts []symbolic.State) (symbolic.State, bool) {
	r.stats.Evaluated++
	for i := range starts {
		k := (r.nextStart + i) % len(starts)
		if r.levelOf(starts[k]) < r.N {
			r.nextStart = k + 1
			return starts[k], true
		}
	}
	return nil, false
}
