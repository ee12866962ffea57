package conformance_test

import (
	"context"

	"testing"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/explicit/conformance"
)

// bfs is the explicit engine seen as a Verifier: it must conform.
func bfs(ctx context.Context, m *symbolic.Model, prop *symbolic.Property, pd *symbolic.PolicyDecl) (conformance.Answer, error) {
	g, err := explicit.New(m, prop)
	if err != nil {
		return conformance.Answer{}, err
	}
	var d explicit.Decider
	if pd != nil {
		if d, err = explicit.NewDecider(m, pd); err != nil {
			return conformance.Answer{}, err
		}
	}
	r, err := explicit.Search(ctx, g, explicit.Options{Policy: d, StopAtUnsafe: true})
	if err != nil {
		return conformance.Answer{}, err
	}
	return conformance.Answer{Verdict: r.Verdict, Trace: r.Trace}, nil
}

func TestBFSConforms(t *testing.T) {
	conformance.Verify(t, bfs, conformance.Options{NoPolicy: true, Shortest: true})
}
