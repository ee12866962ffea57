package jani

import (
	"vigil/symbolic"
)

// GoalProperties reads the reachability properties of the JANI model at
// path — those whose value is P or E (min or max) of "F target" or
// "true U target", possibly under a filter — and returns one property per
// property found: no unsafe states (false) and goal = target, so that
// target states are terminal. This is how Storm and mcsta explore a model
// for such a property, and what the QVBS state counts refer to. Properties
// of other shapes, and targets over transient variables, are skipped with a
// note. m must be the model lowered from path.
func GoalProperties(path string, m *symbolic.Model) ([]*symbolic.Property, []Note, error) {
	l, root, err := readJSON(path)
	if err != nil {
		return nil, nil, err
	}
	ps, ok := l.arr(root, "properties", false)
	if !ok {
		return nil, nil, l.errs.Err()
	}
	taken := namer{}
	for _, p := range m.Properties {
		taken[p.Name] = true
	}
	var out []*symbolic.Property
	for _, p := range ps {
		name := "goal"
		if n := p.get("name"); n != nil && n.kind == kString {
			name = n.str
		}
		target := reachTarget(p.get("expression"))
		if target == nil {
			l.note(p, "property %q is not a reachability property: skipped", name)
			continue
		}
		sub := &lowerer{file: l.file, data: l.data, lineStart: l.lineStart, noteSeen: map[string]bool{}}
		c, ok := sub.cond(target, modelScope(m))
		if !ok {
			l.note(target, "property %q: target not imported (%v)", name, sub.errs.Err())
			continue
		}
		out = append(out, &symbolic.Property{Name: taken.unique(ident(name)), Unsafe: symbolic.False(), Goal: c, Pos: l.pos(p)})
	}
	return out, l.notes, nil
}

// reachTarget returns the target of filter(..., Op(F target)) or
// Op(true U target) for Op in Pmin, Pmax, Emin, Emax, or nil.
func reachTarget(e *node) *node {
	for e != nil && opIs(e, "filter") {
		e = e.get("values")
	}
	if e == nil || !(opIs(e, "Pmin") || opIs(e, "Pmax") || opIs(e, "Emin") || opIs(e, "Emax")) {
		return nil
	}
	if opIs(e, "Emin") || opIs(e, "Emax") {
		return e.get("reach")
	}
	path := e.get("exp")
	switch {
	case opIs(path, "F"):
		return path.get("exp")
	case opIs(path, "U"):
		if left := path.get("left"); left != nil && left.kind == kBool && left.b {
			return path.get("right")
		}
	}
	return nil
}

func opIs(n *node, op string) bool {
	o := n.get("op")
	return o != nil && o.kind == kString && o.str == op
}
