package bdd

// Counterexamples. A trace walks back from the unsafe state t of the last
// set (layer D, or the slice of step D) to a start state, one predecessor
// a step: at step k it tries the labels, their commands and their outcomes
// in order, and of the first (label, command, outcome) with a predecessor
// of t in the set of step k (open, chosen by the policy, the guard
// enabled) it picks one with pick, which follows the BDD to its least
// assignment (current bits by level, 0 before 1).
//
// Done with BDD operations, a step builds the cube of t, a conjunction per
// label and command, and a pre-image per outcome; each result is a rudd
// handle with a Go finalizer, so on a chain of 10^5 steps of one state
// each, the handles and the finalizers they register cost more than the
// sets themselves (FIGURES.md). When the set of step k has at most
// traceStates states, the step is taken explicitly instead: the states of
// the set are enumerated (Allsat, which makes no nodes), each is checked
// against the same BDDs (open, the policy's choice, the guards, each
// outcome's next = value relation with t's value as next bits), evaluated
// on a read-only copy of their nodes taken once per trace, and of the
// first (label, command, outcome) that has a predecessor, the least one in
// pick's order is kept. The BDDs and the order are pick's, so the
// predecessor is the one the BDD operations give, and the counterexample
// does not change (TestTraceStepsExact).
//
// The sets themselves come from traceSets: the layers of forward
// reachability, or squaring's slices (closure.go), which keep only the
// slices at window boundaries and build a window's slices again when the
// walk enters it, so that the trace holds about 3√D handles instead of
// D.

import (
	"encoding/binary"

	"vigil/internal/vigilerr"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// traceStates bounds the sets whose predecessor step is explicit (a
// variable so that tests can set it: 0 makes every step symbolic).
var traceStates = 256

// traceSets are the sets a trace walks back through: set(k) holds the
// states of step k it may pick from, for k = 0..depth().
type traceSets interface {
	depth() int
	set(k int) stepSet
}

// stepSet is the set of one step: a BDD, or the list of its states (x
// nil) when they were found explicitly.
type stepSet struct {
	x      Node
	states []symbolic.State
}

// layerSets are the layers of forward reachability.
type layerSets []Node

func (l layerSets) depth() int        { return len(l) - 1 }
func (l layerSets) set(k int) stepSet { return stepSet{x: l[k]} }

// explicitSteps counts the trace steps taken explicitly (for tests).
var explicitSteps int

// trace walks back from t (in the last set) through the sets to a start
// state, one predecessor per step.
func (sp *space) trace(p *policyEnc, sets traceSets, t symbolic.State) ([]explicit.Step, error) {
	run := []explicit.Step{{State: t, Label: symbolic.NoLabel, Cmd: -1, Outcome: -1}}
	var st *stepper
	if traceStates > 0 {
		st = sp.newStepper(p)
	}
	for k := sets.depth() - 1; k >= 0; k-- {
		x := sets.set(k)
		var step explicit.Step
		ok := false
		if st != nil {
			step, ok = st.step(x, t)
		}
		if ok {
			explicitSteps++
		} else {
			if x.x == nil {
				x.x = sp.states(x.states)
			}
			step, ok = sp.symbolicStep(p, x.x, t)
		}
		if !ok {
			return nil, vigilerr.Internalf("bdd", "no predecessor of %s in layer %d", sp.M.FormatState(t), k)
		}
		run = append(run, step)
		t = step.State
	}
	for i, j := 0, len(run)-1; i < j; i, j = i+1, j-1 {
		run[i], run[j] = run[j], run[i]
	}
	return run, nil
}

// symbolicStep returns the predecessor of t in x by BDD operations (see
// the file's notes); ok is false when there is none.
func (sp *space) symbolicStep(p *policyEnc, x Node, t symbolic.State) (explicit.Step, bool) {
	m := sp.m
	tc := sp.cube(t)
	src := m.and(x, sp.open)
	for l := range sp.M.Labels {
		sl := sp.chosen(p, l, src)
		for _, ci := range sp.byLabel[l] {
			sc := m.and(sl, sp.cmds[ci].guard)
			if m.isFalse(sc) {
				continue
			}
			for oi := range sp.cmds[ci].outs {
				pre := m.and(sc, sp.pre(&sp.cmds[ci].outs[oi], tc))
				if m.isFalse(pre) {
					continue
				}
				return explicit.Step{State: sp.pick(pre), Label: symbolic.LabelID(l), Cmd: ci, Outcome: oi}, true
			}
		}
	}
	return explicit.Step{}, false
}

// dag is a read-only copy of the nodes below some roots, with dense
// indices (0 is False, 1 is True), for evaluating them on assignments
// without rudd calls.
type dag struct {
	level     []int32
	low, high []int32
}

// eval follows node n under the assignment bit (by level).
func (d *dag) eval(n int32, bit []bool) bool {
	for n > 1 {
		if bit[d.level[n]] {
			n = d.high[n]
		} else {
			n = d.low[n]
		}
	}
	return n == 1
}

// stepper takes trace steps explicitly (see the file's notes).
type stepper struct {
	sp    *space
	d     dag
	open  int32
	pol   []int32 // per label, the policy's choice (nil: no policy)
	guard []int32 // per command
	outs  [][]stepOut
	// dup: some outcome assigns a variable twice, which the pre-image
	// reads differently from an evaluation: every step is symbolic.
	dup bool

	order  []levelBit // current bits, by level
	bit    []bool     // the assignment: current bits of a candidate, next bits of t
	states []symbolic.State
}

type stepOut struct {
	eq       []int32 // per assigned variable: next = value
	assigned []bool  // per variable
}

type levelBit struct {
	level, v, i int
}

// newStepper copies the nodes of the BDDs a step evaluates.
func (sp *space) newStepper(p *policyEnc) *stepper {
	m := sp.m
	st := &stepper{sp: sp, bit: make([]bool, sp.nvars)}
	var roots []Node
	root := func(n Node) int32 {
		roots = append(roots, n)
		return int32(len(roots) - 1)
	}
	st.open = root(sp.open)
	if p != nil {
		for l := range sp.M.Labels {
			st.pol = append(st.pol, root(p.choose[l]))
		}
	}
	for ci := range sp.cmds {
		c := &sp.cmds[ci]
		st.guard = append(st.guard, root(c.guard))
		var outs []stepOut
		for oi := range c.outs {
			o := &c.outs[oi]
			so := stepOut{assigned: make([]bool, len(sp.vars))}
			for j, v := range o.vars {
				if so.assigned[v] {
					st.dup = true
				}
				so.assigned[v] = true
				so.eq = append(so.eq, root(o.eq[j]))
			}
			outs = append(outs, so)
		}
		st.outs = append(st.outs, outs)
	}
	g := m.graph(roots...)
	dense := map[int]int32{0: 0, 1: 1}
	st.d.level, st.d.low, st.d.high = make([]int32, 2, len(g.level)+2), make([]int32, 2, len(g.level)+2), make([]int32, 2, len(g.level)+2)
	for id := range g.level {
		if id > 1 {
			dense[id] = int32(len(st.d.level))
			st.d.level = append(st.d.level, g.level[id])
			st.d.low = append(st.d.low, 0)
			st.d.high = append(st.d.high, 0)
		}
	}
	for id, n := range dense {
		if id > 1 {
			st.d.low[n], st.d.high[n] = dense[g.low[id]], dense[g.high[id]]
		}
	}
	fix := func(r *int32) { *r = dense[*roots[*r]] }
	fix(&st.open)
	for l := range st.pol {
		fix(&st.pol[l])
	}
	for ci := range st.guard {
		fix(&st.guard[ci])
		for oi := range st.outs[ci] {
			for j := range st.outs[ci][oi].eq {
				fix(&st.outs[ci][oi].eq[j])
			}
		}
	}
	levels, varOf, bitOf := sp.levelOrder()
	for _, l := range levels {
		st.order = append(st.order, levelBit{l, varOf[l], bitOf[l]})
	}
	return st
}

// enumerate sets st.states to the states of x; false when x has more than
// traceStates of them.
func (st *stepper) enumerate(x Node) bool {
	sp := st.sp
	st.states = st.states[:0]
	if n := sp.count(x); !n.IsInt64() || n.Int64() > int64(traceStates) {
		return false
	}
	var free []levelBit
	err := sp.m.b.Allsat(func(prof []int) error {
		free = free[:0]
		s := make(symbolic.State, len(sp.vars))
		for _, lb := range st.order {
			switch prof[lb.level] {
			case 1:
				s[lb.v] |= 1 << uint(lb.i)
			case -1:
				free = append(free, lb)
			}
		}
		for c := 0; c < 1<<uint(len(free)); c++ {
			y := append(symbolic.State(nil), s...)
			for j, lb := range free {
				if c>>uint(j)&1 == 1 {
					y[lb.v] |= 1 << uint(lb.i)
				}
			}
			for v := range y {
				y[v] += sp.vars[v].lo
			}
			st.states = append(st.states, y)
		}
		return nil
	}, x)
	return err == nil && len(st.states) <= traceStates
}

// setBits writes the bits of state s at the levels of the given copy
// (current or next bits).
func (st *stepper) setBits(s symbolic.State, next bool) {
	for v := range st.sp.vars {
		ve := &st.sp.vars[v]
		levels := ve.cur
		if next {
			levels = ve.next
		}
		u := uint64(s[v] - ve.lo)
		for i, l := range levels {
			st.bit[l] = u>>uint(i)&1 == 1
		}
	}
}

// less orders states as pick does: by current bits in level order, 0
// first.
func (st *stepper) less(a, b symbolic.State) bool {
	for _, lb := range st.order {
		lo := st.sp.vars[lb.v].lo
		x, y := uint64(a[lb.v]-lo)>>uint(lb.i)&1, uint64(b[lb.v]-lo)>>uint(lb.i)&1
		if x != y {
			return x < y
		}
	}
	return false
}

// step returns the predecessor of t in x that symbolicStep returns; ok is
// false when x has too many states to enumerate, or an outcome assigns a
// variable twice (the caller then takes the step symbolically) or when
// there is no predecessor.
func (st *stepper) step(x stepSet, t symbolic.State) (explicit.Step, bool) {
	sp := st.sp
	states := x.states
	if x.x != nil {
		if st.dup || !st.enumerate(x.x) {
			return explicit.Step{}, false
		}
		states = st.states
	}
	st.setBits(t, true)
	best := explicit.Step{Label: symbolic.NoLabel}
	bestRank := -1 // the rank of best's (label, command, outcome) in the order tried
	for _, s := range states {
		st.setBits(s, false)
		if !st.d.eval(st.open, st.bit) {
			continue
		}
		rank := 0
	labels:
		for l := range sp.M.Labels {
			if bestRank >= 0 && rank > bestRank {
				break
			}
			chosen := st.pol == nil || st.d.eval(st.pol[l], st.bit)
			for _, ci := range sp.byLabel[l] {
				if !chosen || !st.d.eval(st.guard[ci], st.bit) {
					rank += len(st.outs[ci])
					continue
				}
				for oi := range st.outs[ci] {
					if bestRank >= 0 && rank > bestRank {
						break labels
					}
					if st.leadsTo(&st.outs[ci][oi], s, t) {
						if bestRank < 0 || rank < bestRank || st.less(s, best.State) {
							best = explicit.Step{State: s, Label: symbolic.LabelID(l), Cmd: ci, Outcome: oi}
							bestRank = rank
						}
						break labels
					}
					rank++
				}
			}
		}
	}
	return best, bestRank >= 0
}

// leadsTo reports whether outcome o takes s to t in the encoding: every
// variable it does not assign is unchanged, and each assigned one's next
// = value relation holds with t's value as next bits (st.bit holds s's
// current bits and t's next bits).
func (st *stepper) leadsTo(o *stepOut, s, t symbolic.State) bool {
	for v := range s {
		if !o.assigned[v] && s[v] != t[v] {
			return false
		}
	}
	for _, e := range o.eq {
		if !st.d.eval(e, st.bit) {
			return false
		}
	}
	return true
}

// successors returns the successors of the states xs by the relation of
// squaring (policyRelation: from the open states, by the commands of the
// label the policy chooses), without duplicates, each checked against the
// BDDs as in step; ok is false when there are more than traceStates of
// them, or when an outcome's value cannot be checked that way (the
// explicit engine finds it out of range, or the encoding disagrees: the
// caller then builds the set with BDDs).
func (st *stepper) successors(xs []symbolic.State) (out []symbolic.State, ok bool) {
	sp := st.sp
	if st.dup {
		return nil, false
	}
	seen := map[string]bool{}
	var key []byte
	for _, s := range xs {
		st.setBits(s, false)
		if !st.d.eval(st.open, st.bit) {
			continue
		}
		for l := range sp.M.Labels {
			if st.pol != nil && !st.d.eval(st.pol[l], st.bit) {
				continue
			}
			for _, ci := range sp.byLabel[l] {
				if !st.d.eval(st.guard[ci], st.bit) {
					continue
				}
				for oi := range st.outs[ci] {
					t, err := sp.g.Apply(s, ci, oi)
					if err != nil {
						return nil, false
					}
					st.setBits(t, true)
					if !st.leadsTo(&st.outs[ci][oi], s, t) {
						return nil, false
					}
					key = key[:0]
					for _, v := range t {
						key = binary.AppendVarint(key, int64(v))
					}
					if !seen[string(key)] {
						seen[string(key)] = true
						if out = append(out, t); len(out) > traceStates {
							return nil, false
						}
					}
				}
			}
		}
	}
	return out, true
}
