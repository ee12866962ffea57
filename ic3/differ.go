package ic3

// Environment invariants of pairwise disequality (all-different).
//
// In a model where every step permutes values among variables (the
// sliding-tile puzzle: a move swaps the blank with a tile), the states a
// run reaches keep their variables pairwise different, but the boxes IC3
// learns cannot say so: a box holds states with two tiles on one cell,
// where a learned policy may well take the step that a real state never
// sees. differPairs finds, before the main loop, the set D of pairs
// (v_i, v_j) such that v_i != v_j holds in every start state and D as a
// whole is inductive under the model's transitions for every label (the
// policy plays no part: Houdini's fixpoint over the candidate pairs).
// D contains the start states and is closed under successors, so every
// frame may be intersected with it: the run's solver asserts D over the
// current state, and the invariant of a safe answer is D ∧ (the union of
// the boxes), which the certificate states (vigil.differ).
//
// Where the certifier cannot exclude a label over a region, the states of
// the region that satisfy D are enumerated (a backtracking enumerator
// that prunes on the disequalities, up to differBudget states) and the
// policy evaluated on each; if none chooses the label, the exclusion holds
// within D, a fact marked as such (Fact.Differ), which the certificate
// checker re-checks by its own enumeration.

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"vigil/smt"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// Limits of the disequality invariants.
const (
	// differCandidates is the most candidate pairs Houdini starts from:
	// beyond it (a model of more than about 25 variables with overlapping
	// ranges) no pairs are looked for.
	differCandidates = 400
	// differTime bounds Houdini's time; when it runs out D is empty.
	differTime = 5 * time.Second
	// differBudget is the most states of a region within D that a
	// certification by enumeration evaluates; beyond it the region is
	// left undecided.
	differBudget = 50000
	// differNodes bounds the enumerator's partial assignments, so that a
	// region whose pruning leaves few complete states but many dead ends
	// cannot cost more than a few budgets.
	differNodes = 4 * differBudget
)

// differPairs computes D (see the file comment) for m under prop: the
// pairs of integer variables with overlapping ranges that differ in every
// start state and whose disequalities together are inductive under every
// label's transitions. It gives up (no pairs, no error) on a model with
// too many candidates, a solver that answers unknown, or when differTime
// or ctx runs out.
//
// g, when not nil, drops candidates by evaluation before any SMT: those
// a start state violates (when the start states' bounding box is small)
// and those a step breaks from sampled states that satisfy the remaining
// candidates (Houdini's own rule, on states found by evaluation); when
// none is left no solver is made. A model without such pairs then pays
// a few thousand evaluations, not a Z3 context (10-60 ms on bench/polic3's
// small instances, whose runs take 10-30 ms).
func differPairs(ctx context.Context, m *symbolic.Model, prop *symbolic.Property, g *explicit.Generator) ([][2]symbolic.VarID, error) {
	var cand [][2]symbolic.VarID
	for i := range m.Vars {
		for j := i + 1; j < len(m.Vars); j++ {
			a, b := &m.Vars[i], &m.Vars[j]
			if a.Lo <= b.Hi && b.Lo <= a.Hi {
				cand = append(cand, [2]symbolic.VarID{symbolic.VarID(i), symbolic.VarID(j)})
			}
		}
	}
	if len(cand) == 0 || len(cand) > differCandidates || prop == nil {
		return nil, nil
	}
	if g != nil {
		if cand = sampleDrop(ctx, m, g, cand); len(cand) == 0 {
			return nil, nil
		}
	}
	ctx, cancel := context.WithTimeout(ctx, differTime)
	defer cancel()
	d, err := houdini(ctx, m, prop, cand)
	if err != nil && ctx.Err() != nil {
		// differTime or the run's end stopped the encoding (the term
		// constructors poll ctx, smt.Context.StopWhen) or a push or an
		// assertion: no pairs, as when a check is stopped. Since session
		// 31 the stop made PolIC3 fail with "smt: encoding stopped" where
		// a timeout landed in this encoding (s31y_differ_stop_test.go).
		return nil, nil
	}
	return d, err
}

// houdini is differPairs' SMT part, from the candidates left by
// sampleDrop, under ctx (which bounds it by differTime).
func houdini(ctx context.Context, m *symbolic.Model, prop *symbolic.Property, cand [][2]symbolic.VarID) ([][2]symbolic.VarID, error) {
	x, err := smt.NewContext()
	if err != nil {
		return nil, err
	}
	defer x.Close()
	x.StopWhen(ctx)
	e, err := smt.NewEncoder(x, m)
	if err != nil {
		return nil, err
	}
	tr, err := e.Transition(smt.TransOptions{Property: prop})
	if err != nil {
		return nil, err
	}
	var init smt.Term
	if prop.Start != nil {
		init = e.Cond(prop.Start, e.Cur)
	} else {
		st, err := m.InitialState()
		if err != nil {
			return nil, err
		}
		init = e.State(st, e.Cur)
	}
	// (a solver without z3Tuning)
	sv, err := x.NewSolver()
	if err != nil {
		return nil, err
	}
	defer sv.Close()
	ne := func(vs []smt.Term, p [2]symbolic.VarID) smt.Term { return x.Ne(vs[p[0]], vs[p[1]]) }
	unknown := false
	// ask reports whether f is satisfiable under the assertions.
	ask := func(f smt.Term) bool {
		if err := sv.Push(); err != nil {
			unknown = true
			return true
		}
		defer sv.Pop(1)
		if err := sv.Assert(f); err != nil {
			unknown = true
			return true
		}
		res, err := sv.CheckContext(ctx)
		if err != nil || res == smt.Unknown {
			unknown = true
			return true
		}
		return res == smt.Sat
	}
	// Start states: drop the pairs some start state violates.
	if err := sv.Push(); err != nil {
		return nil, err
	}
	if err := sv.Assert(x.And(e.InRange(e.Cur), init)); err != nil {
		return nil, err
	}
	var d [][2]symbolic.VarID
	for _, p := range cand {
		if !ask(x.Eq(e.Cur[p[0]], e.Cur[p[1]])) {
			d = append(d, p)
		}
		if unknown {
			return nil, nil
		}
	}
	if err := sv.Pop(1); err != nil {
		return nil, err
	}
	// Consecution: drop the pairs some step from D breaks, until none is.
	if err := sv.Assert(x.And(e.InRange(e.Cur), tr.Formula)); err != nil {
		return nil, err
	}
	for changed := true; changed && len(d) > 0; {
		changed = false
		var cur []smt.Term
		for _, p := range d {
			cur = append(cur, ne(e.Cur, p))
		}
		dCur := x.And(cur...)
		var keep [][2]symbolic.VarID
		for _, p := range d {
			if ask(x.And(dCur, x.Eq(e.Next[p[0]], e.Next[p[1]]))) {
				changed = true
			} else {
				keep = append(keep, p)
			}
			if unknown {
				return nil, nil
			}
		}
		d = keep
	}
	if err := x.Err(); err != nil {
		return nil, err
	}
	return d, nil
}

// differSamples is the number of states sampleDrop tries.
const differSamples = 2000

// sampleDrop drops the candidate pairs that evaluation refutes: a pair
// some start state violates (the start states are enumerated when their
// bounding box has at most fewStarts states), then, Houdini's rule, a
// pair that a step from a state satisfying every remaining candidate
// breaks, on differSamples states drawn at random (each variable in turn
// from its range, avoiding the values of the earlier variables it must
// differ from) and on the start states.
func sampleDrop(ctx context.Context, m *symbolic.Model, g *explicit.Generator, cand [][2]symbolic.VarID) [][2]symbolic.VarID {
	var starts []symbolic.State
	if lo, hi, found := g.StartBounds(); found {
		n := 1
		for i := range lo {
			if n *= max(hi[i]-lo[i]+1, 1); n > fewStarts {
				break
			}
		}
		if n <= fewStarts {
			_ = g.StartsContext(ctx, func(s symbolic.State) bool {
				starts = append(starts, slices.Clone(s))
				cand = slices.DeleteFunc(cand, func(p [2]symbolic.VarID) bool { return s[p[0]] == s[p[1]] })
				return len(cand) > 0 && len(starts) < fewStarts
			})
		}
	}
	rng := rand.New(rand.NewPCG(1, uint64(len(m.Vars))))
	s := make(symbolic.State, len(m.Vars))
	// step drops the pairs a step from s breaks; s satisfies cand.
	step := func(s symbolic.State) {
		if g.Status(s) != explicit.Open {
			return
		}
		for c := range m.Commands {
			if !g.Guard(s, c) {
				continue
			}
			for o := range m.Commands[c].Outcomes {
				t, err := g.Apply(s, c, o)
				if err != nil {
					continue // a range error: a bad state, never in the invariant
				}
				cand = slices.DeleteFunc(cand, func(p [2]symbolic.VarID) bool { return t[p[0]] == t[p[1]] })
			}
		}
	}
	for _, st := range starts {
		if len(cand) == 0 {
			return nil
		}
		step(st)
	}
	for k := 0; k < differSamples && len(cand) > 0; k++ {
		if k%256 == 0 && ctx.Err() != nil {
			break
		}
		d := newDiffer(cand, len(m.Vars))
		ok := true
		for v := range s {
			lo, hi := m.Vars[v].Lo, m.Vars[v].Hi
			for try := 0; ; try++ {
				if try == 8 {
					ok = false
					break
				}
				s[v] = lo + rng.IntN(hi-lo+1)
				clash := false
				for _, u := range d.earlier[v] {
					clash = clash || s[u] == s[v]
				}
				if !clash {
					break
				}
			}
			if !ok {
				break
			}
		}
		if ok {
			step(s)
		}
	}
	return cand
}

// differ is a run's disequality invariant D: pairs, and per variable the
// variables it must differ from (an earlier index only, for the
// enumerator).
type differ struct {
	pairs   [][2]symbolic.VarID
	earlier [][]symbolic.VarID // earlier[j]: the i < j with (i, j) in D
}

func newDiffer(pairs [][2]symbolic.VarID, n int) *differ {
	if len(pairs) == 0 {
		return nil
	}
	d := &differ{pairs: pairs, earlier: make([][]symbolic.VarID, n)}
	for _, p := range pairs {
		i, j := min(p[0], p[1]), max(p[0], p[1])
		d.earlier[j] = append(d.earlier[j], i)
	}
	return d
}

// holds reports whether s satisfies D (true for no D).
func (d *differ) holds(s symbolic.State) bool {
	if d == nil {
		return true
	}
	for _, p := range d.pairs {
		if s[p[0]] == s[p[1]] {
			return false
		}
	}
	return true
}

// each calls f on every state of the box lo..hi that satisfies D, in
// lexicographic order, until f returns false; it reports false when the
// enumeration was cut short by f or by the budgets (more than
// differBudget states or differNodes partial assignments).
func (d *differ) each(lo, hi []int, f func(symbolic.State) bool) bool {
	return d.eachUpTo(lo, hi, differBudget, f)
}

// eachUpTo is each with budget in place of differBudget (and four times
// as many partial assignments).
func (d *differ) eachUpTo(lo, hi []int, budget int, f func(symbolic.State) bool) bool {
	n := len(lo)
	s := make(symbolic.State, n)
	states, nodes := 0, 0
	var rec func(v int) bool
	rec = func(v int) bool {
		if v == n {
			states++
			if states > budget {
				return false
			}
			return f(s)
		}
	next:
		for k := lo[v]; k <= hi[v]; k++ {
			nodes++
			if nodes > differNodes/differBudget*budget {
				return false
			}
			for _, u := range d.earlier[v] {
				if s[u] == k {
					continue next
				}
			}
			s[v] = k
			if !rec(v + 1) {
				return false
			}
		}
		return true
	}
	for v := range lo {
		if lo[v] > hi[v] {
			return true
		}
	}
	return rec(0)
}

// atLeast returns a lower bound on the number of states of the box
// lo..hi that satisfy D (capped at twice differBudget): taking the
// variables in order of their widths, the smallest first, each has at
// least its width less the variables before it that it must differ from
// (each of them rules out at most one value), whatever those took.
func (d *differ) atLeast(lo, hi []int) int {
	n := len(lo)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return (hi[a] - lo[a]) - (hi[b] - lo[b]) })
	pos := make([]int, n)
	for k, v := range order {
		pos[v] = k
	}
	before := make([]int, n) // D-neighbours earlier in order
	for _, p := range d.pairs {
		i, j := int(p[0]), int(p[1])
		if pos[i] < pos[j] {
			before[j]++
		} else {
			before[i]++
		}
	}
	count := 1
	for _, v := range order {
		c := hi[v] - lo[v] + 1 - before[v]
		if c <= 0 {
			return 0
		}
		count *= c
		if count > 2*differBudget {
			return 2 * differBudget
		}
	}
	return count
}

// inD reports whether s lies in the run's disequality invariant (always
// without one).
func (r *run) inD(s symbolic.State) bool { return r.differ.holds(s) }

// excludedWithin decides by enumeration whether label a is never chosen
// in the states of the region lo..hi ∧ atoms that satisfy D, given sure:
// the policy's float64 scores in each state, a chosen when one of its
// outputs qualifies (not NaN, not -Inf) and no rival output (sure, or
// every output under argmax all) qualifies with a higher score or an equal
// one at a smaller output index; this is the fact's meaning, which
// ic3/cert re-checks the same way. ok is false when a is chosen somewhere
// (w is such a state) or the region is too large (w nil).
func (l *learned) excludedWithin(d *differ, lo, hi []int, atoms []symbolic.Atom, a symbolic.LabelID, sure []symbolic.LabelID) (ok bool, w symbolic.State, err error) {
	outs := l.pol.Outputs()
	var label, rivals []int
	riv := l.pol.Params().Decl.Rivals(sure)
	for i, o := range outs {
		switch {
		case o == a:
			label = append(label, i)
		case slices.Contains(riv, o):
			rivals = append(rivals, i)
		}
	}
	if len(label) == 0 {
		return true, nil, nil
	}
	// A region surely beyond the budget costs nothing; count the others
	// first, so that one beyond it costs no evaluation.
	if len(atoms) == 0 && d.atLeast(lo, hi) > differBudget {
		return false, nil, nil
	}
	if !d.each(lo, hi, func(symbolic.State) bool { return true }) {
		return false, nil, nil
	}
	sc := make([]float64, len(outs))
	complete := d.each(lo, hi, func(s symbolic.State) bool {
		for _, at := range atoms {
			if !at.Holds(s) {
				return true
			}
		}
		if err = l.pol.Scores(s, sc); err != nil {
			return false
		}
		if chosenGiven(sc, label, rivals) {
			w = slices.Clone(s)
			return false
		}
		return true
	})
	if err != nil || w != nil {
		return false, w, err
	}
	return complete, nil, nil
}

// chosenGiven reports whether one of the outputs label may be chosen with
// scores sc against the outputs rivals (see excludedWithin).
func chosenGiven(sc []float64, label, rivals []int) bool {
	for _, i := range label {
		if !qualifies(sc[i]) {
			continue
		}
		beaten := false
		for _, j := range rivals {
			if qualifies(sc[j]) && (sc[j] > sc[i] || sc[j] == sc[i] && j < i) {
				beaten = true
				break
			}
		}
		if !beaten {
			return true
		}
	}
	return false
}

// qualifies reports whether a score can be chosen at all (symbolic.Choose:
// not NaN, not -Inf).
func qualifies(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, -1) }
