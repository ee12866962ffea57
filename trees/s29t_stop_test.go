package trees

import (
	"container/heap"
	"context"
	"math/rand/v2"
	"testing"
)

// s29tEnsemble builds ntrees complete two-class trees of the given depth
// over nf features, with half-integer thresholds and normal leaves.
func s29tEnsemble(t *testing.T, ntrees, depth, nf int, seed uint64) *Ensemble {
	t.Helper()
	return s29Ensemble(t, rand.New(rand.NewPCG(seed, 29)), s29Shape{Trees: ntrees, Depth: depth, Features: nf, Classes: 2,
		Thresholds: 100, Leaf: (*rand.Rand).NormFloat64})
}

// TestS29tExpandStops: an expansion checks the budgets before each child
// it generates, and when stopped half-way the search puts the expanded
// state back, so the anytime upper bound still covers its whole box.
// Before, budgets were checked only between expansions, and one expansion
// of a large ensemble (1,000 trees of depth 10) ran for minutes after
// Ctrl-C or --timeout.
func TestS29tExpandStops(t *testing.T) {
	e := s29tEnsemble(t, 40, 6, 4, 1)
	ts := []term{{p: 0, sp: 1, n: 1, sn: -1}}
	s, err := e.newSearcher(nil, ts, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.add(s.root)
	rootBound := s.root.bound
	if len(s.open) != 1 {
		t.Fatalf("root not queued (%d open)", len(s.open))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s.opt.Stop = ctx.Done()
	gen := s.stats.Generated
	s.run(nil)
	if s.stats.Stopped != StopInterrupted || s.done {
		t.Fatalf("stopped %q, done %v; want interrupted, not done", s.stats.Stopped, s.done)
	}
	if s.stats.Generated != gen {
		t.Errorf("a stopped search generated %d states", s.stats.Generated-gen)
	}
	if u := s.upper(); u.less(rootBound) {
		t.Errorf("upper bound %v after the stop, below the root's %v", u, rootBound)
	}

	// Stopped inside an expansion: the popped state must be back.
	s2, _ := e.newSearcher(nil, ts, Options{})
	s2.add(s2.root)
	top := heap.Pop(&s2.open).(*node)
	s2.opt.Stop = ctx.Done()
	if s2.expand(top, int(top.branch)) {
		t.Fatal("expand ignored a closed Stop channel")
	}
	if s2.stats.Stopped != StopInterrupted {
		t.Fatalf("stopped %q, want interrupted", s2.stats.Stopped)
	}

	// A run stopped from outside during expansions keeps a sound bound:
	// the optimum, found without a stop, lies within [Lower, Upper].
	full, err := e.Margin(nil, 0, Options{})
	if err != nil || !full.Exact {
		t.Fatalf("unstopped search: %+v, %v", full, err)
	}
	for _, n := range []int{1, 2, 3, 5, 8, 13} {
		ctx, cancel := context.WithCancel(context.Background())
		s3, _ := e.newSearcher(nil, []term{{p: 0, sp: 1, n: 1, sn: -1}}, Options{Stop: ctx.Done()})
		s3.add(s3.root)
		// stop after n expansions, mid-way through the next one
		for i := 0; i < n && len(s3.open) > 0; i++ {
			top := heap.Pop(&s3.open).(*node)
			s3.stats.Nodes++
			if i == n-1 {
				cancel()
			}
			if !s3.expand(top, int(top.branch)) {
				heap.Push(&s3.open, top)
			}
		}
		cancel()
		s3.run(nil)
		if u := s3.upper().v; u < full.Lower || s3.best.v > full.Lower {
			t.Errorf("stopped after %d expansions: [%v, %v] misses the optimum %v", n, s3.best.v, u, full.Lower)
		}
	}
}
