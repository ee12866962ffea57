package trees

import (
	"math/rand/v2"
	"testing"
)

// s29Shape says what random ensemble s29Ensemble builds.
type s29Shape struct {
	Trees, Depth, Features, Classes int
	// Thresholds: a split's threshold is k + 0.5 for a random k in
	// 0 .. Thresholds-1.
	Thresholds int
	// Early: a node below depth 1 becomes a leaf with chance 1/4, not
	// only at Depth.
	Early bool
	// Leaf draws a leaf's value.
	Leaf func(r *rand.Rand) float64
}

// s29Ensemble builds the random ensemble sh describes from r: tree i
// votes for class i % Classes, each inner node splits a random feature.
// The one ensemble maker of the session-29 stop tests
// (s29r_stop_test.go, s29t_stop_test.go, s29t_fallback_stop_test.go).
func s29Ensemble(t *testing.T, r *rand.Rand, sh s29Shape) *Ensemble {
	t.Helper()
	b := newBuilder("veritas", sh.Classes)
	for ti := 0; ti < sh.Trees; ti++ {
		tr := Tree{Class: ti % sh.Classes}
		var build func(d int) int
		build = func(d int) int {
			i := len(tr.Nodes)
			if d == sh.Depth || (sh.Early && d > 1 && r.IntN(4) == 0) {
				tr.Nodes = append(tr.Nodes, Node{Feature: -1, Leaf: len(tr.Values)})
				tr.Values = append(tr.Values, sh.Leaf(r))
				return i
			}
			tr.Nodes = append(tr.Nodes, Node{Feature: r.IntN(sh.Features), Threshold: float64(r.IntN(sh.Thresholds)) + 0.5})
			l := build(d + 1)
			rr := build(d + 1)
			tr.Nodes[i].Left, tr.Nodes[i].Right = l, rr
			return i
		}
		build(0)
		b.e.Trees = append(b.e.Trees, tr)
	}
	e, err := b.finish()
	if err != nil {
		t.Fatal(err)
	}
	return e
}
