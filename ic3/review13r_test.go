package ic3_test

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"vigil/ic3"
	"vigil/ic3/cert"
	"vigil/smt"
	"vigil/smt/smtlib"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/gen"
	"vigil/trees"
	"vigil/verify"
)

// review13rN sets the number of generated models of TestReview13rRangeErrors
// (a longer run: go test ./ic3 -run Review13r -review13r.n 2000).
var review13rN = flag.Int("review13r.n", 0, "models of TestReview13rRangeErrors (0: the default)")

// TestReview13rRangeErrors is the adversarial review of session 13's
// per-label range errors (ic3/rangeerr.go, smtlib's vigil.rangeerr.<a>
// and "rangeerr <a>" checks over vigil.inv.<a>, ic3/cert). On generated
// models whose assignments may leave their ranges (several commands per
// label, nondeterministic outcomes, goal states, start sets or a single
// start state), under networks with ties, +Inf/NaN scores, argmax all and
// outputs that leave a label out (review13Policy) or tree ensembles:
//
//   - PolIC3 (verify.Decide, engine polic3: its certificate is checked
//     before "safe") against BFS under the policy: safe only where BFS
//     meets neither an unsafe state nor a range error of the chosen
//     label, a range error only where BFS meets one, unsafe runs replay;
//   - a safe answer's invariant by enumeration with the policy's choices;
//   - its certificate edited (a fact dropped, its label changed, its
//     sub-box dropped, moved to another box, a sure label dropped; the
//     invariant widened): whenever vigil's checker accepts an edit, the
//     edited invariant must be right by enumeration under the policy (an
//     accepted wrong certificate would be a wrong "safe"), and the
//     checker must agree with an enumeration of its own conditions
//     (enumLabels, the facts taken as true) unless a fact fails;
//   - z3 on the written file of every third certificate and its edits: it
//     checks the file's own definitions (the facts taken as true, their
//     sure labels unchecked: the file has no sure checks), so it must
//     answer unsat to every check exactly when enumLabels finds the
//     conditions hold.
func TestReview13rRangeErrors(t *testing.T) {
	n := 60
	if testing.Short() {
		n = 20
	}
	if *review13rN > 0 {
		n = *review13rN
	}
	z3 := true
	if _, err := smtlib.Z3Path(); err != nil {
		z3 = false
	}
	var asked, safe, large, unsafe, rangeErrs, unknown, edits, accepted, z3runs int
	for seed := uint64(1); seed <= uint64(n); seed++ {
		opts := gen.Options{RangeErrors: true, InitialStart: seed%3 != 0}
		if seed%5 == 0 {
			opts.MaxVars, opts.MaxRange = 3, 20
		}
		m := gen.Model(seed, opts)
		if n := states(m); seed%7 == 0 && n <= 16384 {
			// more than 16,384 states: the checker asks Z3 rather than
			// evaluating every state (ic3/cert/exhaust.go); pad is
			// read by the policy and by nothing else
			m.Vars = append(m.Vars, symbolic.Var{Name: "pad", Lo: 0, Hi: int(16384/n) + 1, HasInit: true})
		}
		prop := m.Properties[0]
		var p symbolic.Policy
		var pd *symbolic.PolicyDecl
		var desc string
		var err error
		if seed%4 == 3 {
			outs := make([]symbolic.LabelID, 0, len(m.Labels))
			for l := range m.Labels {
				if len(m.Labels) > 1 && l == int(seed)%len(m.Labels) && seed%8 == 7 {
					continue // a label the ensemble never chooses
				}
				outs = append(outs, symbolic.LabelID(l))
			}
			var tp *trees.Policy
			tp, pd, err = trees.Random(m, outs, seed, 4, 3)
			p, desc = tp, fmt.Sprintf("trees %v", outs)
			if err == nil && seed%16 == 15 {
				pd.ArgMaxAll = true
				desc += " argmax all"
			}
		} else {
			p, pd, desc, err = review13Policy(m, seed)
		}
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		g, err := explicit.New(m, prop)
		if err != nil {
			continue // no start state
		}
		dec, err := explicit.PolicyDecider(m, p)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		want, werr := explicit.Search(ctx, g, explicit.Options{Policy: dec})
		var re *explicit.RangeError
		bfsRange := errors.As(werr, &re)
		if werr != nil && !bfsRange {
			cancel()
			continue
		}
		asked++
		res, err := verify.Decide(ctx, &verify.Question{Model: m, Property: prop, Policy: pd, Executable: p, Engine: "polic3"})
		cancel()
		if err != nil {
			if !errors.As(err, &re) {
				t.Errorf("seed %d (%s, %s): engine error: %v", seed, m.Name, desc, err)
			} else if !bfsRange {
				t.Errorf("seed %d (%s, %s): PolIC3 reports a range error (%v), BFS meets none under the policy", seed, m.Name, desc, err)
			} else {
				rangeErrs++
			}
			continue
		}
		switch res.Answer {
		case explicit.Safe:
			if bfsRange || want.Verdict != explicit.Safe {
				t.Errorf("seed %d (%s, %s): PolIC3 says safe, BFS says %v (range error: %v)", seed, m.Name, desc, want.Verdict, werr)
				continue
			}
			safe++
			if states(m) > 16384 {
				large++
			}
			if err := checkInvariantPolicy(m, prop, p, res.IC3.Invariant, res.IC3.Differ...); err != nil {
				t.Errorf("seed %d (%s, %s): invariant (enumeration): %v", seed, m.Name, desc, err)
				continue
			}
			a, e, z, err := review13rEdits(t, seed, m, prop, pd, p, res, z3 && seed%3 == 0)
			if err != nil {
				t.Errorf("seed %d (%s, %s): %v", seed, m.Name, desc, err)
			}
			accepted += a
			edits += e
			z3runs += z
		case explicit.UnsafeVerdict:
			if err := g.CheckCounterexample(dec, res.Trace); err != nil {
				t.Errorf("seed %d (%s, %s): %v", seed, m.Name, desc, err)
				continue
			}
			unsafe++
		default:
			unknown++
		}
	}
	t.Logf("%d questions: %d safe (%d of models of more than 16,384 states, whose certificates Z3 checks), %d unsafe, %d range errors, %d unknown; %d certificates edited: %d edits accepted (each right by enumeration); z3 ran %d files", asked, safe, large, unsafe, rangeErrs, unknown, edits, accepted, z3runs)
	if safe == 0 || edits == 0 || rangeErrs == 0 {
		t.Error("the suite reached no safe answer, no edit or no range error: it tests nothing")
	}
}

// review13rEdits edits a safe answer's certificate (its facts, its
// invariant) and checks each edit as TestReview13rRangeErrors says. It
// returns the edits accepted and made, and the z3 runs.
func review13rEdits(t *testing.T, seed uint64, m *symbolic.Model, prop *symbolic.Property, pd *symbolic.PolicyDecl, p symbolic.Policy, res *verify.Verdict, withZ3 bool) (accepted, made, z3runs int, err error) {
	r := rand.New(rand.NewPCG(seed, 0x13e))
	inv, facts, pairs := res.IC3.Invariant, res.IC3.Facts, res.IC3.Differ
	type edit struct {
		what  string
		inv   [][]smt.Lit
		facts []ic3.Fact
	}
	es := []edit{{"none", inv, facts}}
	for i := range facts {
		if i >= 6 {
			break
		}
		es = append(es, edit{fmt.Sprintf("fact %d dropped", i), inv, slices.Delete(slices.Clone(facts), i, i+1)})
	}
	for range 6 {
		if len(facts) == 0 {
			break
		}
		fs := slices.Clone(facts)
		k := r.IntN(len(fs))
		f := fs[k]
		f.Sure = slices.Clone(f.Sure)
		what := ""
		switch r.IntN(4) {
		case 0:
			if len(m.Labels) < 2 {
				continue
			}
			f.Label = symbolic.LabelID((int(f.Label) + 1 + r.IntN(len(m.Labels)-1)) % len(m.Labels))
			what = "a fact's label changed"
		case 1:
			if len(f.Within) == 0 {
				continue
			}
			f.Within = nil
			what = "a fact's sub-box dropped"
		case 2:
			f.Box = r.IntN(len(inv))
			what = "a fact moved to another box"
		default:
			if len(f.Sure) == 0 {
				continue
			}
			f.Sure = f.Sure[1:]
			what = "a sure label dropped"
		}
		fs[k] = f
		es = append(es, edit{what, inv, fs})
	}
	for _, w := range mutate(r, inv, 4) {
		es = append(es, edit{"invariant edited", w, facts})
	}
	dir := t.TempDir()
	for i, e := range es {
		c := certificate(m, prop, pd, e.inv)
		c.Facts = certFacts(m, e.facts)
		c.Differ = differNames(m, pairs)
		var buf bytes.Buffer
		if err := c.Write(&buf, m, prop, pd); err != nil {
			continue // refused by the writer (a fact names a box dropped)
		}
		text := buf.String()
		back, err := cert.Parse(strings.NewReader(text), m.Name)
		if err != nil {
			return accepted, made, z3runs, fmt.Errorf("%s: reading the certificate back: %v", e.what, err)
		}
		made++
		chk := cert.CheckWith(context.Background(), back, m, prop, pd, p)
		// the file's checks (z3: no sure checks, the facts taken as
		// true), and the checker's (with the sure checks)
		fileEnum := enumLabels(m, prop, e.inv, e.facts, pairs)
		enum := fileEnum
		if enum == nil {
			enum = enumSure(m, e.inv, e.facts)
		}
		var f *cert.Failure
		factFails := errors.As(chk, &f) && f.Condition == "fact"
		if chk == nil {
			accepted++
			if err := checkInvariantPolicy(m, prop, p, e.inv, pairs...); err != nil {
				return accepted, made, z3runs, fmt.Errorf("%s: the checker accepts a certificate whose invariant is wrong: %v\n%s", e.what, err, text)
			}
		}
		if !factFails && (enum == nil) != (chk == nil) {
			return accepted, made, z3runs, fmt.Errorf("%s: the checker says %v, enumeration of its conditions %v\n%s", e.what, chk, enum, text)
		}
		if !withZ3 || i > 8 {
			continue
		}
		file := filepath.Join(dir, fmt.Sprintf("c%d.smt2", i))
		if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
			return accepted, made, z3runs, err
		}
		out, err := smtlib.RunZ3(context.Background(), file)
		if err != nil {
			return accepted, made, z3runs, fmt.Errorf("%s: z3: %v", e.what, err)
		}
		z3runs++
		sat := slices.Contains(strings.Fields(out), "sat")
		if unknown := slices.Contains(strings.Fields(out), "unknown"); unknown {
			continue
		}
		if sat != (fileEnum != nil) {
			return accepted, made, z3runs, fmt.Errorf("%s: z3 on the file (sat: %v) and enumeration of its conditions (%v) disagree\n%s\n%s", e.what, sat, fileEnum, out, text)
		}
	}
	return accepted, made, z3runs, nil
}

// enumSure checks by enumeration that each fact's sure labels are
// applicable in every in-range state of its region (the certificate's
// sure checks).
func enumSure(m *symbolic.Model, inv [][]smt.Lit, facts []ic3.Fact) error {
	holds := func(b []smt.Lit, s symbolic.State) bool {
		for _, l := range b {
			if !l.Holds(s) {
				return false
			}
		}
		return true
	}
	return eachStateErr(m, func(s symbolic.State) error {
		for k, f := range facts {
			if !holds(inv[f.Box], s) || !holds(f.Within, s) {
				continue
			}
			for _, a := range f.Sure {
				app := false
				for c := range m.Commands {
					if m.Commands[c].Label == a && m.Commands[c].Guard.Holds(s) {
						app = true
					}
				}
				if !app {
					return fmt.Errorf("fact %d: sure label %s is not applicable in %s", k, m.Labels[a].Name, m.FormatState(s))
				}
			}
		}
		return nil
	})
}

// states returns the number of states of m within its ranges.
func states(m *symbolic.Model) float64 {
	n := 1.0
	for _, v := range m.Vars {
		n *= float64(v.Hi-v.Lo) + 1
	}
	return n
}

// TestReview13rDiffer is TestReview13rRangeErrors's certificate edits on
// permutation models (review13Model: some labels step a variable out of
// its range where chosen at the top), whose PolIC3 invariants hold a
// disequality invariant D: the range-error checks read vigil.inv.<a>
// within D, and facts marked differ hold only there.
func TestReview13rDiffer(t *testing.T) {
	n := 30
	if testing.Short() {
		n = 10
	}
	if *review13rN > 0 {
		n = *review13rN
	}
	_, z3err := smtlib.Z3Path()
	var safe, withD, edits, accepted, z3runs int
	for seed := uint64(1); seed <= uint64(n); seed++ {
		m, prop, p, pd, desc := loadReview13(t, seed)
		g, err := explicit.New(m, prop)
		if err != nil {
			continue
		}
		dec, err := explicit.PolicyDecider(m, p)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		want, werr := explicit.Search(ctx, g, explicit.Options{Policy: dec})
		res, err := verify.Decide(ctx, &verify.Question{Model: m, Property: prop, Policy: pd, Executable: p, Engine: "polic3"})
		cancel()
		var re *explicit.RangeError
		bfsRange := errors.As(werr, &re)
		if err != nil {
			if !errors.As(err, &re) || !bfsRange {
				t.Errorf("seed %d (%s): PolIC3: %v (BFS: %v)\n%s", seed, desc, err, werr, review13Model(seed))
			}
			continue
		}
		if res.Answer != explicit.Safe {
			continue
		}
		if bfsRange || want.Verdict != explicit.Safe {
			t.Errorf("seed %d (%s): PolIC3 says safe, BFS says %v (%v)\n%s", seed, desc, want.Verdict, werr, review13Model(seed))
			continue
		}
		safe++
		if len(res.IC3.Differ) > 0 {
			withD++
		}
		a, e, z, err := review13rEdits(t, seed, m, prop, pd, p, res, z3err == nil && seed%2 == 0)
		if err != nil {
			t.Errorf("seed %d (%s): %v\n%s", seed, desc, err, review13Model(seed))
		}
		accepted += a
		edits += e
		z3runs += z
	}
	t.Logf("%d safe answers (%d with a disequality invariant): %d certificate edits, %d accepted (each right by enumeration); z3 ran %d files", safe, withD, edits, accepted, z3runs)
	if withD == 0 || edits == 0 {
		t.Error("no safe answer with a disequality invariant was edited: the test tests nothing")
	}
}
