package ic3_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"vigil/ic3"
	"vigil/ic3/cert"
	"vigil/nn"
	"vigil/smt"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/explicit/conformance"
	"vigil/symbolic/gen"
	"vigil/trees"
)

// TestLearnedCertificates runs PolIC3 on generated models with random
// networks and ensembles, against BFS, and checks every safe answer's
// whole certificate as vigil cert check does: written as the file vigil
// verify --cert writes, parsed back, and checked by the independent
// checker (consecution per label outside the facts' regions, the facts'
// sure labels, safety, and each fact against the policy). The same
// certificate without its facts must fail wherever enumeration of the
// states shows the unrestricted invariant is not inductive.
func TestLearnedCertificates(t *testing.T) {
	n := 600
	if testing.Short() {
		n = 100
	}
	for _, kind := range []struct {
		name  string
		first uint64
		mk    func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error)
	}{
		{"networks", 1, func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
			return nn.Random(m, outs, seed, []int{8})
		}},
		{"ensembles", 1000, func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
			return trees.Random(m, outs, seed, 4, 3)
		}},
	} {
		t.Run(kind.name, func(t *testing.T) {
			pols := map[*symbolic.PolicyDecl]symbolic.Policy{}
			var certs, withFacts, factsNeeded, forgedFacts, stopChecks, factStops int
			v := func(ctx context.Context, m *symbolic.Model, prop *symbolic.Property, pd *symbolic.PolicyDecl) (conformance.Answer, error) {
				p := pols[pd]
				lp, err := ic3.Certifier(p)
				if err != nil {
					return conformance.Answer{}, err
				}
				res, err := ic3.Check(ctx, m, prop, pd, ic3.Options{Generalize: true, Learned: lp})
				if err != nil {
					return conformance.Answer{}, err
				}
				switch res.Verdict {
				case ic3.Unsafe:
					return conformance.Answer{Verdict: explicit.UnsafeVerdict, Trace: res.Trace}, nil
				case ic3.Safe:
				default:
					return conformance.Answer{}, fmt.Errorf("unknown: %s", res.Reason)
				}
				c := certificate(m, prop, pd, res.Invariant)
				c.Facts = certFacts(m, res.Facts)
				c.Differ = differNames(m, res.Differ)
				back := roundTrip(t, 0, c, m, prop, pd)
				if err := cert.CheckWith(ctx, back, m, prop, pd, p); err != nil {
					return conformance.Answer{}, fmt.Errorf("the certificate of a safe answer is rejected: %v", err)
				}
				certs++
				if len(c.Facts) > 0 && stopChecks < 20 {
					stopChecks++
					if err := stoppedAnywhere(back, m, prop, pd, p, &factStops); err != nil {
						return conformance.Answer{}, err
					}
				}
				if len(c.Facts) > 0 {
					withFacts++
					bare := certificate(m, prop, pd, res.Invariant)
					bare.Differ = c.Differ
					chk := cert.CheckWith(ctx, bare, m, prop, pd, p)
					enum := checkInvariantDiffer(m, prop, nil, res.Invariant, res.Differ) // every label: what the certificate claims without facts
					if (chk == nil) != (enum == nil) {
						return conformance.Answer{}, fmt.Errorf("without its facts: checker says %v, enumeration says %v", chk, enum)
					}
					if chk != nil {
						factsNeeded++
					}
				}
				// A forged fact: label a never chosen anywhere in box 0,
				// with no sure label. It is false when some state of the
				// box gives a's output a score that can be chosen; then
				// the checker must refute it.
				if len(res.Invariant) > 0 {
					a := symbolic.LabelID(len(res.Invariant[0]) % len(m.Labels))
					forged := certificate(m, prop, pd, res.Invariant)
					forged.Differ = c.Differ
					forged.Facts = append(append(forged.Facts, c.Facts...), cert.PolicyFact{Box: 0, Label: m.Labels[a].Name})
					if canChoose(m, p, res.Invariant[0], a) {
						forgedFacts++
						err := cert.CheckWith(ctx, forged, m, prop, pd, p)
						if f, ok := err.(*cert.Failure); !ok || f.Condition != "fact" {
							return conformance.Answer{}, fmt.Errorf("a forged fact (label %s never chosen in box 0): got %v, want the fact refuted", m.Labels[a].Name, err)
						}
					}
				}
				return conformance.Answer{Verdict: explicit.Safe}, nil
			}
			conformance.Verify(t, v, conformance.Options{Models: n, FirstSeed: kind.first, Gen: gen.Options{},
				Policy: func(m *symbolic.Model, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
					outs := make([]symbolic.LabelID, len(m.Labels))
					for i := range outs {
						outs[i] = symbolic.LabelID(i)
					}
					p, d, err := kind.mk(m, outs, seed)
					if err == nil {
						pols[d] = p
					}
					return p, d, err
				}})
			t.Logf("%d certificates checked, %d with policy facts, %d of which fail without them (as enumeration says); %d forged facts refuted; %d checks stopped at every step, %d of the stops in the policy facts", certs, withFacts, factsNeeded, forgedFacts, stopChecks, factStops)
			if stopChecks > 0 && factStops == 0 {
				t.Errorf("no stop landed in the policy facts' checks")
			}
			if certs < 10 || forgedFacts < 10 {
				t.Errorf("only %d certificates checked, %d forged facts", certs, forgedFacts)
			}
		})
	}
}

// canChoose reports whether some state of box b gives an output of label
// a a score that qualifies (neither NaN nor -Inf): with no sure label,
// the policy may then choose a there.
func canChoose(m *symbolic.Model, p symbolic.Policy, b []smt.Lit, a symbolic.LabelID) bool {
	lo, hi := bounds(m, b)
	s := slices.Clone(lo)
	sc := make([]float64, len(p.Outputs()))
	for {
		if p.Scores(s, sc) == nil {
			for i, l := range p.Outputs() {
				if l == a && !math.IsNaN(sc[i]) && !math.IsInf(sc[i], -1) {
					return true
				}
			}
		}
		i := 0
		for ; i < len(s) && s[i] == hi[i]; i++ {
			s[i] = lo[i]
		}
		if i == len(s) {
			return false
		}
		s[i]++
	}
}

// stopAfter is a context that ends (context.Canceled) at the k-th time
// it is asked whether it has: a stop placed at every step of a check
// that asks, deterministically. Its Done channel never closes, so Z3's
// calls run to their end and only the checker's own polls see the stop.
type stopAfter struct {
	context.Context
	k, asked int
}

func (c *stopAfter) Err() error {
	c.asked++
	if c.asked > c.k {
		return context.Canceled
	}
	return nil
}

// stoppedAnywhere checks a valid learned certificate once with a stop at
// each step where the checker polls (the session-21 note: the
// interrupted policy-fact path had no test): each stopped check must give
// no verdict (an error wrapping context.Canceled, never a *cert.Failure:
// a valid certificate called invalid), and only the unstopped one is
// valid. It counts in *factStops the stops that landed in a policy fact.
func stoppedAnywhere(c *cert.Cert, m *symbolic.Model, prop *symbolic.Property, pd *symbolic.PolicyDecl, p symbolic.Policy, factStops *int) error {
	all := &stopAfter{Context: context.Background(), k: math.MaxInt}
	if err := cert.CheckWith(all, c, m, prop, pd, p); err != nil {
		return fmt.Errorf("the certificate checked with a counting context: %v", err)
	}
	for k := 0; k < all.asked; k++ {
		err := cert.CheckWith(&stopAfter{Context: context.Background(), k: k}, c, m, prop, pd, p)
		if _, refuted := err.(*cert.Failure); refuted || !errors.Is(err, context.Canceled) {
			return fmt.Errorf("a valid certificate's check stopped at poll %d of %d: got %v, want no verdict (context canceled)", k+1, all.asked, err)
		}
		if strings.Contains(err.Error(), "not re-checked") {
			*factStops++
		}
	}
	return nil
}
