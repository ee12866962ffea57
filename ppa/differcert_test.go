package ppa_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"
	"time"

	invcert "vigil/ic3/cert"
	"vigil/lang"
	"vigil/symbolic/explicit"
	"vigil/verify"
)

// TestDifferCertificates: on bench/polic3's npuzzle 2x3 and 2x4, every
// cube shares the literals blank != p[k] and p[i] != p[j] (15 and 28 of
// them, more than regions split); a safe ppa answer's certificate states
// them as differ lines, the cubes' other literals as regions, and a
// "differ" fact per sub-box of the states whose step leaves the
// invariant, and verify.Decide checks it with the certificate checker.
// Each fact is needed: the certificate without it is refused.
func TestDifferCertificates(t *testing.T) {
	cases := []struct {
		r, c, pairs int
		policy      string
	}{
		{2, 3, 15, "np2x3_16x16_safe"},
		{2, 3, 15, "np2x3_trees_safe"},
		{2, 4, 28, "np2x4_16x16_safe"},
	}
	if testing.Short() {
		cases = cases[:1]
	}
	for _, tc := range cases {
		opts := lang.Options{Defines: map[string]string{"R": string(rune('0' + tc.r)), "C": string(rune('0' + tc.c))}}
		m, diags := lang.Load(filepath.Join("..", "bench", "polic3", "npuzzle.spec"), opts)
		if diags.HasErrors() {
			t.Fatal(diags.Render())
		}
		prop, pd := m.Property(""), m.Policy(tc.policy)
		if prop == nil || pd == nil {
			t.Fatalf("npuzzle %dx%d: no property or no policy %s", tc.r, tc.c, tc.policy)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
		v, err := verify.Decide(ctx, &verify.Question{Model: m, Property: prop, Policy: pd, Engine: "ppa", Certificate: true})
		if err != nil {
			cancel()
			t.Fatalf("%s: %v", tc.policy, err)
		}
		if v.Answer != explicit.Safe || v.Invariant == nil {
			cancel()
			t.Fatalf("%s: %v (%s), certificate %v: %s; want safe with a certificate", tc.policy, v.Answer, v.Reason, v.Invariant != nil, v.CertNote)
		}
		c := v.Invariant
		if len(c.Differ) != tc.pairs {
			t.Errorf("%s: %d differ pairs, want %d", tc.policy, len(c.Differ), tc.pairs)
		}
		if len(c.Facts) == 0 {
			t.Errorf("%s: no policy fact: the cover went unexercised", tc.policy)
		}
		for i, f := range c.Facts {
			if !f.Differ {
				t.Errorf("%s: fact %d (%v) is not a differ fact", tc.policy, i, f)
			}
			forged := *c
			forged.Header.Facts = slices.Delete(slices.Clone(c.Facts), i, i+1)
			err := invcert.CheckWith(ctx, &forged, m, prop, pd, nil)
			var fail *invcert.Failure
			if err == nil {
				t.Errorf("%s: the certificate without fact %d (%v) is valid: the fact is not needed", tc.policy, i, f)
			} else if !errors.As(err, &fail) || fail.Condition != "consecution" {
				t.Errorf("%s: the certificate without fact %d: %v, want a consecution failure", tc.policy, i, err)
			}
		}
		cancel()
		t.Logf("%s: %d regions, %d differ pairs, %d facts", tc.policy, len(c.Inv), len(c.Differ), len(c.Facts))
	}
}
