package ppa

// Abstract transitions of a learned policy on cubes too large to
// enumerate. The network's SMT encoding is by far the dearest part of a
// query (a 16x16 network over a puzzle cube did not finish in minutes), so
// it is asked last and least:
//
//  1. the successor cubes of label a without the policy (cheap SMT): the
//     candidates;
//  2. per candidate, concrete witnesses: a few models of "a state of the
//     cube, an outcome of a into the candidate" without the policy, on
//     which the policy is evaluated (float64, exact): one that chooses a
//     confirms the transition with no policy query;
//  3. otherwise the certifier of PolIC3 (CROWN with splitting for
//     networks, box search for ensembles), by branch-and-bound over the
//     cube's bounding box (region.go: sub-boxes that miss the cube are
//     dropped, small ones enumerated): "a never chosen in the cube" drops
//     every candidate of a;
//  4. otherwise, for the candidates left, one branch-and-bound (the
//     same, regionSearchAll) that answers each candidate on its own,
//     restricted per candidate to the states from which an outcome of a
//     may lead into it: no such state drops the candidate, a state found
//     confirms it;
//  5. otherwise one SMT query with the policy's encoding, bounded by
//     Options.QueryTimeout: unsat drops the candidate; sat or no answer
//     keeps it (an over-approximation, sound for safe verdicts).

import (
	"time"

	"vigil/smt"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// witnesses is how many concrete states step 2 tries per candidate.
const witnesses = 4

// expandLearned is expand for learned policies (the cube of node i is
// asserted): hit reports a bad state in the cube; unless onlyBad, the
// successors are added.
func (ab *abstraction) expandLearned(i int, onlyBad bool) (hit bool, err error) {
	e := &learnedExpansion{ab: ab, i: i, nd: ab.nodes[i], xp: &explicit.Expansion{}}
	e.lo, e.hi, _ = ab.r.box(e.nd.vals)
	if hit, err := e.bad(); hit || err != nil || onlyBad {
		return hit, err
	}
	for a := range ab.r.m.Labels {
		if err := e.label(symbolic.LabelID(a)); err != nil {
			return false, err
		}
	}
	return false, ab.r.x.Err()
}

// learnedExpansion is the state of expandLearned on node i's cube: its
// bounding box (what the certifier is asked about) and the labels
// applicable throughout the cube, computed when first needed.
type learnedExpansion struct {
	ab       *abstraction
	i        int
	nd       *node
	lo, hi   []int
	sure     []symbolic.LabelID
	sureDone bool
	xp       *explicit.Expansion
}

// needSure computes the labels applicable throughout the cube, once.
func (e *learnedExpansion) needSure() error {
	if e.sureDone {
		return nil
	}
	e.sureDone = true
	var err error
	e.sure, err = e.ab.sure()
	return err
}

// bad reports whether the cube meets the bad region: unsafe states need
// no policy; a range error only where the policy may choose the erring
// label (a witness, the certifier, the region search, then the bounded
// policy query, as for transitions).
func (e *learnedExpansion) bad() (bool, error) {
	ab := e.ab
	r, s, m := ab.r, ab.freeSolver(), ab.r.m
	res, err := r.check(s.Solver, r.unsafe)
	if err != nil {
		return false, err
	}
	switch res {
	case smt.Unknown:
		return false, errUnknown
	case smt.Sat:
		return true, nil
	}
	for a := range m.Labels {
		if !r.mayLeaveRange() {
			break
		}
		res, err := r.check(s.Solver, r.nonterm, r.rangeErr[a])
		if err != nil {
			return false, err
		}
		if res == smt.Unknown {
			return false, errUnknown
		}
		if res == smt.Unsat {
			continue
		}
		st, err := r.e.Decode(s.Solver, r.e.Cur)
		if err != nil {
			return false, err
		}
		r.g.Applicable(st, e.xp)
		if l, err := r.dec.Decide(st, e.xp.App); err != nil {
			return false, err
		} else if l == symbolic.LabelID(a) {
			return true, nil
		}
		if err := e.needSure(); err != nil {
			return false, err
		}
		r.stats.CertCalls++
		if ex, _, err := r.cert.Exclude(e.lo, e.hi, symbolic.LabelID(a), e.sure); err == nil && ex == symbolic.Excluded {
			continue
		}
		if !r.opts.NoEnumeration {
			switch ans, _ := r.regionSearchErr(e.nd.vals, e.lo, e.hi, symbolic.LabelID(a)); ans {
			case regionNone:
				continue
			case regionFound:
				return true, nil
			}
		}
		res, err = ab.bounded(ab.pol, r.nonterm, r.rangeErr[a], r.chosen[a])
		if err != nil {
			return false, err
		}
		if res != smt.Unsat {
			return true, nil
		}
	}
	return false, nil
}

// label adds the abstract transitions of label l from the cube, by the
// steps of the file's comment, and records l as never chosen in the cube
// when the certifier or the policy's encoding shows it.
func (e *learnedExpansion) label(l symbolic.LabelID) error {
	ab, nd := e.ab, e.nd
	r := ab.r
	if ok, err := ab.mayTake(nd, l); err != nil || !ok {
		return err
	}
	// 1. Candidates without the policy.
	var cands [][]bool
	err := ab.allCubes(ab.freeSolver(), true, func(vals []bool) error {
		cands = append(cands, vals)
		return nil
	}, ab.step[l])
	if err != nil {
		return err
	}
	sortCubes(cands) // the order of their nodes (addAll)
	// 2. Concrete witnesses.
	ok := make([]bool, len(cands))
	var rest []int // the candidates without a witness
	excluded := false
	for j, c := range cands {
		if ok[j], err = ab.witness(c, l, e.xp); err != nil {
			return err
		}
		if ok[j] {
			continue
		}
		if len(rest) == 0 {
			// 3. The certifier, once per label and cube (l never
			// chosen drops every candidate left).
			if excluded, err = e.certify(l); err != nil {
				return err
			}
			if excluded {
				break
			}
		}
		rest = append(rest, j)
	}
	if !excluded && len(rest) > 0 {
		// 4. Branch-and-bound towards every candidate left, in one
		// search; 5. the policy's encoding, bounded, where it ran out.
		ans := make([]regionAnswer, len(rest))
		if !r.opts.NoEnumeration {
			targets := make([][]bool, len(rest))
			for k, j := range rest {
				targets[k] = cands[j]
			}
			ans, _ = r.regionSearchAll(e.nd.vals, e.lo, e.hi, l, targets)
		}
		for k, j := range rest {
			switch ans[k] {
			case regionFound:
				ok[j] = true
			case regionUndecided:
				if ok[j], err = e.policyQuery(cands[j], l); err != nil {
					return err
				}
			}
		}
	}
	added := 0
	for j, c := range cands {
		if ok[j] {
			added++
			r.stats.Transitions++
			ab.add(c, e.i, l)
		}
	}
	never := excluded
	if !excluded && added == 0 {
		// No transition; "never chosen" also covers terminal states.
		res, err := ab.bounded(ab.pol, r.chosen[l])
		if err != nil {
			return err
		}
		never = res == smt.Unsat
	}
	if never {
		nd.never = append(nd.never, l)
		r.impossible[ab.cacheKey(nd, l)] = neverChosen
	}
	return nil
}

// certify asks the certifier whether l is never chosen in the cube's
// bounding box given the sure labels (an error of the certifier counts
// as not excluded).
func (e *learnedExpansion) certify(l symbolic.LabelID) (bool, error) {
	r := e.ab.r
	if err := e.needSure(); err != nil {
		return false, err
	}
	t0 := time.Now()
	defer func() { r.stats.CertTime += time.Since(t0) }()
	ex, _, err := r.cert.Exclude(e.lo, e.hi, l, e.sure)
	r.stats.CertCalls++
	if err == nil && ex == symbolic.Excluded {
		return true, nil
	}
	if r.opts.NoEnumeration {
		return false, nil
	}
	ans, _ := r.regionSearch(e.nd.vals, e.lo, e.hi, l, nil)
	return ans == regionNone, nil
}

// policyQuery asks, bounded by Options.QueryTimeout, whether the policy
// may take l from the cube into the candidate cube c; no answer counts as
// yes.
func (e *learnedExpansion) policyQuery(c []bool, l symbolic.LabelID) (bool, error) {
	ab := e.ab
	s := ab.s
	if err := s.Push(); err != nil {
		return false, err
	}
	if err := s.Assert(ab.cube(c, ab.pn)); err != nil {
		return false, err
	}
	res, err := ab.bounded(ab.lab[l])
	if perr := s.Pop(1); err == nil {
		err = perr
	}
	if err != nil {
		return false, err
	}
	if res == smt.Unknown {
		ab.r.stats.Undecided++
	}
	return res != smt.Unsat, nil
}

// witness looks for a state of the cube where the policy chooses a and an
// outcome of a leads into the cube c (over Next), by models without the
// policy.
func (ab *abstraction) witness(c []bool, a symbolic.LabelID, xp *explicit.Expansion) (bool, error) {
	r, s, x := ab.r, ab.freeSolver(), ab.r.x
	if err := s.Push(); err != nil {
		return false, err
	}
	defer s.Pop(1)
	if err := s.Assert(ab.cube(c, ab.pn)); err != nil {
		return false, err
	}
	for k := 0; k < witnesses; k++ {
		res, err := r.check(s.Solver, ab.step[a])
		if err != nil {
			return false, err
		}
		if res != smt.Sat {
			return false, nil
		}
		st, err := r.e.Decode(s.Solver, r.e.Cur)
		if err != nil {
			return false, err
		}
		r.g.Applicable(st, xp)
		l, err := r.dec.Decide(st, xp.App)
		if err != nil {
			return false, err
		}
		if l == a {
			return true, nil
		}
		if err := s.Assert(x.Not(r.e.State(st, r.e.Cur))); err != nil {
			return false, err
		}
	}
	return false, nil
}

// sure returns the labels applicable throughout the asserted cube,
// terminal states included (a certifier's exclusion given them then holds
// in every state of the cube).
func (ab *abstraction) sure() ([]symbolic.LabelID, error) {
	r, x := ab.r, ab.r.x
	var out []symbolic.LabelID
	for a := range r.m.Labels {
		res, err := r.check(ab.freeSolver().Solver, x.Not(r.app[a]))
		if err != nil {
			return nil, err
		}
		if res == smt.Unsat {
			out = append(out, symbolic.LabelID(a))
		}
	}
	return out, nil
}

// bounded is a check under Options.QueryTimeout; Unknown is returned only
// for the limit (cancellation is errUnknown). A check that ran out of its
// limit leaves the solver lost (every later check Unknown, solver.go):
// it is rebuilt, so that the abstraction's later queries answer again.
func (ab *abstraction) bounded(assumptions ...smt.Term) (smt.Result, error) {
	r, s := ab.r, ab.s
	l := smt.Limits{Timeout: r.opts.QueryTimeout}
	if r.opts.loseQuery != nil && r.opts.loseQuery(r.bounded) {
		l = smt.Limits{Rlimit: 1}
	}
	r.bounded++
	if err := s.SetLimits(l); err != nil {
		return smt.Unknown, err
	}
	res, err := r.check(s.Solver, assumptions...)
	if err != nil {
		return res, err
	}
	if res == smt.Unknown {
		if r.ctx.Err() != nil {
			return res, errUnknown
		}
		r.unanswered++
		if err := s.rebuild(); err != nil {
			return res, err
		}
		return res, nil
	}
	return res, s.SetLimits(smt.Limits{})
}

func (ab *abstraction) cacheKey(nd *node, a symbolic.LabelID) string {
	return cacheKey(ab.n, nd.key, a)
}
