package bdd_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"vigil/bdd"
	"vigil/internal/testutil"
	"vigil/lang"
	"vigil/nn"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/explicit/conformance"
	"vigil/trees"
)

// shipped loads a spec of ../specs.
func shipped(t testing.TB, name string, defs map[string]string) *symbolic.Model {
	t.Helper()
	m, d := lang.Load(filepath.Join("..", "specs", name), lang.Options{Defines: defs})
	if d.HasErrors() {
		t.Fatal(d.Render())
	}
	return m
}

// TestSpecs: on the shipped specs small enough for explicit search, with
// every policy (rules, tables, networks, tree ensembles) and without,
// exploration counts and verdicts equal the explicit engine's, and every
// counterexample replays.
func TestSpecs(t *testing.T) {
	ctx := context.Background()
	for _, name := range []string{"blocks.spec", "flappy.spec", "lang_grid.spec", "lang_oneway_trees.spec", "lang_switch.spec", "oneway.spec", "oneway_line.spec", "tarjansafe.spec", "transport.spec", "twoway_line.spec"} {
		m := shipped(t, name, nil)
		pols := append([]*symbolic.PolicyDecl{nil}, m.Policies...)
		for _, prop := range m.Properties {
			for _, pd := range pols {
				what := name + "/" + prop.Name
				if pd != nil {
					what += "/" + pd.Name
				}
				t.Run(what, func(t *testing.T) {
					g, dec, err := testutil.Explicit(m, prop, pd)
					if err != nil {
						t.Fatal(err)
					}
					want, err := explicit.Search(ctx, g, explicit.Options{Policy: dec})
					if err != nil {
						t.Fatal(err)
					}
					got, err := bdd.Explore(ctx, m, prop, pd, bdd.Options{})
					if err != nil {
						t.Fatal(err)
					}
					if got.States.Int64() != int64(want.Stats.States) || got.Transitions.Int64() != int64(want.Stats.Transitions) ||
						got.Stuck.Int64() != int64(want.Stats.Stuck) || got.Depth != want.Stats.Depth {
						t.Errorf("BDD %v states %v transitions %v stuck depth %d; explicit %d, %d, %d, %d", got.States, got.Transitions, got.Stuck, got.Depth,
							want.Stats.States, want.Stats.Transitions, want.Stats.Stuck, want.Stats.Depth)
					}
					wv, err := explicit.Search(ctx, g, explicit.Options{Policy: dec, StopAtUnsafe: true})
					if err != nil {
						t.Fatal(err)
					}
					gv, err := bdd.Verify(ctx, m, prop, pd, bdd.Options{})
					if err != nil {
						t.Fatal(err)
					}
					if gv.Verdict.Explicit() != wv.Verdict {
						t.Fatalf("BDD says %v, BFS %v", gv.Verdict, wv.Verdict)
					}
					if gv.Verdict == bdd.Unsafe {
						if err := g.CheckCounterexample(dec, gv.Trace); err != nil {
							t.Fatal(err)
						}
						if len(gv.Trace) != len(wv.Trace) {
							t.Errorf("counterexample of %d steps, BFS's has %d", len(gv.Trace)-1, len(wv.Trace)-1)
						}
					}
				})
			}
		}
	}
}

// TestPolicyLimit: a network policy is evaluated state by state, at most
// Options.PolicyStates times; past that the answer is unknown, and says why.
func TestPolicyLimit(t *testing.T) {
	m := shipped(t, "oneway.spec", nil)
	prop, pd := m.Property("no_overshoot"), m.Policy("driver")
	r, err := bdd.Verify(context.Background(), m, prop, pd, bdd.Options{PolicyStates: 10})
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != bdd.Unknown || !strings.Contains(r.Reason, "policy evaluation limit") || !strings.Contains(r.Reason, "driver") {
		t.Fatalf("verdict %v, reason %q", r.Verdict, r.Reason)
	}
	t.Log(r.Reason)
}

// TestVerifyLearnedConforms: the verify conformance suite with random
// networks and tree ensembles in place of the rules policies (evaluated
// state by state on the reached states).
func TestVerifyLearnedConforms(t *testing.T) {
	n := models(t)
	for _, kind := range []string{"nn", "trees"} {
		t.Run(kind, func(t *testing.T) {
			var exec symbolic.Policy
			v := func(ctx context.Context, m *symbolic.Model, prop *symbolic.Property, pd *symbolic.PolicyDecl) (conformance.Answer, error) {
				r, err := bdd.Verify(ctx, m, prop, pd, bdd.Options{Executable: exec})
				if err != nil {
					return conformance.Answer{}, err
				}
				return conformance.Answer{Verdict: r.Verdict.Explicit(), Trace: r.Trace}, nil
			}
			conformance.Verify(t, v, conformance.Options{Models: n, FirstSeed: 7000, Shortest: true,
				Policy: func(m *symbolic.Model, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
					outs := make([]symbolic.LabelID, len(m.Labels))
					for i := range outs {
						outs[i] = symbolic.LabelID(i)
					}
					var d *symbolic.PolicyDecl
					var err error
					if kind == "nn" {
						exec, d, err = nn.Random(m, outs, seed, []int{8, 8})
					} else {
						exec, d, err = trees.Random(m, outs, seed, 5, 3)
					}
					return exec, d, err
				}})
		})
	}
}
