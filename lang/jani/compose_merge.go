package jani

// Composition by location. A synchronisation vector makes one command per
// combination of its automata's edges (compose.go): the product of the
// numbers of edges on the action. In a model translated from timed or
// location-rich automata (echoring: 62 locations in each of three
// stations, one "tick" edge at each) that product is tens of millions of
// commands, almost all of whose location guards can never hold together
// with the state's other locations; the importer refused such models.
//
// In every state an automaton is in one location, so its edges at two
// different locations are never enabled together. mergeByLocation
// therefore lowers the k-th edge at each location of an automaton into one
// edge, guarded by "location = l and the guard of the edge at l" for each
// of those locations, whose assignments choose the value of the edge at
// the current location (an if-then-else over the location). In each state
// the merged edge k is enabled exactly where the k-th edge at the current
// location is, and has the same outcomes: the composed commands have the
// same transitions as the full product (TestMergeByLocation checks it
// against the product on random networks), with the product of the
// largest numbers of edges at one location instead of the product of the
// edges.
//
// Only groups the IR can express without new state-dependent
// probabilities are merged: every edge of the group has as many
// destinations, the j-th destinations have the same constant probability,
// all assignments are at index 0, and no destination assigns a reward.
// Other vectors are composed edge by edge, as before.

import (
	"vigil/symbolic"
)

// mergeAbove is the number of combinations of a synchronisation vector
// above which it is composed by location where its edges allow (below,
// the commands are the product, as they always were).
var mergeAbove = 1 << 12 // a variable so that tests merge small networks

// mergeLists merges each list of edges (of automaton autos[i], on one
// action) by location where that makes fewer edges and is possible; it
// returns lists itself when nothing merges.
func (ml *modelLoader) mergeLists(autos []*automaton, lists [][]*edge, rc map[*dest][]symbolic.OutcomeReward) [][]*edge {
	out := lists
	for i, es := range lists {
		m := ml.mergeByLocation(autos[i], es, rc)
		if m == nil {
			continue
		}
		if &out[0] == &lists[0] {
			out = append([][]*edge(nil), lists...)
		}
		out[i] = m
	}
	return out
}

// mergeByLocation returns es, edges of a on one action, merged by location:
// merged edge k stands for the k-th edge (in file order) at each location
// that has one. It returns nil when a has one location, when merging would
// not make fewer edges, or when some group cannot be merged.
func (ml *modelLoader) mergeByLocation(a *automaton, es []*edge, rc map[*dest][]symbolic.OutcomeReward) []*edge {
	if a.locVar < 0 || len(es) < 2 {
		return nil
	}
	var locs []int
	byLoc := map[int][]*edge{}
	for _, e := range es {
		if e.loc < 0 {
			return nil
		}
		if _, ok := byLoc[e.loc]; !ok {
			locs = append(locs, e.loc)
		}
		byLoc[e.loc] = append(byLoc[e.loc], e)
	}
	k := 0
	for _, l := range locs {
		k = max(k, len(byLoc[l]))
	}
	if k >= len(es) {
		return nil
	}
	out := make([]*edge, 0, k)
	for i := 0; i < k; i++ {
		var group []*edge
		for _, l := range locs {
			if i < len(byLoc[l]) {
				group = append(group, byLoc[l][i])
			}
		}
		m := ml.mergeEdges(a, group, rc)
		if m == nil {
			return nil
		}
		out = append(out, m)
	}
	return out
}

// mergeEdges merges edges of a at pairwise different locations into one
// edge (loc -1: its guard and assignments read the location), or returns
// nil when the IR cannot express the merge without new state-dependent
// probabilities.
func (ml *modelLoader) mergeEdges(a *automaton, group []*edge, rc map[*dest][]symbolic.OutcomeReward) *edge {
	if len(group) == 1 {
		return group[0]
	}
	nd := len(group[0].dests)
	at := make([]*symbolic.Cond, len(group)) // location = the edge's location
	guards := make([]*symbolic.Cond, len(group))
	writes := map[symbolic.VarID]bool{}
	for i, e := range group {
		if len(e.dests) != nd {
			return nil
		}
		at[i] = symbolic.Compare(symbolic.V(a.locVar), symbolic.Eq, symbolic.Lit(e.loc))
		guards[i] = symbolic.And(at[i], e.guard)
		for v := range e.writes {
			writes[v] = true
		}
	}
	m := &edge{node: group[0].node, auto: a, loc: -1, action: group[0].action, guard: symbolic.Or(guards...), writes: writes}
	for j := 0; j < nd; j++ {
		d0 := group[0].dests[j]
		if !d0.prob.isConst() {
			return nil
		}
		// one variable's values at the group's locations, in order
		type alt struct {
			at    *symbolic.Cond
			value *symbolic.Expr
		}
		type target struct {
			vi   *varInfo
			node *node
			alts []alt
		}
		var order []symbolic.VarID
		targets := map[symbolic.VarID]*target{}
		put := func(id symbolic.VarID, vi *varInfo, n *node, c *symbolic.Cond, value *symbolic.Expr) {
			t := targets[id]
			if t == nil {
				t = &target{vi: vi, node: n}
				targets[id] = t
				order = append(order, id)
			}
			t.alts = append(t.alts, alt{c, value})
		}
		for i, e := range group {
			d := e.dests[j]
			if !d.prob.isConst() || d.prob.k.Cmp(d0.prob.k) != 0 || d.hasProb != d0.hasProb || d.mult != d0.mult {
				return nil
			}
			if len(ml.rewards) > 0 {
				rs, ok := rc[d]
				if !ok {
					rs = ml.destRewards(e.auto, d)
					rc[d] = rs
				}
				if len(rs) > 0 {
					return nil
				}
			}
			seen := map[symbolic.VarID]bool{}
			for _, s := range d.assigns {
				if s.level != 0 || seen[s.v.id] {
					return nil // resolve reports the duplicate on the product
				}
				seen[s.v.id] = true
				put(s.v.id, s.v, s.node, at[i], s.value)
			}
			if d.loc != e.loc {
				put(a.locVar, &varInfo{id: a.locVar, name: ml.m.Vars[a.locVar].Name}, d.node.get("location"), at[i], symbolic.Lit(d.loc))
			}
		}
		md := &dest{node: d0.node, loc: -1, prob: d0.prob, hasProb: d0.hasProb, mult: d0.mult, cost: d0.cost, costVar: d0.costVar, costBad: d0.costBad}
		for _, id := range order {
			t := targets[id]
			var value *symbolic.Expr
			if ml.m.Vars[id].Bool {
				// (at_1 and v_1) or ... or (at no listed location and the old value)
				var cs, ats []*symbolic.Cond
				for _, x := range t.alts {
					cs = append(cs, symbolic.And(x.at, asCond(x.value)))
					ats = append(ats, x.at)
				}
				cs = append(cs, symbolic.And(symbolic.Not(symbolic.Or(ats...)), &symbolic.Cond{Op: symbolic.CVar, Var: id}))
				value = boolAssign(symbolic.Or(cs...))
			} else {
				value = symbolic.V(id)
				for k := len(t.alts) - 1; k >= 0; k-- {
					value = &symbolic.Expr{Op: symbolic.OpIte, Cond: t.alts[k].at, Args: []*symbolic.Expr{t.alts[k].value, value}}
				}
			}
			md.assigns = append(md.assigns, asg{v: t.vi, level: 0, value: value, node: t.node})
		}
		m.dests = append(m.dests, md)
	}
	return m
}

// asCond is a Boolean assignment's value (OpBool or a 0/1 literal) as a
// condition.
func asCond(e *symbolic.Expr) *symbolic.Cond {
	switch e.Op {
	case symbolic.OpBool:
		return e.Cond
	case symbolic.OpConst:
		if e.K != 0 {
			return symbolic.True()
		}
		return symbolic.False()
	}
	return symbolic.Compare(e, symbolic.Ne, symbolic.Lit(0))
}
