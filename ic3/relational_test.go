package ic3_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"vigil/ic3"
	"vigil/ic3/cert"
	"vigil/internal/testutil"
	"vigil/lang"
	"vigil/smt"
	"vigil/smt/smtlib"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

func loadFamily(t *testing.T, file string, n string) (*symbolic.Model, *symbolic.Property, *symbolic.PolicyDecl) {
	t.Helper()
	m, diags := lang.Load(file, lang.Options{Defines: map[string]string{"N": n}})
	if diags.HasErrors() {
		t.Fatalf("%s: %s", file, diags.Render())
	}
	var pd *symbolic.PolicyDecl
	if len(m.Policies) > 0 {
		pd = m.Policies[0]
	}
	return m, m.Properties[0], pd
}

// checkCert writes res's invariant as vigil verify --cert does, reads it
// back and has the independent checker check it.
func checkCert(t *testing.T, m *symbolic.Model, prop *symbolic.Property, pd *symbolic.PolicyDecl, inv [][]smt.Lit) string {
	t.Helper()
	c := certificate(m, prop, pd, inv)
	var buf bytes.Buffer
	if err := c.Write(&buf, m, prop, pd); err != nil {
		t.Fatal(err)
	}
	back, err := cert.Parse(bytes.NewReader(buf.Bytes()), m.Name)
	if err != nil {
		t.Fatalf("certificate: %v", err)
	}
	if err := cert.Check(context.Background(), back, m, prop, pd); err != nil {
		t.Fatalf("checker: %v\n%s", err, buf.String())
	}
	return buf.String()
}

// TestScalingFamilies runs ic3 on the scaling benchmark's families
// (bench/ic3scaling) at a size small enough for BFS and enumeration:
// same verdict as BFS, the invariant checked by enumeration, by the
// certificate checker and by the z3 binary, with linear lemmas and with
// boxes only.
func TestScalingFamilies(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "bench", "ic3scaling", "*.spec"))
	if len(files) < 8 {
		t.Fatalf("want at least 8 families in bench/ic3scaling, found %d", len(files))
	}
	var certs []string
	for _, file := range files {
		for _, n := range []string{"8", "45"} {
			m, prop, pd := loadFamily(t, file, n)
			g, dec, err := testutil.Explicit(m, prop, pd)
			if err != nil {
				t.Fatal(err)
			}
			want, err := explicit.Search(context.Background(), g, explicit.Options{Policy: dec, StopAtUnsafe: true})
			if err != nil {
				t.Fatal(err)
			}
			for _, box := range []bool{false, true} {
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				res, err := ic3.Check(ctx, m, prop, pd, ic3.Options{Generalize: true, NoRelational: box})
				cancel()
				if err != nil {
					t.Fatalf("%s N=%s: %v", file, n, err)
				}
				got := map[ic3.Verdict]explicit.Verdict{ic3.Safe: explicit.Safe, ic3.Unsafe: explicit.UnsafeVerdict}[res.Verdict]
				if res.Verdict == ic3.Unknown || got != want.Verdict {
					t.Errorf("%s N=%s box=%v: ic3 says %v (%s), bfs %v", file, n, box, res.Verdict, res.Reason, want.Verdict)
					continue
				}
				switch res.Verdict {
				case ic3.Safe:
					if err := checkInvariant(m, prop, pd, res.Invariant); err != nil {
						t.Errorf("%s N=%s: invariant (enumeration): %v", file, n, err)
					}
					certs = append(certs, checkCert(t, m, prop, pd, res.Invariant))
				case ic3.Unsafe:
					if err := g.CheckCounterexample(dec, res.Trace); err != nil {
						t.Errorf("%s N=%s: counterexample: %v", file, n, err)
					}
				}
			}
		}
	}
	checkZ3(t, certs)
}

// TestRelationalAtScale: on the relational families at N = 10^6 (10^12
// states) ic3 proves safety with a handful of clauses, at least one of
// them relational, and the certificate with its linear atoms checks.
func TestRelationalAtScale(t *testing.T) {
	for _, name := range []string{"yx", "transfer", "follow", "braking"} {
		file := filepath.Join("..", "bench", "ic3scaling", name+".spec")
		m, prop, pd := loadFamily(t, file, "1000000")
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		res, err := ic3.Check(ctx, m, prop, pd, ic3.Options{Generalize: true})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict != ic3.Safe || res.Stats.RelLemmas == 0 || len(res.Invariant) > 10 {
			t.Errorf("%s: %v (%s), %d relational lemmas, invariant of %d regions; want safe with a few relational ones", name, res.Verdict, res.Reason, res.Stats.RelLemmas, len(res.Invariant))
			continue
		}
		text := checkCert(t, m, prop, pd, res.Invariant)
		if !strings.Contains(text, "linear atoms") || !strings.Contains(text, "(+ ") {
			t.Errorf("%s: the certificate has no linear atom:\n%s", name, text)
		}
	}
}

// TestRelationalMutants moves the constant of every linear atom of the
// invariants ic3 finds on yx and transfer by ±1 and drops regions: the
// checker must reject exactly the mutants that enumeration rejects.
func TestRelationalMutants(t *testing.T) {
	rejected := 0
	for _, name := range []string{"yx", "transfer", "follow", "braking"} {
		file := filepath.Join("..", "bench", "ic3scaling", name+".spec")
		m, prop, pd := loadFamily(t, file, "20")
		res, err := ic3.Check(context.Background(), m, prop, pd, ic3.Options{Generalize: true})
		if err != nil || res.Verdict != ic3.Safe {
			t.Fatalf("%s: %v %v", name, res, err)
		}
		var mutants [][][]smt.Lit
		for i, b := range res.Invariant {
			mutants = append(mutants, append(append([][]smt.Lit{}, res.Invariant[:i]...), res.Invariant[i+1:]...))
			for j, l := range b {
				if l.Form == nil {
					continue
				}
				for _, d := range []int{-1, 1} {
					inv := make([][]smt.Lit, len(res.Invariant))
					for k := range inv {
						inv[k] = append([]smt.Lit{}, res.Invariant[k]...)
					}
					inv[i][j].K += d
					mutants = append(mutants, inv)
				}
			}
		}
		for _, inv := range mutants {
			enum := checkInvariant(m, prop, pd, inv)
			chk := cert.Check(context.Background(), certificate(m, prop, pd, inv), m, prop, pd)
			if (enum == nil) != (chk == nil) {
				t.Errorf("%s: mutant %v: enumeration says %v, checker says %v", name, inv, enum, chk)
			}
			if chk != nil {
				rejected++
			}
		}
	}
	if rejected == 0 {
		t.Error("no mutant was rejected")
	}
	t.Logf("%d mutants rejected", rejected)
}

// TestScalingExport: the CHC export of every scaling instance parses in
// the z3 binary (Spacer may take longer than the second it gets here,
// but it must never answer with a parse error).
func TestScalingExport(t *testing.T) {
	if _, err := smtlib.Z3Path(); err != nil {
		t.Skipf("no z3 binary: %v", err)
	}
	files, _ := filepath.Glob(filepath.Join("..", "bench", "ic3scaling", "*.spec"))
	dir := t.TempDir()
	for _, file := range files {
		for _, n := range []string{"1000", "1000000000"} {
			m, prop, pd := loadFamily(t, file, n)
			path := filepath.Join(dir, filepath.Base(file)+n+".smt2")
			var buf bytes.Buffer
			if err := smtlib.WriteCHC(&buf, smtlib.Question{Model: m, Property: prop, Policy: pd}); err != nil {
				t.Fatalf("%s N=%s: %v", file, n, err)
			}
			if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			out, err := smtlib.RunZ3(ctx, path)
			cancel()
			if strings.Contains(out, "(error") || (err != nil && ctx.Err() == nil) {
				t.Errorf("%s N=%s: z3 on the CHC export: %v\n%s", file, n, err, out)
			}
		}
	}
}

// TestPolIC3RelationalLemmas: PolIC3 learns clauses with linear atoms for
// a network policy of bench/polic3 (APFT certifies on the cells' bounding
// boxes), boxes for an ensemble, proves both safe as with boxes only, and
// the certificate, linear atoms and policy facts, passes the independent
// checker.
func TestPolIC3RelationalLemmas(t *testing.T) {
	file := filepath.Join("..", "bench", "polic3", "transport.spec")
	m, diags := lang.Load(file, lang.Options{Defines: map[string]string{"L": "12", "P": "4", "VMAX": "2", "CAP": "2"}})
	if diags.HasErrors() {
		t.Fatalf("%s: %s", file, diags.Render())
	}
	prop := m.Properties[0]
	for _, name := range []string{"tr2_64x64_safe", "tr2_trees_safe"} {
		var pd *symbolic.PolicyDecl
		for _, d := range m.Policies {
			if d.Name == name {
				pd = d
			}
		}
		if pd == nil {
			t.Fatalf("%s: no policy %s", file, name)
		}
		for _, boxes := range []bool{false, true} {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			res, err := ic3.Check(ctx, m, prop, pd, ic3.Options{Generalize: true, NoRelational: boxes})
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			wantRel := !boxes && !strings.Contains(name, "trees")
			if res.Verdict != ic3.Safe || (res.Stats.RelLemmas > 0) != wantRel {
				t.Errorf("%s, boxes only %t: %v (%s) with %d relational lemmas", name, boxes, res.Verdict, res.Reason, res.Stats.RelLemmas)
				continue
			}
			c := certificate(m, prop, pd, res.Invariant)
			c.Facts = certFacts(m, res.Facts)
			back := roundTrip(t, 0, c, m, prop, pd)
			if err := cert.Check(context.Background(), back, m, prop, pd); err != nil {
				t.Errorf("%s, boxes only %t: the certificate of %d regions and %d facts is rejected: %v", name, boxes, len(res.Invariant), len(res.Facts), err)
			}
		}
	}
}
