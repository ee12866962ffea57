package bdd_test

import (
	"context"
	"testing"

	"vigil/bdd"
	"vigil/internal/testutil"
	"vigil/safety"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// TestReview19jSpecsBitwise: TestSpecs under the bitwise order, which the
// automatic order now picks: every policy kind (rules, tables, networks,
// tree ensembles) and none, exploration counts and verdicts equal the
// explicit engine's, counterexamples replay and are as short as BFS's,
// and Prop-U's regions (r = 0 and r = inf) and start counts equal the
// interleaved order's.
func TestReview19jSpecsBitwise(t *testing.T) {
	ctx := context.Background()
	bw := bdd.Options{Order: bdd.OrderBitwise}
	for _, name := range []string{"blocks.spec", "flappy.spec", "lang_grid.spec", "lang_oneway_trees.spec", "lang_switch.spec", "oneway.spec", "oneway_line.spec", "tarjansafe.spec", "transport.spec", "twoway_line.spec"} {
		m := shipped(t, name, nil)
		pols := append([]*symbolic.PolicyDecl{nil}, m.Policies...)
		for _, prop := range m.Properties {
			for _, pd := range pols {
				what := name + "/" + prop.Name
				if pd != nil {
					what += "/" + pd.Name
				}
				g, dec, err := testutil.Explicit(m, prop, pd)
				if err != nil {
					t.Fatal(err)
				}
				want, err := explicit.Search(ctx, g, explicit.Options{Policy: dec})
				if err != nil {
					t.Fatal(err)
				}
				got, err := bdd.Explore(ctx, m, prop, pd, bw)
				if err != nil {
					t.Fatal(what, err)
				}
				if got.States.Int64() != int64(want.Stats.States) || got.Transitions.Int64() != int64(want.Stats.Transitions) ||
					got.Stuck.Int64() != int64(want.Stats.Stuck) || got.Deadlocks.Int64() != int64(want.Stats.Deadlocks) || got.Depth != want.Stats.Depth {
					t.Errorf("%s: BDD %v states %v transitions %v stuck depth %d; explicit %d, %d, %d, %d", what, got.States, got.Transitions, got.Stuck, got.Depth,
						want.Stats.States, want.Stats.Transitions, want.Stats.Stuck, want.Stats.Depth)
				}
				wv, err := explicit.Search(ctx, g, explicit.Options{Policy: dec, StopAtUnsafe: true})
				if err != nil {
					t.Fatal(err)
				}
				gv, err := bdd.Verify(ctx, m, prop, pd, bw)
				if err != nil {
					t.Fatal(what, err)
				}
				if gv.Verdict.Explicit() != wv.Verdict {
					t.Fatalf("%s: BDD says %v, BFS %v", what, gv.Verdict, wv.Verdict)
				}
				if gv.Verdict == bdd.Unsafe {
					if err := g.CheckCounterexample(dec, gv.Trace); err != nil {
						t.Fatal(what, err)
					}
					if len(gv.Trace) != len(wv.Trace) {
						t.Errorf("%s: counterexample of %d steps, BFS's has %d", what, len(gv.Trace)-1, len(wv.Trace)-1)
					}
				}
				if pd == nil {
					continue
				}
				for _, r := range []safety.Radius{0, safety.Inf} {
					a, aerr := bdd.PropU(ctx, m, prop, pd, r, nil, bw)
					b, berr := bdd.PropU(ctx, m, prop, pd, r, nil, bdd.Options{Order: bdd.OrderInterleaved})
					if (aerr != nil) != (berr != nil) || aerr != nil && aerr.Error() != berr.Error() {
						t.Fatalf("%s r=%v: error %v, interleaved %v", what, r, aerr, berr)
					}
					if aerr != nil {
						continue
					}
					if a.Complete != b.Complete || a.Complete && (a.Unsafe.Cmp(b.Unsafe) != 0 || a.Total.Cmp(b.Total) != 0) {
						t.Errorf("%s r=%v: %v unsafe of %v (complete %v), interleaved %v of %v (%v)", what, r, a.Unsafe, a.Total, a.Complete, b.Unsafe, b.Total, b.Complete)
						continue
					}
					as, au, _, aerr := a.StartCounts()
					bs, bu, _, berr := b.StartCounts()
					if (aerr != nil) != (berr != nil) || aerr != nil && aerr.Error() != berr.Error() || as != nil && (as.Cmp(bs) != 0 || au.Cmp(bu) != 0) {
						t.Errorf("%s r=%v: starts %v/%v (%v), interleaved %v/%v (%v)", what, r, au, as, aerr, bu, bs, berr)
					}
				}
			}
		}
	}
}
