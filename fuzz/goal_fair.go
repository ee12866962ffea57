package fuzz

// Goal testing with fair outcomes (GoalTask.Fair): every outcome of a
// command that has positive probability may happen (GoalTask.succs drops
// those of probability 0, which vigil prob gives no transition either),
// so a policy reaches the goal with
// probability 1 exactly when no unsafe state, deadlock or stuck state is
// reachable under it and the goal stays reachable from every state it can
// reach (FOND planning's strong-cyclic solutions). The objective is
// qualitative: a bug is a state where the policy fails that way while some
// policy succeeds. Models whose actions may fail again and again (a block
// slips, a package falls off) have no bugs under adversarial outcomes,
// where nothing is sure to reach the goal; fair outcomes test them.

import (
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// GoalFailTrap: the run reaches states from which the policy's runs never
// reach the goal; the run shown ends by repeating a state among them.
const GoalFailTrap = "trap"

// fairValue evaluates the (patched) policy from s under fair outcomes:
// breadth first over its graph (at most maxStates states), then backwards
// from the goal states. A reached value's Cost is the length of a shortest
// run to the goal, and Run is that run.
func (t *GoalTask) fairValue(s symbolic.State, patch goalPatch, maxStates int) (GoalValue, error) {
	g, goals, v, err := t.exploreFair(s, patch, maxStates)
	if err != nil || g == nil {
		return v, err
	}
	dist, next := g.distances(goals)
	for i := range g.nodes {
		if dist[i] < 0 {
			return g.trap(i), nil
		}
	}
	// A shortest run to the goal, following next.
	nodes := g.nodes
	var run []explicit.Step
	for i := 0; dist[i] > 0; i = next[i] {
		for k, j := range nodes[i].succ {
			if j == next[i] {
				run = append(run, nodes[i].via[k])
				break
			}
		}
	}
	run = append(run, explicit.Step{State: nodes[goalLast(next, dist)].s, Label: symbolic.NoLabel, Cmd: -1})
	reached := make(map[string]bool, len(nodes))
	for i := range nodes {
		reached[goalKey(nodes[i].s)] = true
	}
	return GoalValue{Outcome: GoalReached, Cost: dist[0], Run: run, Fair: true, reached: reached}, nil
}

// fairNode is a state of the policy's graph from the state fairValue
// judges.
type fairNode struct {
	s      symbolic.State
	parent int
	step   explicit.Step // from the parent
	succ   []int
	via    []explicit.Step // via[k] leads to succ[k]
}

// fairGraph is the graph of the (patched) policy's runs from one state,
// node 0, with a tree of first visits (parent, step).
type fairGraph struct{ nodes []fairNode }

// exploreFair explores the (patched) policy's graph from s, breadth first.
// It returns the graph and its goal nodes, or (nil graph) the value when
// a run fails on the way (an unsafe, stuck or deadlocked state) or the
// graph outgrows maxStates (unknown).
func (t *GoalTask) exploreFair(s symbolic.State, patch goalPatch, maxStates int) (*fairGraph, []int, GoalValue, error) {
	e := &goalEval{t: t, patch: patch}
	g := &fairGraph{nodes: []fairNode{{s: s, parent: -1}}}
	ids := map[string]int{goalKey(s): 0}
	fail := func(i int, why string) GoalValue {
		return GoalValue{Outcome: GoalFails, Cost: -1, Why: why, Run: g.runTo(i, g.nodes[i].s), Fair: true}
	}
	var goals []int
	for i := 0; i < len(g.nodes); i++ {
		u := g.nodes[i].s
		switch t.Gen.Status(u) {
		case explicit.Goal:
			goals = append(goals, i)
			continue
		case explicit.Unsafe:
			return nil, nil, fail(i, GoalFailUnsafe), nil
		}
		l, err := e.label(u)
		if err != nil {
			return nil, nil, GoalValue{}, err
		}
		if l == symbolic.NoLabel {
			why := GoalFailStuck
			if len(t.applicable(u)) == 0 {
				why = GoalFailDeadlock
			}
			return nil, nil, fail(i, why), nil
		}
		succ, err := t.succs(u, l)
		if err != nil {
			return nil, nil, GoalValue{}, err
		}
		for _, ed := range succ {
			k := goalKey(ed.s)
			j, ok := ids[k]
			if !ok {
				if len(g.nodes) >= maxStates {
					return nil, nil, GoalValue{Outcome: GoalUnknown, Cost: -1, Fair: true}, nil
				}
				j = len(g.nodes)
				ids[k] = j
				g.nodes = append(g.nodes, fairNode{s: ed.s, parent: i, step: explicit.Step{State: u, Label: l, Cmd: ed.cmd, Outcome: ed.out}})
			}
			g.nodes[i].succ = append(g.nodes[i].succ, j)
			g.nodes[i].via = append(g.nodes[i].via, explicit.Step{State: u, Label: l, Cmd: ed.cmd, Outcome: ed.out})
		}
	}
	return g, goals, GoalValue{}, nil
}

// runTo is the run along the first-visit tree to node i, ending in last.
func (g *fairGraph) runTo(i int, last symbolic.State) []explicit.Step {
	var rev []explicit.Step
	for j := i; g.nodes[j].parent >= 0; j = g.nodes[j].parent {
		rev = append(rev, g.nodes[j].step)
	}
	run := make([]explicit.Step, 0, len(rev)+1)
	for k := len(rev) - 1; k >= 0; k-- {
		run = append(run, rev[k])
	}
	return append(run, explicit.Step{State: last, Label: symbolic.NoLabel, Cmd: -1})
}

// distances searches backwards from the goal nodes: dist[i] is the length
// of a shortest run from node i to the goal (-1: none), next[i] the
// successor on it.
func (g *fairGraph) distances(goals []int) (dist, next []int) {
	pred := make([][]int, len(g.nodes))
	for i := range g.nodes {
		for _, j := range g.nodes[i].succ {
			pred[j] = append(pred[j], i)
		}
	}
	dist = make([]int, len(g.nodes))
	next = make([]int, len(g.nodes))
	for i := range dist {
		dist[i] = -1
	}
	queue := append([]int(nil), goals...)
	for _, q := range goals {
		dist[q] = 0
	}
	for len(queue) > 0 {
		j := queue[0]
		queue = queue[1:]
		for _, i := range pred[j] {
			if dist[i] < 0 {
				dist[i], next[i] = dist[j]+1, j
				queue = append(queue, i)
			}
		}
	}
	return dist, next
}

// trap is the failure at node i, from which no run reaches the goal: the
// run to it, then onwards inside the trap (every successor of a trap
// state is one) until a state repeats.
func (g *fairGraph) trap(i int) GoalValue {
	nodes := g.nodes
	run := g.runTo(i, nodes[i].s)
	run = run[:len(run)-1]
	seen := map[int]bool{}
	for j := i; ; {
		seen[j] = true
		k := nodes[j].succ[0]
		run = append(run, nodes[j].via[0])
		if seen[k] {
			run = append(run, explicit.Step{State: nodes[k].s, Label: symbolic.NoLabel, Cmd: -1})
			return GoalValue{Outcome: GoalFails, Cost: -1, Why: GoalFailTrap, Run: run, Fair: true}
		}
		j = k
	}
}

// goalLast follows next from state 0 to the goal state it ends in.
func goalLast(next, dist []int) int {
	i := 0
	for dist[i] > 0 {
		i = next[i]
	}
	return i
}

// fairSolve computes, on an explored space, the states from which some
// policy reaches the goal with probability 1 under fair outcomes (the
// greatest fixpoint of "the goal is reachable using only labels whose
// successors all stay in the set"), and such a policy in sp.choice; it
// sets sp.value to 0 there and goalInf elsewhere.
func fairSolve(t *GoalTask, sp *goalSpace) {
	n := len(sp.states)
	in := make([]bool, n)
	for i := range in {
		in[i] = t.Gen.Status(sp.states[i]) != explicit.Unsafe
	}
	type ref struct{ state, group int }
	pred := make([][]ref, n)
	for i := range sp.groups {
		for gi, g := range sp.groups[i] {
			for _, j := range g.succ {
				pred[j] = append(pred[j], ref{i, gi})
			}
		}
	}
	for {
		reach := make([]bool, n)
		choice := make([]symbolic.LabelID, n)
		var queue []int
		for i := range sp.states {
			choice[i] = symbolic.NoLabel
			if in[i] && t.Gen.Status(sp.states[i]) == explicit.Goal {
				reach[i] = true
				queue = append(queue, i)
			}
		}
		for len(queue) > 0 {
			j := queue[0]
			queue = queue[1:]
			for _, r := range pred[j] {
				if reach[r.state] || !in[r.state] {
					continue
				}
				ok := true
				for _, k := range sp.groups[r.state][r.group].succ {
					ok = ok && in[k]
				}
				if ok {
					reach[r.state] = true
					choice[r.state] = sp.groups[r.state][r.group].label
					queue = append(queue, r.state)
				}
			}
		}
		changed := false
		for i := range in {
			if in[i] && !reach[i] {
				in[i], changed = false, true
			}
		}
		if !changed {
			for i := range sp.value {
				sp.value[i] = goalInf
				if in[i] {
					sp.value[i] = 0
				}
			}
			sp.choice = choice
			return
		}
	}
}
