package verify

import (
	"context"
	"testing"
	"time"

	"vigil/ic3/walk"
	"vigil/lang"
	"vigil/symbolic/explicit"
)

// splitLine is a counter the policy drives down from N, then v up: unsafe
// some N steps deep. Its label go is split into two commands of disjoint
// guards (as a JANI import splits an edge).
const splitLine = `
model line
const N = 3000
var d : 0 .. N
var v : 0 .. N
action go when d > 0 && d < N / 2 -> d' = d - 1
action go when d >= N / 2 -> d' = d - 1
action up when v < N -> v' = v + 1
policy rules pi {
    when d > 5 -> go
    when true -> up
}
property p {
    start v == 0 && d >= N - 40
    unsafe v > d + 1
}
`

// TestHuntDeterministic: the hunter walks a model whose labels are split
// into commands of disjoint guards as a deterministic one (each start
// state once), its counterexample replays, and its statistics say so.
func TestHuntDeterministic(t *testing.T) {
	m, diags := lang.LoadSource("line.spec", []byte(splitLine), lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	q, err := prepare(&Question{Model: m, Property: m.Property("p"), Policy: m.Policy("pi"), Engine: "auto"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	v, err := hunt(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if v.Answer != explicit.UnsafeVerdict {
		t.Fatalf("hunt: %s (%s)", v.Answer, v.Reason)
	}
	if err := q.Gen.CheckCounterexample(q.Dec, v.Trace); err != nil {
		t.Fatalf("the hunter's counterexample does not replay: %v", err)
	}
	if h := v.Hunt; !h.Deterministic || h.Walks > 41 || h.Depth != len(v.Trace)-1 {
		t.Errorf("hunt stats %+v: want deterministic walks, at most one per start state (41)", *h)
	}
}

// TestWalkMemoryFor: an eighth of the memory, within
// [walk.DefaultSeenBytes, 2 GiB].
func TestWalkMemoryFor(t *testing.T) {
	for _, c := range []struct{ mem, want int64 }{
		{0, walk.DefaultSeenBytes},
		{256 << 20, walk.DefaultSeenBytes},
		{8 << 30, 1 << 30},
		{24 << 30, walkMaxMemory},
	} {
		if got := walkMemoryFor(c.mem); got != c.want {
			t.Errorf("walkMemoryFor(%d) = %d, want %d", c.mem, got, c.want)
		}
	}
}
