package ppa_test

import (
	"fmt"

	"vigil/ppa"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// checkInvariant checks a safe answer by enumerating the model's states:
// every start state lies in a cube, no state of a cube is bad, every
// policy step from a cube's state stays in the cubes, and no cube's state
// has the policy choose a label the cube claims it never chooses.
func checkInvariant(m *symbolic.Model, prop *symbolic.Property, pd *symbolic.PolicyDecl, pol symbolic.Policy, res *ppa.Result) error {
	g, err := explicit.New(m, prop)
	if err != nil {
		return err
	}
	var dec explicit.Decider
	switch {
	case pol != nil:
		dec, err = explicit.PolicyDecider(m, pol)
	case pd != nil:
		dec, err = explicit.NewDecider(m, pd)
	}
	if err != nil {
		return err
	}
	cubes := map[string]int{}
	for i, c := range res.Invariant {
		cubes[key(c.Values)] = i
	}
	cubeOf := func(s symbolic.State) (int, bool) {
		vals := make([]bool, len(res.Predicates))
		for i, p := range res.Predicates {
			vals[i] = p.Holds(s)
		}
		i, ok := cubes[key(vals)]
		return i, ok
	}
	s := make(symbolic.State, len(m.Vars))
	for v := range s {
		s[v] = m.Vars[v].Lo
	}
	x := &explicit.Expansion{}
	for {
		ci, in := cubeOf(s)
		start := false
		if prop.Start != nil {
			start = prop.Start.Holds(s)
		} else if s0, err := m.InitialState(); err == nil {
			start = m.FormatState(s0) == m.FormatState(s)
		}
		if start && !in {
			return fmt.Errorf("start state %s outside the invariant", m.FormatState(s))
		}
		if in {
			if prop.Unsafe.Holds(s) {
				return fmt.Errorf("unsafe state %s inside the invariant", m.FormatState(s))
			}
			g.Applicable(s, x)
			l := symbolic.NoLabel
			if dec != nil {
				if l, err = dec.Decide(s, x.App); err != nil {
					return err
				}
				// Never is a fact about every state of the cube,
				// terminal ones too.
				for _, n := range res.Invariant[ci].Never {
					if n == l {
						return fmt.Errorf("state %s: the policy chooses %s, which cube %d claims it never chooses", m.FormatState(s), m.Labels[l].Name, ci)
					}
				}
			}
			if g.Status(s) == explicit.Open {
				for c := range m.Commands {
					if (dec != nil && m.Commands[c].Label != l) || !g.Guard(s, c) {
						continue
					}
					for o := range m.Commands[c].Outcomes {
						t, err := g.Apply(s, c, o)
						if err != nil {
							return fmt.Errorf("state %s inside the invariant: %v", m.FormatState(s), err)
						}
						if _, ok := cubeOf(t); !ok {
							return fmt.Errorf("state %s inside, successor %s outside", m.FormatState(s), m.FormatState(t))
						}
					}
				}
			}
		}
		v := 0
		for v < len(s) && s[v] == m.Vars[v].Hi {
			s[v] = m.Vars[v].Lo
			v++
		}
		if v == len(s) {
			return nil
		}
		s[v]++
	}
}

func key(vals []bool) string {
	b := make([]byte, len(vals))
	for i, v := range vals {
		b[i] = '0'
		if v {
			b[i] = '1'
		}
	}
	return string(b)
}
