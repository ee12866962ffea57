package explicit_test

import (
	"context"
	"math"
	"sync/atomic"
	"testing"

	"vigil/internal/testutil"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/gen"
)

// TestParallelSameStates: on the line model (layers of hundreds of
// states) the parallel search, with default and small chunks and blocks,
// reaches exactly the sequential search's states, layer by layer, with
// the same figures, and reports progress.
func TestParallelSameStates(t *testing.T) {
	m := lineModel(4000) // 80,000 states: more than one arena page
	g := testutil.Generator(t, m, m.Properties[0])
	d, _ := explicit.NewDecider(m, m.Policies[0])
	for _, pol := range []explicit.Decider{nil, d} {
		seq, err := explicit.Search(context.Background(), g, explicit.Options{Policy: pol})
		if err != nil {
			t.Fatal(err)
		}
		if pol == nil && seq.Stats.States <= 1<<16 {
			t.Fatalf("%d states: the model no longer fills more than one arena page", seq.Stats.States)
		}
		for _, w := range []int{2, 3, 4} {
			// Chunks of 100 states take each layer in several chunks
			// (the default takes it whole); blocks of 8 states spread
			// the layers over every worker (by default, layers under
			// 2048 states run on one).
			chunk, block := 100*(w%2), 8*(w/3)
			reports := 0
			par, err := explicit.Search(context.Background(), g, explicit.Options{Policy: pol, Workers: w, Chunk: chunk, Block: block, ProgressEvery: 1000, Progress: func(explicit.Stats) { reports++ }})
			if err != nil {
				t.Fatal(err)
			}
			a, b := seq.Stats, par.Stats
			a.Elapsed, b.Elapsed, a.Bytes, b.Bytes = 0, 0, 0, 0
			if a != b || par.Verdict != seq.Verdict {
				t.Fatalf("workers %d: %+v %v, sequential %+v %v", w, b, par.Verdict, a, seq.Verdict)
			}
			if len(par.Layers) != len(seq.Layers) {
				t.Fatalf("workers %d: %d layers, sequential %d", w, len(par.Layers), len(seq.Layers))
			}
			for d := 0; d+1 < len(seq.Layers); d++ {
				for id := seq.Layers[d]; id < seq.Layers[d+1]; id++ {
					pid, ok := par.Store.Lookup(seq.Store.Get(id))
					if !ok || pid < par.Layers[d] || pid >= par.Layers[d+1] {
						t.Fatalf("workers %d: state %d of depth %d is not at that depth (%d, %v)", w, id, d, pid, ok)
					}
				}
			}
			if reports == 0 {
				t.Errorf("workers %d: no progress report", w)
			}
		}
	}
}

// TestParallelPolicyPerWorker: a policy that is not safe for concurrent
// use needs NewPolicy; with it, each worker has its own decider, the
// shared cache still evaluates the policy at most once per state, and the
// counterexamples replay.
func TestParallelPolicyPerWorker(t *testing.T) {
	m := gen.Model(3, gen.Options{MaxVars: 5, MaxRange: 8})
	g, _ := explicit.New(m, m.Properties[0])
	d, _ := explicit.NewDecider(m, m.Policies[0])
	if _, err := explicit.Search(context.Background(), g, explicit.Options{Policy: &countCalls{d: d}, Workers: 2}); err == nil {
		t.Fatal("a parallel search with a policy that is not concurrency-safe and no NewPolicy was accepted")
	}
	unsafe := 0
	for seed := uint64(1); seed <= 100; seed++ {
		m := gen.Model(seed, gen.Options{MaxVars: 5, MaxRange: 8})
		g, _ := explicit.New(m, m.Properties[0])
		d, _ := explicit.NewDecider(m, m.Policies[0])
		var calls atomic.Int64
		var made []*sharedCount
		newPolicy := func() (explicit.Decider, error) {
			c := &sharedCount{d: d, calls: &calls}
			made = append(made, c)
			return c, nil
		}
		first, _ := newPolicy()
		res, err := explicit.Search(context.Background(), g, explicit.Options{Policy: first, NewPolicy: newPolicy, StopAtUnsafe: true, Workers: 3, Block: 1})
		if err != nil {
			continue
		}
		if len(made) != 3 {
			t.Fatalf("seed %d: %d deciders for 3 workers", seed, len(made))
		}
		if n := int(calls.Load()); n > res.Stats.States {
			t.Fatalf("seed %d: %d policy evaluations for %d states", seed, n, res.Stats.States)
		}
		if res.Verdict == explicit.UnsafeVerdict {
			unsafe++
			if err := g.CheckCounterexample(d, res.Trace); err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
		}
	}
	if unsafe == 0 {
		t.Fatal("no counterexample was rebuilt")
	}
}

// sharedCount counts calls (on a shared counter) and is not Cheap, so the
// search caches its decisions.
type sharedCount struct {
	d     explicit.Decider
	calls *atomic.Int64
	busy  atomic.Bool
}

func (c *sharedCount) Decide(s symbolic.State, app []bool) (symbolic.LabelID, error) {
	if !c.busy.CompareAndSwap(false, true) {
		panic("decider used by two goroutines at once")
	}
	defer c.busy.Store(false)
	c.calls.Add(1)
	return c.d.Decide(s, app)
}

// TestParallelLimitAndCancel: a state limit and a canceled context give
// Unknown with partial figures, as in the sequential search.
func TestParallelLimitAndCancel(t *testing.T) {
	m := lineModel(3000)
	g, _ := explicit.New(m, m.Properties[0])
	full, err := explicit.Search(context.Background(), g, explicit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, chunk := range []int{0, 50} {
		res, err := explicit.Search(context.Background(), g, explicit.Options{Workers: 2, Chunk: chunk, MaxStates: 5000})
		if err != nil || res.Verdict != explicit.Unknown || res.Reason != "state limit" || res.Stats.States < 5000 {
			t.Fatalf("chunk %d: MaxStates: %v %q %d, %v", chunk, res.Verdict, res.Reason, res.Stats.States, err)
		}
		partialStore(t, res.Store, full.Store)
		ctx, cancel := context.WithCancel(context.Background())
		n := 0
		res, err = explicit.Search(ctx, g, explicit.Options{Workers: 2, Chunk: chunk, ProgressEvery: 1024, Progress: func(explicit.Stats) {
			if n++; n == 2 {
				cancel()
			}
		}})
		if err != nil || res.Verdict != explicit.Unknown || res.Reason != "canceled" {
			t.Fatalf("chunk %d: canceled: %v %q, %v", chunk, res.Verdict, res.Reason, err)
		}
		partialStore(t, res.Store, full.Store)
	}
}

// partialStore checks the store an interrupted search left: every id holds
// a reachable state (one of full), under which Lookup finds it again, so
// that no state was left half added.
func partialStore(t *testing.T, st, full *explicit.Store) {
	t.Helper()
	for id := range uint32(st.Len()) {
		x := st.Get(id)
		if got, ok := st.Lookup(x); !ok || got != id {
			t.Fatalf("state %d (%v): Lookup gives %d, %v", id, x, got, ok)
		}
		if _, ok := full.Lookup(x); !ok {
			t.Fatalf("state %d (%v) is not reachable", id, x)
		}
	}
}

// TestParallelHugeBlockAndChunk: block and chunk sizes beyond the id
// space are clamped, not wrapped to zero.
func TestParallelHugeBlockAndChunk(t *testing.T) {
	m := lineModel(300)
	g, _ := explicit.New(m, m.Properties[0])
	seq, err := explicit.Search(context.Background(), g, explicit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	par, err := explicit.Search(context.Background(), g, explicit.Options{Workers: 2, Block: math.MaxInt, Chunk: math.MaxInt})
	if err != nil || par.Stats.States != seq.Stats.States || par.Stats.Transitions != seq.Stats.Transitions {
		t.Fatalf("%+v, %v; sequential %+v", par.Stats, err, seq.Stats)
	}
}
