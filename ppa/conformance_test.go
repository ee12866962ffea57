package ppa_test

import (
	"context"
	"fmt"
	"testing"

	"vigil/internal/testutil"
	"vigil/nn"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/explicit/conformance"
	"vigil/trees"
	"vigil/verify"
)

// spurious counts the spurious abstract paths the suites refined, so that
// a suite that never exercises CEGAR shows it.
var spurious int

// certified counts the safe answers whose certificate checked.
var certified int

// verifier runs verify's ppa engine as a conformance engine. verify.Decide
// replays every counterexample, and exports a safe answer's reachable
// cubes as ic3/cert's box certificate with policy facts, checked by the
// independent checker (with the policy's evaluation, for the generated
// learned policies, which have no file); the test checks each invariant
// once more by enumeration (checkInvariant).
func verifier(pols map[*symbolic.PolicyDecl]symbolic.Policy, noEnum bool) conformance.Verifier {
	return func(ctx context.Context, m *symbolic.Model, prop *symbolic.Property, pd *symbolic.PolicyDecl) (conformance.Answer, error) {
		v, err := verify.Decide(ctx, &verify.Question{Model: m, Property: prop, Policy: pd, Executable: pols[pd], Engine: "ppa",
			PPA: verify.PPAOptions{NoEnumeration: noEnum}, Certificate: true})
		if err != nil {
			return conformance.Answer{}, err
		}
		spurious += v.PPA.Stats.Spurious
		switch v.Answer {
		case explicit.Safe:
			if err := checkInvariant(m, prop, pd, pols[pd], v.PPA.Result); err != nil {
				return conformance.Answer{}, fmt.Errorf("invariant: %v", err)
			}
			if v.Invariant == nil {
				return conformance.Answer{}, fmt.Errorf("certificate: %s", v.CertNote)
			}
			certified++
			return conformance.Answer{Verdict: explicit.Safe}, nil
		case explicit.UnsafeVerdict:
			return conformance.Answer{Verdict: explicit.UnsafeVerdict, Trace: v.Trace}, nil
		}
		return conformance.Answer{}, fmt.Errorf("unknown: %s", v.Reason)
	}
}

func TestConformanceRules(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 100
	}
	conformance.Verify(t, verifier(nil, false), conformance.Options{Models: n, NoPolicy: true})
	conformance.Verify(t, verifier(nil, true), conformance.Options{Models: n, FirstSeed: 1000, NoPolicy: true})
	t.Logf("%d spurious abstract paths refined, %d certificates checked", spurious, certified)
	if spurious == 0 {
		t.Error("no spurious abstract path: CEGAR was not exercised")
	}
}

func learned(t *testing.T, models int, noEnum bool, mk func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error)) {
	pols := map[*symbolic.PolicyDecl]symbolic.Policy{}
	conformance.Verify(t, verifier(pols, noEnum), conformance.Options{Models: models,
		Policy: testutil.RecordPolicies(pols, mk)})
}

func TestConformanceNetworks(t *testing.T) {
	learned(t, 100, false, func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
		return nn.Random(m, outs, seed, []int{6})
	})
}

func TestConformanceEnsembles(t *testing.T) {
	learned(t, 100, false, func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
		return trees.Random(m, outs, seed, 4, 3)
	})
}

// The same questions with every cube handled by SMT: the policy's
// encodings (networks relaxed, ensembles by leaf indicators), the
// concrete witnesses and the certifier of learned.go.
func TestConformanceNetworksSMT(t *testing.T) {
	learned(t, 60, true, func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
		return nn.Random(m, outs, seed, []int{6})
	})
}

func TestConformanceEnsemblesSMT(t *testing.T) {
	learned(t, 100, true, func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
		return trees.Random(m, outs, seed, 4, 3)
	})
}
