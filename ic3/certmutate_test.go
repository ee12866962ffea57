package ic3_test

import (
	"bytes"
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"vigil/ic3"
	"vigil/ic3/cert"
	"vigil/smt"
	"vigil/symbolic"
	"vigil/symbolic/gen"
)

// TestCertificateMutations cross-checks the certificate checker, whose
// encoding (smtlib text solved by Z3's SMT-LIB2 front end) is independent
// of the smt.Encoder ic3 searches with, against the engine and against
// enumeration, on generated models with and without their rules policy,
// with and without range errors:
//
//   - every certificate ic3 produces, written as the file vigil verify
//     --cert writes and parsed back, is accepted;
//   - its invariant mutated (a box dropped, a literal dropped, a bound
//     shifted by one either way) is accepted exactly when enumeration of
//     the states finds the mutant inductive, safe and containing the
//     start states;
//   - its header mutated (another model's hash, as another -D value
//     gives, another policy file's hash, a look-alike policy name, a
//     policy fact on a rules policy) is always rejected.
func TestCertificateMutations(t *testing.T) {
	n := uint64(160)
	if testing.Short() {
		n = 60
	}
	ctx := context.Background()
	var genuine, mutants, rejected, headers int
	for seed := uint64(1); seed <= n; seed++ {
		opt := gen.Options{RangeErrors: seed%3 == 0}
		m := gen.Model(seed, opt)
		prop := m.Properties[0]
		for _, pd := range []*symbolic.PolicyDecl{nil, m.Policies[0]} {
			res, err := ic3.Check(ctx, m, prop, pd, ic3.Options{Generalize: true})
			if err != nil {
				if strings.Contains(err.Error(), "range") {
					continue // a reachable range error: no certificate to check
				}
				t.Fatalf("seed %d: ic3: %v", seed, err)
			}
			if res.Verdict != ic3.Safe {
				continue
			}
			genuine++
			c := roundTrip(t, seed, certificate(m, prop, pd, res.Invariant), m, prop, pd)
			if err := cert.Check(ctx, c, m, prop, pd); err != nil {
				t.Errorf("seed %d, policy %v: the genuine certificate is rejected: %v", seed, pd != nil, err)
				continue
			}

			r := rand.New(rand.NewPCG(seed, 7))
			for _, inv := range mutate(r, res.Invariant, 8) {
				mutants++
				mc := certificate(m, prop, pd, inv)
				chk := cert.Check(ctx, mc, m, prop, pd)
				enum := checkInvariant(m, prop, pd, inv)
				if (chk == nil) != (enum == nil) {
					t.Errorf("seed %d, policy %v, invariant %v: checker says %v, enumeration says %v", seed, pd != nil, inv, chk, enum)
				}
				if chk != nil {
					rejected++
				}
			}

			for name, edit := range map[string]func(c *cert.Cert) string{
				"model hash": func(c *cert.Cert) string {
					c.Hash = strings.Repeat("0", 64)
					return "does not belong to this model"
				},
				"policy hash": func(c *cert.Cert) string {
					c.PolicyHash = strings.Repeat("ab", 32)
					return "another policy file"
				},
				"look-alike policy": func(c *cert.Cert) string {
					c.Policy = lookAlike(c.Policy)
					return `\u`
				},
				"fact on rules": func(c *cert.Cert) string {
					c.Facts = append(c.Facts, cert.PolicyFact{Box: 0, Label: m.Labels[0].Name})
					if pd == nil || len(c.Inv) == 0 {
						return "" // not applicable
					}
					return "not learned"
				},
			} {
				mc := certificate(m, prop, pd, res.Invariant)
				want := edit(mc)
				if want == "" {
					continue
				}
				headers++
				err := cert.Check(ctx, mc, m, prop, pd)
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Errorf("seed %d, policy %v, %s edited: got %v, want an error with %q", seed, pd != nil, name, err, want)
				}
			}
		}
	}
	t.Logf("%d genuine certificates accepted; %d invariant mutants, %d rejected (as enumeration does); %d header mutants rejected", genuine, mutants, rejected, headers)
	if genuine < 20 || rejected < 20 {
		t.Errorf("too few cases decided: %d genuine certificates, %d mutants rejected", genuine, rejected)
	}
}

// roundTrip writes c as vigil verify --cert does and parses it back.
func roundTrip(t *testing.T, seed uint64, c *cert.Cert, m *symbolic.Model, prop *symbolic.Property, pd *symbolic.PolicyDecl) *cert.Cert {
	t.Helper()
	var buf bytes.Buffer
	if err := c.Write(&buf, m, prop, pd); err != nil {
		t.Fatalf("seed %d: writing the certificate: %v", seed, err)
	}
	back, err := cert.Parse(&buf, m.Name)
	if err != nil {
		t.Fatalf("seed %d: reading the certificate back: %v", seed, err)
	}
	return back
}

// mutate returns up to k invariants, each inv with one edit: a box
// dropped, a literal dropped, or a bound shifted by one.
func mutate(r *rand.Rand, inv [][]smt.Lit, k int) [][][]smt.Lit {
	clone := func() [][]smt.Lit {
		out := make([][]smt.Lit, len(inv))
		for i, b := range inv {
			out[i] = slices.Clone(b)
		}
		return out
	}
	var all [][][]smt.Lit
	for i := range inv {
		c := clone()
		all = append(all, slices.Delete(c, i, i+1))
		for j := range inv[i] {
			c := clone()
			c[i] = slices.Delete(c[i], j, j+1)
			all = append(all, c)
			for _, d := range []int{-1, 1} {
				c := clone()
				c[i][j].K += d
				all = append(all, c)
			}
		}
	}
	r.Shuffle(len(all), func(a, b int) { all[a], all[b] = all[b], all[a] })
	return all[:min(k, len(all))]
}

// lookAlike replaces the first a, e, o, p or c of name by its Cyrillic
// look-alike, or appends a zero-width space when it has none.
func lookAlike(name string) string {
	for i, r := range name {
		if cy, ok := map[rune]string{'a': "а", 'e': "е", 'o': "о", 'p': "р", 'c': "с"}[r]; ok {
			return name[:i] + cy + name[i+1:]
		}
	}
	return name + "\u200b"
}

// TestEncoderBugNotCertified simulates an encoder bug: ic3 searches a
// model with one command left out (as an encoder that forgot it would;
// without generalization, so that the invariant hugs the states reachable
// without it),
// and its invariant is handed to the checker with the true model, as the
// check before "safe" is printed does. The checker encodes the model
// itself, so it must accept the invariant exactly when enumeration of the
// true model's states finds it inductive and safe.
func TestEncoderBugNotCertified(t *testing.T) {
	n := uint64(600)
	if testing.Short() {
		n = 200
	}
	ctx := context.Background()
	var tried, caught int
	for seed := uint64(1); seed <= n; seed++ {
		m := gen.Model(seed, gen.Options{})
		prop := m.Properties[0]
		for drop := range m.Commands {
			buggy := *m
			buggy.Commands = slices.Delete(slices.Clone(m.Commands), drop, drop+1)
			res, err := ic3.Check(ctx, &buggy, prop, nil, ic3.Options{})
			if err != nil || res.Verdict != ic3.Safe {
				continue
			}
			tried++
			chk := cert.Check(ctx, certificate(m, prop, nil, res.Invariant), m, prop, nil)
			enum := checkInvariant(m, prop, nil, res.Invariant)
			if (chk == nil) != (enum == nil) {
				t.Errorf("seed %d, command %d left out: checker says %v, enumeration of the true model says %v", seed, drop, chk, enum)
			}
			if chk != nil {
				caught++
			}
		}
	}
	t.Logf("%d invariants of models with a command left out; %d rejected for the true model (as enumeration does)", tried, caught)
	if caught < 10 {
		t.Errorf("only %d wrong invariants caught", caught)
	}
}
