package rlenv_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"vigil/rlenv"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// dice is a model whose action "roll" sets x to 1, 2 or 3 with weights
// 1, 2 and 5, from a start state x in 0..3 with y in 0..3 (16 start
// states, so the start sampler is tested too); "stop" is the goal.
func dice(t *testing.T) *explicit.Generator {
	x := symbolic.V(0)
	set := func(k int) []symbolic.Assign { return []symbolic.Assign{{Var: 0, Value: symbolic.Lit(k)}} }
	m := &symbolic.Model{
		Name:   "dice",
		Vars:   []symbolic.Var{{Name: "x", Lo: 0, Hi: 4}, {Name: "y", Lo: 0, Hi: 3}},
		Labels: []symbolic.Label{{Name: "roll"}, {Name: "stop"}},
		Commands: []symbolic.Command{
			{Label: 0, Guard: symbolic.True(), Outcomes: []symbolic.Outcome{
				{Weight: symbolic.Rat{Num: 1, Den: 1}, Assigns: set(1)},
				{Weight: symbolic.Rat{Num: 2, Den: 1}, Assigns: set(2)},
				{Weight: symbolic.Rat{Num: 5, Den: 1}, Assigns: set(3)},
			}},
			{Label: 1, Guard: symbolic.True(), Outcomes: []symbolic.Outcome{{Assigns: set(4)}}},
		},
	}
	p := &symbolic.Property{Name: "p", Start: symbolic.Compare(x, symbolic.Le, symbolic.Lit(3)), Unsafe: symbolic.False(), Goal: symbolic.Compare(x, symbolic.Eq, symbolic.Lit(4))}
	g, err := explicit.New(m, p)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// chiSquare returns Pearson's statistic of counts against the expected
// probabilities.
func chiSquare(counts []int, probs []float64) float64 {
	n := 0
	for _, c := range counts {
		n += c
	}
	x := 0.0
	for i, c := range counts {
		e := probs[i] * float64(n)
		x += (float64(c) - e) * (float64(c) - e) / e
	}
	return x
}

// TestOutcomeFrequencies: 20000 rolls (fixed seed) against the weights
// 1:2:5, and 20000 resets against the uniform distribution on the 16
// start states, each by a chi-square test at significance 0.001
// (critical values 13.82 for 2 degrees of freedom, 37.70 for 15).
func TestOutcomeFrequencies(t *testing.T) {
	e, err := rlenv.New(dice(t), rlenv.Options{StepReward: -1, Seed: 42})
	if err != nil {
		t.Fatal(err)
	}
	counts := make([]int, 3)
	starts := make([]int, 16)
	for i := 0; i < 20000; i++ {
		o, err := e.Reset(0, false, nil)
		if err != nil {
			t.Fatal(err)
		}
		starts[o.Obs[0]*4+o.Obs[1]]++
		o, err = e.Step(0)
		if err != nil {
			t.Fatal(err)
		}
		counts[o.Obs[0]-1]++
		if o.Reward != -1 || o.Terminated {
			t.Fatalf("a roll gave reward %g, terminated %v", o.Reward, o.Terminated)
		}
	}
	if x := chiSquare(counts, []float64{1.0 / 8, 2.0 / 8, 5.0 / 8}); x > 13.82 {
		t.Errorf("outcome counts %v against weights 1:2:5: chi-square %.2f > 13.82", counts, x)
	}
	uni := make([]float64, 16)
	for i := range uni {
		uni[i] = 1.0 / 16
	}
	if x := chiSquare(starts, uni); x > 37.70 {
		t.Errorf("start counts %v against uniform: chi-square %.2f > 37.70", starts, x)
	}
	t.Logf("outcomes %v, starts %v", counts, starts)
}

// TestProtocol: a session with every request kind, malformed lines and
// inapplicable actions, which get error objects while the session goes on.
func TestProtocol(t *testing.T) {
	e, err := rlenv.New(dice(t), rlenv.Options{StepReward: -1, GoalReward: 10, MaxSteps: 3, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	in := strings.Join([]string{
		`{"op": "step", "action": 0}`,
		`{"op": "reset", "state": {"x": 0, "y": 2}}`,
		`{"op": "step", "action": 7}`,
		`not json`,
		`{"op": "jump"}`,
		`{"op": "step"}`,
		`{"op": "step_many", "actions": [0, 0, 0, 0]}`,
		`{"op": "reset", "state": {"x": 0, "y": 2}, "seed": 3}`,
		`{"op": "step", "action": 1}`,
		`{"op": "step", "action": 1}`,
		`{"op": "reset", "state": {"x": 9, "y": 0}}`,
		`{"op": "close"}`,
		`{"op": "reset"}`,
	}, "\n")
	var out bytes.Buffer
	if err := e.Serve(context.Background(), strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	var replies []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var r map[string]any
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("reply %q is not JSON: %v", line, err)
		}
		replies = append(replies, r)
	}
	if len(replies) != 12 {
		t.Fatalf("%d replies, want 12 (nothing after close):\n%s", len(replies), out.String())
	}
	wantErr := map[int]string{0: "step before reset", 2: "action 7 out of range", 3: "not a request object", 4: `unknown op "jump"`, 5: "needs \"action\"", 9: "the episode is over", 10: "x = 9 is outside its range"}
	for i, r := range replies {
		msg, isErr := r["error"].(string)
		if want, ok := wantErr[i]; ok != isErr || ok && !strings.Contains(msg, want) {
			t.Errorf("reply %d = %v, want error %q", i+1, r, want)
		}
	}
	if got := replies[1]["labels"]; len(got.([]any)) != 2 {
		t.Errorf("reset reply without the labels: %v", replies[1])
	}
	steps := replies[6]["steps"].([]any)
	if len(steps) != 3 || !steps[2].(map[string]any)["truncated"].(bool) {
		t.Errorf("step_many with --max-steps 3: %v", steps)
	}
	goal := replies[8]
	if goal["reward"].(float64) != 9 || !goal["terminated"].(bool) || !goal["info"].(map[string]any)["goal"].(bool) {
		t.Errorf("stop: %v, want reward 9 (step -1, goal +10), terminated at the goal", goal)
	}
	if replies[11]["closed"] != true {
		t.Errorf("close: %v", replies[11])
	}
}

// BenchmarkStep measures a step in process (no pipe): a roll, and a reset
// every 100 steps.
func BenchmarkStep(b *testing.B) {
	e, err := rlenv.New(dice(&testing.T{}), rlenv.Options{StepReward: -1})
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		if i%100 == 0 {
			if _, err := e.Reset(0, false, nil); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := e.Step(0); err != nil {
			b.Fatal(err)
		}
	}
}

// A request line longer than Serve reads is an error that says which
// request and what to send, not bufio's "token too long".
func TestServeLongLine(t *testing.T) {
	e, err := rlenv.New(dice(t), rlenv.Options{StepReward: -1})
	if err != nil {
		t.Fatal(err)
	}
	in := `{"op": "reset"}` + "\n" + `{"op": "reset", "x": "` + strings.Repeat("a", 16<<20) + "\"}\n"
	var out bytes.Buffer
	err = e.Serve(context.Background(), strings.NewReader(in), &out)
	if err == nil || err.Error() != "rlenv: request 2 is longer than 16 MiB; send one JSON object per line" {
		t.Fatalf("got %v", err)
	}
	if !strings.Contains(out.String(), `"obs"`) {
		t.Errorf("the first request was not answered: %s", out.String())
	}
}
