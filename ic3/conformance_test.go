package ic3_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vigil/ic3"
	"vigil/ic3/cert"
	"vigil/smt"
	"vigil/smt/smtlib"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/explicit/conformance"
	"vigil/symbolic/gen"
	"vigil/verify"
)

// verifier runs an IC3 engine of package verify (ic3 or ic3-nog, with
// opts) as a conformance engine. verify.Decide replays every
// counterexample and checks every invariant with ic3/cert before it
// answers; the test checks each invariant once more by enumeration of
// the states (explicit engine only) and reads its certificate back from
// the SMT-LIB2 text that vigil verify --cert writes (the z3 binary checks
// the same text: checkZ3). An unknown answer is an error here: the
// generated models are tiny.
func verifier(engine string, opts verify.IC3Options, certs *[]string) conformance.Verifier {
	return func(ctx context.Context, m *symbolic.Model, prop *symbolic.Property, pd *symbolic.PolicyDecl) (conformance.Answer, error) {
		// A generated model has no file: the certificate names the model.
		v, err := verify.Decide(ctx, &verify.Question{Model: m, Property: prop, Policy: pd, Engine: engine, IC3: opts, Header: cert.Header{Model: m.Name}})
		if err != nil {
			return conformance.Answer{}, err
		}
		switch v.Answer {
		case explicit.Safe:
			if err := checkInvariant(m, prop, pd, v.Invariant.Inv); err != nil {
				return conformance.Answer{}, fmt.Errorf("invariant (enumeration): %v", err)
			}
			var buf bytes.Buffer
			if err := v.Invariant.Write(&buf, m, prop, pd); err != nil {
				return conformance.Answer{}, err
			}
			back, err := cert.Parse(bytes.NewReader(buf.Bytes()), m.Name)
			if err != nil {
				return conformance.Answer{}, fmt.Errorf("certificate: %v", err)
			}
			if err := cert.Check(ctx, back, m, prop, pd); err != nil {
				return conformance.Answer{}, fmt.Errorf("invariant (checker, read back): %v", err)
			}
			if certs != nil {
				*certs = append(*certs, buf.String())
			}
			return conformance.Answer{Verdict: explicit.Safe}, nil
		case explicit.UnsafeVerdict:
			return conformance.Answer{Verdict: explicit.UnsafeVerdict, Trace: v.Trace}, nil
		}
		return conformance.Answer{}, fmt.Errorf("unknown: %s", v.Reason)
	}
}

func TestConformance(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 200
	}
	var certs []string
	conformance.Verify(t, verifier("ic3", verify.IC3Options{}, &certs), conformance.Options{Models: n, NoPolicy: true})
	checkZ3(t, certs)
}

// checkZ3 runs the stock z3 binary once on all certificates, separated by
// (reset), and expects unsat for each of their three checks.
func checkZ3(t *testing.T, certs []string) {
	if _, err := smtlib.Z3Path(); err != nil {
		t.Skipf("the certificates are not checked by the z3 binary: %v", err)
	}
	file := filepath.Join(t.TempDir(), "certs.smt2")
	if err := os.WriteFile(file, []byte(strings.Join(certs, "\n(reset)\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := smtlib.RunZ3(context.Background(), file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Fields(out)
	want := 0
	for i := 0; i+1 < len(lines); i += 2 {
		if lines[i+1] != "unsat" {
			t.Errorf("z3: certificate %d: %s: %s", i/6+1, lines[i], lines[i+1])
		}
		want++
	}
	if want != 3*len(certs) || len(lines)%2 != 0 {
		t.Errorf("z3 printed %d lines for %d certificates: %.300s", len(lines), len(certs), out)
	}
	t.Logf("z3 checked %d certificates", len(certs))
	if len(certs) == 0 {
		t.Error("no certificate to check: no safe answer was given")
	}
}

// TestConformanceCTG: generalization with counterexamples to
// generalization, and with boxes only, on other models.
func TestConformanceCTG(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 100
	}
	var certs []string
	conformance.Verify(t, verifier("ic3", verify.IC3Options{CTG: true}, &certs), conformance.Options{Models: n, FirstSeed: 9000, NoPolicy: true})
	conformance.Verify(t, verifier("ic3", verify.IC3Options{NoRelational: true}, &certs), conformance.Options{Models: n, FirstSeed: 12000, NoPolicy: true})
	checkZ3(t, certs)
}

func TestConformanceNoGeneralization(t *testing.T) {
	conformance.Verify(t, verifier("ic3-nog", verify.IC3Options{}, nil), conformance.Options{Models: 300, FirstSeed: 5000, NoPolicy: true})
}

// certFacts writes IC3's policy facts as certificate facts (labels by
// name, sub-box bounds as SMT-LIB2 text), as verify does.
func certFacts(m *symbolic.Model, facts []ic3.Fact) []cert.PolicyFact {
	var out []cert.PolicyFact
	for _, f := range facts {
		pf := cert.PolicyFact{Box: f.Box, Label: m.Labels[f.Label].Name, Differ: f.Differ}
		for _, l := range f.Within {
			pf.Within = append(pf.Within, cert.FormatLit(m, l))
		}
		for _, l := range f.Sure {
			pf.Sure = append(pf.Sure, m.Labels[l].Name)
		}
		out = append(out, pf)
	}
	return out
}

// differNames writes a disequality invariant's pairs by name, as the
// certificate's differ lines.
func differNames(m *symbolic.Model, pairs [][2]symbolic.VarID) [][2]string {
	var out [][2]string
	for _, p := range pairs {
		out = append(out, [2]string{m.Vars[p[0]].Name, m.Vars[p[1]].Name})
	}
	return out
}

func certificate(m *symbolic.Model, prop *symbolic.Property, pd *symbolic.PolicyDecl, inv [][]smt.Lit) *cert.Cert {
	c := &cert.Cert{Inv: inv}
	c.Model = m.Name
	c.Boxes = len(inv)
	c.Property = prop.Name
	if pd != nil {
		c.Policy = pd.Name
	}
	c.Hash, _ = cert.ModelHash(m, c.Property, c.Policy)
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
