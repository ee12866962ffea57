package ppa

import (
	"fmt"
	"sort"

	"vigil/smt"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// encodeBase builds the terms every abstraction shares: the step relation
// per label, applicability, the policy's choice and the bad region over
// the current state.
func (r *engine) encodeBase() error {
	e, x, m := r.e, r.x, r.m
	r.nonterm = x.Not(e.Terminal(r.prop, e.Cur))
	r.app = e.Applicable(e.Cur)
	var err error
	if r.chosen, r.side, err = r.ch.chosen(e.Cur); err != nil {
		return err
	}
	r.trans = make([]smt.Term, len(m.Labels))
	r.steps = make([]smt.Term, len(m.Labels))
	for a := range m.Labels {
		r.steps[a] = x.And(r.nonterm, r.step(e.Cur, e.Next, symbolic.LabelID(a)))
		r.trans[a] = x.And(r.chosen[a], r.steps[a])
	}
	r.bad, err = r.badAt(e.Cur, r.chosen)
	if err != nil {
		return err
	}
	r.unsafe = e.Cond(r.prop.Unsafe, e.Cur)
	for a := range m.Labels {
		re, err := e.RangeError(smt.TransOptions{Labels: []symbolic.LabelID{symbolic.LabelID(a)}}, e.Cur)
		if err != nil {
			return err
		}
		r.rangeErr = append(r.rangeErr, re)
	}
	return x.Err()
}

// step is "an outcome of a command of label a leads from vs to ws" (ws in
// range), without the policy.
func (r *engine) step(vs, ws []smt.Term, a symbolic.LabelID) smt.Term {
	return r.stepIn(r.e, vs, ws, a)
}

// stepIn is step with the encoder e (of a context of its own).
func (r *engine) stepIn(e *smt.Encoder, vs, ws []smt.Term, a symbolic.LabelID) smt.Term {
	x, m := e.X, r.m
	var cmds []smt.Term
	for ci := range m.Commands {
		c := &m.Commands[ci]
		if c.Label != a {
			continue
		}
		var outs []smt.Term
		for oi := range c.Outcomes {
			o := &c.Outcomes[oi]
			val := make([]smt.Term, len(vs))
			copy(val, vs)
			for _, as := range o.Assigns {
				val[as.Var] = e.Expr(as.Value, vs)
			}
			eqs := make([]smt.Term, len(ws))
			for v := range ws {
				eqs[v] = x.Eq(ws[v], val[v])
			}
			outs = append(outs, x.And(eqs...))
		}
		cmds = append(cmds, x.And(e.Cond(c.Guard, vs), x.Or(outs...)))
	}
	return x.And(x.Or(cmds...), e.InRange(ws))
}

// badAt is the bad region over vs: unsafe, or not terminal with a label
// the policy may choose (chosen, over vs) that has an outcome leaving a
// variable's range.
func (r *engine) badAt(vs []smt.Term, chosen []smt.Term) (smt.Term, error) {
	return r.badAtIn(r.e, vs, chosen)
}

// badAtIn is badAt with the encoder e.
func (r *engine) badAtIn(e *smt.Encoder, vs []smt.Term, chosen []smt.Term) (smt.Term, error) {
	x, m := e.X, r.m
	if !r.mayLeaveRange() {
		return e.Cond(r.prop.Unsafe, vs), x.Err()
	}
	var errs []smt.Term
	for a := range m.Labels {
		re, err := e.RangeError(smt.TransOptions{Labels: []symbolic.LabelID{symbolic.LabelID(a)}}, vs)
		if err != nil {
			return smt.Term{}, err
		}
		errs = append(errs, x.And(chosen[a], re))
	}
	return x.Or(e.Cond(r.prop.Unsafe, vs), x.And(x.Not(e.Terminal(r.prop, vs)), x.Or(errs...))), x.Err()
}

// mayLeaveRange reports whether some outcome's assignment may leave its
// variable's range (by interval bounds; false means never), or some
// outcome has a state-dependent probability, whose factors may leave
// [0, 1] (symbolic.Outcome.BadProb, a range error of the outcome).
func (r *engine) mayLeaveRange() bool {
	m := r.m
	for ci := range m.Commands {
		for _, o := range m.Commands[ci].Outcomes {
			if o.StateProb() {
				return true
			}
			for _, a := range o.Assigns {
				v := &m.Vars[a.Var]
				if lo, hi := m.Bounds(a.Value); lo < v.Lo || hi > v.Hi {
					return true
				}
			}
		}
	}
	return false
}

// startAt is the start condition over vs.
func (r *engine) startAt(vs []smt.Term) (smt.Term, error) {
	return r.startAtIn(r.e, vs)
}

// startAtIn is startAt with the encoder e.
func (r *engine) startAtIn(e *smt.Encoder, vs []smt.Term) (smt.Term, error) {
	if r.prop.Start != nil {
		return e.Cond(r.prop.Start, vs), nil
	}
	s0, err := r.m.InitialState()
	if err != nil {
		return smt.Term{}, fmt.Errorf("ppa: %v", err)
	}
	return e.State(s0, vs), nil
}

// abstraction is the abstract state space of one predicate set.
type abstraction struct {
	r *engine
	n int // predicates
	s *solver
	// free, for a learned policy, holds the states in range and the
	// steps without the policy (under the step literals), and the cube
	// being expanded as s does: the queries that read a state from a
	// model and do not ask about the policy (start cubes, successor
	// candidates, witnesses) go there, since Z3's model of s holds the
	// network's encoding, which cost every model read (Decode) 0.5-1 ms
	// on be3 (27% of be3_32x32_safe's CPU time). nil: s serves. So do
	// the other checks without the policy (applicability, the unsafe
	// and range-error parts of the bad region, the sure labels): on s,
	// with the policy's literal free, Z3 spent 40 s (under load) on one
	// applicability check over 200 trees (trees/FIGURES.md's stop
	// model), and they answered Unknown once a policy query had lost
	// s (solver.go).
	free   *solver
	pc, pn []smt.Term // predicates over Cur and Next
	lab    []smt.Term // per label: activates trans[a] (and pol)
	step   []smt.Term // per label: activates the step without the policy
	pol    smt.Term   // activates the policy's side constraints
	nodes  []*node
	index  map[string]int
}

// node is a reached abstract state.
type node struct {
	vals   []bool
	key    string
	parent int // -1 for start cubes
	depth  int // breadth-first layer: 0 for start cubes
	label  symbolic.LabelID
	never  []symbolic.LabelID
}

func (r *engine) newAbstraction() (*abstraction, error) {
	e, x := r.e, r.x
	ab := &abstraction{r: r, n: len(r.preds.list), index: map[string]int{}}
	for _, p := range r.preds.list {
		ab.pc = append(ab.pc, e.Cond(p.c, e.Cur))
		ab.pn = append(ab.pn, e.Cond(p.c, e.Next))
	}
	// The policy's side constraints only under an activation literal:
	// queries that do not ask about the policy (start cubes, the bad
	// region's unsafe part, applicability) do not see the network.
	ab.pol = x.Keep(x.BoolConst(fmt.Sprintf("ppa.i%d.pol", r.stats.Iterations)))
	asserts := []smt.Term{e.InRange(e.Cur), x.Implies(ab.pol, x.And(r.side...))}
	for a := range r.m.Labels {
		l := x.Keep(x.BoolConst(fmt.Sprintf("ppa.i%d.lab%d", r.stats.Iterations, a)))
		ab.lab = append(ab.lab, l)
		asserts = append(asserts, x.Implies(l, x.And(ab.pol, r.trans[a])))
		st := x.Keep(x.BoolConst(fmt.Sprintf("ppa.i%d.step%d", r.stats.Iterations, a)))
		ab.step = append(ab.step, st)
		asserts = append(asserts, x.Implies(st, r.steps[a]))
	}
	if err := x.Err(); err != nil {
		return nil, err
	}
	// Built at its first Push (solver.go) and internalized there by a
	// check without the policy, which the run's stop can give up.
	var err error
	if ab.s, err = r.newSolver(asserts, true, x.Not(ab.pol)); err != nil {
		return nil, err
	}
	if r.cert != nil {
		free := []smt.Term{e.InRange(e.Cur)}
		for a := range r.m.Labels {
			free = append(free, x.Implies(ab.step[a], r.steps[a]))
		}
		if err := x.Err(); err != nil {
			ab.s.Close()
			return nil, err
		}
		if ab.free, err = r.newSolver(free, true); err != nil {
			ab.s.Close()
			return nil, err
		}
	}
	return ab, nil
}

// freeSolver returns the solver of the queries without the policy.
func (ab *abstraction) freeSolver() *solver {
	if ab.free != nil {
		return ab.free
	}
	return ab.s
}

// cube is the conjunction of the predicate literals of vals over ts.
func (ab *abstraction) cube(vals []bool, ts []smt.Term) smt.Term {
	x := ab.r.x
	lits := make([]smt.Term, len(vals))
	for i, v := range vals {
		lits[i] = ts[i]
		if !v {
			lits[i] = x.Not(ts[i])
		}
	}
	return x.And(lits...)
}

// values reads the cube of the state vs (e.Cur or e.Next) in the model
// of the last check: the state is read from the model and the predicates
// evaluated on it (valsOf), which costs far less than Z3's evaluation of
// the predicates' terms in the model (be3_16x16_safe: 19.6 of 65 CPU s).
func (ab *abstraction) values(s *solver, vs []smt.Term) ([]bool, error) {
	st, err := ab.r.e.Decode(s.Solver, vs)
	if err != nil {
		return nil, err
	}
	return ab.r.valsOf(st, ab.n), nil
}

// allCubes enumerates the cubes of the state Cur (next false) or Next
// of the models of the solver s's assertions plus assumptions, calling f
// for each; the blocking clauses live in a scope of their own.
func (ab *abstraction) allCubes(s *solver, next bool, f func(vals []bool) error, assumptions ...smt.Term) error {
	r, x := ab.r, ab.r.x
	vs, ts := r.e.Cur, ab.pc
	if next {
		vs, ts = r.e.Next, ab.pn
	}
	if err := s.Push(); err != nil {
		return err
	}
	defer s.Pop(1)
	seen := map[string]bool{}
	for {
		res, err := r.check(s.Solver, assumptions...)
		if err != nil {
			return err
		}
		switch res {
		case smt.Unknown:
			return errUnknown
		case smt.Unsat:
			return nil
		}
		vals, err := ab.values(s, vs)
		if err != nil {
			return err
		}
		if seen[key(vals)] {
			// The cube was blocked, yet the model's state lies in it:
			// Z3's encoding of a predicate and its evaluation in Go
			// disagree on this state. The cube of Z3's own
			// evaluation is reported too (more cubes keep the
			// abstraction an over-approximation) and blocked, so that
			// the enumeration ends as it did before cubes were read in
			// Go.
			if vals, err = ab.termValues(s, ts); err != nil {
				return err
			}
		}
		seen[key(vals)] = true
		if err := f(vals); err != nil {
			return err
		}
		if err := s.Assert(x.Not(ab.cube(vals, ts))); err != nil {
			return err
		}
	}
}

// termValues reads the predicates' terms ts in the model of the last
// check.
func (ab *abstraction) termValues(s *solver, ts []smt.Term) ([]bool, error) {
	out := make([]int64, len(ts))
	if err := s.Eval(ts, out); err != nil {
		return nil, err
	}
	vals := make([]bool, len(ts))
	for i, v := range out {
		vals[i] = v != 0
	}
	return vals, nil
}

// add adds the cube vals, reached from node parent (-1: a start cube) by
// label, unless it is a node already; it returns its index and whether
// it is new.
func (ab *abstraction) add(vals []bool, parent int, label symbolic.LabelID) (int, bool) {
	k := key(vals)
	if i, ok := ab.index[k]; ok {
		return i, false
	}
	depth := 0
	if parent >= 0 {
		depth = ab.nodes[parent].depth + 1
	}
	ab.nodes = append(ab.nodes, &node{vals: vals, key: k, parent: parent, label: label, depth: depth})
	ab.index[k] = len(ab.nodes) - 1
	return len(ab.nodes) - 1, true
}

// addAll adds the cubes cs as add does, in the order of their keys: the
// order of the SMT models that found them is the solver's, and it would
// make the exploration's order, and so the paths it returns, depend on
// the queries asked before.
func (ab *abstraction) addAll(cs [][]bool, parent int, label symbolic.LabelID) {
	sortCubes(cs)
	for _, c := range cs {
		ab.add(c, parent, label)
	}
}

// sortCubes sorts cubes by their keys (false before true, the first
// predicate first).
func sortCubes(cs [][]bool) {
	sort.Slice(cs, func(a, b int) bool {
		x, y := cs[a], cs[b]
		for i := range min(len(x), len(y)) {
			if x[i] != y[i] {
				return y[i]
			}
		}
		return len(x) < len(y)
	})
}

// maxPaths bounds the abstract paths that one exploration returns.
const maxPaths = 256

// explore searches the abstract state space breadth first. It returns
// the paths (node indices from a start cube) to the cubes of the first
// breadth-first layer that meet the bad region (at most maxPaths, in node
// order), none when no cube does, or a Result (unknown) when it stopped.
//
// Every bad cube of that layer is returned, not only the first one found,
// and the successor cubes of a node are added in the order of their keys
// (not in the order of the SMT models that found them): the paths, and so
// the course of the refinement, depend on the abstraction alone, not on
// the solver's state, which every query asked before changes (session 15:
// be3_trees_safe took 4 iterations or more than 11 as queries that the
// region search answers without SMT were asked or not).
func (ab *abstraction) explore() (paths [][]int, res *Result, err error) {
	r, s := ab.r, ab.s
	defer func() {
		r.stats.AbstractStates = len(ab.nodes)
		r.sizes = append(r.sizes, ab.n)
		s.Close()
		if ab.free != nil {
			ab.free.Close()
		}
		if err == errUnknown {
			res, err = r.solverUnknown(), nil
		}
	}()
	r.stats.Transitions = 0
	start, err := r.startAt(r.e.Cur)
	if err != nil {
		return nil, nil, err
	}
	fs := ab.freeSolver()
	if err := fs.Push(); err != nil {
		return nil, nil, err
	}
	if err := fs.Assert(start); err != nil {
		return nil, nil, err
	}
	var starts [][]bool
	if sts, ok := r.startStates(); ok {
		// The cubes of the start states, by evaluation.
		for _, st := range sts {
			starts = append(starts, r.valsOf(st, ab.n))
		}
	} else if starts, err = ab.startCubes(); err != nil {
		return nil, nil, err
	}
	if len(starts) == 0 {
		// as in bfs, bdd and ic3: "safe", the vacuous answer, would
		// hide a mistake in the start condition
		pos := r.prop.Pos
		if r.prop.Start != nil && r.prop.Start.Pos.IsValid() {
			pos = r.prop.Start.Pos
		}
		return nil, nil, fmt.Errorf("ppa: %s: no state satisfies the start condition of property %s; check its bounds against the variables' ranges", pos, r.prop.Name)
	}
	ab.addAll(starts, -1, symbolic.NoLabel)
	if err := fs.Pop(1); err != nil {
		return nil, nil, err
	}
	var bad []int
	for i := 0; i < len(ab.nodes); i++ {
		if err := r.ctx.Err(); err != nil {
			return nil, r.unknown(ctxReason(r.ctx)), nil
		}
		if len(bad) > 0 && (ab.nodes[i].depth > ab.nodes[bad[0]].depth || len(bad) == maxPaths) {
			break
		}
		if len(bad) == 0 && r.opts.MaxStates > 0 && len(ab.nodes) > r.opts.MaxStates {
			return nil, r.unknown(fmt.Sprintf("abstract state limit %d", r.opts.MaxStates)), nil
		}
		r.stats.AbstractStates = len(ab.nodes)
		r.progress()
		// After a bad cube, the rest of its layer is only tested.
		hit, err := ab.visit(i, len(bad) > 0)
		if err != nil {
			return nil, nil, err
		}
		if hit {
			bad = append(bad, i)
		}
	}
	for _, b := range bad {
		var path []int
		for j := b; j >= 0; j = ab.nodes[j].parent {
			path = append(path, j)
		}
		for a, b := 0, len(path)-1; a < b; a, b = a+1, b-1 {
			path[a], path[b] = path[b], path[a]
		}
		paths = append(paths, path)
	}
	return paths, nil, nil
}

// visit reports whether node i's cube meets the bad region, and otherwise,
// unless onlyBad, adds its successors.
func (ab *abstraction) visit(i int, onlyBad bool) (hit bool, err error) {
	r, s := ab.r, ab.s
	nd := ab.nodes[i]
	if sts, ok := r.states(nd.vals); ok {
		if onlyBad {
			for _, st := range sts {
				if r.isBad(st) {
					return true, nil
				}
			}
			return false, nil
		}
		return ab.expandStates(i, sts)
	}
	if err := s.Push(); err != nil {
		return false, err
	}
	if err := s.Assert(ab.cube(nd.vals, ab.pc)); err != nil {
		return false, err
	}
	if ab.free != nil {
		if err := ab.free.Push(); err != nil {
			return false, err
		}
		if err := ab.free.Assert(ab.cube(nd.vals, ab.pc)); err != nil {
			return false, err
		}
	}
	if r.cert != nil {
		hit, err = ab.expandLearned(i, onlyBad)
	} else {
		hit, err = ab.expand(i, onlyBad)
	}
	if err != nil {
		return false, err
	}
	if ab.free != nil {
		if err := ab.free.Pop(1); err != nil {
			return false, err
		}
	}
	return hit, s.Pop(1)
}

// expand handles node i, whose cube is asserted: it reports whether the
// cube meets the bad region, else (unless onlyBad) adds its successors.
func (ab *abstraction) expand(i int, onlyBad bool) (bool, error) {
	r, s := ab.r, ab.s
	nd := ab.nodes[i]
	assume := []smt.Term{r.bad}
	if r.mayLeaveRange() {
		assume = append(assume, ab.pol)
	}
	res, err := r.check(s.Solver, assume...)
	if err != nil {
		return false, err
	}
	switch res {
	case smt.Unknown:
		return false, errUnknown
	case smt.Sat:
		return true, nil
	}
	if onlyBad {
		return false, nil
	}
	for a := range r.m.Labels {
		l := symbolic.LabelID(a)
		// Applicability first (cheap), then the policy's choice.
		if ok, err := ab.mayTake(nd, l); err != nil || !ok {
			if err != nil {
				return false, err
			}
			continue
		}
		if r.decl != nil {
			res, err = r.check(s.Solver, ab.pol, r.chosen[a])
			if err != nil {
				return false, err
			}
			if res == smt.Unknown {
				return false, errUnknown
			}
			if res == smt.Unsat {
				nd.never = append(nd.never, l)
				r.impossible[cacheKey(ab.n, nd.key, symbolic.LabelID(a))] = neverChosen
				continue
			}
		}
		var succ [][]bool
		err = ab.allCubes(s, true, func(vals []bool) error {
			succ = append(succ, vals)
			return nil
		}, ab.lab[a])
		if err != nil {
			return false, err
		}
		r.stats.Transitions += len(succ)
		ab.addAll(succ, i, l)
	}
	return false, nil
}

// cached reports whether an earlier abstraction showed label a impossible
// (not applicable or never chosen) on a cube containing this one (its
// predicates are a prefix of the current ones).
func (ab *abstraction) cached(vals []bool, a symbolic.LabelID) uint8 {
	k := key(vals)
	for _, n := range ab.r.sizes {
		if n > len(k) {
			continue
		}
		if why := ab.r.impossible[cacheKey(n, k[:n], a)]; why != 0 {
			return why
		}
	}
	return 0
}

// mayTake reports whether label l is worth asking about in node nd's cube
// (asserted in ab.s and ab.free; the check goes to the latter): false
// where the cache already knows that l is not applicable or never chosen
// there (the latter recorded in nd.never), or where an SMT check shows
// that l is applicable nowhere in the cube (then cached). An undecided
// check is errUnknown.
func (ab *abstraction) mayTake(nd *node, l symbolic.LabelID) (bool, error) {
	r := ab.r
	if why := ab.cached(nd.vals, l); why != 0 {
		r.stats.CacheHits++
		if why == neverChosen {
			nd.never = append(nd.never, l)
		}
		return false, nil
	}
	res, err := r.check(ab.freeSolver().Solver, r.nonterm, r.app[l])
	if err != nil {
		return false, err
	}
	if res == smt.Unknown {
		return false, errUnknown
	}
	if res == smt.Unsat {
		r.impossible[ab.cacheKey(nd, l)] = notApplicable
		return false, nil
	}
	return true, nil
}

func cacheKey(n int, cube string, a symbolic.LabelID) string {
	return fmt.Sprint(n, " ", cube, " ", a)
}

// Why a label is impossible in a cube (the transition-test cache).
const (
	notApplicable uint8 = 1 + iota
	neverChosen
)

// invariant lists the reached cubes.
func (ab *abstraction) invariant() []Cube {
	inv := make([]Cube, len(ab.nodes))
	for i, nd := range ab.nodes {
		inv[i] = Cube{Values: nd.vals, Never: nd.never}
	}
	return inv
}

// maxEnum bounds the states of a cube that certificates list state by
// state (boxes.go).
const maxEnum = 1 << 12

// maxCube bounds the states of a cube that expand and concretize handle
// by enumeration (the policy's float64 choice state by state, exact)
// rather than by SMT: a cube whose predicates relate several variables
// (npuzzle's p[i] != p[j]) may hold a few thousand states in a box of
// millions, and evaluating the policy on each costs far less than one SMT
// query over a network's encoding.
const maxCube = 1 << 16

// maxNodes bounds the partial states that enumerate visits for one cube.
const maxNodes = 1 << 21

// maxScan bounds the variables' ranges that startStates scans for the
// start states.
const maxScan = 1 << 18

// maxCached bounds the states that states keeps across calls.
const maxCached = 1 << 20

// states returns the states of the cube vals when it has at most maxCube
// of them (enumerate). Without a learned policy, whose SMT queries are
// cheap (and whose unsat cores refine better than separation), only
// cubes whose bounding box has at most maxEnum states are enumerated.
func (r *engine) states(vals []bool) ([]symbolic.State, bool) {
	k := key(vals)
	if sts, ok := r.enum[k]; ok {
		return sts, sts != nil || r.enumEmpty[k]
	}
	sts, ok := r.enumerate(vals)
	if r.enum == nil {
		r.enum, r.enumEmpty = map[string][]symbolic.State{}, map[string]bool{}
	}
	if !ok || r.cached+len(sts) <= maxCached {
		r.cached += len(sts)
		r.enum[k] = sts
		r.enumEmpty[k] = ok && sts == nil
	}
	return sts, ok
}

// enumerate lists the states of the cube vals by a depth-first search
// over the variables of its bounding box (from its single-variable
// predicates), the last variable outermost, checking each predicate as
// soon as the variables it reads are set; ok is false beyond maxCube
// states or maxNodes partial states (Options.cubeLimit, nodeLimit).
func (r *engine) enumerate(vals []bool) ([]symbolic.State, bool) {
	lo, hi, size := r.box(vals)
	if r.opts.NoEnumeration || (r.cert == nil && size > maxEnum) {
		return nil, false
	}
	if size == 0 {
		return nil, true
	}
	return r.search(vals, lo, hi)
}

// search is enumerate's depth-first search over the box lo..hi.
func (r *engine) search(vals []bool, lo, hi []int) ([]symbolic.State, bool) {
	cubeLimit, nodeLimit := maxCube, maxNodes
	if r.opts.cubeLimit > 0 {
		cubeLimit = r.opts.cubeLimit
	}
	if r.opts.nodeLimit > 0 {
		nodeLimit = r.opts.nodeLimit
	}
	return r.searchWithin(vals, lo, hi, cubeLimit, nodeLimit)
}

// searchWithin is search with its bounds: ok is false beyond cubeLimit
// states or nodeLimit partial states.
func (r *engine) searchWithin(vals []bool, lo, hi []int, cubeLimit, nodeLimit int) ([]symbolic.State, bool) {
	n := len(lo)
	// at[v]: the predicates whose first variable read is v (at[n]: those
	// that read none), checked once v .. n-1 are set.
	at := make([][]int, n+1)
	for p := range vals {
		v := r.firstVar(p)
		if v < 0 {
			v = n
		}
		at[v] = append(at[v], p)
	}
	holds := func(v int, s symbolic.State) bool {
		for _, p := range at[v] {
			if r.holds(p, s) != vals[p] {
				return false
			}
		}
		return true
	}
	s := append(symbolic.State(nil), lo...)
	if !holds(n, s) {
		return nil, true
	}
	var out []symbolic.State
	nodes := 0
	var dfs func(v int) bool // false: a bound was hit
	dfs = func(v int) bool {
		if v < 0 {
			if len(out) == cubeLimit {
				return false
			}
			out = append(out, append(symbolic.State(nil), s...))
			return true
		}
		for k := lo[v]; k <= hi[v]; k++ {
			if nodes++; nodes > nodeLimit {
				return false
			}
			s[v] = k
			if holds(v, s) && !dfs(v-1) {
				return false
			}
		}
		s[v] = lo[v]
		return true
	}
	if !dfs(n - 1) {
		return nil, false
	}
	return out, true
}

// firstVar returns the least variable predicate p reads (-1: none).
func (r *engine) firstVar(p int) int {
	for len(r.firstVars) <= p {
		c := r.preds.list[len(r.firstVars)].c
		v := -1
		c.Vars(func(u symbolic.VarID) {
			if v < 0 || int(u) < v {
				v = int(u)
			}
		})
		r.firstVars = append(r.firstVars, v)
	}
	return r.firstVars[p]
}

// maxStarts bounds the start states that startStates lists.
const maxStarts = 1 << 16

// startStates returns the start states: the initial state where the
// property has no start condition; otherwise, when the variables' ranges
// span at most maxScan states and at most maxStarts of them are start
// states, those (found once, by scanning the ranges). ok is false
// otherwise: the start cubes are then found by SMT.
func (r *engine) startStates() ([]symbolic.State, bool) {
	if r.startsDone {
		return r.starts, r.startsOK
	}
	r.startsDone = true
	m := r.m
	if r.opts.NoEnumeration {
		return nil, false
	}
	if r.prop.Start == nil {
		// The initial state (startAt), when it lies in range.
		s0, err := m.InitialState()
		if err != nil {
			return nil, false
		}
		r.startsOK = true
		if m.InRange(s0) < 0 {
			r.starts = []symbolic.State{s0}
		}
		return r.starts, true
	}
	lo, hi := make([]int, len(m.Vars)), make([]int, len(m.Vars))
	size := 1.0
	for v := range m.Vars {
		lo[v], hi[v] = m.Vars[v].Lo, m.Vars[v].Hi
		size *= float64(hi[v] - lo[v] + 1)
	}
	if size > maxScan {
		return nil, false
	}
	s := append(symbolic.State(nil), lo...)
	for {
		if r.isStart(s) {
			if len(r.starts) == maxStarts {
				r.starts = nil
				return nil, false
			}
			r.starts = append(r.starts, append(symbolic.State(nil), s...))
		}
		v := 0
		for v < len(s) && s[v] == hi[v] {
			s[v] = lo[v]
			v++
		}
		if v == len(s) {
			r.startsOK = true
			return r.starts, true
		}
		s[v]++
	}
}

// valsOf returns the values of the first n predicates in s.
func (r *engine) valsOf(s symbolic.State, n int) []bool {
	vals := make([]bool, n)
	for p := range vals {
		vals[p] = r.holds(p, s)
	}
	return vals
}

// box returns the bounding box of the cube vals that its single-variable
// predicates give, and its number of states (0: empty).
func (r *engine) box(vals []bool) (lo, hi []int, size float64) {
	m := r.m
	lo, hi = make([]int, len(m.Vars)), make([]int, len(m.Vars))
	for v := range m.Vars {
		lo[v], hi[v] = m.Vars[v].Lo, m.Vars[v].Hi
	}
	for i, p := range r.preds.list[:len(vals)] {
		c := p.c
		if c.Op != symbolic.CCmp || c.L.Op != symbolic.OpVar || c.R.Op != symbolic.OpConst {
			continue
		}
		v, k := c.L.Var, c.R.K
		switch {
		case c.Cmp == symbolic.Le && vals[i]:
			hi[v] = min(hi[v], k)
		case c.Cmp == symbolic.Le:
			lo[v] = max(lo[v], k+1)
		case c.Cmp == symbolic.Eq && vals[i]:
			lo[v], hi[v] = max(lo[v], k), min(hi[v], k)
		}
	}
	size = 1.0
	for v := range lo {
		if lo[v] > hi[v] {
			return lo, hi, 0
		}
		size *= float64(hi[v] - lo[v] + 1)
	}
	return lo, hi, size
}

// expandStates expands node i by enumerating its states: it reports
// whether one is bad, else adds the successors of the policy's choices.
func (ab *abstraction) expandStates(i int, states []symbolic.State) (bool, error) {
	r, m, g := ab.r, ab.r.m, ab.r.g
	nd := ab.nodes[i]
	x := &explicit.Expansion{}
	chosen := make([]bool, len(m.Labels))
	appl := make([]bool, len(m.Labels))
	edges := map[[2]int]bool{} // (label, target node)
	for _, s := range states {
		status := g.Status(s)
		if status == explicit.Unsafe {
			return true, nil
		}
		// The policy's choices count in goal states too: a label the
		// cube never chooses is a fact about all of its states.
		g.Applicable(s, x)
		for a, ok := range x.App {
			appl[a] = appl[a] || ok
		}
		l := symbolic.NoLabel
		if r.dec != nil {
			var err error
			if l, err = r.dec.Decide(s, x.App); err != nil {
				return false, err
			}
			if l != symbolic.NoLabel {
				chosen[l] = true
			}
		}
		if status != explicit.Open || (r.dec != nil && l == symbolic.NoLabel) {
			continue
		}
		for ci := range m.Commands {
			c := &m.Commands[ci]
			if (r.dec != nil && c.Label != l) || !g.Guard(s, ci) {
				continue
			}
			for oi := range c.Outcomes {
				t, err := g.Apply(s, ci, oi)
				if err != nil {
					return true, nil // a range error of the choice: bad
				}
				j, _ := ab.add(r.valsOf(t, ab.n), i, c.Label)
				if e := [2]int{int(c.Label), j}; !edges[e] {
					edges[e] = true
					r.stats.Transitions++
				}
			}
		}
	}
	if r.dec != nil {
		for a := range m.Labels {
			if appl[a] && !chosen[a] {
				nd.never = append(nd.never, symbolic.LabelID(a))
			}
		}
	}
	return false, nil
}
