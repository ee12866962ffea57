package ppa

import (
	"context"
	"strings"
	"testing"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/gen"
)

// TestStartCubesRefined: with every start cube found by SMT
// (NoEnumeration), the start cubes refined from the last iteration's are,
// in every iteration, the cubes that the enumeration from scratch finds
// (checkStarts), and each keeps a witness inside it (the verdicts are
// the conformance suites' concern).
func TestStartCubesRefined(t *testing.T) {
	refined, questions := 0, 0
	for seed := uint64(1); seed <= 600; seed++ {
		m := gen.Model(seed, gen.Options{})
		for pi := range m.Properties {
			prop := m.Properties[pi]
			for _, pd := range append([]*symbolic.PolicyDecl{nil}, m.Policies...) {
				if prop.Unsafe == nil || Validate(m, prop, pd) != nil || pd != nil && pd.Kind != symbolic.KindRules {
					continue
				}
				res, err := Check(context.Background(), m, prop, pd, Options{NoEnumeration: true, checkStarts: true, MaxIterations: 30})
				if err != nil && strings.Contains(err.Error(), "no state satisfies the start condition") {
					continue // an empty start set is an error, as in bfs
				}
				if err != nil {
					t.Fatalf("seed %d, %s: %v", seed, prop.Name, err)
				}
				questions++
				if res.Stats.Iterations > 1 {
					refined += res.Stats.Iterations - 1
				}
				if res.Verdict == explicit.Unknown && res.Reason != "iteration limit 30" {
					t.Errorf("seed %d, %s: unknown: %s", seed, prop.Name, res.Reason)
				}
			}
		}
	}
	t.Logf("%d questions, %d refinements of the start cubes checked", questions, refined)
	if refined < 20 {
		t.Errorf("only %d refinements of the start cubes", refined)
	}
}
