package ic3_test

import (
	"context"
	"fmt"
	"testing"

	"vigil/ic3"
	"vigil/ic3/cert"
	"vigil/smt"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/explicit/conformance"
	"vigil/symbolic/gen"
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
			// Every invariant is checked twice: by enumeration of the
			// states (explicit engine only) and by the certificate
			// checker (its own SMT queries).
			if err := checkInvariant(m, prop, pd, res.Invariant); err != nil {
				return conformance.Answer{}, fmt.Errorf("invariant (enumeration): %v", err)
			}
			if err := cert.Check(ctx, certificate(m, prop, pd, res.Invariant), m, prop, pd); err != nil {
				return conformance.Answer{}, fmt.Errorf("invariant (checker): %v", err)
			}
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

func certificate(m *symbolic.Model, prop *symbolic.Property, pd *symbolic.PolicyDecl, inv [][]smt.Lit) *cert.Cert {
	c := &cert.Cert{Inv: inv}
	c.Property = prop.Name
	if pd != nil {
		c.Policy = pd.Name
	}
	c.Hash = cert.ModelHash(m, c.Property, c.Policy)
	for _, v := range m.Vars {
		c.Vars = append(c.Vars, v.Name)
	}
	return c
}

// TestCheckerRejects drops one box from each multi-box invariant (or
// widens a box) and expects the checker to find a failing condition
// whenever enumeration does.
func TestCheckerRejects(t *testing.T) {
	rejected := 0
	for seed := uint64(1); seed <= 300; seed++ {
		m := gen.Model(seed, gen.Options{})
		prop := m.Properties[0]
		res, err := ic3.Check(context.Background(), m, prop, nil, ic3.Options{Generalize: true})
		if err != nil || res.Verdict != ic3.Safe || len(res.Invariant) == 0 {
			continue
		}
		for i := range res.Invariant {
			inv := append(append([][]smt.Lit{}, res.Invariant[:i]...), res.Invariant[i+1:]...)
			enum := checkInvariant(m, prop, nil, inv)
			chk := cert.Check(context.Background(), certificate(m, prop, nil, inv), m, prop, nil)
			if (enum == nil) != (chk == nil) {
				t.Errorf("seed %d, without box %d: enumeration says %v, checker says %v", seed, i, enum, chk)
			}
			if chk != nil {
				rejected++
			}
		}
	}
	if rejected == 0 {
		t.Error("no mutated invariant was rejected")
	}
	t.Logf("%d mutated invariants rejected", rejected)
}
