package lang

import "vigil/symbolic"

// OverflowWarnings returns the warnings W0306 of a lowered model (for a
// model loaded without Options.OverflowWarnings, such as a .jani file).
func OverflowWarnings(m *symbolic.Model) Diagnostics { return overflowWarnings(m, nil).Sort() }

// overflowWarnings returns a warning W0306 for every expression of m whose
// values may leave the 64-bit integers on some state in the variables'
// ranges (symbolic.Model.Overflows: sound interval analysis, so the state
// need not be reachable, and for guards need not satisfy the guard).
// Integers are exact, so such a model is fine for every engine but bdd,
// which refuses it; `vigil check --bounds` decides whether a state really
// reaches such a value.
//
// files are the .spec files whose lines the warnings quote (nil: none).
func overflowWarnings(m *symbolic.Model, files []*File) Diagnostics {
	c := &checker{files: files}
	var ds Diagnostics
	seen := map[*symbolic.Expr]bool{}
	// at is the position of the place, for nodes without one (a JANI
	// model's expressions).
	report := func(e *symbolic.Expr, c2 *symbolic.Cond, where string, at symbolic.Pos) {
		for _, o := range m.Overflows(e, c2) {
			if seen[o.Expr] {
				continue
			}
			seen[o.Expr] = true
			p := o.Expr.Pos
			if !p.IsValid() {
				p = at
			}
			d := c.fileFor(p).Diag(p, 0, "W0306", "in %s, %s may leave the 64-bit integers (it ranges over %s .. %s for the variables' ranges): vigil computes it exactly, but the bdd engine refuses the model; vigil check --bounds finds whether some state reaches such a value",
				where, m.ExprString(o.Expr), o.Lo, o.Hi)
			d.Severity = Warning
			ds = append(ds, d)
		}
	}
	for i := range m.Commands {
		cmd := &m.Commands[i]
		what := "the guard of action " + m.Labels[cmd.Label].Name
		report(nil, cmd.Guard, what, cmd.Pos)
		for _, o := range cmd.Outcomes {
			for _, a := range o.Assigns {
				report(a.Value, nil, "the assignment to "+m.Vars[a.Var].Name+"'", cmd.Pos)
			}
		}
	}
	for _, p := range m.Properties {
		for _, pc := range []struct {
			c    *symbolic.Cond
			what string
		}{{p.Start, "start"}, {p.Unsafe, "unsafe"}, {p.Goal, "goal"}} {
			if pc.c != nil {
				report(nil, pc.c, "the "+pc.what+" condition of property "+p.Name, p.Pos)
			}
		}
	}
	for _, d := range m.Policies {
		for _, r := range d.Rules {
			report(nil, r.Cond, "a rule of policy "+d.Name, r.Pos)
		}
	}
	for _, p := range m.Preds {
		report(nil, p.Cond, "pred "+p.Name, p.Pos)
	}
	return ds
}
