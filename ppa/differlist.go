package ppa

// Cubes of a disequality certificate (differ.go) whose other literals are
// not linear (npuzzle's column tests blank - C*(blank/C) > 0): their
// states within the disequalities are listed (the placements, not the
// bounding box) and covered by boxes that hold, within the disequalities,
// only listed states.
//
// Listing them as one box per state (Boxes' way) gave np2x4 certificates
// of 14,000 one-state boxes and 21,000 facts under random networks, whose
// consecution query alone took the checker a minute: no two placements
// differ in a single variable, so Boxes' merging of adjacent states never
// merges one. Within the disequalities a box is a set of placements (the
// box fixing the blank and tile 1 holds 6! of them), so the listed states
// are covered instead by the bounding box of a group of them when every
// placement of that box is listed (checked by enumeration), else by the
// boxes of the group split by value along the variable where it spreads
// least, down to single states at worst. The union of the boxes within
// the disequalities is then exactly the union of the cubes' states: the
// invariant PPA found, written with fewer regions; vigil cert check
// checks it like any other (consecution by SMT, facts by enumeration).

import (
	"context"
	"encoding/binary"
	"fmt"
	"slices"

	"vigil/symbolic"
)

// differLister lists cubes' states within the disequalities and covers
// them with boxes.
type differLister struct {
	ctx     context.Context
	m       *symbolic.Model
	earlier [][]int // earlier[j]: the variables i < j that j must differ from
	set     map[string]int
	states  int // enumerated so far (listing and covering)
	nodes   int
	key     []byte
}

func newDifferLister(ctx context.Context, m *symbolic.Model, pairs [][2]symbolic.VarID) *differLister {
	n := len(m.Vars)
	earlier := make([][]int, n)
	for _, p := range pairs {
		i, j := min(int(p[0]), int(p[1])), max(int(p[0]), int(p[1]))
		earlier[j] = append(earlier[j], i)
	}
	return &differLister{ctx: ctx, m: m, earlier: earlier, set: map[string]int{}}
}

// stateKey returns s's key in set (valid until the next call).
func (l *differLister) stateKey(s symbolic.State) string {
	l.key = l.key[:0]
	for _, x := range s {
		l.key = binary.AppendVarint(l.key, int64(x))
	}
	return string(l.key)
}

// each calls fn on every state of lo..hi (within the ranges) that
// satisfies the disequalities, until fn returns false; an error when the
// enumeration passes maxDifferStates states or maxDifferNodes partial
// states in all, or the context ends.
func (l *differLister) each(lo, hi []int, fn func(s symbolic.State) bool) error {
	m := l.m
	n := len(m.Vars)
	lo2, hi2 := make([]int, n), make([]int, n)
	for v := range n {
		lo2[v], hi2[v] = max(lo[v], m.Vars[v].Lo), min(hi[v], m.Vars[v].Hi)
		if lo2[v] > hi2[v] {
			return nil
		}
	}
	s := make(symbolic.State, n)
	stop := false
	var rec func(v int) error
	rec = func(v int) error {
		if v == n {
			if l.states++; l.states > 4*maxDifferStates {
				return fmt.Errorf("listing the states of the abstract states within the disequalities passed %d states", 4*maxDifferStates)
			}
			if l.states&0xfff == 0 && l.ctx.Err() != nil {
				return l.ctx.Err()
			}
			stop = !fn(s)
			return nil
		}
	values:
		for k := lo2[v]; k <= hi2[v] && !stop; k++ {
			if l.nodes++; l.nodes > 4*maxDifferNodes {
				return fmt.Errorf("listing the states of the abstract states within the disequalities passed %d partial states", 4*maxDifferNodes)
			}
			for _, u := range l.earlier[v] {
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
	return rec(0)
}

// list adds the states within the disequalities of the cubes cis (preds
// with the values vals[i]; distinct valuations) to the listed states, and
// returns them: one enumeration of the bounding box of the cubes' bounds
// among preds, each state's valuation of preds looked up among the
// cubes'.
func (l *differLister) list(cis []int, preds []*symbolic.Cond, vals [][]bool) ([]symbolic.State, error) {
	n := len(l.m.Vars)
	lo, hi := make([]int, n), make([]int, n)
	for v := range n {
		lo[v], hi[v] = l.m.Vars[v].Hi, l.m.Vars[v].Lo
	}
	cube := map[string]int{}
	key := make([]byte, len(preds))
	for k, ci := range cis {
		var bounds []*symbolic.Cond
		var bvals []bool
		for i, c := range preds {
			if c.Op == symbolic.CCmp && c.L.Op == symbolic.OpVar && c.R.Op == symbolic.OpConst && (c.Cmp == symbolic.Le || c.Cmp == symbolic.Eq) || c.Op == symbolic.CVar {
				bounds, bvals = append(bounds, c), append(bvals, vals[k][i])
			}
		}
		bs, _ := cubeBoxes(l.m, bounds, bvals)
		for _, b := range bs {
			for v := range n {
				lo[v], hi[v] = min(lo[v], b[0][v]), max(hi[v], b[1][v])
			}
		}
		for i, x := range vals[k] {
			key[i] = 0
			if x {
				key[i] = 1
			}
		}
		cube[string(key)] = ci
	}
	var out []symbolic.State
	err := l.each(lo, hi, func(s symbolic.State) bool {
		for i, c := range preds {
			key[i] = 0
			if c.Holds(s) {
				key[i] = 1
			}
		}
		ci, ok := cube[string(key)]
		if !ok {
			return true
		}
		out = append(out, slices.Clone(s))
		l.set[l.stateKey(s)] = ci
		return len(l.set) <= maxDifferStates
	})
	if err != nil {
		return nil, err
	}
	if len(l.set) > maxDifferStates {
		return nil, fmt.Errorf("the abstract states hold more than %d states within the disequalities to list", maxDifferStates)
	}
	return out, nil
}

// cover appends to regs boxes that together hold the states sts (listed)
// and, within the disequalities, no state that is not listed: the
// bounding box of sts when every state of it within the disequalities is
// listed, else the covers of sts split by value along the variable where
// they spread least. limit > 0 bounds the regions.
func (l *differLister) cover(sts []symbolic.State, regs []differRegion, limit int) ([]differRegion, error) {
	lo, hi := boundsOf(sts)
	all := true
	if len(sts) > 1 {
		err := l.each(lo, hi, func(s symbolic.State) bool {
			_, ok := l.set[l.stateKey(s)]
			all = all && ok
			return all
		})
		if err != nil {
			return nil, err
		}
	}
	if all {
		if limit > 0 && len(regs) >= limit {
			return nil, ErrTooManyBoxes
		}
		return append(regs, differRegion{region: region{lo: lo, hi: hi}, cube: l.set[l.stateKey(sts[0])], listed: true}), nil
	}
	keys, parts := splitStates(sts)
	var err error
	for _, k := range keys {
		if regs, err = l.cover(parts[k], regs, limit); err != nil {
			return nil, err
		}
	}
	return regs, nil
}
