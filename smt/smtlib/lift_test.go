package smtlib

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"vigil/symbolic"
	"vigil/symbolic/gen"
)

// TestDefinitionsWithoutIte checks that no definition with parameters
// that the writers print holds an ite term (lift.go: Z3 4.8.12 takes
// exponential time to read such a define-fun), on generated models whose
// commands nest min, max, abs and if; TestDefinitionsMatchExplicit checks
// that the lifted definitions mean what the ite terms meant.
func TestDefinitionsWithoutIte(t *testing.T) {
	lifted := 0
	for seed := uint64(0); seed < 400; seed++ {
		m := gen.Model(seed, gen.Options{RangeErrors: seed%2 == 0})
		for _, pol := range []*symbolic.PolicyDecl{m.Policies[0], nil} {
			q := Question{Model: m, Property: m.Properties[0], Policy: pol}
			var b bytes.Buffer
			if err := WriteCert(&b, q, nil, nil); err != nil {
				t.Fatalf("gen%d: %v", seed, err)
			}
			for _, d := range strings.Split(b.String(), "(define-fun ")[1:] {
				head, _, _ := strings.Cut(d, "\n")
				if strings.Contains(d, "(ite ") && !strings.HasPrefix(head, fmt.Sprint(strings.Fields(head)[0], " ()")) {
					t.Errorf("gen%d/%s: a definition with an ite term:\n(define-fun %s", seed, policyName(pol), d)
				}
			}
		}
		for _, c := range m.Commands {
			for _, o := range c.Outcomes {
				for _, a := range o.Assigns {
					if hasIte(a.Value) {
						lifted++
					}
				}
			}
		}
	}
	if lifted < 100 {
		t.Errorf("only %d assignments of the generated models have ite terms to lift", lifted)
	}
	t.Logf("%d assignments with ite terms", lifted)
}
