package ic3

// Splitting an undecided certification (the PolIC3 issue: "APFT
// certifies a label over a region ...: split when that is undecided").
//
// The certifier answers over a whole region with a fixed effort (nn: a
// branch and bound of at most 20,000 boxes), so it may give up on a box
// where the label never wins because part of the box needs more work
// than the budget allows: a margin that vanishes near one end of the
// box (only evaluation decides there, state by state), or a box simply
// too large to enumerate within the budget when the margins are below
// what bounds can prove (a network whose scores differ by a few
// subnormals). Halving the region then hands each half the whole budget
// again: the halves the margins decide are certified at once, the
// undecided ones are halved again, and a small enough part is decided by
// the certifier's exact float64 evaluation of its states (the
// semantics). The number of certifier calls is bounded by the depth of
// the bisection, log2 of the region's states, not by a count of states:
// a region whose undecided part is a thin slice near one end costs two
// calls a level.
//
// Every certified part becomes a policy fact of its own (Fact.Within is
// the part), so the certificate checker re-checks each part, as small as
// the certifier needed it, and never the whole region at once.

import (
	"fmt"
	"math/bits"
	"slices"

	"vigil/symbolic"
)

// splitPart is a part of a split region where the label was certified
// never chosen: its box (b's linear atoms kept), the sure labels it was
// certified with, and whether it holds within D only (differ.go).
type splitPart struct {
	b      box
	sure   []symbolic.LabelID
	differ bool
}

// splitCalls is the budget of certifier calls of one split of a region
// whose bisection reaches single states at depth d: four a level, plus a
// few, so that two undecided halves a level (a slice of near-ties through
// the region) still reach the states.
func splitCalls(d int) int { return 4*d + 8 }

// bisectDepth is the number of halvings that take lo..hi to single
// states: the sum over the variables of ceil(log2(width)).
func bisectDepth(lo, hi []int) int {
	d := 0
	for i := range lo {
		if w := hi[i] - lo[i] + 1; w > 1 {
			d += bits.Len(uint(w - 1))
		}
	}
	return d
}

// halves splits the region b (bounding box lo..hi) in two on its widest
// variable (nil when it is a single state), at a multiple of the largest
// power of two (counted from the variable's least value) inside it: the
// parts are then the same dyadic intervals for every box that holds them,
// so that the cache answers for the parts a split of a neighbouring box
// certified before (generalization widens a box bound by bound, and a
// plain halving would cut each widened box elsewhere: on a network of
// subnormal margins, 4.2 s became 27 s, where aligned cuts cost nothing).
//
// The variables the policy reads (its inputs' terms) are cut first: the
// certifier's answer depends on a region through the policy's inputs
// (and the linear atoms), so a cut of a variable it does not read leaves
// both halves as undecided as the region while the budget halves (a model
// with a wide counter beside the network's one input stayed unknown at
// 40 s, against 0.1 s with the counter narrow:
// bench/adversarial/s27b_split_unread_wide_var). Only when those are
// single values are the others cut (parts small enough to evaluate
// their sure labels, concrete.go).
func (r *run) halves(b box, lo, hi []int) (box, box) {
	widest := func(read bool) (int, int) {
		v, w := -1, 0
		for i := range lo {
			if read && r.learned != nil && r.learned.reads != nil && !r.learned.reads[i] {
				continue
			}
			if hi[i]-lo[i] > w {
				v, w = i, hi[i]-lo[i]
			}
		}
		return v, w
	}
	v, _ := widest(true)
	if v < 0 {
		v, _ = widest(false)
	}
	if v < 0 {
		return nil, nil
	}
	base := r.m.Vars[v].Lo
	x, y := uint64(lo[v]-base), uint64(hi[v]-base)
	p := uint64(1) << (bits.Len64(x^y) - 1) // the highest bit where they differ
	m := base + int(y&^(p-1))               // in lo+1..hi
	h1, l2 := slices.Clone(hi), slices.Clone(lo)
	h1[v], l2[v] = m-1, m
	return r.subRegion(b, lo, h1), r.subRegion(b, l2, hi)
}

// splitExclude certifies label a over the region b by bisection, after
// the certifier was undecided over b itself (sure: b's sure labels). It
// returns the parts certified (breadth first, each with the sure labels
// of its own when it is small enough to evaluate them, concrete.go), and
// all when they cover b. It stops at a part where a wins (the certifier
// gives a state: b cannot be excluded whole) and when the budget of
// splitCalls runs out; the parts certified until then are returned
// either way, for APFT to block a's steps from them.
func (r *run) splitExclude(b box, a symbolic.LabelID, sure []symbolic.LabelID) (parts []splitPart, all bool, err error) {
	l := r.learned
	key := splitKey(b, a, sure)
	if ps, ok := l.splits[key]; ok && !r.opts.NoCertCache {
		r.stats.CertHits++
		return ps, true, nil
	}
	lo, hi := r.bounds(b)
	budget := splitCalls(bisectDepth(lo, hi))
	queue := []box{b}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		clo, chi := r.bounds(c)
		p1, p2 := r.halves(c, clo, chi)
		if p1 == nil {
			// a single state the certifier was undecided on: only an
			// evaluation that cannot be done (a NaN input) leaves it so
			return parts, false, nil
		}
		for _, p := range [...]box{p1, p2} {
			if budget == 0 || r.sv.ctx.Err() != nil {
				return parts, false, nil
			}
			budget--
			r.stats.SplitCalls++
			ps := sure
			if s, small := r.sureConcrete(p); small {
				ps = s
			}
			ok, w, err := r.excluded(p, a, ps)
			if err != nil {
				return parts, false, err
			}
			switch {
			case ok:
				parts = append(parts, splitPart{b: p, sure: ps, differ: r.lastDiffer})
			case w != nil:
				return parts, false, nil // a wins in p, so in b
			default:
				queue = append(queue, p)
			}
		}
	}
	if !r.opts.NoCertCache {
		l.splits[key] = parts
	}
	return parts, true, nil
}

// policyReads marks the variables that the policy's inputs read (nil
// when the declaration names no inputs: every variable counts).
func policyReads(m *symbolic.Model, d *symbolic.PolicyDecl) []bool {
	if d == nil || len(d.Inputs) == 0 {
		return nil
	}
	reads := make([]bool, len(m.Vars))
	for _, in := range d.Inputs {
		for _, t := range in.Terms {
			if int(t.Var) < len(reads) && t.Coef.Num != 0 {
				reads[t.Var] = true
			}
		}
	}
	return reads
}

// splitKey identifies a split of region b for label a given sure.
func splitKey(b box, a symbolic.LabelID, sure []symbolic.LabelID) string {
	return fmt.Sprintf("%s|%d|%v", boxKey(b), a, sure)
}

// blockParts blocks a's steps from each part in the call's query and
// records each part as a policy fact when they are collected.
func (c *apftCall) blockParts(a symbolic.LabelID, parts []splitPart) error {
	sv := c.r.sv
	for _, p := range parts {
		tmp := sv.st.Activation()
		c.tmps = append(c.tmps, tmp)
		if err := sv.st.BlockLabel(tmp, a, p.b); err != nil {
			return err
		}
		c.acts = append(c.acts, tmp)
		c.policy = append(c.policy, tmp)
		if c.facts != nil {
			*c.facts = append(*c.facts, Fact{Box: c.boxIndex, Label: a, Sure: p.sure, Within: p.b, Differ: p.differ})
		}
	}
	return nil
}
