package ic3_test

import (
	"context"
	"os"
	"strconv"
	"testing"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/explicit/conformance"
	"vigil/symbolic/gen"
	"vigil/verify"
)

// counted wraps a verifier and counts its decided answers.
func counted(v conformance.Verifier, decided *int) conformance.Verifier {
	return func(ctx context.Context, m *symbolic.Model, prop *symbolic.Property, pd *symbolic.PolicyDecl) (conformance.Answer, error) {
		a, err := v(ctx, m, prop, pd)
		if err == nil && a.Verdict != explicit.Unknown {
			*decided++
		}
		return a, err
	}
}

// TestConformanceLarge: ic3 (Z3's unbounded integers) against BFS (vigil's
// own exact evaluation, unchecked only where interval analysis proves that
// int64 suffices) on generated models whose expressions leave int64
// (gen.Options.Large), with their rules policies (whose conditions leave
// int64 too) and without. Every safe answer's invariant is checked by
// enumeration, by the certificate checker and by the z3 binary. This is
// the overflow example, generalised: the two engines computed in
// different arithmetics.
func TestConformanceLarge(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 100
	}
	if v, err := strconv.Atoi(os.Getenv("VIGIL_LARGE_N")); err == nil {
		n = v // a longer campaign: VIGIL_LARGE_N=3000 go test -run ConformanceLarge
	}
	var certs []string
	decided := 0
	conformance.Verify(t, counted(verifier("ic3", verify.IC3Options{}, &certs), &decided),
		conformance.Options{Models: n, FirstSeed: 70000, Gen: gen.Options{Large: true}, NoPolicy: true})
	if decided < n {
		t.Errorf("ic3 decided %d questions on %d models; want at least %d", decided, n, n)
	}
	checkZ3(t, certs)
}
