package fuzz

// Goal-reaching testing with several workers, bug confirmation
// interleaved with fuzzing (paper 001, Figure 4: the oracles run on each
// state as it joins the pool, so bugs come in while fuzzing goes on, and
// an interrupt keeps them). Each worker owns a GoalTask (policies need
// not be safe for concurrent use) and builds a pool of its share of N
// states from its own seed stream (seed, k), confirming as it goes; the
// pools are then merged in worker order, dropping states already merged
// (with their results). Oracles are deterministic, so for a given seed,
// budgets and worker count the report is the same on every run (a
// runtime limit or an interrupt aside).

import (
	"context"
	"errors"
	"sync"
	"time"

	"vigil/symbolic/explicit"
)

// GoalTest fuzzes and confirms bugs with len(tasks) workers (at least one).
// popt.OnAdd is its own. Pool states fuzzed but not checked before ctx
// ended have GoalUnknown values; GoalResult.Checked counts the others.
func GoalTest(ctx context.Context, tasks []*GoalTask, popt PoolOptions, oopt OracleOptions) (*Pool, *GoalResult, error) {
	k := len(tasks)
	popt, err := popt.withDefaults()
	if err != nil {
		return nil, nil, err
	}
	if oopt, err = oopt.withDefaults(); err != nil {
		return nil, nil, err
	}
	oopt.ctx = ctx
	began := time.Now()
	if tasks[0].Sampler == nil {
		ss, err := NewSampler(ctx, tasks[0].Gen, explicit.SamplerOptions{})
		if err != nil && ctx.Err() == nil {
			return nil, nil, err
		}
		for _, t := range tasks {
			t.Sampler = ss // nil when ctx ended: each Fuzz reports "canceled"
		}
	}
	pools := make([]*Pool, k)
	results := make([]map[int]goalStateResult, k)
	errs := make([]error, k)
	var mu sync.Mutex
	ndone, nbugs := 0, 0
	clock := &phaseClock{}
	var wg sync.WaitGroup
	for w := 0; w < k; w++ {
		o := popt
		o.MaxPool = share(popt.MaxPool, k, w) // shares sum to N
		// shares that sum to the budget: with fewer steps than workers
		// a worker without steps fuzzes nothing (each took one step,
		// so --steps 1 --workers 8 spent 8)
		o.MaxSteps = share(popt.MaxSteps, k, w)
		o.Starts = max(1, share(popt.Starts, k, w))
		if k > 1 {
			o.Seed = popt.Seed*0x9e3779b97f4a7c15 + uint64(w)
		}
		results[w] = map[int]goalStateResult{}
		o.OnAdd = func(p *Pool, i int) error {
			if ctx.Err() != nil {
				return nil
			}
			clock.leave(phaseFuzz)
			clock.enter(phaseConfirm)
			c, err := tasks[w].confirmOne(p, i, oopt, began)
			clock.leave(phaseConfirm)
			clock.enter(phaseFuzz)
			if errors.Is(err, errOracleStopped) {
				// not checked: its value stays unknown, its time counts
				results[w][i] = goalStateResult{elapsed: c.elapsed, stopped: true}
				return nil
			}
			if err != nil {
				return err
			}
			results[w][i] = c
			if oopt.Progress != nil {
				mu.Lock()
				ndone++
				if c.bug != nil {
					nbugs++
				}
				oopt.Progress(ndone, popt.MaxPool, nbugs)
				mu.Unlock()
			}
			return nil
		}
		wg.Add(1)
		go func(w int, o PoolOptions) {
			defer wg.Done()
			if o.MaxPool == 0 || o.MaxSteps == 0 {
				pools[w] = &Pool{}
				return
			}
			clock.enter(phaseFuzz)
			pools[w], errs[w] = tasks[w].Fuzz(ctx, o)
			clock.leave(phaseFuzz)
		}(w, o)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, nil, err
		}
	}
	pool, res := mergeGoalResults(pools, results)
	pool.Elapsed = time.Since(began)
	for _, p := range pools {
		pool.Work += p.Elapsed
	}
	pool.Fuzzing, res.Confirming = clock.wall[phaseFuzz], clock.wall[phaseConfirm]
	return pool, res, nil
}

// mergeGoalResults merges the workers' pools (mergeGoalPools) and their
// results: a state several workers fuzzed has the result of the first
// that checked it to the end. (Only the first's was read: when an
// interrupt stopped the first worker's check, the state was reported
// unknown although another worker had found its bug.) The time of every
// check counts, the dropped duplicates' too: the workers spent it.
func mergeGoalResults(pools []*Pool, results []map[int]goalStateResult) (*Pool, *GoalResult) {
	pool, from := mergeGoalPools(pools)
	res := newGoalResult()
	for i, fs := range from {
		var c goalStateResult
		found := false
		for _, f := range fs {
			d, ok := results[f[0]][f[1]]
			if ok && !d.stopped && !found {
				c, found = d, true
				continue
			}
			for o, t := range d.elapsed {
				res.Elapsed[o] += t
			}
		}
		if !found {
			res.Values = append(res.Values, GoalValue{Outcome: GoalUnknown, Cost: -1})
			continue
		}
		res.Checked++
		for _, b := range append([]*GoalBug{c.bug}, c.every...) {
			if b != nil {
				b.PoolIndex = i
			}
		}
		res.add(i, c)
	}
	return pool, res
}

// mergeGoalPools concatenates pools in order, dropping repeated states and
// renumbering walk parents. from[i] lists (worker, index in its pool) of
// each occurrence of merged entry i, the kept one first.
func mergeGoalPools(pools []*Pool) (*Pool, [][][2]int) {
	out := &Pool{}
	var from [][][2]int
	index := map[string]int{}
	for w, p := range pools {
		out.Walks += p.Walks
		out.Steps += p.Steps
		if out.Stop == "" || p.Stop == "canceled" || p.Stop == "runtime" {
			out.Stop = p.Stop
		}
		remap := make([]int, len(p.Entries))
		for i, e := range p.Entries {
			k := goalKey(e.State)
			if j, ok := index[k]; ok {
				remap[i] = j
				from[j] = append(from[j], [2]int{w, i})
				continue
			}
			if e.Parent >= 0 {
				e.Parent = remap[e.Parent]
			}
			index[k] = len(out.Entries)
			remap[i] = len(out.Entries)
			out.Entries = append(out.Entries, e)
			from = append(from, [][2]int{{w, i}})
		}
	}
	return out, from
}
