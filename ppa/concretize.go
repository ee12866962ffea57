package ppa

// Checking an abstract path concretely, and refining the predicates when
// it is spurious (see the package comment).

import (
	"fmt"
	"time"

	"vigil/smt"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// maxLayer bounds the states of one step of the concrete replay.
const maxLayer = 1 << 12

// maxWP bounds the atoms one weakest-precondition chain contributes.
const maxWP = 256

// concretize checks the abstract path (node indices; the last meets the
// bad region). It returns the counterexample, or the number of predicates
// it added. policyQueries counts the path queries with a learned
// policy's SMT encoding; where it has reached maxSMTPaths and the path
// would need one, the path is left unchecked (checked false).
func (r *engine) concretize(ab *abstraction, path []int, policyQueries *int) (res *Result, added int, checked bool, err error) {
	if res, added, ok, err := r.concretizeStates(ab, path); ok || err != nil {
		return res, added, true, err
	}
	if r.cert != nil {
		// The path without the policy first: the model alone often
		// makes it spurious (be3: counts that the cubes do not track),
		// and that query is cheap, where one with a network's encoding
		// along the whole path costs seconds. Its unsat core refines
		// as well: a path infeasible without the policy is infeasible
		// with it. It is asked in a Z3 context of its own, so that its
		// core depends on the path alone, not on the queries that the
		// engine's context answered before.
		x, err := smt.NewContext()
		if err != nil {
			return nil, 0, true, err
		}
		defer x.Close()
		e, err := smt.NewEncoder(x, r.m)
		if err != nil {
			return nil, 0, true, err
		}
		q, infeasible, core, res, err := r.pathCheck(ab, path, e, false)
		if res != nil || err != nil {
			return res, 0, true, err
		}
		if infeasible >= 0 {
			return nil, q.refine(infeasible, core), true, nil
		}
		if *policyQueries >= maxSMTPaths {
			return nil, 0, false, nil
		}
		*policyQueries++
	}
	q, infeasible, core, res, err := r.pathCheck(ab, path, r.e, true)
	if res != nil || err != nil {
		return res, 0, true, err
	}
	if infeasible < 0 {
		// Feasible under the encoding: replay with the policy's real choice.
		trace, div, err := r.replay(ab, path, q.state(0))
		if err != nil || trace != nil {
			if trace != nil {
				return &Result{Verdict: explicit.UnsafeVerdict, Trace: trace}, 0, true, nil
			}
			return nil, 0, true, err
		}
		// The encoding's choice differs from float64 evaluation (a
		// relaxed network or ensemble): split off the state where the
		// replay left the path.
		return nil, r.split(q.state(div)), true, nil
	}
	return nil, q.refine(infeasible, core), true, nil
}

// pathCheck asks whether the abstract path has a concrete counterpart,
// step by step so that an infeasible path is cut at the first step that
// makes it so: infeasible is that step (k+1: the bad region; -1: the
// whole path is feasible, the states in q's last model), core the unsat
// core there. Without policy, the steps and the bad region ignore the
// policy's choice (any label of the path's step, a range error of any
// label). res is an unknown answer. The query is built with the encoder
// e (the engine's, or without policy one of another context).
func (r *engine) pathCheck(ab *abstraction, path []int, e *smt.Encoder, policy bool) (q *pathQuery, infeasible int, core []int, res *Result, err error) {
	k := len(path) - 1
	s, err := e.X.NewSolver()
	if err != nil {
		return nil, 0, nil, nil, err
	}
	defer s.Close()
	if r.cert != nil && policy {
		// The network's encoding along a whole path: bounded.
		if err := s.SetLimits(smt.Limits{Timeout: time.Duration(k+1) * r.opts.QueryTimeout}); err != nil {
			return nil, 0, nil, nil, err
		}
	}
	q = &pathQuery{r: r, e: e, ab: ab, path: path, s: s, vec: make([][]smt.Term, k+1), noPolicy: !policy}
	for i := 0; i <= k+1; i++ {
		if i <= k {
			err = q.addStep(i)
		} else {
			err = q.addBad()
		}
		if err != nil {
			return nil, 0, nil, nil, err
		}
		ans, err := r.check(s, q.assumptions...)
		if err != nil {
			return nil, 0, nil, nil, err
		}
		if ans == smt.Unknown {
			if r.ctx.Err() == nil && r.cert != nil && policy {
				return nil, 0, nil, r.unknown(fmt.Sprintf("the concrete path query along an abstract path of %d steps, with the policy's SMT encoding, found no answer within %v", k, time.Duration(k+1)*r.opts.QueryTimeout)), nil
			}
			return nil, 0, nil, r.solverUnknown(), nil
		}
		if ans == smt.Unsat {
			if core, err = s.Core(); err != nil {
				return nil, 0, nil, nil, err
			}
			return q, i, core, nil, nil
		}
		if err := q.saveModel(min(i, k)); err != nil {
			return nil, 0, nil, nil, err
		}
	}
	return q, -1, nil, nil, nil
}

// pathQuery is the SMT query that an abstract path has a concrete
// counterpart: one vector of variables per step, the start condition, the
// policy's steps, and per step and predicate an assumption literal that
// makes the state lie in the node's cube, so that an unsat core names the
// predicates that make the path spurious.
type pathQuery struct {
	r           *engine
	e           *smt.Encoder // r.e, or (without policy) one of another context
	ab          *abstraction
	path        []int
	s           *smt.Solver
	vec         [][]smt.Term // per step, the state variables
	assumptions []smt.Term   // the cube literals' assumptions, in refs' order
	refs        []litRef
	lastSat     [][]int64 // per step, the states of the last satisfiable prefix
	noPolicy    bool      // the steps and the bad region without the policy's choice
}

// litRef names the cube literal of predicate pred at step step.
type litRef struct{ step, pred int }

func (q *pathQuery) assert(ts ...smt.Term) error {
	for _, t := range ts {
		if err := q.s.Assert(t); err != nil {
			return err
		}
	}
	return q.e.X.Err()
}

// addStep adds step i of the path: its state variables in range, the
// start condition (i = 0) or the policy's step from i-1 under the label
// the path takes, and the literals of the node's cube.
func (q *pathQuery) addStep(i int) error {
	r, e, m := q.r, q.e, q.r.m
	x := e.X
	vs := make([]smt.Term, len(m.Vars))
	for v := range vs {
		vs[v] = x.IntConst(fmt.Sprintf("ppa.%d.%d.%s", r.stats.Iterations, i, m.Vars[v].Name))
	}
	q.vec[i] = vs
	if err := q.assert(e.InRange(vs)); err != nil {
		return err
	}
	if i == 0 {
		st, err := r.startAtIn(e, vs)
		if err != nil {
			return err
		}
		if err := q.assert(st); err != nil {
			return err
		}
	} else {
		a := q.ab.nodes[q.path[i]].label
		nt := x.Not(e.Terminal(r.prop, q.vec[i-1]))
		step := []smt.Term{nt, r.stepIn(e, q.vec[i-1], vs, a)}
		if !q.noPolicy {
			ch, side, err := r.ch.chosen(q.vec[i-1])
			if err != nil {
				return err
			}
			step = append(append(step, side...), ch[a])
		}
		if err := q.assert(step...); err != nil {
			return err
		}
	}
	vals := q.ab.nodes[q.path[i]].vals
	for p, pred := range r.preds.list[:q.ab.n] {
		l := x.Keep(x.BoolConst(fmt.Sprintf("ppa.%d.%d.lit%d", r.stats.Iterations, i, p)))
		t := e.Cond(pred.c, vs)
		if !vals[p] {
			t = x.Not(t)
		}
		if err := q.assert(x.Implies(l, t)); err != nil {
			return err
		}
		q.assumptions = append(q.assumptions, l)
		q.refs = append(q.refs, litRef{i, p})
	}
	return nil
}

// addBad adds that the policy's choice in the last state meets the bad
// region.
func (q *pathQuery) addBad() error {
	last := q.vec[len(q.vec)-1]
	if q.noPolicy {
		// Any label may be chosen (app: a label that is not applicable
		// has no outcome, so no range error).
		all := make([]smt.Term, len(q.r.m.Labels))
		for a := range all {
			all[a] = q.e.X.True()
		}
		bad, err := q.r.badAtIn(q.e, last, all)
		if err != nil {
			return err
		}
		return q.assert(bad)
	}
	ch, side, err := q.r.ch.chosen(last)
	if err != nil {
		return err
	}
	bad, err := q.r.badAt(last, ch)
	if err != nil {
		return err
	}
	return q.assert(append(side, bad)...)
}

// saveModel keeps the states of steps 0 .. n of the solver's model.
func (q *pathQuery) saveModel(n int) error {
	q.lastSat = make([][]int64, len(q.vec))
	for j := 0; j <= n; j++ {
		q.lastSat[j] = make([]int64, len(q.r.m.Vars))
		if err := q.s.Eval(q.vec[j], q.lastSat[j]); err != nil {
			return err
		}
	}
	return nil
}

// state is the state of step j in the last model saved.
func (q *pathQuery) state(j int) symbolic.State {
	st := make(symbolic.State, len(q.r.m.Vars))
	for v := range st {
		st[v] = int(q.lastSat[j][v])
	}
	return st
}

// refine adds predicates after the path was found spurious at step
// infeasible (k+1: the bad region) with the unsat core core: the weakest
// preconditions of the core's literals back along the path, plus the
// guards of the labels taken and the policy's rule conditions; failing
// those, it splits off the last state reached. It returns the number of
// predicates added.
func (q *pathQuery) refine(infeasible int, core []int) int {
	r, k := q.r, len(q.path)-1
	added := r.guardAtoms(q.ab, q.path, min(infeasible, k))
	targets := make([][]*symbolic.Cond, k+2)
	for _, c := range core {
		ref := q.refs[c]
		targets[ref.step] = append(targets[ref.step], r.preds.list[ref.pred].c)
	}
	if infeasible == k+1 {
		targets[k] = append(targets[k], r.prop.Unsafe)
	}
	added += r.wp(q.ab, q.path, targets)
	// Another path of the same exploration may have added the same
	// predicates; split only when the iteration has none.
	if len(r.preds.list) == q.ab.n && infeasible > 0 && q.lastSat != nil && q.lastSat[infeasible-1] != nil {
		added = r.split(q.state(infeasible - 1))
	}
	return added
}

// guardAtoms adds the guards of the labels taken along the first n steps
// of the path and the policy's rule conditions.
func (r *engine) guardAtoms(ab *abstraction, path []int, n int) int {
	m, added := r.m, 0
	for j := 0; j < n && j+1 < len(path); j++ {
		a := ab.nodes[path[j+1]].label
		for ci := range m.Commands {
			if m.Commands[ci].Label == a {
				added += r.preds.add(m.Commands[ci].Guard)
			}
		}
		if r.decl != nil {
			for _, rl := range r.decl.Rules {
				added += r.preds.add(rl.Cond)
			}
		}
	}
	return added
}

// wp adds the weakest preconditions of targets[i] (conditions on step i
// of the path) back along the path's labels.
func (r *engine) wp(ab *abstraction, path []int, targets [][]*symbolic.Cond) int {
	m, added := r.m, 0
	k := len(path) - 1
	label := func(i int) symbolic.LabelID { return ab.nodes[path[i+1]].label }
	for i := 1; i <= k; i++ {
		cur := targets[i]
		for j := i - 1; j >= 0 && len(cur) > 0; j-- {
			var prev []*symbolic.Cond
			seen := map[string]bool{}
			a := label(j)
			for ci := range m.Commands {
				c := &m.Commands[ci]
				if c.Label != a {
					continue
				}
				for oi := range c.Outcomes {
					for _, t := range cur {
						w := substCond(t, &c.Outcomes[oi])
						atoms(w, func(at *symbolic.Cond) {
							// The chain goes on with the canonical
							// form of each distinct atom that is not
							// constant: no predicate comes back in a
							// longer form.
							p, ok := r.preds.canon(at)
							if !ok || seen[p.key] || len(prev) >= maxWP {
								return
							}
							seen[p.key] = true
							prev = append(prev, p.c)
						})
					}
				}
			}
			for _, p := range prev {
				added += r.preds.add(p)
			}
			cur = prev
		}
	}
	return added
}

// concretizeStates is concretize when every cube of the path has few
// states (see states): the replay starts from every start state of the
// first cube. A spurious path is refined, for rules, tables and no
// policy, by the weakest preconditions of every predicate of the cube
// where the replay stopped; for a learned policy, by thresholds that
// separate the replay's frontier from the states of its cube that take
// the path's next step (separate.go). ok is false when some cube is too
// large.
func (r *engine) concretizeStates(ab *abstraction, path []int) (res *Result, added int, ok bool, err error) {
	var first []symbolic.State
	for i, n := range path {
		sts, ok := r.states(ab.nodes[n].vals)
		if !ok {
			return nil, 0, false, nil
		}
		if i == 0 {
			first = sts
		}
	}
	var starts []symbolic.State
	for _, s := range first {
		if r.isStart(s) {
			starts = append(starts, s)
		}
	}
	if len(starts) > maxLayer {
		starts = starts[:maxLayer]
	}
	trace, div, front, err := r.replayFrom(ab, path, starts)
	if err != nil || trace != nil {
		if trace != nil {
			return &Result{Verdict: explicit.UnsafeVerdict, Trace: trace}, 0, true, nil
		}
		return nil, 0, true, err
	}
	k := len(path) - 1
	targets := make([][]*symbolic.Cond, k+2)
	at := min(div+1, k)
	added = r.guardAtoms(ab, path, at)
	if r.cert == nil {
		// Rules, tables and no policy: the preconditions of every
		// predicate of the cube (the choice is a condition, among the
		// guard atoms).
		for _, pr := range r.preds.list[:len(ab.nodes[path[at]].vals)] {
			targets[at] = append(targets[at], pr.c)
		}
		if div == k {
			targets[k] = append(targets[k], r.prop.Unsafe)
		}
		added += r.wp(ab, path, targets)
	} else {
		// A learned policy: thresholds that separate the frontier from
		// the states that take the step (separate.go). The path is
		// mostly spurious because of the policy's choice, which no
		// precondition expresses, and preconditions of the cube's
		// literals made the predicates grow (be2: 161 after 9
		// iterations, where separation needs 19).
		added += r.separate(ab, path, div, front)
	}
	// The predicates of this iteration (other paths' too) must split a
	// cube of the path, else it comes back.
	if !r.separates(ab, path, ab.n) {
		sts, _ := r.states(ab.nodes[path[div]].vals)
		for _, s := range sts {
			added += r.split(s)
		}
	}
	return nil, added, true, nil
}

// separates reports whether some predicate from index from on takes both
// values on the states of a cube of the path (whose cubes are small
// enough to enumerate). Where none does, each cube of the path is a cube
// of the refined abstraction too, with the same transitions, so that the
// same spurious path would come back: the refinement must split states.
func (r *engine) separates(ab *abstraction, path []int, from int) bool {
	for _, n := range path {
		sts, ok := r.states(ab.nodes[n].vals)
		if !ok {
			return true // cannot tell
		}
		for _, p := range r.preds.list[from:] {
			for _, s := range sts {
				if p.c.Holds(s) != p.c.Holds(sts[0]) {
					return true
				}
			}
		}
	}
	return false
}

// isStart reports whether s is a start state.
func (r *engine) isStart(s symbolic.State) bool {
	if r.prop.Start != nil {
		return r.prop.Start.Holds(s)
	}
	s0, err := r.m.InitialState()
	return err == nil && r.m.FormatState(s0) == r.m.FormatState(s)
}

// split adds the predicates v <= s_v and v >= s_v for every variable.
func (r *engine) split(s symbolic.State) int {
	n := 0
	for v := range s {
		n += r.preds.add(symbolic.Compare(symbolic.V(symbolic.VarID(v)), symbolic.Le, symbolic.Lit(s[v])))
		n += r.preds.add(symbolic.Compare(symbolic.V(symbolic.VarID(v)), symbolic.Ge, symbolic.Lit(s[v])))
	}
	return n
}

// inCube reports whether s lies in the cube vals.
func (r *engine) inCube(s symbolic.State, vals []bool) bool {
	for i, p := range r.preds.list[:len(vals)] {
		if p.c.Holds(s) != vals[i] {
			return false
		}
	}
	return true
}

// replay follows the abstract path from s0 in the explicit semantics with
// the policy's real choice, through every outcome that stays in the path's
// cubes. It returns a run into an unsafe state, or, when none exists, the
// step at which the run from s0 left the path. A reachable range error of
// the policy's choice is an error, as in the explicit engine.
func (r *engine) replay(ab *abstraction, path []int, s0 symbolic.State) ([]explicit.Step, int, error) {
	trace, div, _, err := r.replayFrom(ab, path, []symbolic.State{s0})
	return trace, div, err
}

// replayFrom is replay from several start states; without a run into an
// unsafe state it also returns the states the replay reached at the step
// where it stopped (the frontier).
func (r *engine) replayFrom(ab *abstraction, path []int, s0 []symbolic.State) ([]explicit.Step, int, []symbolic.State, error) {
	m, g := r.m, r.g
	var first []item
	for _, s := range s0 {
		first = append(first, item{s: s, parent: -1, cmd: -1, out: -1})
	}
	if len(first) == 0 {
		return nil, 0, nil, nil
	}
	layers := [][]item{first}
	x := &explicit.Expansion{}
	k := len(path) - 1
	for i := 0; i <= k; i++ {
		var next []item
		for j, it := range layers[i] {
			s := it.s
			st := g.Status(s)
			if st == explicit.Unsafe && i == k {
				return runOf(m, layers, i, j), 0, nil, nil
			}
			if st != explicit.Open {
				continue
			}
			g.Applicable(s, x)
			l := symbolic.NoLabel
			if r.dec != nil {
				var err error
				if l, err = r.dec.Decide(s, x.App); err != nil {
					return nil, 0, nil, err
				}
			}
			for ci := range m.Commands {
				c := &m.Commands[ci]
				if r.dec != nil && c.Label != l {
					continue
				}
				if !g.Guard(s, ci) {
					continue
				}
				for oi := range c.Outcomes {
					t, err := g.Apply(s, ci, oi)
					if err != nil {
						return nil, 0, nil, fmt.Errorf("ppa: a state reachable in %d steps: %v", i, err)
					}
					if i == k || c.Label != ab.nodes[path[i+1]].label || !r.inCube(t, ab.nodes[path[i+1]].vals) {
						continue
					}
					if len(next) < maxLayer {
						next = append(next, item{s: t, parent: j, cmd: ci, out: oi})
					}
				}
			}
		}
		if i == k {
			break
		}
		if len(next) == 0 {
			return nil, i, frontier(layers[i]), nil
		}
		layers = append(layers, next)
	}
	return nil, k, frontier(layers[k]), nil
}

// frontier lists the states of a replay layer.
func frontier(layer []item) []symbolic.State {
	out := make([]symbolic.State, len(layer))
	for j, it := range layer {
		out[j] = it.s
	}
	return out
}

// item is a state of the replay, with its parent in the layer before and
// the command and outcome that led there.
type item struct {
	s        symbolic.State
	parent   int
	cmd, out int
}

// runOf rebuilds the run that ends in item j of layer i.
func runOf(m *symbolic.Model, layers [][]item, i, j int) []explicit.Step {
	chain := make([]item, i+1)
	for d := i; d >= 0; d-- {
		chain[d] = layers[d][j]
		j = chain[d].parent
	}
	trace := make([]explicit.Step, i+1)
	for d, it := range chain {
		trace[d] = explicit.Step{State: it.s, Label: symbolic.NoLabel, Cmd: -1, Outcome: -1}
		if d < i {
			c := chain[d+1].cmd
			trace[d].Cmd, trace[d].Outcome, trace[d].Label = c, chain[d+1].out, m.Commands[c].Label
		}
	}
	return trace
}
