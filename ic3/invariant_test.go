package ic3_test

import (
	"fmt"

	"vigil/internal/testutil"
	"vigil/smt"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// checkInvariant enumerates every state of a tiny model and checks that
// the union of boxes inv holds in every start state, in no unsafe state,
// and is closed under the policy's transitions. It uses the explicit
// engine only, never SMT.
func checkInvariant(m *symbolic.Model, prop *symbolic.Property, pd *symbolic.PolicyDecl, inv [][]smt.Lit) error {
	dec, err := testutil.Decider(m, pd)
	if err != nil {
		return err
	}
	return checkInvariantDecider(m, prop, dec, inv, nil)
}

type smtLit = smt.Lit

// checkInvariantPolicy is checkInvariant for an executable policy.
// With differ pairs (ic3.Result.Differ) the invariant is their
// disequalities conjoined with the union of boxes.
func checkInvariantPolicy(m *symbolic.Model, prop *symbolic.Property, p symbolic.Policy, inv [][]smt.Lit, differ ...[2]symbolic.VarID) error {
	dec, err := explicit.PolicyDecider(m, p)
	if err != nil {
		return err
	}
	return checkInvariantDecider(m, prop, dec, inv, differ)
}

// checkInvariantDiffer is checkInvariant (nil pd: every label) for the
// invariant differ ∧ inv.
func checkInvariantDiffer(m *symbolic.Model, prop *symbolic.Property, pd *symbolic.PolicyDecl, inv [][]smt.Lit, differ [][2]symbolic.VarID) error {
	dec, err := testutil.Decider(m, pd)
	if err != nil {
		return err
	}
	return checkInvariantDecider(m, prop, dec, inv, differ)
}

func checkInvariantDecider(m *symbolic.Model, prop *symbolic.Property, dec explicit.Decider, inv [][]smt.Lit, differ [][2]symbolic.VarID) error {
	g, err := explicit.New(m, prop)
	if err != nil {
		return err
	}
	in := func(s symbolic.State) bool {
		for _, p := range differ {
			if s[p[0]] == s[p[1]] {
				return false
			}
		}
	boxes:
		for _, b := range inv {
			for _, l := range b {
				if !l.Holds(s) {
					continue boxes
				}
			}
			return true
		}
		return false
	}
	var bad error
	g.Starts(func(s symbolic.State) bool {
		if !in(s) {
			bad = fmt.Errorf("start state %s is outside the invariant", m.FormatState(s))
		}
		return bad == nil
	})
	if bad != nil {
		return bad
	}
	s := make(symbolic.State, len(m.Vars))
	for i := range s {
		s[i] = m.Vars[i].Lo
	}
	x := &explicit.Expansion{}
	for {
		if in(s) {
			if g.Status(s) == explicit.Unsafe {
				return fmt.Errorf("unsafe state %s is inside the invariant", m.FormatState(s))
			}
			if g.Status(s) == explicit.Open {
				g.Applicable(s, x)
				l := symbolic.NoLabel
				if dec != nil {
					if l, err = dec.Decide(s, x.App); err != nil {
						return err
					}
				}
				for c := range m.Commands {
					if dec != nil && m.Commands[c].Label != l || !g.Guard(s, c) {
						continue
					}
					for o := range m.Commands[c].Outcomes {
						t, err := g.Apply(s, c, o)
						if err != nil {
							return fmt.Errorf("state %s inside the invariant: %v", m.FormatState(s), err)
						}
						if !in(t) {
							return fmt.Errorf("state %s inside the invariant has successor %s outside", m.FormatState(s), m.FormatState(t))
						}
					}
				}
			}
		}
		i := 0
		for ; i < len(s); i++ {
			if s[i] < m.Vars[i].Hi {
				s[i]++
				break
			}
			s[i] = m.Vars[i].Lo
		}
		if i == len(s) {
			return nil
		}
	}
}
