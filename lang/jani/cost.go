package jani

import "vigil/symbolic"

// Rewards read back as costs. vigil export --jani writes commands' costs
// (`action ... cost EXPR`) as a transient numeric variable that every
// destination of every edge sets to its edge's cost. A model of one
// automaton whose edges all do that with one transient variable, the
// same value on every destination of an edge, at least 1 over the
// variables' ranges (as spec.md asks of a cost), gets those values as
// its commands' costs, so that a round trip keeps them. Other rewards
// are ignored, with a note, as before.

// rewardAssign records destination d's assignment of value vn to the
// transient numeric variable vi: its value as an integer expression if
// it is one (a value that is not, such as a real, is no cost, and not an
// error: the reward is then ignored).
func (ml *modelLoader) rewardAssign(d *dest, vi *varInfo, vn *node, sc scope) {
	if d.costVar != nil {
		d.costBad = true // two rewards, or one assigned twice
		return
	}
	d.costVar = vi
	n := len(ml.errs)
	e, ok := ml.intExpr(vn, sc)
	if !ok {
		ml.errs = ml.errs[:n]
		d.costBad = true
		return
	}
	d.cost = e
}

// costs decides whether the model's rewards are its commands' costs (see
// above) and notes the rewards it ignores.
func (ml *modelLoader) costs() {
	if len(ml.rewards) == 0 {
		return
	}
	var cv *varInfo
	ok := len(ml.autos) == 1
	edges := 0
	for _, a := range ml.autos {
		for _, e := range a.edges {
			edges++
			for _, d := range e.dests {
				if d.costBad || d.costVar == nil || cv != nil && d.costVar != cv {
					ok = false
					break
				}
				cv = d.costVar
				if !sameExpr(d.cost, e.dests[0].cost) {
					ok = false
					break
				}
				if lo, _ := ml.m.Bounds(d.cost); lo < 1 {
					ok = false
					break
				}
			}
		}
	}
	if ok && cv != nil && edges > 0 {
		ml.costVar = cv // the round trip of an export: no note
	}
	for _, vi := range ml.rewards {
		if vi != ml.costVar {
			ml.note(vi.node, "transient variable %q ignored: rewards are imported only as costs (one transient variable that every edge of a single automaton sets to the same value, at least 1, on each destination)", vi.name)
		}
	}
}

// sameExpr tells whether two expressions are the same term (positions
// aside).
func sameExpr(a, b *symbolic.Expr) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Op != b.Op || a.K != b.K || a.Var != b.Var || len(a.Args) != len(b.Args) || !sameCond(a.Cond, b.Cond) {
		return false
	}
	for i := range a.Args {
		if !sameExpr(a.Args[i], b.Args[i]) {
			return false
		}
	}
	return true
}

// sameCond tells whether two conditions are the same term (positions
// aside).
func sameCond(a, b *symbolic.Cond) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Op != b.Op || a.Var != b.Var || a.Cmp != b.Cmp || len(a.Args) != len(b.Args) || !sameExpr(a.L, b.L) || !sameExpr(a.R, b.R) {
		return false
	}
	for i := range a.Args {
		if !sameCond(a.Args[i], b.Args[i]) {
			return false
		}
	}
	return true
}
