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
// it added.
func (r *engine) concretize(ab *abstraction, path []int) (*Result, int, error) {
	if res, added, ok, err := r.concretizeStates(ab, path); ok || err != nil {
		return res, added, err
	}
	x, m := r.x, r.m
	k := len(path) - 1
	s, err := x.NewSolver()
	if err != nil {
		return nil, 0, err
	}
	defer s.Close()
	if r.cert != nil {
		// The network's encoding along a whole path: bounded.
		if err := s.SetLimits(smt.Limits{Timeout: time.Duration(k+1) * r.opts.QueryTimeout}); err != nil {
			return nil, 0, err
		}
	}
	nc := len(r.preds.list)
	vec := make([][]smt.Term, k+1)
	lits := make([][]smt.Term, k+1) // per step, per predicate: the cube literal's assumption
	var assumptions []smt.Term
	type litRef struct{ step, pred int }
	var refs []litRef
	label := func(i int) symbolic.LabelID { return ab.nodes[path[i+1]].label }
	assert := func(ts ...smt.Term) error {
		for _, t := range ts {
			if err := s.Assert(t); err != nil {
				return err
			}
		}
		return x.Err()
	}
	infeasible := -1 // the step whose constraints made the path infeasible (k+1: the bad region)
	var core []int
	var lastSat [][]int64
	for i := 0; i <= k+1; i++ {
		if i <= k {
			vs := make([]smt.Term, len(m.Vars))
			for v := range vs {
				vs[v] = x.IntConst(fmt.Sprintf("ppa.%d.%d.%s", r.stats.Iterations, i, m.Vars[v].Name))
			}
			vec[i] = vs
			if err := assert(r.e.InRange(vs)); err != nil {
				return nil, 0, err
			}
			if i == 0 {
				st, err := r.startAt(vs)
				if err != nil {
					return nil, 0, err
				}
				if err := assert(st); err != nil {
					return nil, 0, err
				}
			} else {
				// The step from i-1 to i under the policy.
				ch, side, err := r.ch.chosen(vec[i-1])
				if err != nil {
					return nil, 0, err
				}
				a := label(i - 1)
				nt := x.Not(r.e.Terminal(r.prop, vec[i-1]))
				if err := assert(append(side, nt, ch[a], r.step(vec[i-1], vs, a))...); err != nil {
					return nil, 0, err
				}
			}
			vals := ab.nodes[path[i]].vals
			lits[i] = make([]smt.Term, nc)
			for p := 0; p < nc; p++ {
				l := x.Keep(x.BoolConst(fmt.Sprintf("ppa.%d.%d.lit%d", r.stats.Iterations, i, p)))
				t := r.e.Cond(r.preds.list[p].c, vs)
				if !vals[p] {
					t = x.Not(t)
				}
				if err := assert(x.Implies(l, t)); err != nil {
					return nil, 0, err
				}
				lits[i][p] = l
				assumptions = append(assumptions, l)
				refs = append(refs, litRef{i, p})
			}
		} else {
			ch, side, err := r.ch.chosen(vec[k])
			if err != nil {
				return nil, 0, err
			}
			bad, err := r.badAt(vec[k], ch)
			if err != nil {
				return nil, 0, err
			}
			if err := assert(append(side, bad)...); err != nil {
				return nil, 0, err
			}
		}
		res, err := r.check(s, assumptions...)
		if err != nil {
			return nil, 0, err
		}
		if res == smt.Unknown {
			if r.ctx.Err() == nil && r.cert != nil {
				return r.unknown(fmt.Sprintf("the concrete path query along an abstract path of %d steps, with the policy's SMT encoding, found no answer within %v", k, time.Duration(k+1)*r.opts.QueryTimeout)), 0, nil
			}
			return r.solverUnknown(), 0, nil
		}
		if res == smt.Unsat {
			infeasible = i
			if core, err = s.Core(); err != nil {
				return nil, 0, err
			}
			break
		}
		lastSat = make([][]int64, len(vec))
		for j := 0; j <= min(i, k); j++ {
			lastSat[j] = make([]int64, len(m.Vars))
			if err := s.Eval(vec[j], lastSat[j]); err != nil {
				return nil, 0, err
			}
		}
	}
	state := func(j int) symbolic.State {
		st := make(symbolic.State, len(m.Vars))
		for v := range st {
			st[v] = int(lastSat[j][v])
		}
		return st
	}
	if infeasible < 0 {
		// Feasible under the encoding: replay with the policy's real choice.
		trace, div, err := r.replay(ab, path, state(0))
		if err != nil || trace != nil {
			if trace != nil {
				return &Result{Verdict: explicit.UnsafeVerdict, Trace: trace}, 0, nil
			}
			return nil, 0, err
		}
		// The encoding's choice differs from float64 evaluation (a
		// relaxed network or ensemble): split off the state where the
		// replay left the path.
		return nil, r.split(state(div)), nil
	}
	// Spurious: weakest preconditions of the core's literals back along
	// the path, plus the guards of the labels taken and the policy's rule
	// conditions.
	added := r.guardAtoms(ab, path, min(infeasible, k))
	targets := make([][]*symbolic.Cond, k+2)
	for _, c := range core {
		ref := refs[c]
		targets[ref.step] = append(targets[ref.step], r.preds.list[ref.pred].c)
	}
	if infeasible == k+1 {
		targets[k] = append(targets[k], r.prop.Unsafe)
	}
	added += r.wp(ab, path, targets)
	if added == 0 && infeasible > 0 && lastSat != nil && lastSat[infeasible-1] != nil {
		added = r.split(state(infeasible - 1))
	}
	return nil, added, nil
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
							if len(prev) < maxWP {
								prev = append(prev, at)
							}
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
// first cube, and a spurious path is refined by the preconditions of the
// whole cube where the replay stopped. ok is false when some cube is too
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
	trace, div, err := r.replayFrom(ab, path, starts)
	if err != nil || trace != nil {
		if trace != nil {
			return &Result{Verdict: explicit.UnsafeVerdict, Trace: trace}, 0, true, nil
		}
		return nil, 0, true, err
	}
	k := len(path) - 1
	targets := make([][]*symbolic.Cond, k+2)
	at := min(div+1, k)
	vals := ab.nodes[path[at]].vals
	for p, pr := range r.preds.list[:len(vals)] {
		_ = p
		targets[at] = append(targets[at], pr.c)
	}
	if div == k {
		targets[k] = append(targets[k], r.prop.Unsafe)
	}
	added = r.guardAtoms(ab, path, at) + r.wp(ab, path, targets)
	if added == 0 {
		sts, _ := r.states(ab.nodes[path[div]].vals)
		for _, s := range sts {
			added += r.split(s)
		}
	}
	return nil, added, true, nil
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
	return r.replayFrom(ab, path, []symbolic.State{s0})
}

// replayFrom is replay from several start states.
func (r *engine) replayFrom(ab *abstraction, path []int, s0 []symbolic.State) ([]explicit.Step, int, error) {
	m, g := r.m, r.g
	var first []item
	for _, s := range s0 {
		first = append(first, item{s: s, parent: -1, cmd: -1, out: -1})
	}
	if len(first) == 0 {
		return nil, 0, nil
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
				return runOf(m, layers, i, j), 0, nil
			}
			if st != explicit.Open {
				continue
			}
			g.Applicable(s, x)
			l := symbolic.NoLabel
			if r.dec != nil {
				var err error
				if l, err = r.dec.Decide(s, x.App); err != nil {
					return nil, 0, err
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
						return nil, 0, fmt.Errorf("ppa: a state reachable in %d steps: %v", i, err)
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
			return nil, i, nil
		}
		layers = append(layers, next)
	}
	return nil, k, nil
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
