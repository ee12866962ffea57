package explicit

import (
	"math"
	"sync"
	"sync/atomic"

	"vigil/symbolic"
)

// Parallel breadth-first search (Options.Workers > 1), level-synchronous.
// The store's hash table is split into shards by hash (store.go). A layer,
// the id range lo..hi-1, is taken in chunks of consecutive ids; each chunk
// goes through three phases, so that no memory is written by one goroutine
// while another reads it:
//
//  1. expand: the workers claim blocks of the chunk in turn, generate
//     successors and append each, with its hash, to their buffer for the
//     successor's shard;
//  2. dedupe: each shard is owned by one worker, which walks the buffers
//     of worker 0, 1, ... in order (reading a batch's slots ahead, as
//     InternAll does) and inserts the states it lacks into its table under
//     provisional ids (st.n + j for the shard's j-th new state), comparing
//     them against its own list of new states and remembering their slots;
//  3. commit: the shards' new states get the dense ids st.n.. in shard
//     order (a prefix sum); each owner copies its states into the arena
//     (grown beforehand) and rewrites its provisional slots.
//
// Phases 1 and 2 end at a barrier. Phase 3 does not: the workers run it at
// the start of the next chunk's phase 1, when that chunk lies in the same
// layer (phase 1 reads states of the layer and no table; phase 3 writes
// only beyond the layer, and tables), so a chunk costs two barriers; before
// the first chunk of a layer, and at the end, it runs on its own.
//
// The states a chunk adds all lie beyond hi, so they form the next layer:
// the layers, and so the states of each depth, are exactly those of the
// sequential search; only the order of ids within a layer differs
// (deterministically, for a given number of workers). Chunks bound the
// memory of the buffers. A verification stops after the expand phase of
// the first chunk holding an unsafe state and rebuilds the trace to the
// lowest such id, a shortest counterexample. The Generator and compiled
// rules are shared (they keep no state); each worker has its own
// Expansion, and its own decider unless the policy is safe for concurrent
// use; policy caches share one label slice, grown between chunks, in which
// workers write distinct ids.

// shardsPerWorker (times the number of workers, rounded up to a power of
// two) is the number of shards of the store in a parallel search.
const shardsPerWorker = 4

// blockStates is the default of Options.Block.
const blockStates = 256

// chunkPerWorker (times the number of workers, at most maxChunk) bounds
// the states of a layer expanded between two merges, and so the memory of
// the successor buffers.
const chunkPerWorker, maxChunk = 1 << 15, 1 << 18

type parWorker struct {
	cache  *Cache
	x      Expansion
	s      symbolic.State
	out    [][]uint64 // per shard: packed successors not in the store
	hs     [][]uint64 // per shard: their hashes
	stats  Stats      // of the current layer
	unsafe uint32     // first unsafe id met + 1; 0: none
	err    error
}

// shardNew is what a shard's dedupe phase found new.
type shardNew struct {
	words []uint64
	hs    []uint64
	at    []uint64 // slot index of each
	first uint32   // commit: id of words[0]
	sink  uint64   // keeps touch's reads alive
}

type parCtl struct {
	stop        atomic.Bool  // canceled, or a worker failed
	next        atomic.Int64 // the next block of the chunk to claim
	unsafeBlock atomic.Int64 // the lowest block holding an unsafe state
}

// blockRec says which worker expanded a block of a chunk and where the
// block's successors lie in that worker's shard buffers.
type blockRec struct {
	w          int
	start, end []int // per shard: range of the worker's hs[sh]
}

func searchPar(r *search) (*Result, error) {
	ctx, g, opt, res, caches, every := r.ctx, r.g, r.opt, r.res, r.caches, r.every
	st, stats := res.Store, &res.Stats
	ns := len(st.tabs)
	ws := make([]*parWorker, len(caches))
	for w := range ws {
		ws[w] = &parWorker{cache: caches[w], s: make(symbolic.State, len(g.M.Vars)), out: make([][]uint64, ns), hs: make([][]uint64, ns)}
	}
	news := make([]shardNew, ns)
	ctl := &parCtl{}
	chunk, block := parSizes(opt, len(ws))
	var recs []blockRec
	// pending: the new states of the last chunk, ids placed.. st.n-1,
	// await phase 3, which the workers run at the start of the next
	// chunk's expand phase when that chunk reads none of them (it lies in
	// the same layer), and on their own otherwise.
	pending, placed := false, uint32(st.Len())
	// Goroutines are started only for work of minShare states or more
	// each: a layer or commit of a few hundred states is done sooner
	// than a goroutine wakes up on another core.
	minShare := 4 * uint64(block)
	workersFor := func(n uint32) int { return min(len(ws), max(1, int(uint64(n)/minShare))) }
	var claim atomic.Int64
	commit := func() {
		for sh := int(claim.Add(1) - 1); sh < ns; sh = int(claim.Add(1) - 1) {
			st.commit(sh, &news[sh])
		}
	}
	flush := func() {
		if pending {
			claim.Store(0)
			parallel(workersFor(st.n-placed), func(int) { commit() })
			pending, placed = false, st.n
		}
	}
	res.Layers = []uint32{0}
	lo, hi := uint32(0), uint32(st.Len())
	reported := 0
	for lo < hi {
		if lo > 0 {
			res.Layers = append(res.Layers, lo)
			stats.Depth = len(res.Layers) - 1
		}
		for c := lo; c < hi; {
			ce := c + min(hi-c, chunk)
			share(caches, int(ce))
			nb := int((ce - c + block - 1) / block)
			for len(recs) < nb {
				recs = append(recs, blockRec{start: make([]int, ns), end: make([]int, ns)})
			}
			ctl.next.Store(0)
			ctl.unsafeBlock.Store(int64(nb))
			if ce > placed {
				flush() // the chunk reads states just added
			}
			claim.Store(0)
			active := workersFor(ce - c)
			if pending {
				active = max(active, workersFor(st.n-placed))
			}
			parallel(active, func(w int) {
				p := ws[w]
				p.reset()
				if pending {
					commit()
				}
				for !ctl.stop.Load() {
					k := int(ctl.next.Add(1) - 1)
					if k >= nb || int64(k) > ctl.unsafeBlock.Load() {
						break
					}
					if ctx.Err() != nil { // every block of blockStates states: a slow policy still stops within a second
						ctl.stop.Store(true)
						break
					}
					r := &recs[k]
					r.w = w
					for sh := range p.hs {
						r.start[sh] = len(p.hs[sh])
					}
					from := c + uint32(k)*block
					p.expand(g, opt, st, ctl, k, from, min(from+block, ce))
					for sh := range p.hs {
						r.end[sh] = len(p.hs[sh])
					}
				}
			})
			pending, placed = false, st.n
			unsafe, err := collect(stats, ws[:active])
			if err != nil {
				return nil, err
			}
			if unsafe != 0 && opt.StopAtUnsafe {
				return r.stopUnsafe(hi, unsafe-1)
			}
			if ctl.stop.Load() {
				res.Reason = r.stopReason()
				return r.finish(), nil
			}
			if err := st.merge(ws, recs[:nb], news, active); err != nil {
				return nil, err
			}
			pending = true
			c = ce
			if opt.Progress != nil && stats.Expanded-reported >= every {
				reported = stats.Expanded
				r.progress()
			}
			if opt.MaxStates > 0 && st.Len() >= opt.MaxStates && (c < hi || st.n > hi) {
				flush()
				res.Reason = "state limit"
				if c == hi && !r.startsCut {
					// every state of layer Depth is expanded (not so
					// when the start states were cut): the search
					// gave way at the next layer, none of whose states it
					// took (as in the sequential search, bfs.go; it
					// reported the layer before, one short)
					res.Layers = append(res.Layers, hi)
					stats.Depth = len(res.Layers) - 1
				}
				return r.finish(), nil
			}
		}
		lo, hi = hi, st.n
	}
	flush()
	return r.complete(), nil
}

// parSizes returns the ids a chunk and a block of the parallel search
// take (Options.Chunk and Block override the defaults).
func parSizes(opt Options, workers int) (chunk, block uint32) {
	chunk = uint32(min(chunkPerWorker*workers, maxChunk))
	if opt.Chunk > 0 {
		chunk = uint32(min(opt.Chunk, math.MaxInt32))
	}
	block = uint32(blockStates)
	if opt.Block > 0 {
		block = uint32(min(opt.Block, math.MaxInt32))
	}
	return chunk, block
}

// collect adds the statistics of the workers that expanded a chunk to
// stats and returns the lowest id+1 of an unsafe state they met (0:
// none), or the first worker's error.
func collect(stats *Stats, ws []*parWorker) (unsafe uint32, err error) {
	for _, p := range ws {
		stats.Expanded += p.stats.Expanded
		stats.Transitions += p.stats.Transitions
		stats.Unsafe += p.stats.Unsafe
		stats.Goal += p.stats.Goal
		stats.Deadlocks += p.stats.Deadlocks
		stats.Stuck += p.stats.Stuck
		if p.err != nil {
			return 0, p.err
		}
		if p.unsafe != 0 && (unsafe == 0 || p.unsafe < unsafe) {
			unsafe = p.unsafe
		}
	}
	return unsafe, nil
}

// merge runs phase 2 on workers goroutines, which take the shards one at a
// time: it adds the successors that the blocks recs routed to the shards,
// new ones taking the ids st.n.. in shard order, and makes room for them
// in the arena. Phase 3 (commit, for each shard) remains: until it has
// run, the new ids' states and slots are not in place.
func (st *Store) merge(ws []*parWorker, recs []blockRec, news []shardNew, workers int) error {
	ns := len(st.tabs)
	var next atomic.Int64
	var overflow atomic.Bool
	next.Store(0)
	parallel(min(workers, ns), func(int) {
		for sh := int(next.Add(1) - 1); sh < ns; sh = int(next.Add(1) - 1) {
			if !st.dedupe(sh, ws, recs, &news[sh]) {
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
		return ErrTooManyStates
	}
	st.reserve(st.n + uint32(total))
	st.n += uint32(total)
	return nil
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

// reset readies p for a chunk.
func (p *parWorker) reset() {
	p.stats, p.unsafe, p.err = Stats{}, 0, nil
	for sh := range p.out {
		p.out[sh], p.hs[sh] = p.out[sh][:0], p.hs[sh][:0]
	}
}

// expand is phase 1 for the ids from..to-1, block k: it routes every
// successor to its shard's buffer (the owner of the shard looks it up).
func (p *parWorker) expand(g *Generator, opt Options, st *Store, ctl *parCtl, k int, from, to uint32) {
	s, x := p.s, &p.x
	for id := from; id < to; id++ {
		p.stats.Expanded++
		src := st.Get(id)
		g.L.Unpack(src, s)
		switch g.Status(s) {
		case Unsafe:
			p.stats.Unsafe++
			if opt.StopAtUnsafe {
				// Blocks are claimed in order and this worker's first
				// unsafe state is its lowest; blocks beyond this one
				// need not be expanded.
				if p.unsafe == 0 {
					p.unsafe = id + 1
				}
				for b := ctl.unsafeBlock.Load(); int64(k) < b && !ctl.unsafeBlock.CompareAndSwap(b, int64(k)); b = ctl.unsafeBlock.Load() {
				}
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

// dedupe is phase 2 for shard sh: it inserts the candidates of the shard,
// block by block, not yet in it under provisional ids st.n+j, collects them in
// nw and records in nw.at the slot each went to. It reports false when
// the ids would overflow.
func (st *Store) dedupe(sh int, ws []*parWorker, recs []blockRec, nw *shardNew) bool {
	t := &st.tabs[sh]
	w := st.W
	base := uint64(st.n)
	nw.words, nw.hs, nw.at = nw.words[:0], nw.hs[:0], nw.at[:0]
	for _, r := range recs {
		p := ws[r.w]
		out, hs := p.out[sh][r.start[sh]*w:r.end[sh]*w], p.hs[sh][r.start[sh]:r.end[sh]]
		for len(hs) > 0 {
			// A batch at a time, its first slots read ahead (prefetch).
			n := min(len(hs), internBatch)
			nw.sink += st.touch(out[:n*w], hs[:n])
			for k, h := range hs[:n] {
				x := out[k*w : (k+1)*w]
				i, tag, found := st.find(t, x, h, base, nw.words)
				if found {
					continue
				}
				j := uint64(len(nw.hs))
				if base+j+1 >= 1<<32-1 || len(t.slots) >= 1<<32 && t.full() {
					return false
				}
				t.slots[i] = tag<<32 | (base + j + 1)
				t.n++
				nw.words = append(nw.words, x...)
				nw.hs = append(nw.hs, h)
				nw.at = append(nw.at, i)
				if t.full() && len(t.slots) < 1<<32 {
					st.grow(t, base, nw.at)
				}
			}
			out, hs = out[n*w:], hs[n:]
		}
	}
	return true
}

// find probes table t for x (hash h), where ids from base on are
// provisional, their states in news. It returns the slot holding x, or the
// empty slot where x goes, and the tag of x.
func (st *Store) find(t *table, x []uint64, h, base uint64, news []uint64) (i, tag uint64, found bool) {
	w := uint64(st.W)
	_, tag, i = st.locate(x, h)
	for ; ; i = (i + 1) & t.mask {
		s := t.slots[i]
		if s == 0 {
			return i, tag, false
		}
		if s>>32 != tag {
			continue
		}
		if st.compact {
			return i, tag, true
		}
		id := uint64(uint32(s) - 1)
		if id < base && st.equal(uint32(id), x) {
			return i, tag, true
		}
		if j := id - base; id >= base && equalWords(news[j*w:(j+1)*w], x) {
			return i, tag, true
		}
	}
}

// touch reads the first slot of each state of xs (hashes hs) and returns
// the sum, which the caller keeps: see prefetch.
func (st *Store) touch(xs []uint64, hs []uint64) (sink uint64) {
	w := st.W
	for k, h := range hs {
		t, _, i := st.locate(xs[k*w:(k+1)*w], h)
		sink += t.slots[i]
	}
	return sink
}

// commit is phase 3 for shard sh: the new states take the ids nw.first..,
// in the arena and in the table.
func (st *Store) commit(sh int, nw *shardNew) {
	t := &st.tabs[sh]
	w := st.W
	for id, words := nw.first, nw.words; len(words) > 0; {
		// The run of ids within id's page.
		p, off := st.pages[id>>pageShift], int(id&(pageStates-1))*w
		k := copy(p[off:], words)
		id, words = id+uint32(k/w), words[k:]
	}
	for j, i := range nw.at {
		t.slots[i] = t.slots[i]&^(1<<32-1) | (uint64(nw.first) + uint64(j) + 1)
	}
}
