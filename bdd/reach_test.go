package bdd_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"testing"

	"vigil/bdd"
	"vigil/internal/testutil"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/explicit/conformance"
	"vigil/symbolic/gen"
)

// models is the number of generated models per conformance test: 1000,
// 100 with -short, or VIGIL_BDD_MODELS.
func models(t *testing.T) int {
	if s := os.Getenv("VIGIL_BDD_MODELS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if testing.Short() {
		return 100
	}
	return 1000
}

func verifier(o bdd.Order) conformance.Verifier {
	return func(ctx context.Context, m *symbolic.Model, prop *symbolic.Property, pd *symbolic.PolicyDecl) (conformance.Answer, error) {
		r, err := bdd.Verify(ctx, m, prop, pd, bdd.Options{Order: o})
		if err != nil {
			return conformance.Answer{}, err
		}
		return conformance.Answer{Verdict: r.Verdict.Explicit(), Trace: r.Trace}, nil
	}
}

// TestVerifyConforms: the verify conformance suite (BFS as the reference),
// with and without the policy, shortest counterexamples required.
func TestVerifyConforms(t *testing.T) {
	n := models(t)
	conformance.Verify(t, verifier(bdd.OrderInterleaved), conformance.Options{Models: n, NoPolicy: true, Shortest: true})
	// Larger models, the other orders.
	big := gen.Options{MaxVars: 6, MaxRange: 12, MaxLabels: 4, MaxCommands: 7, MaxOutcomes: 3}
	conformance.Verify(t, verifier(bdd.OrderBitwise), conformance.Options{Models: n / 10, FirstSeed: 50000, Gen: big, NoPolicy: true, Shortest: true})
	conformance.Verify(t, verifier(bdd.OrderBlocked), conformance.Options{Models: n / 10, FirstSeed: 60000, Gen: big, NoPolicy: true, Shortest: true})
}

// exploreBoth explores m with both engines; it returns a description of
// the first difference ("" when they agree), and whether the explicit
// engine failed (then the BDD engine must fail with the same error).
func exploreBoth(m *symbolic.Model, pd *symbolic.PolicyDecl, o bdd.Order) (string, error) {
	ctx := context.Background()
	prop := m.Properties[0]
	g, dec, err := testutil.Explicit(m, prop, pd)
	if err != nil {
		return "", err
	}
	want, werr := explicit.Search(ctx, g, explicit.Options{Policy: dec})
	got, gerr := bdd.Explore(ctx, m, prop, pd, bdd.Options{Order: o})
	if werr != nil || gerr != nil {
		var re1, re2 *explicit.RangeError
		switch {
		case werr == nil:
			return fmt.Sprintf("BDD error %v, explicit none", gerr), nil
		case gerr == nil:
			return fmt.Sprintf("explicit error %v, BDD none", werr), nil
		case errors.As(werr, &re1) != errors.As(gerr, &re2):
			return fmt.Sprintf("explicit error %v, BDD error %v", werr, gerr), nil
		}
		return "", werr
	}
	if !got.Complete {
		return "BDD exploration incomplete: " + got.Reason, nil
	}
	s := want.Stats
	for _, c := range []struct {
		name string
		want int
		got  interface{ Int64() int64 }
	}{
		{"states", s.States, got.States}, {"starts", s.Starts, got.Starts}, {"unsafe", s.Unsafe, got.Unsafe},
		{"goal", s.Goal, got.Goal}, {"deadlocks", s.Deadlocks, got.Deadlocks}, {"stuck", s.Stuck, got.Stuck},
		{"transitions", s.Transitions, got.Transitions},
	} {
		if int64(c.want) != c.got.Int64() {
			return fmt.Sprintf("%s: explicit %d, BDD %d", c.name, c.want, c.got.Int64()), nil
		}
	}
	if s.Depth != got.Depth {
		return fmt.Sprintf("depth: explicit %d, BDD %d", s.Depth, got.Depth), nil
	}
	return "", nil
}

// TestExploreCounts: every count of explicit exploration (states, start
// states, unsafe, goal, deadlocks, stuck, transitions, depth) is equal, with
// and without the policy, and range errors happen on the same models.
func TestExploreCounts(t *testing.T) {
	n := models(t)
	compared, rangeErrs := 0, 0
	for seed := uint64(1); seed <= uint64(n); seed++ {
		for _, rangeErrors := range []bool{false, true} {
			if rangeErrors && seed%4 != 0 {
				continue
			}
			m := gen.Model(seed, gen.Options{RangeErrors: rangeErrors})
			for _, pd := range []*symbolic.PolicyDecl{nil, m.Policies[0]} {
				diff, err := exploreBoth(m, pd, bdd.Order(seed%3))
				if err != nil {
					var re *explicit.RangeError
					if errors.As(err, &re) {
						rangeErrs++
					}
					continue // both failed alike (no start state, range error)
				}
				if diff != "" {
					t.Errorf("seed %d (range errors %v, policy %v): %s", seed, rangeErrors, pd != nil, diff)
				}
				compared++
			}
		}
	}
	t.Logf("%d explorations compared, %d range errors in both engines", compared, rangeErrs)
}

// TestVerifyRangeErrors: on models with out-of-range outcomes, verification
// fails with the explicit engine's range error wherever BFS does, except
// where BFS meets the error in the layer of its counterexample, before
// the unsafe state (then the BDD engine reports the counterexample: see
// reach.go).
func TestVerifyRangeErrors(t *testing.T) {
	var c bfsCompare
	for seed := uint64(1); seed <= uint64(models(t)); seed++ {
		c.model(t, seed, gen.Model(seed, gen.Options{RangeErrors: true}))
	}
	t.Logf("%d range errors in BFS, %d of them in the counterexample's layer", c.errs, c.sameLayer)
}

// bfsCompare verifies generated models with BFS and the BDD engine
// (without a policy and under the model's first) and counts the range
// errors BFS met.
type bfsCompare struct{ errs, sameLayer, probErrs int }

// model compares the engines on m's first property: the BDD engine fails
// with a range error where BFS does, one that replays in the explicit
// engine at its state, except where BFS meets the error in the layer of
// its counterexample (then the BDD engine's counterexample is checked);
// elsewhere the verdicts agree and counterexamples replay.
func (c *bfsCompare) model(t *testing.T, seed uint64, m *symbolic.Model) {
	t.Helper()
	ctx := context.Background()
	prop := m.Properties[0]
	g, err := explicit.New(m, prop)
	if err != nil {
		t.Fatal(err)
	}
	for _, pd := range []*symbolic.PolicyDecl{nil, m.Policies[0]} {
		var dec explicit.Decider
		if pd != nil {
			dec, _ = explicit.NewDecider(m, pd)
		}
		want, werr := explicit.Search(ctx, g, explicit.Options{Policy: dec, StopAtUnsafe: true})
		got, gerr := bdd.Verify(ctx, m, prop, pd, bdd.Options{})
		var re *explicit.RangeError
		switch {
		case werr != nil && errors.As(werr, &re):
			c.errs++
			if re.Prob {
				c.probErrs++
			}
			if gerr != nil && errors.As(gerr, &re) {
				// the error replays: the explicit engine meets it in its state
				if err := g.ErrorAt(re.State, dec); err == nil || err.Error() != gerr.Error() {
					t.Errorf("seed %d: BDD's error %v does not replay (%v)", seed, gerr, err)
				}
				continue
			}
			if gerr == nil && got.Verdict == bdd.Unsafe && depthOf(g, dec, re.State) == len(got.Trace)-1 {
				if err := g.CheckCounterexample(dec, got.Trace); err != nil {
					t.Errorf("seed %d: %v", seed, err)
				}
				c.sameLayer++
				continue
			}
			t.Errorf("seed %d (policy %v): BFS: %v; BDD: %v %v", seed, pd != nil, werr, got, gerr)
		case werr != nil:
			if gerr == nil {
				t.Errorf("seed %d: BFS fails (%v), BDD does not", seed, werr)
			}
		case gerr != nil:
			t.Errorf("seed %d (policy %v): BFS says %v, BDD fails: %v", seed, pd != nil, want.Verdict, gerr)
		case got.Verdict.Explicit() != want.Verdict:
			t.Errorf("seed %d (policy %v): BFS says %v, BDD %v", seed, pd != nil, want.Verdict, got.Verdict)
		case got.Verdict == bdd.Unsafe:
			if err := g.CheckCounterexample(dec, got.Trace); err != nil {
				t.Errorf("seed %d: %v", seed, err)
			}
		}
	}
}

// depthOf returns the BFS depth of state x from the start states (-1 if
// unreached), skipping out-of-range outcomes.
func depthOf(g *explicit.Generator, dec explicit.Decider, x symbolic.State) int {
	m := g.M
	key := func(s symbolic.State) string { return m.FormatState(s) }
	var layer []symbolic.State
	seen := map[string]bool{}
	g.Starts(func(s symbolic.State) bool {
		c := append(symbolic.State(nil), s...)
		if !seen[key(c)] {
			seen[key(c)] = true
			layer = append(layer, c)
		}
		return true
	})
	app := make([]bool, len(m.Labels))
	for d := 0; len(layer) > 0; d++ {
		var next []symbolic.State
		for _, s := range layer {
			if key(s) == key(x) {
				return d
			}
			if g.Status(s) != explicit.Open {
				continue
			}
			m.Applicable(s, app)
			for ci, c := range m.Commands {
				if !g.Guard(s, ci) {
					continue
				}
				if dec != nil {
					if l, _ := dec.Decide(s, app); l != c.Label {
						continue
					}
				}
				for oi := range c.Outcomes {
					t, err := g.Apply(s, ci, oi)
					if err == nil && !seen[key(t)] {
						seen[key(t)] = true
						next = append(next, t)
					}
				}
			}
		}
		layer = next
	}
	return -1
}
