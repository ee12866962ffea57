package explicit

import (
	"fmt"

	"vigil/symbolic"
)

// Validate checks that m is a well-formed IR model (every reference in
// range, every node complete), so that the engine never panics on a model
// built by hand or by a faulty front end.
func Validate(m *symbolic.Model) error { return validate(m, nil) }

// validate is Validate that stops when st is done (st nil: never).
func validate(m *symbolic.Model, st *stopper) error {
	if m == nil {
		return fmt.Errorf("explicit: no model")
	}
	if err := m.CheckRanges(); err != nil {
		return fmt.Errorf("explicit: %v", err)
	}
	for i := range m.Vars {
		v := &m.Vars[i]
		if v.HasInit && (v.Init < v.Lo || v.Init > v.Hi) {
			return fmt.Errorf("explicit: variable %s (%s): initial value %d outside %d..%d", v.Name, v.Pos, v.Init, v.Lo, v.Hi)
		}
	}
	for i := range m.Commands {
		c := &m.Commands[i]
		what := fmt.Sprintf("command %d (%s)", i, c.Pos)
		if c.Label < 0 || int(c.Label) >= len(m.Labels) {
			return fmt.Errorf("explicit: %s: label %d does not exist", what, c.Label)
		}
		if err := validateCond(m, c.Guard, what+" guard", st); err != nil {
			return err
		}
		for oi, o := range c.Outcomes {
			seen := map[symbolic.VarID]bool{}
			for _, a := range o.Assigns {
				if a.Var < 0 || int(a.Var) >= len(m.Vars) {
					return fmt.Errorf("explicit: %s outcome %d: assignment to variable %d, which does not exist", what, oi+1, a.Var)
				}
				if seen[a.Var] {
					return fmt.Errorf("explicit: %s outcome %d: %s assigned twice", what, oi+1, m.Vars[a.Var].Name)
				}
				seen[a.Var] = true
				if err := validateExpr(m, a.Value, what, st); err != nil {
					return err
				}
			}
		}
	}
	for _, p := range m.Properties {
		if p == nil || p.Unsafe == nil {
			return fmt.Errorf("explicit: a property has no unsafe condition")
		}
	}
	for _, d := range m.Policies {
		if d == nil {
			return fmt.Errorf("explicit: nil policy declaration")
		}
		for _, r := range d.Rules {
			if r.Label < 0 || int(r.Label) >= len(m.Labels) {
				return fmt.Errorf("explicit: %s: policy %s names label %d, which the model lacks", r.Pos, d.Name, r.Label)
			}
			if err := validateCond(m, r.Cond, "policy "+d.Name, st); err != nil {
				return err
			}
		}
		for _, l := range d.Outputs {
			if l < 0 || int(l) >= len(m.Labels) {
				return fmt.Errorf("explicit: %s: policy %s names label %d, which the model lacks", d.Pos, d.Name, l)
			}
		}
	}
	return nil
}

func validateExpr(m *symbolic.Model, e *symbolic.Expr, what string, st *stopper) error {
	if st.done() {
		return st.err
	}
	if e == nil {
		return fmt.Errorf("explicit: %s: missing expression", what)
	}
	want := 0
	switch e.Op {
	case symbolic.OpConst:
	case symbolic.OpVar:
		if e.Var < 0 || int(e.Var) >= len(m.Vars) {
			return fmt.Errorf("explicit: %s (%s): variable %d does not exist", what, e.Pos, e.Var)
		}
	case symbolic.OpAdd:
		if len(e.Args) < 1 {
			return fmt.Errorf("explicit: %s (%s): empty sum", what, e.Pos)
		}
		want = -1
	case symbolic.OpSub, symbolic.OpMin, symbolic.OpMax, symbolic.OpProd:
		want = 2
	case symbolic.OpNeg, symbolic.OpMul, symbolic.OpAbs:
		want = 1
	case symbolic.OpDiv:
		want = 1
		if e.K <= 0 {
			return fmt.Errorf("explicit: %s (%s): division by %d; divisors must be positive constants", what, e.Pos, e.K)
		}
	case symbolic.OpIte:
		want = 2
		if err := validateCond(m, e.Cond, what, st); err != nil {
			return err
		}
	case symbolic.OpBool:
		if err := validateCond(m, e.Cond, what, st); err != nil {
			return err
		}
	default:
		return fmt.Errorf("explicit: %s (%s): unknown expression op %d", what, e.Pos, e.Op)
	}
	if want >= 0 && len(e.Args) != want {
		return fmt.Errorf("explicit: %s (%s): %s wants %d operands, has %d", what, e.Pos, e.Op, want, len(e.Args))
	}
	for _, a := range e.Args {
		if err := validateExpr(m, a, what, st); err != nil {
			return err
		}
	}
	return nil
}

func validateCond(m *symbolic.Model, c *symbolic.Cond, what string, st *stopper) error {
	if st.done() {
		return st.err
	}
	if c == nil {
		return fmt.Errorf("explicit: %s: missing condition", what)
	}
	want := 0
	switch c.Op {
	case symbolic.CTrue, symbolic.CFalse:
	case symbolic.CVar:
		if c.Var < 0 || int(c.Var) >= len(m.Vars) {
			return fmt.Errorf("explicit: %s (%s): variable %d does not exist", what, c.Pos, c.Var)
		}
	case symbolic.CCmp:
		if c.Cmp > symbolic.Ge {
			return fmt.Errorf("explicit: %s (%s): unknown comparison %d", what, c.Pos, c.Cmp)
		}
		if err := validateExpr(m, c.L, what, st); err != nil {
			return err
		}
		return validateExpr(m, c.R, what, st)
	case symbolic.CNot:
		want = 1
	case symbolic.CAnd, symbolic.COr:
		want = -1
		if len(c.Args) == 0 {
			return fmt.Errorf("explicit: %s (%s): empty conjunction or disjunction", what, c.Pos)
		}
	case symbolic.CImplies:
		want = 2
	default:
		return fmt.Errorf("explicit: %s (%s): unknown condition op %d", what, c.Pos, c.Op)
	}
	if want >= 0 && len(c.Args) != want {
		return fmt.Errorf("explicit: %s (%s): condition wants %d operands, has %d", what, c.Pos, want, len(c.Args))
	}
	for _, a := range c.Args {
		if err := validateCond(m, a, what, st); err != nil {
			return err
		}
	}
	return nil
}
