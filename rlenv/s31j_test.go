package rlenv_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vigil/lang"
	"vigil/prob"
	"vigil/rlenv"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// s31jWeight0: up's second outcome has weight 0 (probability 0) and would
// set x to 9, outside 0..3; down's has weight 1 and would set it to -1.
// The third label's outcome without a weight beside weights that sum to 1
// has probability 0 too.
const s31jWeight0 = `model w0
var x : 0 .. 3 = 0
action up when x < 3 -> 1: x' = x + 1 | 0: x' = 9
action down when x == 2 -> 1/2: x' = x - 1 | 1/2: x' = x - 3
action side when x == 1 -> 1: x' = 2 | x' = 7
property p { start x == 0 unsafe false goal x == 3 }
`

// TestS31jEnvWeight0Range (session 30's leftover): vigil env refused a
// step whose label had an outcome of probability 0 leaving its range,
// where vigil prob (and vigil test --outcomes fair) take such an outcome
// as never happening (lang/spec.md, "Outcomes"): up from x=0 was the range
// error "outcome 2 sets x to 9" in env, and vigil prob gives Pmax [F x=3]
// = 1 through it. Now env takes up (and side) as prob reads them; an
// outcome of positive probability that leaves its range (down's second)
// is still the step's error whichever outcome the step samples, and the
// state stays.
func TestS31jEnvWeight0Range(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w0.spec")
	if err := os.WriteFile(path, []byte(s31jWeight0), 0o644); err != nil {
		t.Fatal(err)
	}
	m, diags := lang.LoadFile(path, lang.Options{})
	if m == nil {
		t.Fatal(diags)
	}
	// what vigil prob reads: probability 0 for the outcomes the env skips
	w, err := prob.NewWeights(m)
	if err != nil {
		t.Fatal(err)
	}
	for ci, want := range [][]float64{{1, 0}, {0.5, 0.5}, {1, 0}} {
		ws, err := w.At(ci, symbolic.State{0}, nil)
		if err != nil || len(ws) != 2 || ws[0] != want[0] || ws[1] != want[1] {
			t.Fatalf("command %d: weights %v (%v), want %v", ci, ws, err, want)
		}
	}
	g, err := explicit.New(m, m.Properties[0])
	if err != nil {
		t.Fatal(err)
	}
	env, err := rlenv.New(g, rlenv.Options{StepReward: -1})
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(0); seed < 20; seed++ {
		if _, err := env.Reset(seed, true, symbolic.State{0}); err != nil {
			t.Fatal(err)
		}
		o, err := env.Step(0) // up: x=1
		if err != nil || o.Obs[0] != 1 || *o.Info.Outcome != 0 {
			t.Fatalf("seed %d: up from x=0: %+v, %v; want x=1 by outcome 1", seed, o, err)
		}
		if o, err = env.Step(2); err != nil || o.Obs[0] != 2 { // side: x=2
			t.Fatalf("seed %d: side from x=1: %+v, %v; want x=2", seed, o, err)
		}
		if o, err = env.Step(0); err != nil || o.Obs[0] != 3 || !o.Terminated {
			t.Fatalf("seed %d: up from x=2: %+v, %v; want the goal x=3", seed, o, err)
		}
		// down from x=2: outcome 2 (probability 1/2) leaves the range
		if _, err := env.Reset(seed, true, symbolic.State{2}); err != nil {
			t.Fatal(err)
		}
		_, err = env.Step(1)
		if err == nil || !strings.Contains(err.Error(), "range error: action down, outcome 2 sets x to -1 outside 0..3 in state x=2") {
			t.Fatalf("seed %d: down from x=2: %v, want outcome 2's range error", seed, err)
		}
	}
}
