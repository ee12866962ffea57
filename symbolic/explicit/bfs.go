package explicit

import (
	"context"
	"errors"
	"time"

	"vigil/internal/vigilerr"
	"vigil/symbolic"
)

// Breadth-first search over the (policy-restricted) transition system.
// Ids are handed out in discovery order, so the states of depth d are the
// id range layer[d] .. layer[d+1]-1 and the queue is implicit. No parent
// pointers are stored: a counterexample is rebuilt backwards by scanning
// the previous layer for a predecessor, which costs at most one more pass
// over the explored states and keeps memory at the store plus the policy
// cache. The unsafe condition is tested when a state is expanded; since
// expansion follows depth order, the first unsafe state met is a shallowest
// one and the counterexample is a shortest run.

// internBatch is the number of successors Search interns at once.
const internBatch = 64

// Verdict is the answer of a verification.
type Verdict uint8

const (
	Unknown Verdict = iota // limit, timeout or interrupt before an answer
	Safe
	UnsafeVerdict
)

func (v Verdict) String() string { return [...]string{"unknown", "safe", "unsafe"}[v] }

// Options configure Search.
type Options struct {
	// Policy restricts each state to the label it chooses; nil explores all
	// applicable labels. Its decisions are cached per state (see Cache)
	// unless it is Cheap: BFS expands each state once, but rebuilding a
	// counterexample revisits states.
	Policy Decider
	// StopAtUnsafe ends the search at the first unsafe state and returns
	// its shortest counterexample (verification); otherwise unsafe states
	// are counted as terminal (exploration).
	StopAtUnsafe bool
	// MaxStates stops the search (verdict Unknown) once this many states
	// are stored; 0 means no limit.
	MaxStates int
	// Progress, if set, is called about every ProgressEvery expansions.
	Progress      func(Stats)
	ProgressEvery int
	// SizeHint presizes the store.
	SizeHint int
	// Workers > 1 runs the level-synchronous parallel search (par.go) on
	// that many goroutines. It reaches the same states, counts the same
	// transitions and terminal states, and gives the same verdicts and
	// counterexample lengths as the sequential search; ids are assigned
	// in another (still deterministic) order, a counterexample may be a
	// different shortest one, and MaxStates is checked after each chunk
	// of a layer, so the store may exceed it by the new states of one
	// chunk.
	Workers int
	// Block is the number of states a worker of the parallel search
	// claims at a time (default 256); a chunk of n states runs on at most
	// n/(4*Block) goroutines (at least one). Tests set 1 to spread tiny
	// models over every worker.
	Block int
	// Chunk is the number of states of a layer the parallel search
	// expands between two merges into the store (default 32768 per
	// worker, at most 262144); it bounds the memory of the successor
	// buffers. Tests set a few to take a layer in many chunks.
	Chunk int
	// NewPolicy builds one more decider for each extra worker when Policy
	// is not safe for concurrent use (compiled rules are).
	NewPolicy func() (Decider, error)
}

// Stats describe an exploration.
type Stats struct {
	States      int           // stored (reached) states
	Expanded    int           // states whose status was examined
	Transitions int           // distinct (state, label, successor) triples generated
	Depth       int           // deepest BFS layer reached: every state of fewer steps is expanded
	Starts      int           // start states
	Unsafe      int           // unsafe states met (terminal)
	Goal        int           // goal states met (terminal)
	Deadlocks   int           // open states with no applicable label
	Stuck       int           // open states where the policy chose nothing
	Bytes       int           // memory of the store and caches
	Elapsed     time.Duration //
	Words       int           // words per packed state
}

// StatesPerSecond returns the expansion throughput.
func (s Stats) StatesPerSecond() float64 {
	if s.Elapsed <= 0 {
		return 0
	}
	return float64(s.Expanded) / s.Elapsed.Seconds()
}

// BytesPerState returns Bytes / States.
func (s Stats) BytesPerState() float64 {
	if s.States == 0 {
		return 0
	}
	return float64(s.Bytes) / float64(s.States)
}

// Step is one step of a run: in State the policy took Label, and command
// Cmd (index into Model.Commands) with outcome Outcome (0-based) led to the
// next step's state. The last step of a run has Label == NoLabel and
// Cmd == -1.
type Step struct {
	State   symbolic.State
	Label   symbolic.LabelID
	Cmd     int
	Outcome int
}

// Result is the outcome of Search.
type Result struct {
	Verdict Verdict
	// Reason says why the verdict is Unknown ("state limit", "canceled").
	Reason string
	// Trace is a shortest counterexample when Verdict is UnsafeVerdict.
	Trace []Step
	Stats Stats
	// Store holds the reached states (ids in BFS order); Layers[d] is the
	// first id of depth d, with a final sentinel.
	Store  *Store
	Layers []uint32
}

// Search explores from all start states breadth first. It returns an error
// for range violations, policy failures and a start condition no state
// satisfies; cancellation of ctx yields Verdict Unknown.
func Search(ctx context.Context, g *Generator, opt Options) (*Result, error) {
	begin := time.Now()
	hint := opt.SizeHint
	if opt.MaxStates > 0 && (hint == 0 || hint > opt.MaxStates) {
		hint = min(opt.MaxStates, 1<<20)
	}
	workers := max(opt.Workers, 1)
	shards := 1
	for shards < shardsPerWorker*workers && workers > 1 {
		shards *= 2
	}
	st := newStoreFor(g.L, hint, shards)
	caches, err := newCaches(opt, workers)
	if err != nil {
		return nil, err
	}
	r := &search{ctx: ctx, g: g, opt: opt, res: &Result{Store: st}, st: st, caches: caches, begin: begin, every: opt.ProgressEvery}
	if r.every <= 0 {
		r.every = 1 << 16
	}
	r.res.Stats.Words = g.L.W
	stopped, err := r.starts()
	if err != nil {
		return nil, err
	}
	if stopped {
		// Stopped while enumerating the start states: a search from some
		// of them could only claim what holds for those, so it claims
		// nothing (a counterexample from them would not be a shortest one).
		r.res.Reason = r.stopReason()
		return r.finish(), nil
	}
	if workers > 1 {
		return searchPar(r)
	}
	return r.sequential()
}

// search is one call of Search: its arguments, the store and policy
// caches (one per worker), and the result it fills in.
type search struct {
	ctx       context.Context
	g         *Generator
	opt       Options
	res       *Result
	st        *Store
	caches    []*Cache
	begin     time.Time
	every     int  // expansions between progress reports (ctx is polled every 64)
	startsCut bool // the enumeration of the start states stopped early: the search cannot be complete
}

// starts interns the start states. stopped reports that ctx stopped the
// enumeration.
func (r *search) starts() (stopped bool, err error) {
	g, st, opt, stats := r.g, r.st, r.opt, &r.res.Stats
	buf := make([]uint64, g.L.W)
	var serr error
	err = g.StartsContext(r.ctx, func(s symbolic.State) bool {
		g.L.Pack(s, buf)
		_, added, err := st.Intern(buf)
		if err != nil {
			serr = err
			return false
		}
		if added {
			stats.Starts++
		}
		if opt.MaxStates > 0 && st.Len() >= opt.MaxStates {
			r.startsCut = true
			return false
		}
		if stats.Starts&0xffff == 0 {
			if r.ctx.Err() != nil {
				r.startsCut = true
				return false
			}
			if opt.Progress != nil { // millions of start states take a while too
				r.progress()
			}
		}
		return true
	})
	stopped = r.ctx.Err() != nil && (err != nil || r.startsCut)
	if stopped {
		err = nil
	}
	if err == nil {
		err = serr
	}
	return stopped, err
}

// progress reports the statistics so far to Options.Progress.
func (r *search) progress() {
	stats := &r.res.Stats
	stats.States = r.st.Len()
	stats.Elapsed = time.Since(r.begin)
	r.opt.Progress(*stats)
}

// stopReason is the Reason of a search that ctx stopped.
func (r *search) stopReason() string {
	if errors.Is(context.Cause(r.ctx), context.DeadlineExceeded) {
		return "timeout"
	}
	return "canceled"
}

// finish fills in the final statistics and returns the result.
func (r *search) finish() *Result {
	stats := &r.res.Stats
	stats.States = r.st.Len()
	stats.Bytes = r.st.Bytes()
	if r.caches[0] != nil {
		stats.Bytes += r.caches[0].Bytes()
	}
	stats.Elapsed = time.Since(r.begin)
	return r.res
}

// complete ends a search that expanded every state it reached: safe, or
// unsafe states counted (exploration, no trace), unless the enumeration
// of the start states was cut short.
func (r *search) complete() *Result {
	res := r.res
	res.Layers = append(res.Layers, uint32(r.st.Len()))
	if r.startsCut {
		res.Reason = "state limit"
		if r.ctx.Err() != nil {
			res.Reason = r.stopReason()
		}
		return r.finish()
	}
	res.Verdict = Safe
	if res.Stats.Unsafe > 0 {
		res.Verdict = UnsafeVerdict // exploration: unsafe states were counted, no trace
	}
	return r.finish()
}

// stopUnsafe ends the search at the unsafe state id, met in the layer
// that ends at layerEnd, with a shortest counterexample to it.
func (r *search) stopUnsafe(layerEnd, id uint32) (*Result, error) {
	res := r.res
	res.Layers = append(res.Layers, layerEnd)
	res.Verdict = UnsafeVerdict
	tr, err := trace(r.g, r.st, res.Layers, r.caches[0], id)
	if err != nil {
		return nil, err
	}
	res.Trace = tr
	return r.finish(), nil
}

// sequential is the breadth-first search on one goroutine.
func (r *search) sequential() (*Result, error) {
	g, st, opt, res, cache := r.g, r.st, r.opt, r.res, r.caches[0]
	stats, w := &res.Stats, g.L.W
	res.Layers = []uint32{0}
	layerEnd := uint32(st.Len())
	s := make(symbolic.State, len(g.M.Vars))
	x := &Expansion{}
	// Successors are interned in batches (InternAll overlaps their cache
	// misses), in the order they were generated, so ids are the same as
	// one by one; a batch is flushed before a layer ends or the known
	// states run out.
	var pend, hs []uint64
	flush := func() error {
		var err error
		hs, err = st.InternAll(pend, hs)
		pend = pend[:0]
		return err
	}
	for id := uint32(0); ; id++ {
		if len(pend) > 0 && (id == layerEnd || id == uint32(st.Len()) || len(pend) >= internBatch*w) {
			if err := flush(); err != nil {
				return nil, err
			}
			if opt.MaxStates > 0 && st.Len() >= opt.MaxStates && id < uint32(st.Len()) {
				res.Reason = "state limit"
				if id == layerEnd && !r.startsCut {
					// every state of layer Depth is expanded (not so
					// when the start states were cut: layer 0 lacks
					// some, and depth 1 said none of them is bad): the search
					// gave way at the next layer, none of whose states it
					// took (it reported the layer before, and auto took
					// the states of that layer's depth as not all checked)
					res.Layers = append(res.Layers, id)
					stats.Depth = len(res.Layers) - 1
				}
				return r.finish(), nil
			}
		}
		if id == uint32(st.Len()) {
			break
		}
		if id == layerEnd {
			res.Layers = append(res.Layers, id)
			stats.Depth = len(res.Layers) - 1
			layerEnd = uint32(st.Len())
		}
		// ctx is polled every 64 expansions (a few nanoseconds each),
		// so that a search under a slow policy (a wide network, 0.3 ms a
		// decision) stops within a second of a timeout or an interrupt;
		// progress is reported every r.every.
		if stats.Expanded&63 == 0 && stats.Expanded > 0 && r.ctx.Err() != nil {
			res.Reason = r.stopReason()
			return r.finish(), nil
		}
		if stats.Expanded%r.every == 0 && stats.Expanded > 0 && opt.Progress != nil {
			r.progress()
		}
		stats.Expanded++
		src := st.Get(id)
		g.L.Unpack(src, s)
		switch g.Status(s) {
		case Unsafe:
			stats.Unsafe++
			if opt.StopAtUnsafe {
				return r.stopUnsafe(layerEnd, id)
			}
			continue
		case Goal:
			stats.Goal++
			continue
		}
		g.Applicable(s, x)
		if len(x.Labels) == 0 {
			stats.Deadlocks++
			continue
		}
		if cache != nil {
			l, err := cache.Decide(id, s, x.App)
			if err != nil {
				return nil, err
			}
			if l == symbolic.NoLabel {
				stats.Stuck++
				continue
			}
			if err := g.Successors(src, s, l, x); err != nil {
				return nil, err
			}
		} else {
			for _, l := range x.Labels {
				if err := g.Successors(src, s, l, x); err != nil {
					return nil, err
				}
			}
		}
		stats.Transitions += len(x.Succs)
		pend = append(pend, x.words...)
	}
	return r.complete(), nil
}

// newCaches returns the policy cache of each worker (nil entries without a
// policy). Their label slices are shared (see Cache.share).
func newCaches(opt Options, workers int) ([]*Cache, error) {
	caches := make([]*Cache, workers)
	if opt.Policy == nil {
		return caches, nil
	}
	c := NewCache(opt.Policy)
	if ch, ok := opt.Policy.(Cheap); ok && ch.Cheap() {
		c.off = true
	}
	caches[0] = c
	for w := 1; w < workers; w++ {
		d := opt.Policy
		if _, ok := d.(concurrent); !ok {
			if opt.NewPolicy == nil {
				return nil, errors.New("explicit: a parallel search with this policy needs Options.NewPolicy (one decider per worker)")
			}
			var err error
			if d, err = opt.NewPolicy(); err != nil {
				return nil, err
			}
		}
		caches[w] = &Cache{D: d, off: c.off}
	}
	return caches, nil
}

// trace rebuilds a shortest run to state t by scanning, layer by layer
// backwards, for a predecessor under the policy.
func trace(g *Generator, st *Store, layers []uint32, cache *Cache, t uint32) ([]Step, error) {
	depthOf := func(id uint32) int {
		d := 0
		for d+1 < len(layers) && layers[d+1] <= id {
			d++
		}
		return d
	}
	s := make(symbolic.State, len(g.M.Vars))
	x := &Expansion{}
	last := make(symbolic.State, len(g.M.Vars))
	g.L.Unpack(st.Get(t), last)
	run := []Step{{State: last, Label: symbolic.NoLabel, Cmd: -1, Outcome: -1}}
	for d := depthOf(t); d > 0; d-- {
		target := append([]uint64(nil), st.Get(t)...)
		found := false
		for p := layers[d-1]; p < layers[d] && !found; p++ {
			src := st.Get(p)
			g.L.Unpack(src, s)
			if g.Status(s) != Open {
				continue
			}
			g.Applicable(s, x)
			labels := x.Labels
			if cache != nil {
				l, err := cache.Decide(p, s, x.App)
				if err != nil {
					return nil, err
				}
				if l == symbolic.NoLabel {
					continue
				}
				labels = []symbolic.LabelID{l}
			}
			for _, l := range labels {
				if err := g.Successors(src, s, l, x); err != nil {
					return nil, err
				}
			}
			for _, gr := range x.Groups {
				for i := gr.From; i < gr.To && !found; i++ {
					if equalWords(x.Target(i), target) {
						st := append(symbolic.State(nil), s...)
						run = append(run, Step{State: st, Label: gr.Label, Cmd: int(x.Succs[i].Cmd), Outcome: int(x.Succs[i].Outcome)})
						t = p
						found = true
					}
				}
			}
		}
		if !found {
			return nil, vigilerr.Internalf("explicit", "no predecessor while rebuilding a counterexample")
		}
	}
	for i, j := 0, len(run)-1; i < j; i, j = i+1, j-1 {
		run[i], run[j] = run[j], run[i]
	}
	return run, nil
}
