package explicit

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"vigil/symbolic"
)

// Parallel breadth-first search (Options.Workers > 1), level-synchronous.
// The store's hash table is split into shards by hash (store.go). Each
// layer, the id range lo..hi-1, goes through three phases separated by
// barriers, so that no memory is written by one goroutine while another
// reads it:
//
//  1. expand: worker w takes the w-th contiguous slice of the layer,
//     generates successors and looks each up in the store (read only); a
//     successor not found goes into the worker's buffer for its shard;
//  2. dedupe: each shard is owned by one worker, which walks the buffers
//     of worker 0, 1, ... in order and inserts the states it has not seen
//     into its table under provisional ids (st.n + j for the shard's j-th
//     new state), comparing against its own list of new states;
//  3. commit: the shards' new states get the dense ids st.n.. in shard
//     order (a prefix sum); each owner copies its states into the arena
//     (grown beforehand) and rewrites its provisional slots.
//
// The next layer is then the id range of the states just committed: the
// layers, and so the set of states of each depth, are exactly those of
// the sequential search; only the order of ids within a layer differs
// (deterministically, for a given number of workers). A verification
// stops after the expand phase of the first layer holding an unsafe state
// and rebuilds the trace to the lowest such id, a shortest
// counterexample. The Generator and compiled rules are shared (they keep
// no state); each worker has its own Expansion, and its own decider
// unless the policy is safe for concurrent use; policy caches share one
// label slice, grown between layers, in which workers write distinct ids.

// minPerWorker is the default of Options.MinPerWorker.
const minPerWorker = 256

type parWorker struct {
	cache  *Cache
	x      Expansion
	s      symbolic.State
	out    [][]uint64 // per shard: packed successors not in the store
	hs     [][]uint64 // per shard: their hashes
	stats  Stats      // of the current layer
	unsafe uint32     // first unsafe id met + 1; 0: none
	err    error
	// reported is the expansion count of the last progress report (lead).
	reported int64
}

// shardNew is what a shard's dedupe phase found new.
type shardNew struct {
	words []uint64
	hs    []uint64
	at    []uint64 // commit: slot index of each
	first uint32   // commit: id of words[0]
}

type parCtl struct {
	ctx      context.Context
	stop     atomic.Bool  // canceled, or a worker failed
	expanded atomic.Int64 // for progress
}

func searchPar(ctx context.Context, g *Generator, opt Options, res *Result, caches []*Cache, begin time.Time, every int, finish, complete func() *Result) (*Result, error) {
	st, stats := res.Store, &res.Stats
	ns := len(st.tabs)
	ws := make([]*parWorker, len(caches))
	for w := range ws {
		ws[w] = &parWorker{cache: caches[w], s: make(symbolic.State, len(g.M.Vars)), out: make([][]uint64, ns), hs: make([][]uint64, ns)}
	}
	news := make([]shardNew, ns)
	ctl := &parCtl{ctx: ctx}
	per := opt.MinPerWorker
	if per <= 0 {
		per = minPerWorker
	}
	res.Layers = []uint32{0}
	lo, hi := uint32(0), uint32(st.Len())
	for lo < hi {
		if lo > 0 {
			res.Layers = append(res.Layers, lo)
			stats.Depth = len(res.Layers) - 1
		}
		share(caches, int(hi))
		active := min(len(ws), max(1, int(hi-lo)/per))
		n := uint64(hi - lo)
		parallel(active, func(w int) {
			from := lo + uint32(n*uint64(w)/uint64(active))
			to := lo + uint32(n*uint64(w+1)/uint64(active))
			ws[w].expand(g, opt, st, ctl, from, to, w == 0, stats, every, begin)
		})
		var unsafe uint32
		for _, p := range ws[:active] {
			stats.Expanded += p.stats.Expanded
			stats.Transitions += p.stats.Transitions
			stats.Unsafe += p.stats.Unsafe
			stats.Goal += p.stats.Goal
			stats.Deadlocks += p.stats.Deadlocks
			stats.Stuck += p.stats.Stuck
			if p.err != nil {
				return nil, p.err
			}
			if unsafe == 0 && p.unsafe != 0 {
				unsafe = p.unsafe // workers' slices ascend: the first found is the lowest
			}
		}
		if unsafe != 0 && opt.StopAtUnsafe {
			res.Layers = append(res.Layers, hi)
			res.Verdict = UnsafeVerdict
			tr, err := trace(g, st, res.Layers, caches[0], unsafe-1)
			if err != nil {
				return nil, err
			}
			res.Trace = tr
			return finish(), nil
		}
		if ctl.stop.Load() {
			res.Reason = "canceled"
			if errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
				res.Reason = "timeout"
			}
			return finish(), nil
		}
		owners := min(len(ws), ns)
		if active == 1 {
			owners = 1
		}
		var overflow atomic.Bool
		parallel(owners, func(k int) {
			for sh := k; sh < ns; sh += owners {
				if !st.dedupe(sh, ws[:active], &news[sh]) {
					overflow.Store(true)
				}
			}
		})
		total := uint64(0)
		for sh := range news {
			news[sh].first = st.n + uint32(total)
			total += uint64(len(news[sh].hs))
		}
		if overflow.Load() || uint64(st.n)+total > 1<<32-2 {
			return nil, ErrTooManyStates
		}
		w := st.W
		st.arena = slices.Grow(st.arena, int(total)*w)[:len(st.arena)+int(total)*w]
		parallel(owners, func(k int) {
			for sh := k; sh < ns; sh += owners {
				st.commit(sh, &news[sh])
			}
		})
		st.n += uint32(total)
		lo, hi = hi, st.n
		if opt.Progress != nil {
			stats.States = st.Len()
			stats.Elapsed = time.Since(begin)
			opt.Progress(*stats)
		}
		if opt.MaxStates > 0 && st.Len() >= opt.MaxStates && lo < hi {
			res.Reason = "state limit"
			return finish(), nil
		}
	}
	return complete(), nil
}

// parallel runs f(0..n-1) on n goroutines (f(0) on this one) and waits.
func parallel(n int, f func(int)) {
	var wg sync.WaitGroup
	for k := 1; k < n; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(k)
		}()
	}
	f(0)
	wg.Wait()
}

// expand is phase 1 for the ids from..to-1. Worker 0 (lead) reports
// progress.
func (p *parWorker) expand(g *Generator, opt Options, st *Store, ctl *parCtl, from, to uint32, lead bool, total *Stats, every int, begin time.Time) {
	p.stats, p.unsafe, p.err = Stats{}, 0, nil
	for sh := range p.out {
		p.out[sh], p.hs[sh] = p.out[sh][:0], p.hs[sh][:0]
	}
	s, x := p.s, &p.x
	const check = 1 << 10
	for id := from; id < to; id++ {
		if n := id - from; n%check == check-1 {
			if ctl.stop.Load() {
				return
			}
			if ctl.ctx.Err() != nil {
				ctl.stop.Store(true)
				return
			}
			e := ctl.expanded.Add(check)
			if lead && opt.Progress != nil && e-p.reported >= int64(every) {
				p.reported = e
				pr := *total
				pr.Expanded = int(e)
				pr.States = st.Len()
				pr.Elapsed = time.Since(begin)
				opt.Progress(pr)
			}
		}
		p.stats.Expanded++
		src := st.Get(id)
		g.L.Unpack(src, s)
		switch g.Status(s) {
		case Unsafe:
			p.stats.Unsafe++
			if opt.StopAtUnsafe {
				p.unsafe = id + 1
				return
			}
			continue
		case Goal:
			p.stats.Goal++
			continue
		}
		g.Applicable(s, x)
		if len(x.Labels) == 0 {
			p.stats.Deadlocks++
			continue
		}
		if p.cache != nil {
			l, err := p.cache.Decide(id, s, x.App)
			if err != nil {
				p.fail(ctl, err)
				return
			}
			if l == symbolic.NoLabel {
				p.stats.Stuck++
				continue
			}
			if err := g.Successors(src, s, l, x); err != nil {
				p.fail(ctl, err)
				return
			}
		} else {
			for _, l := range x.Labels {
				if err := g.Successors(src, s, l, x); err != nil {
					p.fail(ctl, err)
					return
				}
			}
		}
		p.stats.Transitions += len(x.Succs)
		for i := range x.Succs {
			t := x.Target(i)
			h := Hash(t)
			if _, ok := st.lookup(t, h); ok {
				continue
			}
			sh := st.shard(h)
			p.out[sh] = append(p.out[sh], t...)
			p.hs[sh] = append(p.hs[sh], h)
		}
	}
}

func (p *parWorker) fail(ctl *parCtl, err error) {
	p.err = err
	ctl.stop.Store(true)
}

// dedupe is phase 2 for shard sh: it inserts the workers' candidates of
// the shard not yet in it under provisional ids st.n+j and collects them
// in nw. It reports false when the ids would overflow.
func (st *Store) dedupe(sh int, ws []*parWorker, nw *shardNew) bool {
	t := &st.tabs[sh]
	w := st.W
	base := uint64(st.n)
	nw.words, nw.hs = nw.words[:0], nw.hs[:0]
	for _, p := range ws {
		out := p.out[sh]
	cands:
		for k, h := range p.hs[sh] {
			x := out[k*w : (k+1)*w]
			_, tag, i := st.locate(x, h)
			for ; ; i = (i + 1) & t.mask {
				s := t.slots[i]
				if s == 0 {
					break
				}
				if s>>32 != tag {
					continue
				}
				if st.compact {
					continue cands
				}
				id := uint64(uint32(s) - 1)
				if id < base && st.equal(uint32(id), x) {
					continue cands
				}
				if j := id - base; id >= base && equalWords(nw.words[j*uint64(w):(j+1)*uint64(w)], x) {
					continue cands
				}
			}
			j := uint64(len(nw.hs))
			if base+j+1 >= 1<<32-1 || len(t.slots) >= 1<<32 && t.full() {
				return false
			}
			t.slots[i] = tag<<32 | (base + j + 1)
			t.n++
			nw.words = append(nw.words, x...)
			nw.hs = append(nw.hs, h)
			if t.full() && len(t.slots) < 1<<32 {
				st.grow(t)
			}
		}
	}
	return true
}

// commit is phase 3 for shard sh: the new states take the ids nw.first..,
// in the arena and in the table.
func (st *Store) commit(sh int, nw *shardNew) {
	t := &st.tabs[sh]
	w := st.W
	copy(st.arena[int(nw.first)*w:], nw.words)
	// Find every provisional slot before rewriting any: a final id may
	// equal another state's provisional one.
	nw.at = nw.at[:0]
	base := uint64(st.n)
	for j, h := range nw.hs {
		_, tag, i := st.locate(nw.words[j*w:(j+1)*w], h)
		want := tag<<32 | (base + uint64(j) + 1)
		for t.slots[i] != want {
			i = (i + 1) & t.mask
		}
		nw.at = append(nw.at, i)
	}
	for j, i := range nw.at {
		t.slots[i] = t.slots[i]&^(1<<32-1) | (uint64(nw.first) + uint64(j) + 1)
	}
}
