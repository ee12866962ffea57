package ppa

// Certificates of cubes too large to list state by state (more than
// maxCertStates): a cube whose literals are linear is a union of regions
// in ic3/cert's format, each a box (the bounds among its literals) and
// linear atoms (the rest: f <= k, f >= k; f == k is both; f != k splits
// the cube into the region below and the region above). A label the cube
// never chooses becomes a fact on each region, given the labels whose
// guard holds throughout the region's box (interval evaluation; the
// checker re-checks them by SMT), and the fact is re-checked here by
// ic3/cert's fact checker over the box and the atoms, the same check
// vigil cert check makes, so that a fact it cannot re-prove is split
// before it is written: the region's box is halved along its widest
// variable (the atoms kept), down to pieces small enough for the fact
// checker to enumerate, at most maxRegionPieces per cube. The facts are
// the engine's (the region search's answers), but what certifies them is
// the checker's own evaluation of the policy, not the engine's.

import (
	"context"
	"fmt"

	"vigil/ic3/cert"
	"vigil/smt"
	"vigil/symbolic"
)

// maxRegionSplits bounds the != literals of a cube exported as regions
// (each doubles its regions).
const maxRegionSplits = 6

// maxRegionPieces bounds the pieces one cube's regions are split into for
// their facts.
const maxRegionPieces = 1 << 12

// region is a box with linear atoms.
type region struct {
	lo, hi []int
	atoms  []symbolic.Atom
}

// lits returns the region as certificate literals.
func (g region) lits(m *symbolic.Model) []smt.Lit {
	ls := smt.Box(m, g.lo, g.hi)
	for _, a := range g.atoms {
		ls = append(ls, smt.FormLit(a.Form, a.Upper, a.K))
	}
	return ls
}

// cubeRegions returns the cube as regions; ok is false when a literal is
// not linear (or its form may leave int64 on the ranges) or the cube has
// more than maxRegionSplits != literals.
func cubeRegions(m *symbolic.Model, preds []*symbolic.Cond, vals []bool) ([]region, bool) {
	lo, hi := make([]int, len(m.Vars)), make([]int, len(m.Vars))
	for v := range m.Vars {
		lo[v], hi[v] = m.Vars[v].Lo, m.Vars[v].Hi
	}
	var atoms []symbolic.Atom
	var splits [][2]symbolic.Atom // f <= k-1 or f >= k+1
	bound := func(f *symbolic.Form, upper bool, k int) {
		ts := f.Terms()
		if len(ts) == 1 && (ts[0].Coef == 1 || ts[0].Coef == -1) {
			v := ts[0].Var
			if ts[0].Coef == -1 {
				upper, k = !upper, -k
			}
			if upper {
				hi[v] = min(hi[v], k)
			} else {
				lo[v] = max(lo[v], k)
			}
			return
		}
		atoms = append(atoms, symbolic.Atom{Form: f, Upper: upper, K: k})
	}
	for i, c := range preds {
		if c.Op == symbolic.CVar {
			if vals[i] {
				lo[c.Var] = max(lo[c.Var], 1)
			} else {
				hi[c.Var] = min(hi[c.Var], 0)
			}
			continue
		}
		if c.Op != symbolic.CCmp {
			return nil, false
		}
		l, ok := symbolic.Linearize(&symbolic.Expr{Op: symbolic.OpSub, Args: []*symbolic.Expr{c.L, c.R}})
		if !ok || !m.LinearFits(l) {
			return nil, false
		}
		cmp := c.Cmp
		if !vals[i] {
			cmp = cmp.Negate()
		}
		f := symbolic.NewForm(l.Terms)
		if f == nil {
			// A constant literal: it holds in every state or in none.
			if !cmp.Holds(l.Const, 0) {
				return nil, true
			}
			continue
		}
		if !f.Fits(m) {
			return nil, false
		}
		// Const + f cmp 0, that is f cmp -Const.
		k, ok := symbolic.SubExact(0, l.Const)
		if !ok {
			return nil, false
		}
		switch cmp {
		case symbolic.Le:
			bound(f, true, k)
		case symbolic.Lt:
			bound(f, true, k-1)
		case symbolic.Ge:
			bound(f, false, k)
		case symbolic.Gt:
			bound(f, false, k+1)
		case symbolic.Eq:
			bound(f, true, k)
			bound(f, false, k)
		case symbolic.Ne:
			splits = append(splits, [2]symbolic.Atom{{Form: f, Upper: true, K: k - 1}, {Form: f, Upper: false, K: k + 1}})
		}
	}
	if len(splits) > maxRegionSplits {
		return nil, false
	}
	for v := range lo {
		if lo[v] > hi[v] {
			return nil, true
		}
	}
	out := []region{{lo: lo, hi: hi, atoms: atoms}}
	for _, sp := range splits {
		var next []region
		for _, g := range out {
			for _, a := range sp {
				h := region{lo: append([]int(nil), g.lo...), hi: append([]int(nil), g.hi...), atoms: append(append([]symbolic.Atom(nil), g.atoms...), a)}
				ts := a.Form.Terms()
				if len(ts) == 1 && (ts[0].Coef == 1 || ts[0].Coef == -1) {
					// x != k: a bound of the box.
					h.atoms = h.atoms[:len(h.atoms)-1]
					upper, k := a.Upper, a.K
					if ts[0].Coef == -1 {
						upper, k = !upper, -k
					}
					if v := ts[0].Var; upper {
						h.hi[v] = min(h.hi[v], k)
					} else {
						h.lo[v] = max(h.lo[v], k)
					}
				}
				next = append(next, h)
			}
		}
		out = next
	}
	kept := out[:0]
	for _, g := range out {
		empty := false
		for v := range g.lo {
			empty = empty || g.lo[v] > g.hi[v]
		}
		if !empty {
			kept = append(kept, g)
		}
	}
	return kept, true
}

// regionFacts returns the pieces of region g, each with the facts "a is
// never chosen" for the labels never, re-checked by the fact checker;
// pieces is the count left for the cube.
func regionFacts(ctx context.Context, m *symbolic.Model, fc *cert.FactChecker, g region, never []symbolic.LabelID, pieces *int) ([]region, [][]BoxFact, error) {
	sure := guardedThroughout(m, g.lo, g.hi)
	var fs []BoxFact
	var failed error
	for _, a := range never {
		f := cert.Fact{Lo: g.lo, Hi: g.hi, Atoms: g.atoms, Label: a, Sure: sure}
		if err := fc.Check(ctx, f); err != nil {
			failed = err
			break
		}
		fs = append(fs, BoxFact{Label: a, Sure: sure})
	}
	if failed == nil {
		return []region{g}, [][]BoxFact{fs}, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	// Halve the widest variable.
	w, width := -1, 0
	for v := range g.lo {
		if d := g.hi[v] - g.lo[v]; d > width {
			w, width = v, d
		}
	}
	if w < 0 || *pieces <= 1 {
		return nil, nil, fmt.Errorf("a policy fact over a region of %v..%v is not re-proved: %v", g.lo, g.hi, failed)
	}
	*pieces--
	mid := g.lo[w] + width/2
	a, b := g, g
	a.hi = append([]int(nil), g.hi...)
	a.hi[w] = mid
	b.lo = append([]int(nil), g.lo...)
	b.lo[w] = mid + 1
	var out []region
	var facts [][]BoxFact
	for _, h := range []region{a, b} {
		gs, fss, err := regionFacts(ctx, m, fc, h, never, pieces)
		if err != nil {
			return nil, nil, err
		}
		out, facts = append(out, gs...), append(facts, fss...)
	}
	return out, facts, nil
}

// guardedThroughout lists the labels with a command whose guard holds in
// every state of the box (interval evaluation).
func guardedThroughout(m *symbolic.Model, lo, hi []int) []symbolic.LabelID {
	var out []symbolic.LabelID
	seen := make([]bool, len(m.Labels))
	for i := range m.Commands {
		c := &m.Commands[i]
		if !seen[c.Label] && (c.Guard == nil || symbolic.CondBox(c.Guard, lo, hi) == symbolic.BoxTrue) {
			seen[c.Label] = true
		}
	}
	for a, ok := range seen {
		if ok {
			out = append(out, symbolic.LabelID(a))
		}
	}
	return out
}
