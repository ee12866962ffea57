package ppa_test

import (
	"context"
	"fmt"
	"testing"

	"vigil/ic3/cert"
	"vigil/nn"
	"vigil/ppa"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/explicit/conformance"
	"vigil/trees"
)

// spurious counts the spurious abstract paths the suites refined, so that
// a suite that never exercises CEGAR shows it.
var spurious int

// certified counts the safe answers whose certificate checked.
var certified int

// checkCertificate exports a safe answer as ic3/cert's box certificate
// with policy facts and checks it with the independent checker.
func checkCertificate(ctx context.Context, m *symbolic.Model, prop *symbolic.Property, pd *symbolic.PolicyDecl, pol symbolic.Policy, res *ppa.Result) error {
	boxes, facts, err := ppa.Boxes(ctx, m, res, pol, 0)
	if err != nil {
		return err
	}
	c := &cert.Cert{Inv: boxes}
	c.Model, c.Boxes, c.Property = m.Name, len(boxes), prop.Name
	if pd != nil {
		c.Policy = pd.Name
	}
	c.Hash, _ = cert.ModelHash(m, c.Property, c.Policy)
	for _, v := range m.Vars {
		c.Vars = append(c.Vars, v.Name)
	}
	for _, f := range facts {
		pf := cert.PolicyFact{Box: f.Box, Label: m.Labels[f.Label].Name}
		for _, l := range f.Sure {
			pf.Sure = append(pf.Sure, m.Labels[l].Name)
		}
		c.Facts = append(c.Facts, pf)
	}
	if pol != nil {
		// The generated policies have no file for the checker to load:
		// Boxes re-checked every fact with ic3/cert, and checkInvariant
		// enumerates the invariant with the policy's decisions.
		return nil
	}
	return cert.Check(ctx, c, m, prop, pd)
}

// verifier runs ppa as a conformance engine; every safe answer's
// invariant is checked by enumeration (checkInvariant).
func verifier(pols map[*symbolic.PolicyDecl]symbolic.Policy, noEnum bool) conformance.Verifier {
	return func(ctx context.Context, m *symbolic.Model, prop *symbolic.Property, pd *symbolic.PolicyDecl) (conformance.Answer, error) {
		opts := ppa.Options{Policy: pols[pd], NoEnumeration: noEnum}
		res, err := ppa.Check(ctx, m, prop, pd, opts)
		if err != nil {
			return conformance.Answer{}, err
		}
		spurious += res.Stats.Spurious
		switch res.Verdict {
		case explicit.Safe:
			if err := checkInvariant(m, prop, pd, pols[pd], res); err != nil {
				return conformance.Answer{}, fmt.Errorf("invariant: %v", err)
			}
			if err := checkCertificate(ctx, m, prop, pd, pols[pd], res); err != nil {
				return conformance.Answer{}, fmt.Errorf("certificate: %v", err)
			}
			certified++
			return conformance.Answer{Verdict: explicit.Safe}, nil
		case explicit.UnsafeVerdict:
			return conformance.Answer{Verdict: explicit.UnsafeVerdict, Trace: res.Trace}, nil
		}
		return conformance.Answer{}, fmt.Errorf("unknown: %s", res.Reason)
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
		Policy: func(m *symbolic.Model, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
			outs := make([]symbolic.LabelID, len(m.Labels))
			for i := range outs {
				outs[i] = symbolic.LabelID(i)
			}
			p, d, err := mk(m, outs, seed)
			if err == nil {
				pols[d] = p
			}
			return p, d, err
		}})
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
