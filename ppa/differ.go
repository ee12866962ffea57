package ppa

// Certificates of cubes with many disequality literals (npuzzle's
// all-different placements: 36 literals p[i] != p[j] and blank != p[k] in
// a box of 9^9 states): too many to split into regions (regions.go), and
// too sparse in their bounding box to list state by state (boxes.go).
//
// When every cube of the invariant has the literal x != y for the same
// pairs (x, y), the certificate states them once, as ic3/cert's
// disequality invariant D ("differ: X Y" header lines; vigil.inv is D
// conjoined with the union of regions), and each cube's other literals as
// regions (cubeRegions). Each cube is D ∧ its other literals, so the
// union of regions within D is exactly the union of cubes. A cube whose
// other literals are not linear (npuzzle's column tests) has its states
// within D listed and covered by boxes that hold, within D, only listed
// states (differlist.go).
//
// A learned policy's facts are not the labels a cube never chooses (on
// np3x3 the network chooses every label somewhere in every cube), but
// what consecution needs: for each region g and label a, the states of g
// within D, not terminal, where an outcome of a leaves the invariant (or a
// variable's range) are listed (an enumeration of g's states within D,
// pruned pair by pair: the placements, not the bounding box); the policy
// never chooses a there, or the abstraction would have a transition out
// of its reachable cubes. They are covered by sub-boxes of g's box on
// each of which ic3/cert's fact checker proves "a is never chosen within
// D" (a "differ" fact: the checker enumerates the sub-box's states within
// D and evaluates the policy), a sub-box whose fact it cannot prove being
// split (by value along the variable where the listed states spread most)
// down to single states. On np3x3 the states are those with the blank on
// a forbidden cell's neighbour (or the cell) and tile 1 or 2 beside it,
// and each fact fixes two variables: 7! states.
//
// Soundness rests on vigil cert check, which re-checks every fact with its
// own enumeration and consecution by SMT: what is listed here decides
// only which facts are proposed. A fact proposed too small leaves a state
// that consecution then refuses.

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"vigil/ic3/cert"
	"vigil/smt"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// Bounds of the disequality export.
const (
	// maxDifferStates bounds the states of the invariant's regions
	// within the disequalities that are listed (np3x3: at most 9! =
	// 362,880); maxDifferNodes the partial states of their enumeration.
	maxDifferStates = 1 << 21
	maxDifferNodes  = 16 * maxDifferStates
	// maxDifferChecks bounds the fact checks of the cover.
	maxDifferChecks = 1 << 14
)

// Certificate is a safe answer's invariant in ic3/cert's terms: the
// regions (bounds and linear atoms) of vigil.inv, the policy facts
// consecution relies on (learned policies), and the pairs of variables
// of the disequality invariant the regions lie within (none: the regions
// alone).
type Certificate struct {
	Inv    [][]smt.Lit
	Facts  []BoxFact
	Differ [][2]symbolic.VarID
}

// Export converts the invariant of a safe answer into a certificate, as
// Boxes does, or, where the cubes share disequality literals x != y that
// Boxes cannot write (more than maxRegionSplits of them), as a
// disequality invariant with regions (boxes of listed states for cubes
// whose other literals are not linear) and "differ" facts (differ.go).
func Export(ctx context.Context, m *symbolic.Model, res *Result, pol symbolic.Policy, limit int) (*Certificate, error) {
	pairs, skip := commonDiffer(res.Predicates, res.Invariant)
	if len(pairs) > maxRegionSplits {
		c, err := differCert(ctx, m, res, pol, limit, pairs, skip)
		if err == nil || errors.Is(err, ErrTooManyBoxes) || ctx.Err() != nil {
			return c, err
		}
		inv, facts, berr := Boxes(ctx, m, res, pol, limit)
		if berr != nil {
			return nil, fmt.Errorf("%v (as a disequality invariant: %v)", berr, err)
		}
		return &Certificate{Inv: inv, Facts: facts}, nil
	}
	inv, facts, err := Boxes(ctx, m, res, pol, limit)
	if err != nil {
		return nil, err
	}
	return &Certificate{Inv: inv, Facts: facts}, nil
}

// diseq returns the pair (x, y), x < y, when the predicate c compares
// two variables for equality (x == y, x != y, or the same written as a
// difference against 0), and the value of c under which x != y holds.
func diseq(c *symbolic.Cond) (pair [2]symbolic.VarID, when bool, ok bool) {
	if c.Op != symbolic.CCmp || (c.Cmp != symbolic.Eq && c.Cmp != symbolic.Ne) {
		return pair, false, false
	}
	l, ok := symbolic.Linearize(&symbolic.Expr{Op: symbolic.OpSub, Args: []*symbolic.Expr{c.L, c.R}})
	if !ok || l.Const != 0 || len(l.Terms) != 2 || l.Terms[0].Coef+l.Terms[1].Coef != 0 || (l.Terms[0].Coef != 1 && l.Terms[0].Coef != -1) {
		return pair, false, false
	}
	x, y := l.Terms[0].Var, l.Terms[1].Var
	if x > y {
		x, y = y, x
	}
	return [2]symbolic.VarID{x, y}, c.Cmp == symbolic.Ne, true
}

// commonDiffer returns the pairs (x, y) whose literal x != y every cube
// has, and marks the predicates that state them (skip).
func commonDiffer(preds []*symbolic.Cond, cubes []Cube) ([][2]symbolic.VarID, []bool) {
	skip := make([]bool, len(preds))
	var pairs [][2]symbolic.VarID
	if len(cubes) == 0 {
		return nil, skip
	}
	for i, c := range preds {
		p, when, ok := diseq(c)
		if !ok {
			continue
		}
		all := true
		for _, cb := range cubes {
			if cb.Values[i] != when {
				all = false
				break
			}
		}
		if !all {
			continue
		}
		skip[i] = true
		if !slices.Contains(pairs, p) {
			pairs = append(pairs, p)
		}
	}
	return pairs, skip
}

// differRegion is a region of the invariant within the disequalities;
// listed: a box of listed states (differlist.go), which holds within the
// disequalities only states of the lister's set.
type differRegion struct {
	region
	cube   int
	listed bool
}

// differCert writes the invariant as the disequalities pairs (stated by
// the predicates skip) and regions of each cube's other literals, with the
// facts consecution needs for a learned policy pol (nil: none).
func differCert(ctx context.Context, m *symbolic.Model, res *Result, pol symbolic.Policy, limit int, pairs [][2]symbolic.VarID, skip []bool) (*Certificate, error) {
	var preds []*symbolic.Cond
	for i, c := range res.Predicates {
		if !skip[i] {
			preds = append(preds, c)
		}
	}
	var regs []differRegion
	var lister *differLister
	var listCubes []int
	var listVals [][]bool
	for ci, c := range res.Invariant {
		var vals []bool
		for i, v := range c.Values {
			if !skip[i] {
				vals = append(vals, v)
			}
		}
		gs, ok := cubeRegions(m, preds, vals)
		if !ok {
			// Not linear: its states within the disequalities are
			// listed and covered by boxes below (differlist.go).
			listCubes, listVals = append(listCubes, ci), append(listVals, vals)
			continue
		}
		for _, g := range gs {
			regs = append(regs, differRegion{region: g, cube: ci})
		}
		if limit > 0 && len(regs) > limit {
			return nil, ErrTooManyBoxes
		}
	}
	if len(listCubes) > 0 {
		lister = newDifferLister(ctx, m, pairs)
		listed, err := lister.list(listCubes, preds, listVals)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("ppa: %d abstract states (the first: %d) have, beside their %d disequalities, a literal that is not linear (or more than %d literals f != k), and listing their states failed: %v", len(listCubes), listCubes[0], len(pairs), maxRegionSplits, err)
		}
		if regs, err = lister.cover(listed, regs, limit); err != nil {
			if errors.Is(err, ErrTooManyBoxes) || ctx.Err() != nil {
				return nil, err
			}
			return nil, fmt.Errorf("ppa: covering the listed states of the abstract states that are not linear: %v", err)
		}
	}
	c := &Certificate{Differ: pairs}
	for _, g := range regs {
		c.Inv = append(c.Inv, g.lits(m))
	}
	if pol == nil {
		return c, nil
	}
	if res.prop == nil {
		return nil, fmt.Errorf("ppa: the answer does not name its property, which the policy facts need")
	}
	g, err := explicit.New(m, res.prop)
	if err != nil {
		return nil, err
	}
	d := &differExport{ctx: ctx, m: m, g: g, regs: regs, pairs: pairs, fc: cert.NewFactChecker(m, pol), lister: lister}
	for ri := range regs {
		esc, err := d.escapes(ri)
		if err != nil {
			return nil, err
		}
		for a, sts := range esc {
			if len(sts) == 0 {
				continue
			}
			if err := d.cover(ri, symbolic.LabelID(a), sts); err != nil {
				return nil, fmt.Errorf("ppa: abstract state %d, label %s: %v", regs[ri].cube, m.Labels[a].Name, err)
			}
		}
	}
	c.Facts = d.facts
	return c, nil
}

// differExport lists the states of the regions within the disequalities
// and covers those that leave the invariant with facts.
type differExport struct {
	ctx    context.Context
	m      *symbolic.Model
	g      *explicit.Generator
	regs   []differRegion
	pairs  [][2]symbolic.VarID
	fc     *cert.FactChecker
	facts  []BoxFact
	lister *differLister // the listed states (nil: none)
	states int           // listed so far
	checks int           // fact checks so far
}

// inInv reports whether s lies in the invariant: within the
// disequalities and in one of the regions.
func (d *differExport) inInv(s symbolic.State) bool {
	for _, p := range d.pairs {
		if s[p[0]] == s[p[1]] {
			return false
		}
	}
	if d.lister != nil {
		// The listed boxes hold, within the disequalities, exactly
		// the listed states.
		if _, ok := d.lister.set[d.lister.stateKey(s)]; ok {
			return true
		}
	}
	for i := range d.regs {
		if !d.regs[i].listed && d.regs[i].holds(s) {
			return true
		}
	}
	return false
}

// holds reports whether s lies in the region.
func (g region) holds(s symbolic.State) bool {
	for v := range s {
		if s[v] < g.lo[v] || s[v] > g.hi[v] {
			return false
		}
	}
	for _, a := range g.atoms {
		if !a.Holds(s) {
			return false
		}
	}
	return true
}

// escapes lists, per label a, the states of region ri within the
// disequalities, not terminal, where a is applicable and an outcome of a
// leaves the invariant or a variable's range.
func (d *differExport) escapes(ri int) ([][]symbolic.State, error) {
	m, g := d.m, d.g
	reg := &d.regs[ri].region
	n := len(m.Vars)
	lo, hi := make([]int, n), make([]int, n)
	for v := range n {
		lo[v], hi[v] = max(reg.lo[v], m.Vars[v].Lo), min(reg.hi[v], m.Vars[v].Hi)
		if lo[v] > hi[v] {
			return nil, nil
		}
	}
	earlier := make([][]int, n)
	for _, p := range d.pairs {
		earlier[p[1]] = append(earlier[p[1]], int(p[0]))
	}
	out := make([][]symbolic.State, len(m.Labels))
	hit := make([]bool, len(m.Labels))
	s := make(symbolic.State, n)
	nodes := 0
	var rec func(v int) error
	rec = func(v int) error {
		if v == n {
			if !reg.holds(s) {
				return nil
			}
			if d.states++; d.states > maxDifferStates {
				return fmt.Errorf("the regions hold more than %d states within the disequalities", maxDifferStates)
			}
			if d.states&0xfff == 0 && d.ctx.Err() != nil {
				return d.ctx.Err()
			}
			if g.Status(s) != explicit.Open {
				return nil // terminal: no successors
			}
			clear(hit)
			for ci := range m.Commands {
				c := &m.Commands[ci]
				if hit[c.Label] || !g.Guard(s, ci) {
					continue
				}
				for oi := range c.Outcomes {
					t, err := g.Apply(s, ci, oi)
					if err != nil || !d.inInv(t) {
						hit[c.Label] = true
						out[c.Label] = append(out[c.Label], slices.Clone(s))
						break
					}
				}
			}
			return nil
		}
	values:
		for k := lo[v]; k <= hi[v]; k++ {
			if nodes++; nodes > maxDifferNodes {
				return fmt.Errorf("the enumeration of the regions within the disequalities passed %d partial states", maxDifferNodes)
			}
			for _, u := range earlier[v] {
				if s[u] == k {
					continue values
				}
			}
			s[v] = k
			if err := rec(v + 1); err != nil {
				return err
			}
		}
		return nil
	}
	if err := rec(0); err != nil {
		return nil, err
	}
	return out, nil
}

// cover adds facts "a is never chosen within the disequalities" on
// sub-boxes of region ri that together hold every state of sts: the
// bounding box of sts when the fact checker proves it, else the parts of
// sts split by value along the variable where they spread least.
func (d *differExport) cover(ri int, a symbolic.LabelID, sts []symbolic.State) error {
	m := d.m
	reg := &d.regs[ri].region
	n := len(m.Vars)
	lo, hi := boundsOf(sts)
	if d.checks++; d.checks > maxDifferChecks {
		return fmt.Errorf("more than %d fact checks", maxDifferChecks)
	}
	sure := guardedThroughout(m, lo, hi)
	err := d.fc.Check(d.ctx, cert.Fact{Lo: lo, Hi: hi, Atoms: reg.atoms, Label: a, Sure: sure, Differ: d.pairs})
	if err == nil {
		var within []smt.Lit
		for v := range n {
			if lo[v] > reg.lo[v] {
				within = append(within, smt.Lit{Var: symbolic.VarID(v), K: lo[v]})
			}
			if hi[v] < reg.hi[v] {
				within = append(within, smt.Lit{Var: symbolic.VarID(v), Upper: true, K: hi[v]})
			}
		}
		d.facts = append(d.facts, BoxFact{Box: ri, Label: a, Sure: sure, Within: within, Differ: true})
		return nil
	}
	if e := d.ctx.Err(); e != nil {
		return e
	}
	if len(sts) == 1 {
		return fmt.Errorf("the policy fact at state %s, where an outcome of the label leaves the invariant, is not proved: %v", m.FormatState(sts[0]), err)
	}
	// Split along the variable with the fewest distinct values (at
	// least two) among sts: the escapes of one kind fix a few variables
	// (np3x3's blank and a tile beside it) and range over the others.
	keys, parts := splitStates(sts)
	for _, k := range keys {
		if err := d.cover(ri, a, parts[k]); err != nil {
			return err
		}
	}
	return nil
}

// boundsOf returns the bounding box of the states sts (at least one).
func boundsOf(sts []symbolic.State) (lo, hi symbolic.State) {
	lo, hi = slices.Clone(sts[0]), slices.Clone(sts[0])
	for _, s := range sts[1:] {
		for v := range s {
			lo[v], hi[v] = min(lo[v], s[v]), max(hi[v], s[v])
		}
	}
	return lo, hi
}

// splitStates splits the states sts (at least two distinct ones) by their
// value of the variable that takes the fewest distinct values (at least
// two) among them: the values in increasing order, and the states of each.
func splitStates(sts []symbolic.State) (keys []int, parts map[int][]symbolic.State) {
	best, bestN := -1, 0
	for v := range sts[0] {
		seen := map[int]bool{}
		for _, s := range sts {
			seen[s[v]] = true
		}
		if len(seen) > 1 && (best < 0 || len(seen) < bestN) {
			best, bestN = v, len(seen)
		}
	}
	parts = map[int][]symbolic.State{}
	for _, s := range sts {
		if _, ok := parts[s[best]]; !ok {
			keys = append(keys, s[best])
		}
		parts[s[best]] = append(parts[s[best]], s)
	}
	slices.Sort(keys)
	return keys, parts
}
