package bdd_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"vigil/bdd"
	"vigil/internal/testutil"
	"vigil/lang"
	"vigil/safety"
	"vigil/symbolic"
	"vigil/symbolic/gen"
)

// sumSpec is bench/adversarial/bdd_sum_timeout.txtar's model: under the
// interleaved order its start condition needs 11.5·10^6 nodes, under the
// bitwise order a few thousand.
const sumSpec = `model bddstart
var x : 0 .. 1000000 = 0
var y : 0 .. 1000000 = 0
var z : 0 .. 3 = 0
action a when z < 3 -> z' = z + 1
property p {
    start z == 0 && x + y > 7
    unsafe z > 3
}
`

// withAutoTrialNodes runs f with OrderAuto's first allowance set to n.
func withAutoTrialNodes(n int, f func()) {
	defer func(old int) { *bdd.AutoTrialNodes = old }(*bdd.AutoTrialNodes)
	*bdd.AutoTrialNodes = n
	f()
}

// TestAutoOrderSum: OrderAuto answers the sum of two wide variables under
// the bitwise order after one interleaved trial, with bitwise's answer;
// an explicit order is never changed.
func TestAutoOrderSum(t *testing.T) {
	m, d := lang.LoadSource("s.spec", []byte(sumSpec), lang.Options{})
	if d.HasErrors() {
		t.Fatal(d.Render())
	}
	ctx := context.Background()
	auto, err := bdd.Verify(ctx, m, m.Properties[0], nil, bdd.Options{Order: bdd.OrderAuto})
	if err != nil {
		t.Fatal(err)
	}
	bw, err := bdd.Verify(ctx, m, m.Properties[0], nil, bdd.Options{Order: bdd.OrderBitwise})
	if err != nil {
		t.Fatal(err)
	}
	if auto.Verdict != bdd.Safe || auto.States.Cmp(bw.States) != 0 || auto.Starts.Cmp(bw.Starts) != 0 || auto.Depth != bw.Depth {
		t.Errorf("auto: %v, %v states, %v starts, depth %d; bitwise: %v, %v, %v, %d", auto.Verdict, auto.States, auto.Starts, auto.Depth, bw.Verdict, bw.States, bw.Starts, bw.Depth)
	}
	if auto.Stats.Order != bdd.OrderBitwise || auto.Stats.OrderTrials != 1 {
		t.Errorf("auto ran %v after %d trials; want bitwise after 1", auto.Stats.Order, auto.Stats.OrderTrials)
	}
	if bw.Stats.Order != bdd.OrderBitwise || bw.Stats.OrderTrials != 0 {
		t.Errorf("bitwise ran %v after %d trials", bw.Stats.Order, bw.Stats.OrderTrials)
	}
	// The interleaved order, asked for, stays: the start set does not
	// fit in 200 ms.
	tctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	il, err := bdd.Verify(tctx, m, m.Properties[0], nil, bdd.Options{Order: bdd.OrderInterleaved})
	if err != nil {
		t.Fatal(err)
	}
	if il.Verdict != bdd.Unknown || il.Stats.Order != bdd.OrderInterleaved || il.Stats.OrderTrials != 0 {
		t.Errorf("interleaved: %v (%s) under %v after %d trials; want unknown under interleaved", il.Verdict, il.Reason, il.Stats.Order, il.Stats.OrderTrials)
	}
}

// TestAutoOrderExact: under OrderAuto, with the first allowance at its
// default (every trial fits), or so small that the first interleaved
// trial does not fit and the bitwise one, or both orders' trials, may not
// (then interleaved runs with the whole budget), Verify's and Explore's
// verdicts and counts and Prop-U's counts equal the interleaved order's;
// where the interleaved order ran, Verify's whole answer (the
// counterexample too) is the same, and otherwise the counterexample
// replays and is as long.
func TestAutoOrderExact(t *testing.T) {
	ctx := context.Background()
	var ms []*symbolic.Model
	n := models(t) / 10
	for seed := uint64(1); seed <= uint64(n); seed++ {
		opt := gen.Options{MaxVars: 3, MaxRange: 6}
		if seed%2 == 0 {
			opt = gen.Options{MaxVars: 2, MaxRange: 60, MaxLabels: 2, MaxCommands: 3, MaxOutcomes: 1 + int(seed%4/3), InitialStart: seed%4 == 0}
		}
		ms = append(ms, gen.Model(seed+19000, opt))
	}
	m, d := lang.LoadSource("deep.spec", []byte(deepSpec), lang.Options{})
	if d.HasErrors() {
		t.Fatal(d.Render())
	}
	for i := range m.Properties {
		mi := *m
		mi.Properties = m.Properties[i : i+1]
		ms = append(ms, &mi)
	}
	ran := map[string]int{}
	for i, mm := range ms {
		prop := mm.Properties[0]
		for _, pd := range append([]*symbolic.PolicyDecl{nil}, mm.Policies...) {
			want, werr := bdd.Verify(ctx, mm, prop, pd, bdd.Options{})
			wantEx := exploreText(mm, pd, bdd.OrderInterleaved)
			for _, allowance := range []int{1 << 16, 1, 300, 3000} {
				what := fmt.Sprintf("model %d, policy %v, allowance %d", i, pd != nil, allowance)
				withAutoTrialNodes(allowance, func() {
					got, err := bdd.Verify(ctx, mm, prop, pd, bdd.Options{Order: bdd.OrderAuto})
					if (err != nil) != (werr != nil) || err != nil && err.Error() != werr.Error() {
						t.Fatalf("%s: error %v, interleaved %v", what, err, werr)
					}
					if err != nil {
						return
					}
					ran[fmt.Sprintf("%v after %d trials", got.Stats.Order, got.Stats.OrderTrials)]++
					if got.Verdict != want.Verdict || got.Reason != want.Reason || got.States.Cmp(want.States) != 0 || got.Starts.Cmp(want.Starts) != 0 || got.Depth != want.Depth || len(got.Trace) != len(want.Trace) {
						t.Errorf("%s: %v %s %v states %v starts depth %d, %d steps; interleaved %v %s %v %v %d, %d", what, got.Verdict, got.Reason, got.States, got.Starts, got.Depth, len(got.Trace),
							want.Verdict, want.Reason, want.States, want.Starts, want.Depth, len(want.Trace))
					}
					if got.Stats.Order == bdd.OrderInterleaved && fmt.Sprint(got.Trace) != fmt.Sprint(want.Trace) {
						t.Errorf("%s: under the interleaved order, another counterexample", what)
					}
					if got.Verdict == bdd.Unsafe {
						g, dec, err := testutil.Explicit(mm, prop, pd)
						if err != nil {
							t.Fatal(err)
						}
						if err := g.CheckCounterexample(dec, got.Trace); err != nil {
							t.Errorf("%s: the counterexample does not replay: %v", what, err)
						}
					}
					if ex := exploreText(mm, pd, bdd.OrderAuto); ex != wantEx {
						t.Errorf("%s: explore\n got %s\nwant %s", what, ex, wantEx)
					}
					if pd == nil {
						return
					}
					for _, r := range []safety.Radius{safety.Inf, 0} {
						a, aerr := bdd.PropU(ctx, mm, prop, pd, r, nil, bdd.Options{Order: bdd.OrderAuto})
						b, berr := bdd.PropU(ctx, mm, prop, pd, r, nil, bdd.Options{})
						if (aerr != nil) != (berr != nil) {
							t.Fatalf("%s: Prop-U r=%v error %v, interleaved %v", what, r, aerr, berr)
						}
						if aerr == nil && (a.Complete != b.Complete || a.Complete && (a.Unsafe.Cmp(b.Unsafe) != 0 || a.Total.Cmp(b.Total) != 0)) {
							t.Errorf("%s: Prop-U r=%v: %v unsafe of %v, interleaved %v of %v", what, r, a.Unsafe, a.Total, b.Unsafe, b.Total)
						}
					}
				})
			}
		}
	}
	t.Logf("runs: %v", ran)
	for _, k := range []string{"interleaved after 0 trials", "bitwise after 1 trials", "interleaved after 4 trials"} {
		if ran[k] == 0 {
			t.Errorf("no run of %s: the test misses a case", k)
		}
	}
}
