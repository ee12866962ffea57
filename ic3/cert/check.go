package cert

import (
	"context"
	"fmt"
	"slices"
	"strings"

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
	h, err := ModelHash(m, prop.Name, pol)
	if err != nil {
		return err
	}
	if h != c.Hash {
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
	learned := policy != nil && (policy.Kind == symbolic.KindNN || policy.Kind == symbolic.KindTrees)
	if !learned && len(c.Facts) > 0 {
		return fmt.Errorf("cert: the certificate has policy facts, but policy %q is not learned", pol)
	}
	opts := smt.TransOptions{Property: prop, Policy: policy}
	if learned {
		opts.Policy = nil // SMT sees every label; the facts restrict them
	}
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
	type cond struct {
		name string
		f    smt.Term
		next bool
	}
	conds := []cond{{"init", x.And(in, start, x.Not(inv(e.Cur))), false}}
	if !learned {
		conds = append(conds, cond{"consecution", x.And(inv(e.Cur), tr.Formula, x.Not(inv(e.Next))), true})
	} else {
		// Per label: from the boxes where no fact excludes the label, its
		// steps stay in the invariant.
		facts, err := c.resolveFacts(m)
		if err != nil {
			return err
		}
		for a := range m.Labels {
			var bs []smt.Term
			for i, b := range c.Inv {
				if t, ok := facts.mayChoose(x, e, i, symbolic.LabelID(a), e.Cube(b, e.Cur)); ok {
					bs = append(bs, t)
				}
			}
			conds = append(conds, cond{"consecution", x.And(x.Or(bs...), tr.Formula, tr.Label[a], x.Not(inv(e.Next))), true})
		}
		// Each fact's sure labels are applicable throughout its region.
		app := e.Applicable(e.Cur)
		for _, f := range facts {
			for _, l := range f.Sure {
				conds = append(conds, cond{"sure", x.And(in, e.Cube(c.Inv[f.Box], e.Cur), e.Cube(f.Within, e.Cur), x.Not(app[l])), false})
			}
		}
	}
	conds = append(conds, cond{"safety", x.And(in, inv(e.Cur), bad), false})
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
			case "sure":
				f.msg = fmt.Sprintf("a policy fact claims a label applicable throughout its box, but it is not applicable in state %s", m.FormatState(f.State))
			default:
				f.msg = fmt.Sprintf("safety fails: state %s is inside the invariant and unsafe (or an outcome leaves a range there)", m.FormatState(f.State))
			}
			return f
		}
		s.Close()
	}
	if !learned {
		return nil
	}
	// The facts themselves, against the policy, by a method that shares
	// nothing with the certifier that proved them.
	p, err := symbolic.Instantiate(m, policy)
	if err != nil {
		return fmt.Errorf("cert: %v", err)
	}
	facts, _ := c.resolveFacts(m)
	fc := NewFactChecker(m, p)
	for _, f := range facts {
		lo, hi := boxBounds(m, append(slices.Clone(c.Inv[f.Box]), f.Within...))
		if err := fc.Check(ctx, Fact{Lo: lo, Hi: hi, Label: f.Label, Sure: f.Sure}); err != nil {
			return &Failure{Condition: "fact", msg: fmt.Sprintf("policy fact on box %d, label %s: %v", f.Box, m.Labels[f.Label].Name, strings.TrimPrefix(err.Error(), "cert: "))}
		}
	}
	return nil
}

type resolvedFact struct {
	Box    int
	Label  symbolic.LabelID
	Sure   []symbolic.LabelID
	Within []smt.Lit // none: the whole box
}

type factList []resolvedFact

// mayChoose returns the part of invariant box i (cube, over the current
// state) where no fact excludes label a; ok is false when a fact excludes
// a from the whole box.
func (fs factList) mayChoose(x *smt.Context, e *smt.Encoder, i int, a symbolic.LabelID, cube smt.Term) (t smt.Term, ok bool) {
	t = cube
	for _, f := range fs {
		if f.Box != i || f.Label != a {
			continue
		}
		if len(f.Within) == 0 {
			return t, false
		}
		t = x.And(t, x.Not(e.Cube(f.Within, e.Cur)))
	}
	return t, true
}

// resolveFacts maps the facts' label names to the model's labels.
func (c *Cert) resolveFacts(m *symbolic.Model) (factList, error) {
	label := func(n string) (symbolic.LabelID, error) {
		if l := m.LabelIndex(n); l != symbolic.NoLabel {
			return l, nil
		}
		return 0, fmt.Errorf("cert: a policy fact names label %q, which model %s lacks", n, m.Name)
	}
	var out factList
	for _, f := range c.Facts {
		if f.Box < 0 || f.Box >= len(c.Inv) {
			return nil, fmt.Errorf("cert: a policy fact names box %d of %d", f.Box, len(c.Inv))
		}
		r := resolvedFact{Box: f.Box}
		for _, w := range f.Within {
			l, err := parseLit(m, w)
			if err != nil {
				return nil, fmt.Errorf("cert: %v", err)
			}
			r.Within = append(r.Within, l)
		}
		var err error
		if r.Label, err = label(f.Label); err != nil {
			return nil, err
		}
		for _, n := range f.Sure {
			l, err := label(n)
			if err != nil {
				return nil, err
			}
			r.Sure = append(r.Sure, l)
		}
		out = append(out, r)
	}
	return out, nil
}

// boxBounds returns the per-variable bounds of a box.
func boxBounds(m *symbolic.Model, b []smt.Lit) (lo, hi []int) {
	lo, hi = make([]int, len(m.Vars)), make([]int, len(m.Vars))
	for i := range m.Vars {
		lo[i], hi[i] = m.Vars[i].Lo, m.Vars[i].Hi
	}
	for _, l := range b {
		if l.Upper {
			hi[l.Var] = min(hi[l.Var], l.K)
		} else {
			lo[l.Var] = max(lo[l.Var], l.K)
		}
	}
	return lo, hi
}
