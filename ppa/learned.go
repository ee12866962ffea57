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
//     networks, box search for ensembles) on the cube's bounding box,
//     given the labels applicable throughout the cube: "a never chosen"
//     drops every candidate of a;
//  4. otherwise one SMT query with the policy's encoding, bounded by
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
// asserted).
func (ab *abstraction) expandLearned(i int) (bool, error) {
	r, s, x, m := ab.r, ab.s, ab.r.x, ab.r.m
	nd := ab.nodes[i]
	var sure []symbolic.LabelID
	lo, hi, _ := r.box(nd.vals)
	sureDone := false
	xp := &explicit.Expansion{}
	// The bad region: unsafe states need no policy; a range error only
	// where the policy may choose the erring label (witnesses, the
	// certifier, then the bounded policy query, as for transitions).
	res, err := r.check(s, r.unsafe)
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
		res, err := r.check(s, r.nonterm, r.rangeErr[a])
		if err != nil {
			return false, err
		}
		if res == smt.Unknown {
			return false, errUnknown
		}
		if res == smt.Unsat {
			continue
		}
		st, err := r.e.Decode(s, r.e.Cur)
		if err != nil {
			return false, err
		}
		r.g.Applicable(st, xp)
		if l, err := r.dec.Decide(st, xp.App); err != nil {
			return false, err
		} else if l == symbolic.LabelID(a) {
			return true, nil
		}
		if !sureDone {
			sureDone = true
			if sure, err = ab.sure(); err != nil {
				return false, err
			}
		}
		r.stats.CertCalls++
		if ex, _, err := r.cert.Exclude(lo, hi, symbolic.LabelID(a), sure); err == nil && ex == symbolic.Excluded {
			continue
		}
		res, err = ab.bounded(ab.pol, r.nonterm, r.rangeErr[a], r.chosen[a])
		if err != nil {
			return false, err
		}
		if res != smt.Unsat {
			return true, nil
		}
	}
	for a := range m.Labels {
		l := symbolic.LabelID(a)
		if ok, err := ab.mayTake(nd, l); err != nil || !ok {
			if err != nil {
				return false, err
			}
			continue
		}
		// 1. Candidates without the policy.
		var cands [][]bool
		err = ab.allCubes(ab.pn, func(vals []bool) error {
			cands = append(cands, vals)
			return nil
		}, ab.step[a])
		if err != nil {
			return false, err
		}
		excluded, asked := false, false
		added := 0
		for _, c := range cands {
			// 2. Concrete witnesses.
			ok, err := ab.witness(c, l, xp)
			if err != nil {
				return false, err
			}
			if !ok && !asked {
				// 3. The certifier, once per label and cube.
				asked = true
				if !sureDone {
					sureDone = true
					if sure, err = ab.sure(); err != nil {
						return false, err
					}
				}
				t0 := time.Now()
				ex, _, err := r.cert.Exclude(lo, hi, l, sure)
				r.stats.CertTime += time.Since(t0)
				r.stats.CertCalls++
				if err == nil && ex == symbolic.Excluded {
					excluded = true
					break
				}
			}
			if !ok {
				// 4. The policy's encoding, bounded.
				if err := s.Push(); err != nil {
					return false, err
				}
				if err := s.Assert(ab.cube(c, ab.pn)); err != nil {
					return false, err
				}
				res, err := ab.bounded(ab.lab[a])
				if perr := s.Pop(1); err == nil {
					err = perr
				}
				if err != nil {
					return false, err
				}
				if res == smt.Unknown {
					r.stats.Undecided++
				}
				ok = res != smt.Unsat
			}
			if ok {
				added++
				r.stats.Transitions++
				ab.add(c, i, l)
			}
		}
		never := excluded
		if !excluded && added == 0 {
			// No transition; "never chosen" also covers terminal states.
			res, err := ab.bounded(ab.pol, r.chosen[a])
			if err != nil {
				return false, err
			}
			never = res == smt.Unsat
		}
		if never {
			nd.never = append(nd.never, l)
			r.impossible[ab.cacheKey(nd, l)] = neverChosen
		}
	}
	return false, x.Err()
}

// witness looks for a state of the cube where the policy chooses a and an
// outcome of a leads into the cube c (over Next), by models without the
// policy.
func (ab *abstraction) witness(c []bool, a symbolic.LabelID, xp *explicit.Expansion) (bool, error) {
	r, s, x := ab.r, ab.s, ab.r.x
	if err := s.Push(); err != nil {
		return false, err
	}
	defer s.Pop(1)
	if err := s.Assert(ab.cube(c, ab.pn)); err != nil {
		return false, err
	}
	for k := 0; k < witnesses; k++ {
		res, err := r.check(s, ab.step[a])
		if err != nil {
			return false, err
		}
		if res != smt.Sat {
			return false, nil
		}
		st, err := r.e.Decode(s, r.e.Cur)
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
		res, err := r.check(ab.s, x.Not(r.app[a]))
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
// for the limit (cancellation is errUnknown).
func (ab *abstraction) bounded(assumptions ...smt.Term) (smt.Result, error) {
	r, s := ab.r, ab.s
	if err := s.SetLimits(smt.Limits{Timeout: r.opts.QueryTimeout}); err != nil {
		return smt.Unknown, err
	}
	res, err := r.check(s, assumptions...)
	if lerr := s.SetLimits(smt.Limits{}); err == nil {
		err = lerr
	}
	if err == nil && res == smt.Unknown && r.ctx.Err() != nil {
		return res, errUnknown
	}
	return res, err
}

func (ab *abstraction) cacheKey(nd *node, a symbolic.LabelID) string {
	return cacheKey(ab.n, nd.key, a)
}
