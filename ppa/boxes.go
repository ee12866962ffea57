package ppa

// A safe answer as a certificate in ic3/cert's format: a union of boxes
// with policy facts, which vigil cert check checks independently (init,
// consecution per label given the facts, safety, and every fact against
// the policy by ic3/cert's own methods).
//
// A cube whose predicates each bound one variable (x <= k, x == k,
// Boolean variables) is a box, or a few boxes when it has x != k
// literals. Any other cube is listed state by state, when it has few
// states (the enumeration of states); otherwise, when its literals are
// linear, it is written as regions with linear atoms (regions.go). A label the cube never chooses becomes a fact on each of its
// boxes, given the labels applicable throughout the box; a fact that does
// not hold on a box as the checker states it (the label may lose only to
// labels applicable in part of the box) is split into one fact per state,
// where it is exact.

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"vigil/ic3/cert"
	"vigil/smt"
	"vigil/symbolic"
)

// maxCertStates bounds the states listed one by one in a certificate.
const maxCertStates = 1 << 16

// maxLargeStates bounds the states of a learned policy's cubes beyond
// maxCertStates that are listed one by one with their exact facts and
// merged into boxes where the facts agree (np3x3's cubes hold up to
// 120,960 states).
const maxLargeStates = 1 << 20

// BoxFact says: in box Box of a certificate (within the bounds Within,
// when not empty), Label is never chosen, given Sure are applicable
// throughout the box. Differ: only in the states that satisfy the
// certificate's disequalities (Certificate.Differ).
type BoxFact struct {
	Box    int
	Label  symbolic.LabelID
	Sure   []symbolic.LabelID
	Within []smt.Lit
	Differ bool
}

// ErrTooManyBoxes is the error of Boxes when the certificate would have
// more boxes than its limit.
var ErrTooManyBoxes = errors.New("ppa: the certificate has more boxes than the limit")

// Boxes converts the invariant of a safe answer into boxes (bound
// literals) and, for a learned policy pol (nil otherwise), the policy
// facts consecution needs, each re-checked with ic3/cert before it is
// returned. With limit > 0 it stops with ErrTooManyBoxes beyond limit
// boxes.
func Boxes(ctx context.Context, m *symbolic.Model, res *Result, pol symbolic.Policy, limit int) ([][]smt.Lit, []BoxFact, error) {
	var boxes [][]smt.Lit
	var facts []BoxFact
	listed, large := 0, 0
	var fc *cert.FactChecker
	if pol != nil {
		fc = cert.NewFactChecker(m, pol)
	}
	// addFactBoxes appends listed states' boxes with their facts.
	addFactBoxes := func(fbs []factBox) {
		for _, fb := range fbs {
			for _, f := range fb.facts {
				f.Box = len(boxes)
				facts = append(facts, f)
			}
			boxes = append(boxes, smt.Box(m, fb.lo, fb.hi))
		}
	}
	for ci, c := range res.Invariant {
		if limit > 0 && len(boxes) > limit {
			return nil, nil, ErrTooManyBoxes
		}
		bs, ok := cubeBoxes(m, res.Predicates, c.Values)
		counted := 0 // the cube's states counted in listed already
		if !ok {
			pts, ok := cubePoints(m, res.Predicates, c.Values, maxCertStates-listed)
			if !ok && pol != nil {
				// Too many states to list within maxCertStates: a
				// learned policy's exact facts per state, merged into
				// boxes, within maxLargeStates (the policy's choice
				// varies inside the cube, and the labels it never
				// chooses in the whole cube rarely close it).
				if pts, ok := cubePoints(m, res.Predicates, c.Values, maxLargeStates-large); ok {
					large += len(pts)
					fbs, err := pointFacts(ctx, m, pol, fc, pts, true)
					if err != nil {
						return nil, nil, fmt.Errorf("ppa: abstract state %d, %v", ci, err)
					}
					addFactBoxes(fbs)
					continue
				}
			}
			if !ok {
				// Too many states to list: the cube as regions with
				// linear atoms (regions.go).
				gs, ok := cubeRegions(m, res.Predicates, c.Values)
				if !ok {
					return nil, nil, fmt.Errorf("ppa: abstract state %d is not a box, has more states than the %d a certificate lists, and a literal that is not linear (or more than %d literals f != k)", ci, maxCertStates, maxRegionSplits)
				}
				pieces := maxRegionPieces
				for _, g := range gs {
					parts, fss := []region{g}, [][]BoxFact{nil}
					if pol != nil && len(c.Never) > 0 {
						var err error
						if parts, fss, err = regionFacts(ctx, m, fc, g, c.Never, &pieces); err != nil {
							return nil, nil, fmt.Errorf("ppa: abstract state %d: %v", ci, err)
						}
					}
					for i, h := range parts {
						for _, f := range fss[i] {
							f.Box = len(boxes)
							facts = append(facts, f)
						}
						boxes = append(boxes, h.lits(m))
					}
				}
				continue
			}
			listed += len(pts)
			bs = pts
			counted = len(pts)
		}
		if pol != nil {
			// A learned policy's choices vary inside a cube: where its
			// states can be listed, each is a box with the exact facts
			// of its state (every applicable label it does not choose),
			// so that consecution needs only the chosen label's steps.
			// Up to maxEnum states, one box per state; beyond, the
			// states' boxes merged where their facts agree (a cube
			// where the choice varies has few labels it never
			// chooses, too few for consecution on whole boxes).
			// (The states of a cube listed above are counted once.)
			left := maxCertStates - listed + counted
			pts, ok := cubePoints(m, res.Predicates, c.Values, min(maxEnum, left))
			merge := false
			if !ok {
				pts, ok = cubePoints(m, res.Predicates, c.Values, left)
				merge = true
			}
			if ok {
				listed += len(pts) - counted
				fbs, err := pointFacts(ctx, m, pol, fc, pts, merge)
				if err != nil {
					return nil, nil, fmt.Errorf("ppa: abstract state %d, %v", ci, err)
				}
				addFactBoxes(fbs)
				continue
			}
		}
		for _, b := range bs {
			if pol == nil || len(c.Never) == 0 {
				boxes = append(boxes, smt.Box(m, b[0], b[1]))
				continue
			}
			// Facts on the whole box, or state by state.
			parts := [][2][]int{b}
			fs, err := boxFacts(ctx, m, fc, b, c.Never)
			if err != nil {
				if size(b) > float64(maxCertStates-listed) {
					return nil, nil, fmt.Errorf("ppa: abstract state %d: %v", ci, err)
				}
				parts = points(b)
				listed += len(parts)
			}
			for _, p := range parts {
				if len(parts) > 1 {
					if fs, err = boxFacts(ctx, m, fc, p, c.Never); err != nil {
						return nil, nil, fmt.Errorf("ppa: abstract state %d, state %v: %v", ci, p[0], err)
					}
				}
				for _, f := range fs {
					f.Box = len(boxes)
					facts = append(facts, f)
				}
				boxes = append(boxes, smt.Box(m, p[0], p[1]))
			}
		}
	}
	return boxes, facts, nil
}

// pointFacts returns the one-state boxes pts with their exact facts,
// merged into larger boxes where their facts agree when merge is set.
func pointFacts(ctx context.Context, m *symbolic.Model, pol symbolic.Policy, fc *cert.FactChecker, pts [][2][]int, merge bool) ([]factBox, error) {
	fbs := make([]factBox, len(pts))
	for i, p := range pts {
		fs, err := stateFacts(ctx, m, pol, fc, p[0])
		if err != nil {
			return nil, fmt.Errorf("state %v: %v", p[0], err)
		}
		fbs[i] = factBox{lo: p[0], hi: p[1], facts: fs, members: []int{i}}
	}
	if !merge && noFacts(fbs) {
		// Where the policy never leaves an applicable label unchosen
		// (a network with one output, say), the one-state boxes say
		// nothing a merged box would not, and merging re-checks no
		// fact: thousands of one-state boxes made the checker's single
		// query take tens of seconds in Z3's preprocessing, which does
		// not heed an interrupt (FIGURES.md, session 21).
		merge = true
	}
	if merge {
		fbs = mergeFacts(ctx, fc, fbs)
	}
	return fbs, nil
}

// factBox is a box of a certificate with its facts; members are the
// one-state boxes it was merged from (indices into mergeFacts's input).
type factBox struct {
	lo, hi  []int
	facts   []BoxFact
	members []int
}

// mergeFacts merges one-state boxes with their exact facts into larger
// boxes: along each variable in turn, boxes that are adjacent in it, equal
// in every other, and have the same facts (the same labels never chosen
// given the same applicable labels) become one. Each fact of a merged box
// is re-checked on the whole box; where one does not hold as the checker
// states it, the box goes back to its one-state boxes.
func mergeFacts(ctx context.Context, fc *cert.FactChecker, pts []factBox) []factBox {
	if len(pts) < 2 {
		return pts
	}
	factKey := func(fs []BoxFact) string { return fmt.Sprint(fs) }
	cur := append([]factBox(nil), pts...)
	for d := range pts[0].lo {
		key := func(b factBox) string {
			lo, hi := append([]int(nil), b.lo...), append([]int(nil), b.hi...)
			lo[d], hi[d] = 0, 0
			return fmt.Sprint(lo, hi, factKey(b.facts))
		}
		sort.SliceStable(cur, func(i, j int) bool {
			ki, kj := key(cur[i]), key(cur[j])
			if ki != kj {
				return ki < kj
			}
			return cur[i].lo[d] < cur[j].lo[d]
		})
		var next []factBox
		for _, b := range cur {
			if n := len(next); n > 0 && key(next[n-1]) == key(b) && next[n-1].hi[d]+1 == b.lo[d] {
				last := &next[n-1]
				hi := append([]int(nil), last.hi...)
				hi[d] = b.hi[d]
				last.hi = hi
				last.members = append(last.members, b.members...)
				continue
			}
			next = append(next, b)
		}
		cur = next
	}
	var out []factBox
	for _, b := range cur {
		ok := true
		for _, f := range b.facts {
			if len(b.members) > 1 && fc.Check(ctx, cert.Fact{Lo: b.lo, Hi: b.hi, Label: f.Label, Sure: f.Sure}) != nil {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, b)
			continue
		}
		for _, i := range b.members {
			out = append(out, pts[i])
		}
	}
	return out
}

// stateFacts returns the facts of the one-state box s: every applicable
// label the policy does not choose there, re-checked.
func stateFacts(ctx context.Context, m *symbolic.Model, pol symbolic.Policy, fc *cert.FactChecker, s symbolic.State) ([]BoxFact, error) {
	app := make([]bool, len(m.Labels))
	m.Applicable(s, app)
	l, err := symbolic.Decide(pol, s, func(a symbolic.LabelID) bool { return app[a] }, nil)
	if err != nil {
		return nil, err
	}
	var sure, never []symbolic.LabelID
	for a, ok := range app {
		if ok {
			sure = append(sure, symbolic.LabelID(a))
			if symbolic.LabelID(a) != l {
				never = append(never, symbolic.LabelID(a))
			}
		}
	}
	var out []BoxFact
	for _, a := range never {
		if err := fc.Check(ctx, cert.Fact{Lo: s, Hi: s, Label: a, Sure: sure}); err != nil {
			return nil, err
		}
		out = append(out, BoxFact{Label: a, Sure: sure})
	}
	return out, nil
}

// boxFacts returns the facts "a never chosen" of box b for the labels
// never, given the labels applicable throughout b; an error when one does
// not hold as stated.
func boxFacts(ctx context.Context, m *symbolic.Model, fc *cert.FactChecker, b [2][]int, never []symbolic.LabelID) ([]BoxFact, error) {
	sure := surelyApplicable(m, b[0], b[1])
	var out []BoxFact
	for _, a := range never {
		f := cert.Fact{Lo: b[0], Hi: b[1], Label: a, Sure: sure}
		if err := fc.Check(ctx, f); err != nil {
			return nil, err
		}
		out = append(out, BoxFact{Label: a, Sure: sure})
	}
	return out, nil
}

// surelyApplicable lists the labels applicable in every state of the box
// (by enumeration when small, else none: the facts then need splitting).
func surelyApplicable(m *symbolic.Model, lo, hi []int) []symbolic.LabelID {
	if size([2][]int{lo, hi}) > maxEnum {
		return nil
	}
	all := make([]bool, len(m.Labels))
	for i := range all {
		all[i] = true
	}
	app := make([]bool, len(m.Labels))
	for _, s := range points([2][]int{lo, hi}) {
		m.Applicable(s[0], app)
		for i := range all {
			all[i] = all[i] && app[i]
		}
	}
	var out []symbolic.LabelID
	for i, ok := range all {
		if ok {
			out = append(out, symbolic.LabelID(i))
		}
	}
	return out
}

func size(b [2][]int) float64 {
	n := 1.0
	for v := range b[0] {
		n *= float64(b[1][v] - b[0][v] + 1)
	}
	return n
}

// points lists the states of box b as one-state boxes.
func points(b [2][]int) [][2][]int {
	var out [][2][]int
	s := append([]int(nil), b[0]...)
	for {
		p := append([]int(nil), s...)
		out = append(out, [2][]int{p, p})
		v := 0
		for v < len(s) && s[v] == b[1][v] {
			s[v] = b[0][v]
			v++
		}
		if v == len(s) {
			return out
		}
		s[v]++
	}
}

// cubeBoxes returns the cube as boxes when each predicate bounds one
// variable; ok is false otherwise.
func cubeBoxes(m *symbolic.Model, preds []*symbolic.Cond, vals []bool) (boxes [][2][]int, ok bool) {
	lo, hi := make([]int, len(m.Vars)), make([]int, len(m.Vars))
	for v := range m.Vars {
		lo[v], hi[v] = m.Vars[v].Lo, m.Vars[v].Hi
	}
	type hole struct{ v, k int }
	var holes []hole
	for i, c := range preds {
		switch {
		case c.Op == symbolic.CVar:
			if vals[i] {
				lo[c.Var] = max(lo[c.Var], 1)
			} else {
				hi[c.Var] = min(hi[c.Var], 0)
			}
		case c.Op == symbolic.CCmp && c.L.Op == symbolic.OpVar && c.R.Op == symbolic.OpConst && (c.Cmp == symbolic.Le || c.Cmp == symbolic.Eq):
			v, k := c.L.Var, c.R.K
			switch {
			case c.Cmp == symbolic.Le && vals[i]:
				hi[v] = min(hi[v], k)
			case c.Cmp == symbolic.Le:
				lo[v] = max(lo[v], k+1)
			case vals[i]:
				lo[v], hi[v] = max(lo[v], k), min(hi[v], k)
			default:
				holes = append(holes, hole{int(v), k})
			}
		default:
			return nil, false
		}
	}
	boxes = [][2][]int{{lo, hi}}
	for _, h := range holes {
		var next [][2][]int
		for _, b := range boxes {
			l, u := b[0][h.v], b[1][h.v]
			if h.k < l || h.k > u {
				next = append(next, b)
				continue
			}
			if h.k > l {
				nh := append([]int(nil), b[1]...)
				nh[h.v] = h.k - 1
				next = append(next, [2][]int{b[0], nh})
			}
			if h.k < u {
				nl := append([]int(nil), b[0]...)
				nl[h.v] = h.k + 1
				next = append(next, [2][]int{nl, b[1]})
			}
		}
		boxes = next
	}
	out := boxes[:0]
	for _, b := range boxes {
		empty := false
		for v := range b[0] {
			empty = empty || b[0][v] > b[1][v]
		}
		if !empty {
			out = append(out, b)
		}
	}
	return out, true
}

// cubePoints lists the states of the cube (within the bounding box of its
// single-variable predicates) as one-state boxes, at most limit of them.
func cubePoints(m *symbolic.Model, preds []*symbolic.Cond, vals []bool, limit int) ([][2][]int, bool) {
	// The bounding box from the bounds among the predicates.
	var bounds []*symbolic.Cond
	var bvals []bool
	for i, c := range preds {
		if c.Op == symbolic.CCmp && c.L.Op == symbolic.OpVar && c.R.Op == symbolic.OpConst && (c.Cmp == symbolic.Le || c.Cmp == symbolic.Eq) || c.Op == symbolic.CVar {
			bounds, bvals = append(bounds, c), append(bvals, vals[i])
		}
	}
	bs, _ := cubeBoxes(m, bounds, bvals)
	var out [][2][]int
	for _, b := range bs {
		if size(b) > float64(limit)*16 {
			return nil, false
		}
		for _, p := range points(b) {
			in := true
			for i, c := range preds {
				if c.Holds(p[0]) != vals[i] {
					in = false
					break
				}
			}
			if in {
				out = append(out, p)
				if len(out) > limit {
					return nil, false
				}
			}
		}
	}
	return out, true
}

// noFacts says whether no box of fbs has a fact.
func noFacts(fbs []factBox) bool {
	for _, fb := range fbs {
		if len(fb.facts) > 0 {
			return false
		}
	}
	return true
}
