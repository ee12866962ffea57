package bdd_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"vigil/bdd"
	"vigil/lang"
	"vigil/nn"
	"vigil/safety"
	"vigil/symbolic"
)

// cancelling is a policy that ends a context at its n-th evaluation (the
// computation then runs on with an ended context, and whatever it
// reports must be what it established).
type cancelling struct {
	symbolic.Policy
	n      int64
	calls  atomic.Int64
	cancel context.CancelFunc
}

func (c *cancelling) Scores(s symbolic.State, dst []float64) error {
	if c.calls.Add(1) == c.n {
		c.cancel()
	}
	return c.Policy.Scores(s, dst)
}

const stopSweepSpec = `model walk
var x : 0 .. 12 = 0
var y : 0 .. 3 = 0
action up when x < 12 -> x' = x + 1
action jump when x < 10 -> x' = x + 2, y' = (y + 1) - 4 * ((y + 1) / 4)
action back when x > 0 -> x' = x - 1
property p {
    start x <= 1
    unsafe x == 11 && y == 3
}
`

// TestReview19jStopSweep: the context ends at every policy evaluation in
// turn (a network evaluated state by state, so the last work of a
// computation can be the policy's and no operation notices the end). A
// verdict or a complete exploration reported then must be the one
// established without a stop, with the same figures; an unknown one must
// report figures no larger than the complete ones.
func TestReview19jStopSweep(t *testing.T) {
	m, d := lang.LoadSource("walk.spec", []byte(stopSweepSpec), lang.Options{})
	if d.HasErrors() {
		t.Fatal(d.Render())
	}
	prop := m.Properties[0]
	outs := []symbolic.LabelID{0, 1, 2}
	var want *bdd.Result
	var wantEx *bdd.Exploration
	for seed := uint64(1); seed <= 40; seed++ {
		exec, pd, err := nn.Random(m, outs, seed, []int{6})
		if err != nil {
			t.Fatal(err)
		}
		want, err = bdd.Verify(context.Background(), m, prop, pd, bdd.Options{Executable: exec})
		if err != nil {
			t.Fatal(err)
		}
		if want.Verdict != bdd.Unsafe || len(want.Trace) < 4 {
			continue
		}
		wantEx, err = bdd.Explore(context.Background(), m, prop, pd, bdd.Options{Executable: exec})
		if err != nil {
			t.Fatal(err)
		}
		wantPU, err := bdd.PropU(context.Background(), m, prop, pd, 0, nil, bdd.Options{Executable: exec})
		if err != nil {
			t.Fatal(err)
		}
		established := map[string]int{}
		for n := int64(1); ; n++ {
			ctx, cancel := context.WithCancel(context.Background())
			c := &cancelling{Policy: exec, n: n, cancel: cancel}
			got, err := bdd.Verify(ctx, m, prop, pd, bdd.Options{Executable: c})
			if err != nil {
				t.Fatal(err)
			}
			what := fmt.Sprintf("seed %d, stop at evaluation %d", seed, n)
			if got.Verdict != bdd.Unknown {
				if c.calls.Load() >= n {
					established["verify"]++
				}
				if got.Verdict != want.Verdict || got.States.Cmp(want.States) != 0 || got.Starts.Cmp(want.Starts) != 0 || got.Depth != want.Depth || fmt.Sprint(got.Trace) != fmt.Sprint(want.Trace) {
					t.Errorf("%s: Verify %v, %v states (%v start), depth %d; without a stop %v, %v (%v), %d", what, got.Verdict, got.States, got.Starts, got.Depth, want.Verdict, want.States, want.Starts, want.Depth)
				}
			} else if got.States.Cmp(want.States) > 0 || got.Starts.Sign() != 0 && got.Starts.Cmp(want.Starts) != 0 {
				t.Errorf("%s: Verify stopped with %v states (%v start); complete %v (%v)", what, got.States, got.Starts, want.States, want.Starts)
			}
			ctx2, cancel2 := context.WithCancel(context.Background())
			c2 := &cancelling{Policy: exec, n: n, cancel: cancel2}
			ex, err := bdd.Explore(ctx2, m, prop, pd, bdd.Options{Executable: c2})
			if err != nil {
				t.Fatal(err)
			}
			if ex.Complete {
				if c2.calls.Load() >= n {
					established["explore"]++
				}
				for _, p := range [][2]fmt.Stringer{{ex.States, wantEx.States}, {ex.Starts, wantEx.Starts}, {ex.Unsafe, wantEx.Unsafe}, {ex.Goal, wantEx.Goal}, {ex.Deadlocks, wantEx.Deadlocks}, {ex.Stuck, wantEx.Stuck}, {ex.Transitions, wantEx.Transitions}} {
					if p[0].String() != p[1].String() {
						t.Errorf("%s: complete Explore: %v, without a stop %v (states %v/%v unsafe %v/%v stuck %v/%v transitions %v/%v)", what, p[0], p[1], ex.States, wantEx.States, ex.Unsafe, wantEx.Unsafe, ex.Stuck, wantEx.Stuck, ex.Transitions, wantEx.Transitions)
						break
					}
				}
				if ex.Depth != wantEx.Depth {
					t.Errorf("%s: complete Explore: depth %d, without a stop %d", what, ex.Depth, wantEx.Depth)
				}
			} else if ex.States.Cmp(wantEx.States) > 0 || ex.Depth > wantEx.Depth {
				t.Errorf("%s: Explore stopped with %v states, depth %d; complete %v, %d", what, ex.States, ex.Depth, wantEx.States, wantEx.Depth)
			}
			ctx3, cancel3 := context.WithCancel(context.Background())
			c3 := &cancelling{Policy: exec, n: n, cancel: cancel3}
			pu, err := bdd.PropU(ctx3, m, prop, pd, safety.Radius(0), nil, bdd.Options{Executable: c3})
			if err != nil {
				t.Fatal(err)
			}
			if pu.Complete {
				if c3.calls.Load() >= n {
					established["propu"]++
				}
				if pu.Unsafe == nil || pu.Unsafe.Cmp(wantPU.Unsafe) != 0 || pu.Total.Cmp(wantPU.Total) != 0 {
					t.Errorf("%s: complete Prop-U: %v unsafe of %v, without a stop %v of %v", what, pu.Unsafe, pu.Total, wantPU.Unsafe, wantPU.Total)
				}
			}
			cancel()
			cancel2()
			cancel3()
			if c.calls.Load() < n && c2.calls.Load() < n && c3.calls.Load() < n {
				break // no computation got to the n-th evaluation
			}
		}
		t.Logf("seed %d: %v", seed, established)
		return
	}
	t.Fatal("no seed gives an unsafe verdict of 4 steps or more")
}

const walkerSpec = `model chain
var x : 0 .. 300 = 0
action walk when x < 300 -> x' = x + 1
action stay -> skip
property p {
    start x == 0
    unsafe x == 250
}
property far {
    start x == 0
    unsafe x > 300
}
policy rules walker {
    otherwise -> walk
}
`

// TestReview19jStopAfterAnswer: the context ends just after Verify's
// verdict or Prop-U's region is established, before its counts (a
// SIGTERM then printed "unsafe ... engine bdd: 0 states reached (64
// start)", and a complete region of 0 unsafe states). An answer reported
// must come with the counts of the run without a stop; an unknown one is
// fine.
func TestReview19jStopAfterAnswer(t *testing.T) {
	m, d := lang.LoadSource("chain.spec", []byte(walkerSpec), lang.Options{})
	if d.HasErrors() {
		t.Fatal(d.Render())
	}
	pd := m.Policies[0]
	defer func() { *bdd.AnswerHook = nil }()
	for _, prop := range m.Properties {
		for _, sq := range []int{-1, 0} { // layered rounds; squaring at once
			saveA, saveS := *bdd.SquareAfter, *bdd.ClosureShare
			*bdd.SquareAfter, *bdd.ClosureShare = sq, 0
			what := fmt.Sprintf("property %s, squaring %v", prop.Name, sq == 0)
			*bdd.AnswerHook = nil
			want, err := bdd.Verify(context.Background(), m, prop, pd, bdd.Options{})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			*bdd.AnswerHook = cancel
			got, err := bdd.Verify(ctx, m, prop, pd, bdd.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got.Verdict != bdd.Unknown && (got.Verdict != want.Verdict || got.States.Cmp(want.States) != 0 || got.Starts.Cmp(want.Starts) != 0) {
				t.Errorf("%s: Verify %v with %v states reached (%v start) after a stop; without %v, %v (%v)", what, got.Verdict, got.States, got.Starts, want.Verdict, want.States, want.Starts)
			}
			for _, r := range []safety.Radius{0, safety.Inf} {
				*bdd.AnswerHook = nil
				want, err := bdd.PropU(context.Background(), m, prop, pd, r, nil, bdd.Options{})
				if err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithCancel(context.Background())
				*bdd.AnswerHook = cancel
				got, err := bdd.PropU(ctx, m, prop, pd, r, nil, bdd.Options{})
				if err != nil {
					t.Fatal(err)
				}
				if got.Complete && (got.Unsafe.Cmp(want.Unsafe) != 0 || got.Total.Cmp(want.Total) != 0) {
					t.Errorf("%s, r=%v: a complete region of %v of %v states after a stop; without %v of %v", what, r, got.Unsafe, got.Total, want.Unsafe, want.Total)
				}
			}
			*bdd.SquareAfter, *bdd.ClosureShare = saveA, saveS
		}
	}
}

// TestReview19jRangeErrorAfterStop: vigil safe --all asks RangeError after
// a complete Prop-U; a context that ended in between stopped its search,
// and it answered "no range error", so every state the region leaves out
// was reported safe where the explicit deciders fail on a range error.
func TestReview19jRangeErrorAfterStop(t *testing.T) {
	m, d := lang.LoadSource("re.spec", []byte(`model re
var x : 0 .. 7 = 0
action a when x < 7 -> x' = x + 1
action c when x == 5 -> x' = x + 4
property p {
    start x == 0
    unsafe x == 7
}
policy rules up {
    otherwise -> a
}
`), lang.Options{})
	if d.HasErrors() {
		t.Fatal(d.Render())
	}
	for _, r := range []safety.Radius{0, safety.Inf} {
		want, err := bdd.PropU(context.Background(), m, m.Properties[0], m.Policies[0], r, nil, bdd.Options{})
		if err != nil {
			t.Fatal(err)
		}
		werr := want.RangeError()
		if werr == nil {
			t.Fatalf("r=%v: no range error", r)
		}
		ctx, cancel := context.WithCancel(context.Background())
		got, err := bdd.PropU(ctx, m, m.Properties[0], m.Policies[0], r, nil, bdd.Options{})
		if err != nil {
			t.Fatal(err)
		}
		cancel()
		if gerr := got.RangeError(); got.Complete && (gerr == nil || gerr.Error() != werr.Error()) {
			t.Errorf("r=%v: complete region, range error %v after the context ended; before %v", r, gerr, werr)
		}
	}
}
