package jani

// JANI labels: transient Boolean variables whose value in a state is given
// by the transient-values of the locations the automata are in (and their
// initial value where no location sets them). Each becomes a predicate of
// the IR, so that properties (and .spec files importing the model) can use
// it; expressions that read the variable read the predicate's condition.

import "vigil/symbolic"

// labels lowers the transient-values of every location and declares one
// predicate per transient Boolean.
func (ml *modelLoader) labels() {
	type part struct{ at, val *symbolic.Cond }
	parts := map[*varInfo][]part{}
	for _, a := range ml.autos {
		sc := ml.localScope(a)
		for _, tv := range a.tvals {
			if !ml.obj(tv.node, "a transient value") {
				continue
			}
			ml.members(tv.node, "a transient value", "ref", "value")
			name, rn, ok := ml.str(tv.node, "ref")
			if !ok {
				continue
			}
			vi := ml.lookupVar(a, name)
			switch {
			case vi == nil:
				ml.errorf(rn, "transient value for undeclared variable %q", name)
				continue
			case !vi.transient:
				ml.errorf(rn, "transient-values may only set transient variables, and %q is not transient", name)
				continue
			case !vi.isBool:
				continue // a reward: not imported (noted at the declaration)
			}
			vn := tv.node.get("value")
			if vn == nil {
				ml.errorf(tv.node, "transient value has no \"value\"")
				continue
			}
			c, ok := ml.cond(vn, sc)
			if !ok {
				continue
			}
			at := symbolic.True()
			if a.locVar >= 0 {
				at = symbolic.Compare(symbolic.V(a.locVar), symbolic.Eq, symbolic.Lit(tv.loc))
			}
			parts[vi] = append(parts[vi], part{at, c})
		}
	}
	taken := namer{}
	for _, v := range ml.m.Vars {
		taken[v.Name] = true
	}
	for _, p := range ml.m.Preds {
		taken[p.Name] = true
	}
	for _, vi := range ml.transients {
		var set, where []*symbolic.Cond
		for _, p := range parts[vi] {
			set = append(set, symbolic.And(p.at, p.val))
			where = append(where, p.at)
		}
		def := symbolic.False()
		if vi.labelInit {
			def = symbolic.True()
		}
		vi.label = symbolic.Or(append(set, symbolic.And(symbolic.Not(symbolic.Or(where...)), def))...)
		ml.m.Preds = append(ml.m.Preds, symbolic.Pred{Name: taken.unique(ident(vi.name)), Cond: vi.label, Pos: ml.pos(vi.node)})
	}
}
