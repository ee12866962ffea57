package ic3_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"vigil/ic3"
	"vigil/ic3/cert"
	"vigil/internal/testutil"
	"vigil/nn"
	"vigil/smt"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/gen"
	"vigil/trees"
	"vigil/verify"
)

// TestPolIC3RangeErrors compares PolIC3 with BFS on generated models
// whose assignments may leave their variables' ranges (gen's
// RangeErrors, which the conformance package's suites switch off), under
// random networks. A range error is the policy's: only an outcome of the
// label the policy chooses counts. So PolIC3 must
//
//   - answer safe only where BFS, exploring everything the policy
//     reaches, meets neither an unsafe state nor a range error (the
//     invariant is checked again by enumeration, range errors of the
//     chosen label included, and verify.Decide checks its certificate);
//   - report a range error (an error that wraps explicit.RangeError)
//     only where BFS meets one;
//   - give counterexamples that replay.
//
// And it must decide most questions: before session 13, a model where a
// label the policy does not choose leaves a range answered unknown.
func TestPolIC3RangeErrors(t *testing.T) {
	models := 200
	if testing.Short() {
		models = 60
	}
	// Tiny models, answered mostly by evaluation (concrete.go), and
	// wider ranges, where boxes are too large to evaluate and the bad
	// region's range errors go through SMT and the certifier
	// (rangeerr.go).
	network := func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
		return nn.Random(m, outs, seed, []int{8})
	}
	ensemble := func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
		return trees.Random(m, outs, seed, 4, 3)
	}
	small := gen.Options{RangeErrors: true, InitialStart: true}
	wide := gen.Options{RangeErrors: true, InitialStart: true, MaxVars: 3, MaxRange: 40}
	t.Run("small", func(t *testing.T) { rangeErrorSuite(t, models, small, network, false) })
	t.Run("wide", func(t *testing.T) { rangeErrorSuite(t, models/2, wide, network, true) })
	t.Run("trees", func(t *testing.T) { rangeErrorSuite(t, models/2, small, ensemble, false) })
	t.Run("trees-wide", func(t *testing.T) { rangeErrorSuite(t, models/2, wide, ensemble, true) })
}

func rangeErrorSuite(t *testing.T, models int, opts gen.Options, mk testutil.MakePolicy, needSMT bool) {
	ctx := context.Background()
	var asked, decided, safe, safeUnchosen, rangeErrs, unsafe, refined, dropped, droppedRange int
	for seed := uint64(1); seed <= uint64(models); seed++ {
		m := gen.Model(seed, opts)
		prop := m.Properties[0]
		outs := make([]symbolic.LabelID, len(m.Labels))
		for i := range outs {
			outs[i] = symbolic.LabelID(i)
		}
		p, pd, err := mk(m, outs, seed)
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
		// Everything the policy reaches: a range error anywhere in it is
		// reported, else the verdict.
		want, werr := explicit.Search(ctx, g, explicit.Options{Policy: dec})
		var re *explicit.RangeError
		bfsRange := errors.As(werr, &re)
		if werr != nil && !bfsRange {
			continue // no start state
		}
		// Does some label's outcome leave a range in a state the policy
		// reaches (chosen or not)? Those questions were unknown before.
		anyLabel := !bfsRange && unchosenErrors(ctx, m, g, dec)
		asked++
		res, err := verify.Decide(ctx, &verify.Question{Model: m, Property: prop, Policy: pd, Executable: p, Engine: "polic3"})
		if err != nil {
			if !errors.As(err, &re) {
				t.Errorf("seed %d (%s): engine error: %v", seed, m.Name, err)
				continue
			}
			if !bfsRange {
				t.Errorf("seed %d (%s): PolIC3 reports a range error (%v), BFS meets none under the policy", seed, m.Name, err)
				continue
			}
			decided++
			rangeErrs++
			continue
		}
		switch res.Answer {
		case explicit.Safe:
			if bfsRange || want.Verdict != explicit.Safe {
				t.Errorf("seed %d (%s): PolIC3 says safe, BFS says %v (range error: %v)", seed, m.Name, want.Verdict, werr)
				continue
			}
			if err := checkInvariantPolicy(m, prop, p, res.IC3.Invariant, res.IC3.Differ...); err != nil {
				t.Errorf("seed %d (%s): invariant (enumeration): %v", seed, m.Name, err)
				continue
			}
			if len(res.IC3.Differ) == 0 {
				n, r, err := dropFacts(ctx, m, prop, pd, p, res)
				if err != nil {
					t.Errorf("seed %d (%s): %v", seed, m.Name, err)
					continue
				}
				dropped += n
				droppedRange += r
			}
			decided++
			safe++
			refined += res.IC3.Stats.RangeFacts
			if anyLabel {
				safeUnchosen++
			}
		case explicit.UnsafeVerdict:
			if err := g.CheckCounterexample(dec, res.Trace); err != nil {
				t.Errorf("seed %d (%s): %v", seed, m.Name, err)
				continue
			}
			decided++
			unsafe++
		default:
			t.Logf("seed %d (%s): unknown: %s", seed, m.Name, res.Reason)
		}
	}
	t.Logf("%d questions, %d decided: %d safe (%d of them where a label the policy does not choose leaves a range in a reached state; %d regions certified out of the bad region by SMT and the certifier), %d unsafe, %d range errors", asked, decided, safe, safeUnchosen, refined, unsafe, rangeErrs)
	t.Logf("%d certificates with a policy fact dropped: the checker and enumeration agree on each; %d refused for a range error", dropped, droppedRange)
	if need := (9*asked + 9) / 10; decided < need {
		t.Errorf("PolIC3 decided %d of %d questions, fewer than %d", decided, asked, need)
	}
	if testing.Short() {
		// The coverage below is asked of the full sample, which -short
		// cuts to 60 models (too few to meet every case).
		return
	}
	if droppedRange == 0 {
		t.Error("no certificate with a fact dropped failed for a range error: the checker's per-label range errors are not tested")
	}
	if needSMT && refined == 0 {
		t.Error("no region was certified out of the bad region: the suite does not reach the SMT path")
	}
	if safeUnchosen == 0 {
		t.Error("no safe question had a range error of a label the policy does not choose: the suite tests nothing new")
	}
}

// unchosenErrors reports whether, in some open state the policy dec
// reaches, a command of a label it does not choose has an outcome that
// leaves a variable's range.
func unchosenErrors(ctx context.Context, m *symbolic.Model, g *explicit.Generator, dec explicit.Decider) bool {
	gr, err := explicit.BuildGraph(ctx, g, explicit.Options{Policy: dec})
	if err != nil {
		return false
	}
	x := &explicit.Expansion{}
	s := make(symbolic.State, len(m.Vars))
	for id := range gr.NumStates() {
		g.L.Unpack(gr.Store.Get(uint32(id)), s)
		if g.Status(s) != explicit.Open {
			continue
		}
		g.Applicable(s, x)
		for c := range m.Commands {
			if !g.Guard(s, c) {
				continue
			}
			for o := range m.Commands[c].Outcomes {
				if _, err := g.Apply(s, c, o); err != nil {
					return true // the policy's own label would be a range error BFS reports
				}
			}
		}
	}
	return false
}

// maxDrops bounds the facts dropfacts drops, one at a time, per answer.
const maxDrops = 8

// dropFacts drops each of the first maxDrops policy facts of a safe
// answer's certificate in turn and compares vigil's checker with an
// enumeration of the conditions it checks for a learned policy, given
// the remaining facts (true: PolIC3's, re-checked): the invariant holds
// the start states and no unsafe state, and in each of its open states
// every enabled command of a label that no remaining fact excludes there
// keeps every outcome in range (a range error otherwise) and in the
// invariant. It returns how many certificates it tried and how many the
// checker refused for a range error.
func dropFacts(ctx context.Context, m *symbolic.Model, prop *symbolic.Property, pd *symbolic.PolicyDecl, p symbolic.Policy, res *verify.Verdict) (tried, ranged int, err error) {
	inv, facts := res.IC3.Invariant, res.IC3.Facts
	if len(facts) != len(res.Invariant.Facts) {
		return 0, 0, fmt.Errorf("the certificate has %d facts, the engine's answer %d", len(res.Invariant.Facts), len(facts))
	}
	if err := enumLabels(m, prop, inv, facts, nil); err != nil {
		return 0, 0, fmt.Errorf("the engine's certificate (enumeration): %v", err)
	}
	for i := range min(len(facts), maxDrops) {
		c := *res.Invariant
		c.Facts = slices.Delete(slices.Clone(c.Facts), i, i+1)
		rest := slices.Delete(slices.Clone(facts), i, i+1)
		enum := enumLabels(m, prop, inv, rest, nil)
		chk := cert.CheckWith(ctx, &c, m, prop, pd, p)
		if (enum == nil) != (chk == nil) {
			return tried, ranged, fmt.Errorf("without fact %d: enumeration says %v, the checker %v", i, enum, chk)
		}
		tried++
		if chk != nil && strings.Contains(chk.Error(), "leaves a variable's range") {
			ranged++
		}
	}
	return tried, ranged, nil
}

// enumLabels checks by enumeration the conditions of a learned policy's
// certificate (see dropFacts), with the facts taken as true, for the
// invariant pairs ∧ inv (pairs: a disequality invariant; none: inv alone).
func enumLabels(m *symbolic.Model, prop *symbolic.Property, inv [][]smt.Lit, facts []ic3.Fact, pairs [][2]symbolic.VarID) error {
	g, err := explicit.New(m, prop)
	if err != nil {
		return err
	}
	holds := func(b []smt.Lit, s symbolic.State) bool {
		for _, l := range b {
			if !l.Holds(s) {
				return false
			}
		}
		return true
	}
	in := func(s symbolic.State) bool {
		for _, p := range pairs {
			if s[p[0]] == s[p[1]] {
				return false
			}
		}
		return slices.ContainsFunc(inv, func(b []smt.Lit) bool { return holds(b, s) })
	}
	excluded := func(s symbolic.State, a symbolic.LabelID) bool {
		return slices.ContainsFunc(facts, func(f ic3.Fact) bool {
			return f.Label == a && holds(inv[f.Box], s) && holds(f.Within, s)
		})
	}
	var bad error
	g.Starts(func(s symbolic.State) bool {
		if !in(s) {
			bad = fmt.Errorf("start state %s is outside the invariant", m.FormatState(s))
		}
		return bad == nil
	})
	if bad != nil {
		return bad
	}
	return eachStateErr(m, func(s symbolic.State) error {
		if in(s) {
			switch g.Status(s) {
			case explicit.Unsafe:
				return fmt.Errorf("unsafe state %s is inside the invariant", m.FormatState(s))
			case explicit.Open:
				for c := range m.Commands {
					if !g.Guard(s, c) || excluded(s, m.Commands[c].Label) {
						continue
					}
					for o := range m.Commands[c].Outcomes {
						t, err := g.Apply(s, c, o)
						if err != nil {
							return fmt.Errorf("state %s inside the invariant: %v", m.FormatState(s), err)
						}
						if !in(t) {
							return fmt.Errorf("state %s inside the invariant has successor %s outside", m.FormatState(s), m.FormatState(t))
						}
					}
				}
			}
		}
		return nil
	})
}

// eachStateErr is gen.EachState up to f's first error, which it returns.
func eachStateErr(m *symbolic.Model, f func(symbolic.State) error) error {
	var first error
	gen.EachState(m, func(s symbolic.State) {
		if first == nil {
			first = f(s)
		}
	})
	return first
}
