package cert

import (
	"context"
	"fmt"

	"vigil/smt"
	"vigil/symbolic"
)

// Failure is a condition of the certificate that does not hold, with the
// states that show it.
type Failure struct {
	Condition string // init, consecution or safety
	State     symbolic.State
	Next      symbolic.State // consecution: the successor outside
	msg       string
}

func (f *Failure) Error() string { return "cert: " + f.msg }

// Check checks c against the model and question it claims to answer:
// the model hash, the variables, and the three conditions. A nil error
// means the invariant is a proof that no run of policy (nil: any label)
// from a start state of prop reaches a bad state. A *Failure names the
// condition that fails with its witness states.
func Check(ctx context.Context, c *Cert, m *symbolic.Model, prop *symbolic.Property, policy *symbolic.PolicyDecl) error {
	pol := ""
	if policy != nil {
		pol = policy.Name
	}
	if prop == nil {
		return fmt.Errorf("cert: no property to check against")
	}
	if prop.Name != c.Property || pol != c.Policy {
		return fmt.Errorf("cert: the certificate answers property %q with policy %q, not property %q with policy %q", c.Property, c.Policy, prop.Name, pol)
	}
	if len(c.Vars) != len(m.Vars) {
		return fmt.Errorf("cert: the certificate does not belong to model %s: its invariant has %d variables, the model %d", m.Name, len(c.Vars), len(m.Vars))
	}
	for i, v := range c.Vars {
		if v != m.Vars[i].Name {
			return fmt.Errorf("cert: the certificate does not belong to model %s: its variable %d is %q, the model's is %q", m.Name, i+1, v, m.Vars[i].Name)
		}
	}
	if h := ModelHash(m, prop.Name, pol); h != c.Hash {
		return fmt.Errorf("cert: the certificate does not belong to this model: its model-sha256 is %.12s..., the model loaded is %.12s... (was the model, a -D value or the policy changed?)", c.Hash, h)
	}
	x, err := smt.NewContext()
	if err != nil {
		return err
	}
	defer x.Close()
	e, err := smt.NewEncoder(x, m)
	if err != nil {
		return err
	}
	opts := smt.TransOptions{Property: prop, Policy: policy}
	tr, err := e.Transition(opts)
	if err != nil {
		return err
	}
	inv := func(vs []smt.Term) smt.Term {
		bs := make([]smt.Term, len(c.Inv))
		for i, b := range c.Inv {
			bs[i] = e.Cube(b, vs)
		}
		return x.Or(bs...)
	}
	var start smt.Term
	if prop.Start != nil {
		start = e.Cond(prop.Start, e.Cur)
	} else {
		s0, err := m.InitialState()
		if err != nil {
			return fmt.Errorf("cert: %v", err)
		}
		start = e.State(s0, e.Cur)
	}
	rerr, err := e.RangeError(opts, e.Cur)
	if err != nil {
		return err
	}
	bad := x.Or(e.Cond(prop.Unsafe, e.Cur), x.And(x.Not(e.Terminal(prop, e.Cur)), rerr))
	in := e.InRange(e.Cur)
	conds := []struct {
		name string
		f    smt.Term
		next bool
	}{
		{"init", x.And(in, start, x.Not(inv(e.Cur))), false},
		{"consecution", x.And(inv(e.Cur), tr.Formula, x.Not(inv(e.Next))), true},
		{"safety", x.And(in, inv(e.Cur), bad), false},
	}
	if err := x.Err(); err != nil {
		return err
	}
	for _, q := range conds {
		s, err := x.NewSolver()
		if err != nil {
			return err
		}
		if err := s.Assert(q.f); err != nil {
			return err
		}
		res, err := s.CheckContext(ctx)
		if err != nil {
			return err
		}
		switch res {
		case smt.Unknown:
			return fmt.Errorf("cert: the %s condition could not be decided (%s)", q.name, s.ReasonUnknown())
		case smt.Sat:
			f := &Failure{Condition: q.name}
			if f.State, err = e.Decode(s, e.Cur); err != nil {
				return err
			}
			switch q.name {
			case "init":
				f.msg = fmt.Sprintf("init fails: start state %s is outside the invariant", m.FormatState(f.State))
			case "consecution":
				if f.Next, err = e.Decode(s, e.Next); err != nil {
					return err
				}
				f.msg = fmt.Sprintf("consecution fails: state %s is inside the invariant, its successor %s is not", m.FormatState(f.State), m.FormatState(f.Next))
			default:
				f.msg = fmt.Sprintf("safety fails: state %s is inside the invariant and unsafe (or an outcome leaves a range there)", m.FormatState(f.State))
			}
			return f
		}
		s.Close()
	}
	return nil
}
