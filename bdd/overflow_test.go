package bdd_test

import (
	"context"
	"strings"
	"testing"

	"vigil/bdd"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/explicit/conformance"
	"vigil/symbolic/gen"
)

// TestVerifyLarge: on models whose expressions may leave int64
// (gen.Options.Large) the BDD engine either refuses the model (its values
// need more than 64 bits: an accepted answer, the other engines decide
// such models, see ic3's TestConformanceLarge) or agrees with BFS, with
// shortest counterexamples. Models where interval analysis finds int64
// enough must not be refused.
func TestVerifyLarge(t *testing.T) {
	n := models(t) / 4
	refused, decided := 0, 0
	v := func(ctx context.Context, m *symbolic.Model, prop *symbolic.Property, pd *symbolic.PolicyDecl) (conformance.Answer, error) {
		r, err := bdd.Verify(ctx, m, prop, pd, bdd.Options{})
		if err != nil && strings.Contains(err.Error(), "need more than 64 bits") {
			if !mayOverflow(m) {
				t.Errorf("%s: refused, but no expression may leave int64: %v", m.Name, err)
			}
			refused++
			return conformance.Answer{Verdict: explicit.Unknown}, nil
		}
		if err != nil {
			return conformance.Answer{}, err
		}
		decided++
		return conformance.Answer{Verdict: r.Verdict.Explicit(), Trace: r.Trace}, nil
	}
	// Refusals count as unknown, so the suite's nine-in-ten rule cannot
	// hold here; instead every question the engine did not refuse must be
	// decided (a silent unknown fails), and enough must be decided below.
	tally := conformance.Verify(t, v, conformance.Options{Models: n, FirstSeed: 70000, Gen: gen.Options{Large: true}, NoPolicy: true, Shortest: true, MinDecided: 1})
	t.Logf("bdd: %d decided, %d refused (values beyond 64 bits)", decided, refused)
	if tally.Decided != decided {
		t.Errorf("bdd answered %d questions without refusing them, but only %d were verdicts: it answered unknown without a reason", decided, tally.Decided)
	}
	if refused == 0 || decided < n/8 {
		t.Errorf("bdd decided %d and refused %d questions on %d models: the generator lacks variety", decided, refused, n)
	}
}

// mayOverflow reports whether some expression of m may leave int64 by
// interval analysis.
func mayOverflow(m *symbolic.Model) bool {
	conds := []*symbolic.Cond{}
	for _, p := range m.Properties {
		conds = append(conds, p.Unsafe)
		if p.Start != nil {
			conds = append(conds, p.Start)
		}
		if p.Goal != nil {
			conds = append(conds, p.Goal)
		}
	}
	for _, d := range m.Policies {
		for _, r := range d.Rules {
			conds = append(conds, r.Cond)
		}
	}
	for _, c := range m.Commands {
		conds = append(conds, c.Guard)
		for _, o := range c.Outcomes {
			for _, a := range o.Assigns {
				if !m.Fits(a.Value) {
					return true
				}
			}
		}
	}
	for _, c := range conds {
		if !m.CondFits(c) {
			return true
		}
	}
	return false
}
