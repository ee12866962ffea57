package verify

import (
	"context"
	"testing"
	"time"

	"vigil/ic3/walk"
	"vigil/lang"
	"vigil/symbolic/explicit"
)

// parity counts x up to N, flipping y on each step; its label step is
// split into two commands of disjoint guards (y == 0, y == 1), as a JANI
// import splits an edge. Each of the 31 start states runs into x == N.
const parity = `
model parity
const N = 2000
var x : 0 .. N
var y : 0 .. 1
action step when x < N && y == 0 -> x' = x + 1, y' = 1
action step when x < N && y == 1 -> x' = x + 1, y' = 0
action reset -> x' = 0, y' = 0
policy rules pi {
    when true -> step
}
property p {
    start x <= 30 && y == 0
    unsafe x == N
}
`

// TestHuntDeterministic: the hunter walks a model whose labels are split
// into commands of disjoint guards as a deterministic one (each start
// state once), its counterexample replays, and its statistics say so.
func TestHuntDeterministic(t *testing.T) {
	m, diags := lang.LoadSource("parity.spec", []byte(parity), lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	q, err := prepare(context.Background(), &Question{Model: m, Property: m.Property("p"), Policy: m.Policy("pi"), Engine: "auto"})
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
	if h := v.Hunt; !h.Deterministic || h.Walks > 31 || h.Depth != len(v.Trace)-1 {
		t.Errorf("hunt stats %+v: want deterministic walks, at most one per start state (31)", *h)
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
