package ic3

// Relational lemmas: predicate-enriched cubes.
//
// A box can only describe an invariant such as y <= x over a range of N
// values with about N boxes. Relational generalization takes its atoms
// from the model: every comparison of the guards, the rules policy's
// conditions, the start and unsafe conditions that is linear (after
// moving everything to the left) gives an axis, the linear form of its
// left side (a single variable, or a form over several), and thresholds,
// the places where the comparison changes its truth value. The abstract
// cube of a state s is the cell of the threshold grid that holds s: on
// every axis, the bounds between the neighbouring thresholds around s's
// value (IC3IA's predicate abstraction with the model's predicates, but
// cells rather than single predicates, so that the cube is a box in the
// space of the forms and the box machinery applies).
//
// generalizeRel tries that cell as the blocked region: when the query
// finds a transition out of the cell into the frame, the cell's literals
// that the successor violates are widened to the nearest threshold that
// holds there (or to the successor's value, or dropped when that bounds
// nothing), a few times, as long as the cell stays disjoint from the bad
// region; an unsat answer gives a core, then the usual bound widening.
// When the cell does not qualify, generalize falls back to boxes. The
// lemma is then a conjunction of bounds and linear atoms Form <= K, which
// the certificate writes exactly (smtlib) and the checker reads back.
//
// For a learned policy (PolIC3) the cell's query is APFT (apft), which
// certifies the policy's exclusions over the cell itself, its bounds and
// linear atoms, where the policy's certifier implements
// symbolic.RegionCertifiable (nn: CROWN with input constraints), and over
// the cell's bounding box otherwise (a superset, so an exclusion proved
// there holds in the cell; region.go). Where a label wins somewhere in
// the cell, APFT's sub-region search first cuts the cell at the witness
// along the axis that separates it from the state where the label wins
// (braking_net: the diagonal d - v = 0 of the cell d - v >= 0, where the
// network brakes), then halves bounds as for boxes (excludeAround). The
// policy facts record their regions with these atoms (Fact.Within), and
// the certificate checker re-checks each fact over its box and atoms
// (ic3/cert). A successor comes from the concrete transition APFT found,
// and a cell that APFT blocks shrinks to APFT's unsat core only when APFT
// blocks the core's larger region too (the exclusions were certified on
// the cell only; dropLearned), then widens, each step certified again.
// A tree ensemble gets cells when one of its splits reads an input over
// several variables (relationalPays): its decision boundaries are then
// oblique in the state space, as braking_trees' split on (d - v - 2) / N
// is, and a box invariant needs about N boxes. An ensemble whose splits
// each read one variable chooses the same label on every box between its
// thresholds, where box generalization finds exactly those boxes and the
// model's cells only cut them smaller.

import (
	"slices"

	"vigil/smt"
	"vigil/symbolic"
)

// relationalPays reports whether relational cells are worth trying for a
// learned policy: always for a network (its boundaries are oblique: tr3
// 16x16 of bench/polic3 safe in 2.6 s with cells, unknown at 15 s with
// boxes); for an ensemble, when a split reads an input over several
// variables. Ensembles of one-variable inputs keep boxes: on the tree
// pairs of bench/polic3 cells gave no proof boxes did not, and npuzzle
// np2x4's trees_safe went from 110 box clauses, safe in 0.7 s, to 7,870
// cell clauses, unknown at 20 s (the cells of npuzzle's p[i] - p[j]
// comparisons cut the ensemble's constant boxes into pieces).
func relationalPays(p symbolic.Params) bool {
	e := p.Ensemble
	if e == nil || p.Decl == nil {
		return true
	}
	for ti := range e.Trees {
		for _, n := range e.Trees[ti].Nodes {
			if n.Feature >= 0 && n.Feature < len(p.Decl.Inputs) && readsSeveral(&p.Decl.Inputs[n.Feature]) {
				return true
			}
		}
	}
	return false
}

// readsSeveral reports whether input a reads more than one variable (a
// nonzero coefficient on each of two).
func readsSeveral(a *symbolic.Affine) bool {
	coef := map[symbolic.VarID]float64{}
	for _, t := range a.Terms {
		if t.Coef.Den != 0 {
			coef[t.Var] += float64(t.Coef.Num) / float64(t.Coef.Den)
		}
	}
	n := 0
	for _, c := range coef {
		if c != 0 {
			n++
		}
	}
	return n >= 2
}

// axis is a linear form with the thresholds T where a model comparison
// changes value: between form <= T and form >= T+1.
type axis struct {
	form *symbolic.Form // nil: the single variable v
	v    symbolic.VarID
	cuts []int // sorted, distinct
}

// lit returns the literal axis <= k (upper) or axis >= k.
func (a *axis) lit(upper bool, k int) smt.Lit {
	if a.form == nil {
		return smt.Lit{Var: a.v, Upper: upper, K: k}
	}
	return smt.FormLit(a.form, upper, k)
}

func (a *axis) value(s symbolic.State) int {
	if a.form == nil {
		return s[a.v]
	}
	return a.form.Eval(s)
}

// maxAxes bounds the axes taken from a model (the cell has up to two
// literals per axis, and each is an assumption of the query).
const maxAxes = 64

// modelAxes collects the axes of m's comparisons (guards, rules policy,
// start and unsafe conditions); nil when there are none.
func modelAxes(m *symbolic.Model, prop *symbolic.Property, policy *symbolic.PolicyDecl) []*axis {
	byKey := map[string]*axis{}
	var order []*axis
	add := func(ts []symbolic.Term, cmp symbolic.CmpOp, k int) {
		// ts cmp k, ts normalised so that its first coefficient is
		// positive.
		if len(ts) == 0 {
			return
		}
		if ts[0].Coef < 0 {
			ns := make([]symbolic.Term, len(ts))
			for i, t := range ts {
				ns[i] = symbolic.Term{Coef: -t.Coef, Var: t.Var}
			}
			ts, k = ns, -k
			switch cmp {
			case symbolic.Lt:
				cmp = symbolic.Gt
			case symbolic.Le:
				cmp = symbolic.Ge
			case symbolic.Gt:
				cmp = symbolic.Lt
			case symbolic.Ge:
				cmp = symbolic.Le
			}
		}
		var cuts []int
		switch cmp {
		case symbolic.Le, symbolic.Gt:
			cuts = []int{k}
		case symbolic.Lt, symbolic.Ge:
			cuts = []int{k - 1}
		default: // == and !=
			cuts = []int{k - 1, k}
		}
		f := symbolic.NewForm(ts)
		if f == nil || !f.Fits(m) {
			return
		}
		key := f.Key()
		a := byKey[key]
		if a == nil {
			a = &axis{form: f, v: f.Terms()[0].Var}
			if len(ts) == 1 && ts[0].Coef == 1 {
				a.form = nil // a plain variable: bound literals
			}
		}
		if byKey[key] == nil {
			if len(order) >= maxAxes {
				return
			}
			byKey[key] = a
			order = append(order, a)
		}
		a.cuts = append(a.cuts, cuts...)
	}
	var cond func(c *symbolic.Cond)
	cond = func(c *symbolic.Cond) {
		if c == nil {
			return
		}
		if c.Op == symbolic.CCmp && c.L != nil && c.R != nil {
			l, okL := symbolic.Linearize(c.L)
			r, okR := symbolic.Linearize(c.R)
			if okL && okR {
				ts := append(slices.Clone(l.Terms), negTerms(r.Terms)...)
				if f := symbolic.NewForm(ts); f != nil {
					add(f.Terms(), c.Cmp, r.Const-l.Const)
				}
			}
		}
		for _, a := range c.Args {
			cond(a)
		}
	}
	for i := range m.Commands {
		cond(m.Commands[i].Guard)
	}
	if policy != nil && policy.Kind == symbolic.KindRules {
		for _, r := range policy.Rules {
			cond(r.Cond)
		}
	}
	if prop != nil {
		cond(prop.Start)
		cond(prop.Unsafe)
	}
	if len(order) == 0 {
		return nil
	}
	for _, a := range order {
		// Only thresholds inside the axis's range cut anything; the rest
		// are dropped, which also keeps T+1 and the widening's midpoints
		// clear of overflow.
		lo, hi := m.Vars[a.v].Lo, m.Vars[a.v].Hi
		if a.form != nil {
			lo, hi = a.form.Range(m)
		}
		a.cuts = slices.DeleteFunc(a.cuts, func(t int) bool { return t < lo || t >= hi })
		slices.Sort(a.cuts)
		a.cuts = slices.Compact(a.cuts)
	}
	return order
}

func negTerms(ts []symbolic.Term) []symbolic.Term {
	out := make([]symbolic.Term, len(ts))
	for i, t := range ts {
		out[i] = symbolic.Term{Coef: -t.Coef, Var: t.Var}
	}
	return out
}

// cell returns the abstract cube of s: on every axis the literals
// axis >= T+1 and axis <= T' for the thresholds T < value(s) <= T'
// nearest to s's value (either left out when there is none).
func (r *run) cell(s symbolic.State) box {
	var b box
	for _, a := range r.axes {
		v := a.value(s)
		i, _ := slices.BinarySearch(a.cuts, v) // cuts[i] >= v
		if i > 0 {
			b = append(b, a.lit(false, a.cuts[i-1]+1))
		}
		if i < len(a.cuts) {
			b = append(b, a.lit(true, a.cuts[i]))
		}
	}
	return b.sorted()
}

// widenLit returns l moved to the next threshold of its axis away from
// its side (a <= T to a <= T” for the next T” > T), and false when
// there is none (the literal is then dropped).
func (r *run) widenLit(l smt.Lit) (smt.Lit, bool) {
	for _, a := range r.axes {
		if a.form != l.Form || (a.form == nil && a.v != l.Var) {
			continue
		}
		if l.Upper {
			i, found := slices.BinarySearch(a.cuts, l.K)
			if found {
				i++
			}
			if i < len(a.cuts) {
				return a.lit(true, a.cuts[i]), true
			}
			return l, false
		}
		// l: a >= K, K = T+1 for a cut T; the next lower cut T'' gives
		// a >= T''+1.
		i, _ := slices.BinarySearch(a.cuts, l.K-1) // cuts[i] >= K-1
		if i > 0 {
			return a.lit(false, a.cuts[i-1]+1), true
		}
		return l, false
	}
	return l, false
}

// cutsBeyond returns the bounds the thresholds of l's axis offer beyond
// l, nearest first: for an upper bound a <= K the thresholds T > K, for
// a lower bound a >= K the values T+1 < K.
func (r *run) cutsBeyond(l smt.Lit) []int {
	for _, a := range r.axes {
		if a.form != l.Form || (a.form == nil && a.v != l.Var) {
			continue
		}
		var ks []int
		if l.Upper {
			for _, t := range a.cuts {
				if t > l.K {
					ks = append(ks, t)
				}
			}
			return ks
		}
		for i := len(a.cuts) - 1; i >= 0; i-- {
			if t := a.cuts[i] + 1; t < l.K {
				ks = append(ks, t)
			}
		}
		return ks
	}
	return nil
}

// widenTo widens l, which the successor to violates, to the nearest
// threshold of its axis that to satisfies; false when there is none or
// the literal then bounds nothing.
func (r *run) widenTo(l smt.Lit, to symbolic.State) (smt.Lit, bool) {
	w := l
	for !w.Holds(to) {
		n, ok := r.widenLit(w)
		if !ok {
			return l, false
		}
		w = n
	}
	return r.trivial(w)
}

// trivial returns l and whether it bounds anything over its axis's range.
func (r *run) trivial(w smt.Lit) (smt.Lit, bool) {
	lo, hi := r.m.Vars[w.Var].Lo, r.m.Vars[w.Var].Hi
	if w.Form != nil {
		lo, hi = w.Form.Range(r.m)
	}
	if w.Upper && w.K >= hi || !w.Upper && w.K <= lo {
		return w, false
	}
	return w, true
}

// escape widens l, which the successor to violates, to the nearest
// threshold of its axis that to satisfies, or else to to's own value; it
// returns false when the literal then bounds nothing (its axis's range
// lies within it) and is best dropped.
func (r *run) escape(l smt.Lit, to symbolic.State) (smt.Lit, bool) {
	w := l
	for !w.Holds(to) {
		n, ok := r.widenLit(w)
		if !ok {
			w.K = w.Value(to)
			break
		}
		w = n
	}
	return r.trivial(w)
}

// relEvery: where cells mostly fail, one generalization in relEvery
// tries one.
const relEvery = 8

// relTries is how many times generalizeRel widens a cell's escaping
// literals before it gives up.
const relTries = 6

// generalizeRel tries the abstract cube of s as the blocked region
// against F_j. It returns nil when that fails (the caller falls back to
// boxes); errors are the solver's.
func (r *run) generalizeRel(s symbolic.State, j int) (box, error) {
	if len(r.axes) == 0 {
		return nil, nil
	}
	if r.relFails > 4*r.relWins+8 {
		// Mostly failing: try only every relEvery-th time (a cell that
		// fails early may qualify once the frames hold more clauses).
		if r.relSkips++; r.relSkips%relEvery != 0 {
			return nil, nil
		}
	}
	// The second attempt (keep) differs from the first only where the
	// first dropped a literal: when it dropped none, it would ask the same
	// queries about the same cells again (be1_16x16_safe of bench/polic3:
	// a third of generalization's time), and is skipped.
	for _, keep := range []bool{false, true} {
		b, dropped, err := r.cellTry(s, j, keep)
		if err != nil || b != nil {
			return b, err
		}
		if !dropped {
			break
		}
	}
	r.relFails++
	return nil, nil
}

// cellTry is one attempt of generalizeRel. A literal the successor
// violates moves to the nearest further threshold; without one it is
// dropped (keep false: y <= x needs no upper bound on x - y), unless the
// cell would then meet the bad region, or (keep true) it moves to the
// successor's value (pos + 4*speed <= L - 2 becomes pos + 4*speed <= L + 3
// on oneway_line). dropped reports that a literal was dropped on the way
// that keep would have kept, where the two attempts part.
func (r *run) cellTry(s symbolic.State, j int, keep bool) (_ box, dropped bool, _ error) {
	r.genLevel = j
	pt := point(r.m, s)
	c := r.cell(s)
	widen := r.try
	if r.learned != nil {
		widen = func(c box) (box, error) { return r.tryLearned(c, s, j) }
	}
	for try := 0; ; try++ {
		// Disjoint from the bad region, or repaired with s's own bounds.
		b, err := r.repair(c, append(slices.Clone(c), pt...))
		if err != nil || b == nil {
			return nil, dropped, err
		}
		c = b
		res, core, err := r.cellQuery(c, j)
		free := r.lastCoreFree
		if err != nil {
			return nil, dropped, err
		}
		switch res {
		case smt.Unsat:
			apftCore := r.lastCore
			b, err := r.repair(core, c)
			if err != nil || b == nil {
				return nil, dropped, err
			}
			if r.learned != nil {
				r.lastCore, r.lastCoreFree = apftCore, free
				if b, err = r.dropLearned(b, apftCore, widen); err != nil {
					return nil, dropped, err
				}
			}
			b, err = r.widenBounds(b, widen)
			if err != nil || b == nil {
				return nil, dropped, err
			}
			r.relWins++
			for _, l := range b {
				if l.Form != nil {
					r.stats.RelLemmas++
					break
				}
			}
			return b, dropped, nil
		case smt.Unknown:
			return nil, dropped, nil
		}
		if try == relTries {
			break
		}
		to, err := r.cellSuccessor(c, j)
		if err != nil || to == nil {
			return nil, dropped, err
		}
		// The successor left c through some of its literals: widen them.
		var nc, kept box
		changed := false
		for _, l := range c {
			if l.Holds(to) {
				nc = append(nc, l)
				kept = append(kept, l)
				continue
			}
			changed = true
			if w, ok := r.widenTo(l, to); ok {
				nc = append(nc, w)
				kept = append(kept, w)
			} else if w, ok := r.escape(l, to); ok {
				kept = append(kept, w)
			}
		}
		if !changed {
			break
		}
		if keep {
			nc = kept
		} else if len(kept) > len(nc) {
			hit, _, err := r.meetsBad(nc.sorted())
			if err != nil {
				return nil, dropped, err
			}
			if hit {
				nc = kept
			} else {
				dropped = true
			}
		}
		c = nc.sorted()
	}
	return nil, dropped, nil
}

// cellQuery asks whether a transition leads from the cell c into F_j ∧
// ¬c: SMT's query with its unsat core, or for a learned policy APFT,
// whose "no transition" comes with c itself as the core (see above) and
// whose transition counts only when it is a concrete one (an uncertified
// label gives Unknown: the cell is given up).
func (r *run) cellQuery(c box, j int) (smt.Result, box, error) {
	if r.learned == nil {
		return r.query(c, j)
	}
	possible, err := r.apft(c, j, true, nil, 0, nil)
	switch {
	case err != nil:
		return smt.Unknown, nil, err
	case !possible:
		return smt.Unsat, c, nil
	case r.lastWitness == nil:
		return smt.Unknown, nil, nil
	}
	return smt.Sat, nil, nil
}

// cellSuccessor returns the successor of the transition cellQuery found
// out of c: SMT's witness, or for a learned policy a successor in F_j
// outside c of the state where the policy's label leads there (nil when
// there is none).
func (r *run) cellSuccessor(c box, j int) (symbolic.State, error) {
	if r.learned == nil {
		_, to, _, _, err := r.sv.st.Witness()
		return to, err
	}
	return r.policyStep(r.lastWitness, c, j), nil
}

// tryLearned is try for a learned policy: c (which holds s) if APFT finds
// no transition from it into F_j ∧ ¬c and it is disjoint from the bad
// region, else nil.
func (r *run) tryLearned(c box, s symbolic.State, j int) (box, error) {
	c = c.sorted()
	if r.refuted(c, s, j) {
		r.stats.Refuted++
		return nil, nil
	}
	hit, _, err := r.meetsBad(c)
	if err != nil || hit {
		return nil, err
	}
	possible, err := r.apft(c, j, true, nil, 0, nil)
	if err != nil || possible {
		return nil, err
	}
	if nb, err := r.freeCore(c); err != nil || nb != nil {
		return nb, err
	}
	return c, nil
}

// dropLearned generalizes the cell b that APFT blocks to the literals
// of APFT's unsat core, when they qualify: try certifies the exclusions
// that the core relied on again on its larger region. (Dropping each
// axis in turn as well, as generalizeLearned drops variables, costs five
// times the SMT calls on blocks N=6 for no proof: not done.)
//
// A policy-free core (lastCoreFree, which the caller keeps from the
// cell's query) needs no new query: freeCore.
func (r *run) dropLearned(b, core box, try func(box) (box, error)) (box, error) {
	if len(core) >= len(b) {
		return b, nil
	}
	if nb, err := r.freeCore(b); err != nil || nb != nil {
		return nb, err
	}
	nb, err := try(append(box{}, core...))
	if err != nil || nb == nil {
		return b, err
	}
	return nb, nil
}
