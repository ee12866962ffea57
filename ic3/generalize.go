package ic3

import (
	"slices"

	"vigil/smt"
	"vigil/symbolic"
)

// generalize turns the unsat core of the query that blocked s (no
// transition from s into F_j) into a small box r ∋ s that is disjoint from
// the bad region and has no transition into F_j ∧ ¬r (Assertion 4). A nil
// box means the solver answered unknown.
//
// Soundness of each step: when query(c, j) is unsat with core k (k ⊆ c as
// literal sets), every box r with c ⊆ r ⊆ k (as literal sets) has no
// transition into F_j ∧ ¬r, because r's states are k's and ¬r ⊆ ¬c. So
// literals of c may be added back to the core freely, which is how a core
// that meets the bad region is repaired.
func (r *run) generalize(s symbolic.State, core box, j int) (box, error) {
	pt := point(r.m, s)
	r.genLevel = j
	if !r.inCTG {
		r.ctgBudget = maxCTGs
	}
	b, err := r.repair(core, pt)
	if b == nil || err != nil {
		return nil, err
	}
	// Literal dropping.
	for _, l := range r.order(b) {
		i := slices.Index(b, l)
		if i < 0 {
			continue // dropped with an earlier core
		}
		c := b.without(i)
		nb, err := r.tryCTG(c)
		if err != nil {
			return nil, err
		}
		if nb != nil {
			b = nb
		}
	}
	return r.widenBounds(b, r.try)
}

// widenBounds moves each bound of b toward its variable's limit as far as
// try accepts (binary search, a few steps per bound). try returns the box
// to continue with (possibly reduced further), or nil to reject.
// wideRange is the range from which --widen auto widens a variable's
// bounds under a learned policy.
const wideRange = 256

func (r *run) widenBounds(b box, try func(c box) (box, error)) (box, error) {
	if !r.widen {
		return b, nil
	}
	for _, l := range r.order(b) {
		i := slices.Index(b, l)
		if i < 0 {
			continue
		}
		lo, hi := r.m.Vars[l.Var].Lo, r.m.Vars[l.Var].Hi
		if l.Form != nil {
			lo, hi = l.Form.Range(r.m)
		}
		if r.widenWideOnly && hi-lo+1 < wideRange {
			continue
		}
		// bad: the widest value known to fail (the variable's or form's
		// limit, since dropping failed), good: the current value that
		// works.
		limit := lo
		if l.Upper {
			limit = hi
		}
		good, bad := l.K, limit
		// The model's thresholds beyond the bound first, nearest first
		// (relational.go's axes): level <= N - 10 in one step where
		// the binary search ends a few values short of it.
		for _, k := range r.cutsBeyond(l) {
			c := append(box{}, b...)
			c[i].K = k
			nb, err := try(c)
			if err != nil {
				return nil, err
			}
			if nb == nil {
				bad = k
				break
			}
			good = k
			b = nb
			if i = slices.IndexFunc(b, func(k smt.Lit) bool { return k.Var == l.Var && k.Form == l.Form && k.Upper == l.Upper }); i < 0 {
				break
			}
		}
		if i < 0 {
			continue // a core dropped the bound altogether
		}
		for step := 0; step < 6; step++ {
			mid := bad + (good-bad)/2
			if l.Upper {
				mid = good + (bad-good)/2
			}
			if mid == good || mid == bad {
				break
			}
			c := append(box{}, b...)
			c[i].K = mid
			nb, err := try(c)
			if err != nil {
				return nil, err
			}
			if nb == nil {
				bad = mid
				continue
			}
			good = mid
			b = nb
			if i = slices.IndexFunc(b, func(k smt.Lit) bool { return k.Var == l.Var && k.Form == l.Form && k.Upper == l.Upper }); i < 0 {
				break // a core dropped the bound altogether
			}
		}
	}
	return b, nil
}

// try checks a candidate box c: disjoint from the bad region and without
// transition into F_j ∧ ¬c. It returns the reduced box (c's core,
// repaired) or nil when c does not qualify. Unknown answers count as
// failures (sound: the candidate is just not taken).
func (r *run) try(c box) (box, error) {
	c = c.sorted()
	hit, _, err := r.meetsBad(c)
	if err != nil || hit {
		return nil, err
	}
	res, core, err := r.query(c, r.genLevel)
	if err != nil || res != smt.Unsat {
		return nil, err
	}
	return r.repair(core, c)
}

// repair adds literals of full back to core until the box is disjoint from
// the bad region. It returns nil on an unknown answer.
func (r *run) repair(core, full box) (box, error) {
	b := append(box{}, core...)
	for {
		hit, w, err := r.meetsBad(b)
		if err != nil {
			return nil, err
		}
		if !hit {
			return b.sorted(), nil
		}
		if w == nil {
			return nil, nil // unknown
		}
		added := false
		for _, l := range full {
			if !l.Holds(w) && !slices.Contains(b, l) {
				b = append(b, l)
				added = true
				break
			}
		}
		if !added {
			// full itself meets the bad region: cannot happen for the
			// boxes generalize builds (they contain a non-bad obligation
			// state and were checked); give up on this candidate.
			return nil, nil
		}
	}
}

// meetsBad reports whether box b contains a bad state, and one such state.
// hit true with a nil state means the solver answered unknown.
// A learned policy's run answers from its cache or, on a small box, by
// evaluation (concrete.go).
func (r *run) meetsBad(b box) (bool, symbolic.State, error) {
	var key string
	if r.learned != nil {
		key = boxKey(b)
		if hit, w, ok := r.meetsBadConcrete(b, key); ok {
			return hit, w, nil
		}
	}
	if err := r.sv.ready(); err != nil {
		return false, nil, err
	}
	for n := 0; ; n++ {
		res, w, err := r.sv.checkCur(b, r.sv.badCur, r.sv.curDiffer)
		if err != nil {
			return false, nil, err
		}
		if r.learned != nil && res == smt.Sat && n < maxRangeRefines {
			// A state of the solver's bad region that is not bad for the
			// policy (a range error of a label it does not choose there):
			// certify that label away over b, or around w, and ask again.
			ok, err := r.rangeRefine(b, w)
			if err != nil {
				return false, nil, err
			}
			if ok {
				continue
			}
		}
		if r.learned != nil && res != smt.Unknown {
			r.learned.bad[key] = badEntry{res == smt.Sat, w}
		}
		return res != smt.Unsat, w, nil
	}
}

// order returns b's literals in the order literal dropping tries them.
func (r *run) order(b box) []smt.Lit {
	ls := append([]smt.Lit(nil), b...)
	switch r.opts.Order {
	case OrderReverse:
		slices.Reverse(ls)
	case OrderActivity:
		slices.SortStableFunc(ls, func(a, c smt.Lit) int {
			switch x, y := r.act[a.Var], r.act[c.Var]; {
			case x < y:
				return -1
			case x > y:
				return 1
			}
			return 0
		})
	}
	return ls
}

// maxCTGs bounds the counterexamples to generalization blocked per
// literal-dropping attempt (Hassan, Bradley and Somenzi 2013 use 3).
const maxCTGs = 3

// tryCTG is try with counterexamples to generalization: when c fails
// only because one of its states steps to a state u of F_j outside c,
// and u is no bad state and has no transition into F_{j-1} (so u is
// in F_j only for want of a clause), the box of u is generalized (without
// CTGs: depth 1) and learned at level j, as high as it holds, and c is
// tried again. Each learned clause satisfies Assertion 4 on its own, so
// this only strengthens the frames.
func (r *run) tryCTG(c box) (box, error) {
	j := r.genLevel
	if !r.opts.CTG || r.inCTG || j < 1 {
		return r.try(c)
	}
	c = c.sorted()
	hit, _, err := r.meetsBad(c)
	if err != nil || hit {
		return nil, err
	}
	for ctgs := 0; ; ctgs++ {
		res, core, err := r.query(c, j)
		if err != nil {
			return nil, err
		}
		switch res {
		case smt.Unsat:
			return r.repair(core, c)
		case smt.Unknown:
			return nil, nil
		}
		if ctgs == maxCTGs || r.ctgBudget <= 0 {
			return nil, nil
		}
		r.ctgBudget--
		_, u, _, _, err := r.sv.st.Witness()
		if err != nil {
			return nil, err
		}
		ok, err := r.blockCTG(u, j)
		if err != nil || !ok {
			return nil, err
		}
	}
}

// blockCTG tries to learn a clause that removes u from F_j: it reports
// whether it did.
func (r *run) blockCTG(u symbolic.State, j int) (bool, error) {
	if r.prop.Unsafe.Holds(u) || r.blockedAt(u, j) {
		return false, nil
	}
	pu := point(r.m, u)
	if hit, _, err := r.meetsBad(pu); err != nil || hit {
		return false, err
	}
	res, core, err := r.query(pu, j-1)
	if err != nil || res != smt.Unsat {
		return false, err
	}
	r.inCTG = true
	saved := r.genLevel
	b, err := r.generalize(u, core, j-1)
	r.genLevel, r.inCTG = saved, false
	if err != nil || b == nil {
		return false, err
	}
	level := j
	for level < r.N {
		ok, err := r.blocks(b, level, true)
		if err != nil {
			return false, err
		}
		if !ok {
			break
		}
		level++
	}
	r.stats.CTGs++
	return true, r.learn(b, level)
}
