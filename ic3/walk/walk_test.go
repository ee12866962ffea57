package walk_test

import (
	"context"
	"strings"
	"testing"

	"vigil/ic3/walk"
	"vigil/symbolic/explicit"
)

// line is a counter d that the policy drives down from N while v stays,
// then v up: unsafe once v > d + 1, some N steps deep. Its label go is
// split into two commands of disjoint guards (as a JANI import splits an
// edge): deterministic in every state, though not one command per label.
// EXTRA adds commands.
const line = `
model line
const N = 3000
var d : 0 .. N
var v : 0 .. N
action go when d > 0 && d < N / 2 -> d' = d - 1
action go when d >= N / 2 -> d' = d - 1
action up when v < N -> v' = v + 1
EXTRA
policy rules pi {
    when d > 5 -> go
    when true -> up
}
property p {
    start v == 0 && d >= N - 40
    unsafe v > d + 1
}
`

// load loads line with extra commands, with its generator and policy.
func load(t *testing.T, extra string) (*explicit.Generator, explicit.Decider) {
	t.Helper()
	return loadSrc(t, strings.Replace(line, "EXTRA", extra, 1))
}

// loadSrc loads a model of property p and policy pi.
func loadSrc(t *testing.T, src string) (*explicit.Generator, explicit.Decider) {
	return walk.LoadTestModel(t, src)
}

// hunt walks until a counterexample, the walker's end or budget steps.
func hunt(t *testing.T, w *walk.Walker, budget int) []explicit.Step {
	t.Helper()
	for w.Steps < budget && !w.Done() {
		trace, err := w.Walk(context.Background(), w.Steps+1000)
		if err != nil {
			t.Fatal(err)
		}
		if trace != nil {
			return trace
		}
	}
	return nil
}

// TestSplitLabelDeterministic: a label split into commands of disjoint
// guards is walked deterministically (each of the 41 start states once,
// each walk ending where it joins an earlier one), so the counterexample
// about 3,000 steps deep comes within some 3,000 + 41 steps, and it
// replays in the explicit semantics.
func TestSplitLabelDeterministic(t *testing.T) {
	g, dec := load(t, "")
	w := walk.New(g, dec, walk.Options{Seed: 1})
	trace := hunt(t, w, 20_000)
	if trace == nil {
		t.Fatalf("no counterexample in %d steps (%d walks, deterministic %v)", w.Steps, w.Walks, w.Det())
	}
	if !w.Det() || w.MetNondet() {
		t.Errorf("walks not deterministic on a split label: Det %v, MetNondet %v", w.Det(), w.MetNondet())
	}
	if w.Steps > 2*len(trace)+1000 {
		t.Errorf("%d steps for a counterexample of %d: the walks repeated runs", w.Steps, len(trace)-1)
	}
	if err := g.CheckCounterexample(dec, trace); err != nil {
		t.Fatalf("the walk's counterexample does not replay: %v", err)
	}
}

// TestTwoSuccessorsFallBack: where a state has two enabled commands of the
// chosen label with different successors (go at d == N/2 also steps by
// two), the walks turn random for good; every counterexample they find
// still replays.
func TestTwoSuccessorsFallBack(t *testing.T) {
	g, dec := load(t, "action go when d == N / 2 -> d' = d - 2")
	w := walk.New(g, dec, walk.Options{Seed: 1})
	trace := hunt(t, w, 400_000)
	if !w.MetNondet() || w.Det() {
		t.Fatalf("the walks did not notice the state of two successors: Det %v, MetNondet %v", w.Det(), w.MetNondet())
	}
	if trace == nil {
		t.Fatalf("no counterexample in %d steps of random walks", w.Steps)
	}
	if err := g.CheckCounterexample(dec, trace); err != nil {
		t.Fatalf("a random walk's counterexample does not replay: %v", err)
	}
}

// TestSeenBytesBound: with room for no state to remember (the bound is
// checked every 4,096 states), the walks go on past their repeats and
// still find the run.
func TestSeenBytesBound(t *testing.T) {
	g, dec := load(t, "")
	w := walk.New(g, dec, walk.Options{Seed: 1, SeenBytes: 1})
	trace := hunt(t, w, 400_000)
	if trace == nil {
		t.Fatalf("no counterexample in %d steps", w.Steps)
	}
	if w.Seen() > 4096 {
		t.Errorf("remembered %d states past a bound of 1 byte", w.Seen())
	}
	if err := g.CheckCounterexample(dec, trace); err != nil {
		t.Fatal(err)
	}
}

// TestEveryRunEnded: on a safe deterministic model (the policy drives d
// down to 5, then v up to N, where it is stuck; no state of d = N - 1 and
// v = N is reached) the walker ends every run and is done, or, with
// ThenRandom, walks at random on.
func TestEveryRunEnded(t *testing.T) {
	safe := strings.Replace(line, "unsafe v > d + 1", "unsafe v > N - 1 && d > N - 1", 1)
	g, dec := loadSrc(t, strings.Replace(safe, "EXTRA", "", 1))
	for _, then := range []bool{false, true} {
		w := walk.New(g, dec, walk.Options{Seed: 1, ThenRandom: then})
		if trace := hunt(t, w, 100_000); trace != nil {
			t.Fatalf("a counterexample on a safe model: %v", trace)
		}
		if w.MetNondet() {
			t.Errorf("ThenRandom %v: met a state of two successors on a deterministic model", then)
		}
		if w.Done() == then || w.Det() {
			t.Errorf("ThenRandom %v: Done %v, Det %v after every run ended", then, w.Done(), w.Det())
		}
		if w.Seen() < 5000 {
			t.Errorf("ThenRandom %v: %d states remembered, fewer than the run has", then, w.Seen())
		}
	}
}

// TestNoStartLost: 601 start states, each with a run of its own 3,000
// steps long to a goal. More runs are cut than the walker keeps (256) at
// once; while the states walked fit in memory, it takes no new start
// state until a kept walk has ended, so no run is lost: when the walker is
// done, it has walked every state of every run.
func TestNoStartLost(t *testing.T) {
	g, dec := loadSrc(t, `
model lanes
const K = 600
const L = 3000
var y : 0 .. K
var z : 0 .. L
action tick when z < L -> z' = z + 1
policy rules pi {
    when true -> tick
}
property p {
    start z == 0
    unsafe false
    goal z == L
}
`)
	w := walk.New(g, dec, walk.Options{Seed: 1, SeenBytes: 1 << 30})
	if trace := hunt(t, w, 100_000_000); trace != nil {
		t.Fatalf("a counterexample on a safe model: %v", trace)
	}
	if !w.Done() {
		t.Fatalf("not done after %d steps", w.Steps)
	}
	if want := 601 * 3000; w.Seen() != want {
		t.Errorf("walked %d states of the %d on the runs: runs were lost", w.Seen(), want)
	}
}
