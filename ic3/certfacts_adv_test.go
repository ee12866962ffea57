package ic3_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"vigil/ic3"
	"vigil/ic3/cert"
	"vigil/internal/testutil"
	"vigil/nn"
	"vigil/smt"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/explicit/conformance"
	"vigil/symbolic/gen"
	"vigil/trees"
	"vigil/verify"
)

// TestForgedPolicyFacts forges the policy facts of PolIC3's certificates
// (the adversary's edits of a certificate file: a fact dropped, its label
// changed, a label added to its sure labels, its sub-box region widened
// to the whole box, one of its box's bounds moved) and checks every
// forgery the checker accepts against enumeration with the policy's own
// decisions: the invariant must hold under the policy (no wrong safe),
// and every fact must be true (a checker accepting a false fact is a
// bug even where the invariant happens to hold). The genuine certificate
// must be accepted. Models include range errors, values beyond int64 and
// near-tie networks, where PolIC3 answers small boxes by evaluation.
func TestForgedPolicyFacts(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 80
	}
	for _, kind := range []struct {
		name  string
		first uint64
		opt   gen.Options
		mk    func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error)
	}{
		{"networks", 94000, gen.Options{RangeErrors: true, MaxLabels: 4}, func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
			return nn.Random(m, outs, seed, []int{8})
		}},
		{"neartie", 95000, gen.Options{Large: true, MaxLabels: 4}, func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
			return nearTieNetwork(m, outs, seed)
		}},
		{"ensembles", 96000, gen.Options{MaxVars: 3, MaxRange: 16, MaxLabels: 4}, func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
			return trees.Random(m, outs, seed, 4, 3)
		}},
	} {
		t.Run(kind.name, func(t *testing.T) {
			pols := map[*symbolic.PolicyDecl]symbolic.Policy{}
			var certs, forged, accepted int
			v := func(ctx context.Context, m *symbolic.Model, prop *symbolic.Property, pd *symbolic.PolicyDecl) (conformance.Answer, error) {
				p := pols[pd]
				res, err := verify.Decide(ctx, &verify.Question{Model: m, Property: prop, Policy: pd, Executable: p, Engine: "polic3"})
				if err != nil {
					return conformance.Answer{}, err
				}
				switch res.Answer {
				case explicit.UnsafeVerdict:
					return conformance.Answer{Verdict: explicit.UnsafeVerdict, Trace: res.Trace}, nil
				case explicit.Safe:
				default:
					return conformance.Answer{}, fmt.Errorf("unknown: %s", res.Reason)
				}
				inv, facts := res.IC3.Invariant, res.IC3.Facts
				c := certificate(m, prop, pd, inv)
				c.Facts = certFacts(m, facts)
				c.Differ = differNames(m, res.IC3.Differ)
				if err := cert.CheckWith(ctx, roundTrip(t, 0, c, m, prop, pd), m, prop, pd, p); err != nil {
					return conformance.Answer{}, fmt.Errorf("the genuine certificate is rejected: %v", err)
				}
				certs++
				for _, mu := range forgeries(m, inv, facts) {
					forged++
					mc := certificate(m, prop, pd, mu.inv)
					mc.Facts = certFacts(m, mu.facts)
					mc.Differ = c.Differ
					if cert.CheckWith(ctx, roundTrip(t, 0, mc, m, prop, pd), m, prop, pd, p) != nil {
						continue
					}
					accepted++
					if err := checkInvariantPolicy(m, prop, p, mu.inv, res.IC3.Differ...); err != nil {
						return conformance.Answer{}, fmt.Errorf("forgery %q is accepted, but its invariant is wrong: %v", mu.what, err)
					}
					if err := factsHold(m, prop, p, mu.inv, mu.facts, res.IC3.Differ...); err != nil {
						return conformance.Answer{}, fmt.Errorf("forgery %q is accepted, but %v", mu.what, err)
					}
				}
				return conformance.Answer{Verdict: explicit.Safe}, nil
			}
			conformance.Verify(t, v, conformance.Options{Models: n, FirstSeed: kind.first, Gen: kind.opt,
				Policy: testutil.RecordPolicies(pols, func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
					return kind.mk(m, outs, seed)
				})})
			t.Logf("%d genuine certificates accepted; %d forgeries, %d accepted (each one's invariant and facts true by enumeration)", certs, forged, accepted)
			if certs < 10 || forged < 10 || accepted == forged {
				t.Errorf("too few cases: %d certificates, %d forgeries, %d accepted", certs, forged, accepted)
			}
		})
	}
}

// forgery is one edited certificate.
type forgery struct {
	what  string
	inv   [][]smt.Lit
	facts []ic3.Fact
}

// forgeries returns the edits of one certificate's facts and boxes.
func forgeries(m *symbolic.Model, inv [][]smt.Lit, facts []ic3.Fact) []forgery {
	cloneFacts := func() []ic3.Fact {
		out := make([]ic3.Fact, len(facts))
		for i, f := range facts {
			out[i] = ic3.Fact{Box: f.Box, Label: f.Label, Sure: slices.Clone(f.Sure), Within: slices.Clone(f.Within)}
		}
		return out
	}
	var out []forgery
	for i, f := range facts {
		out = append(out, forgery{fmt.Sprintf("fact %d dropped", i), inv, slices.Delete(cloneFacts(), i, i+1)})
		for l := range m.Labels {
			lab := symbolic.LabelID(l)
			if lab != f.Label {
				fs := cloneFacts()
				fs[i].Label = lab
				out = append(out, forgery{fmt.Sprintf("fact %d's label %s -> %s", i, m.Labels[f.Label].Name, m.Labels[l].Name), inv, fs})
			}
			if lab != f.Label && !slices.Contains(f.Sure, lab) {
				fs := cloneFacts()
				fs[i].Sure = append(fs[i].Sure, lab)
				out = append(out, forgery{fmt.Sprintf("fact %d's sure labels + %s", i, m.Labels[l].Name), inv, fs})
			}
		}
		if len(f.Within) > 0 {
			fs := cloneFacts()
			fs[i].Within = nil
			out = append(out, forgery{fmt.Sprintf("fact %d's region widened to its box", i), inv, fs})
			fs = cloneFacts()
			fs[i].Within = fs[i].Within[1:]
			out = append(out, forgery{fmt.Sprintf("fact %d's region loses a bound", i), inv, fs})
		}
	}
	// A bound of a box with facts moved outwards by one: the facts now
	// claim one more row of states.
	for i, b := range inv {
		for j := range b {
			ni := make([][]smt.Lit, len(inv))
			for k := range inv {
				ni[k] = slices.Clone(inv[k])
			}
			if ni[i][j].Upper {
				ni[i][j].K++
			} else {
				ni[i][j].K--
			}
			out = append(out, forgery{fmt.Sprintf("box %d's bound %d moved out", i, j), ni, cloneFacts()})
		}
	}
	return out
}

// factsHold checks each fact by enumeration: in every open state of its
// region (its box and its sub-box), its sure labels are applicable and
// the policy does not choose its label.
//
// With differ pairs (the certificate's disequalities, within which every
// fact is used) a fact must hold only in the states that satisfy them;
// its sure labels throughout its region, as the checker's sure check asks.
func factsHold(m *symbolic.Model, prop *symbolic.Property, p symbolic.Policy, inv [][]smt.Lit, facts []ic3.Fact, differ ...[2]symbolic.VarID) error {
	g, err := explicit.New(m, prop)
	if err != nil {
		return err
	}
	dec, err := explicit.PolicyDecider(m, p)
	if err != nil {
		return err
	}
	x := &explicit.Expansion{}
	for _, f := range facts {
		region := append(slices.Clone(inv[f.Box]), f.Within...)
		s := make(symbolic.State, len(m.Vars))
		for i := range s {
			s[i] = m.Vars[i].Lo
		}
		for {
			in := true
			for _, l := range region {
				in = in && l.Holds(s)
			}
			if in && g.Status(s) == explicit.Open {
				g.Applicable(s, x)
				for _, a := range f.Sure {
					if !x.App[a] {
						return fmt.Errorf("fact (box %d, label %s) claims label %s applicable in state %s, where it is not", f.Box, m.Labels[f.Label].Name, m.Labels[a].Name, m.FormatState(s))
					}
				}
				inD := true
				for _, p := range differ {
					inD = inD && s[p[0]] != s[p[1]]
				}
				c, err := dec.Decide(s, x.App)
				if err == nil && c == f.Label && inD {
					return fmt.Errorf("fact (box %d, label %s) is false: the policy chooses %s in state %s", f.Box, m.Labels[f.Label].Name, m.Labels[c].Name, m.FormatState(s))
				}
			}
			i := 0
			for ; i < len(s) && s[i] == m.Vars[i].Hi; i++ {
				s[i] = m.Vars[i].Lo
			}
			if i == len(s) {
				break
			}
			s[i]++
		}
	}
	return nil
}
