package ic3_test

import (
	"context"
	"fmt"
	"testing"

	"vigil/ic3"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/explicit/conformance"
)

// verifier runs ic3 with opts as a conformance engine. An unknown answer
// is an error here: the generated models are tiny.
func verifier(opts ic3.Options) conformance.Verifier {
	return func(ctx context.Context, m *symbolic.Model, prop *symbolic.Property, pd *symbolic.PolicyDecl) (conformance.Answer, error) {
		res, err := ic3.Check(ctx, m, prop, pd, opts)
		if err != nil {
			return conformance.Answer{}, err
		}
		switch res.Verdict {
		case ic3.Safe:
			return conformance.Answer{Verdict: explicit.Safe}, nil
		case ic3.Unsafe:
			return conformance.Answer{Verdict: explicit.UnsafeVerdict, Trace: res.Trace}, nil
		}
		return conformance.Answer{}, fmt.Errorf("unknown: %s", res.Reason)
	}
}

func TestConformance(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 200
	}
	conformance.Verify(t, verifier(ic3.Options{Generalize: true}), conformance.Options{Models: n, NoPolicy: true})
}

func TestConformanceNoGeneralization(t *testing.T) {
	conformance.Verify(t, verifier(ic3.Options{}), conformance.Options{Models: 300, FirstSeed: 5000, NoPolicy: true})
}
