package fuzz

// Goal-reaching testing with several workers. Each worker owns a GoalTask
// (policies need not be safe for concurrent use). Fuzzing: worker k builds
// a pool of its share of N states from its own seed stream (seed, k); the
// pools are merged in worker order, dropping states already merged. Bug
// confirmation: worker k takes the pool states i with i mod K == k; the
// results are merged by pool index. Oracles are deterministic, so for a
// given seed, budgets and worker count the report is the same on every
// run (a Runtime limit aside).

import (
	"context"
	"sync"
	"time"
)

// GoalTest fuzzes and confirms bugs with len(tasks) workers (at least one).
func GoalTest(ctx context.Context, tasks []*GoalTask, popt PoolOptions, oopt OracleOptions) (*Pool, *GoalResult, error) {
	k := len(tasks)
	popt, err := popt.withDefaults()
	if err != nil {
		return nil, nil, err
	}
	if oopt, err = oopt.withDefaults(); err != nil {
		return nil, nil, err
	}
	if k == 1 {
		pool, err := tasks[0].Fuzz(ctx, popt)
		if err != nil {
			return nil, nil, err
		}
		res, err := tasks[0].Confirm(ctx, pool, oopt)
		return pool, res, err
	}
	began := time.Now()
	pools := make([]*Pool, k)
	errs := make([]error, k)
	var wg sync.WaitGroup
	for w := 0; w < k; w++ {
		o := popt
		o.MaxPool = (popt.MaxPool + k - 1 - w) / k // shares sum to N
		o.MaxSteps = max(1, popt.MaxSteps/k)
		o.Starts = max(1, (popt.Starts+k-1-w)/k)
		o.Seed = popt.Seed*0x9e3779b97f4a7c15 + uint64(w)
		wg.Add(1)
		go func(w int, o PoolOptions) {
			defer wg.Done()
			if o.MaxPool == 0 {
				pools[w] = &Pool{}
				return
			}
			pools[w], errs[w] = tasks[w].Fuzz(ctx, o)
		}(w, o)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, nil, err
		}
	}
	pool := mergeGoalPools(pools)
	pool.Elapsed = time.Since(began)

	results := make([]goalStateResult, len(pool.Entries))
	done := make([]bool, len(pool.Entries))
	start := time.Now()
	var mu sync.Mutex
	ndone, nbugs := 0, 0
	for w := 0; w < k; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < len(pool.Entries); i += k {
				if ctx.Err() != nil || errs[w] != nil {
					return
				}
				results[i], errs[w] = tasks[w].confirmOne(pool, i, oopt, start)
				done[i] = errs[w] == nil
				if oopt.Progress != nil {
					mu.Lock()
					ndone++
					if results[i].bug != nil {
						nbugs++
					}
					oopt.Progress(ndone, len(pool.Entries), nbugs)
					mu.Unlock()
				}
			}
		}(w)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, nil, err
		}
	}
	res := newGoalResult()
	for i := range results {
		if !done[i] {
			break // canceled: keep the prefix, as Confirm does
		}
		res.add(i, results[i])
	}
	return pool, res, nil
}

// mergePools concatenates pools in order, dropping repeated states and
// renumbering walk parents.
func mergeGoalPools(pools []*Pool) *Pool {
	out := &Pool{}
	index := map[string]int{}
	for _, p := range pools {
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
				continue
			}
			if e.Parent >= 0 {
				e.Parent = remap[e.Parent]
			}
			index[k] = len(out.Entries)
			remap[i] = len(out.Entries)
			out.Entries = append(out.Entries, e)
		}
	}
	return out
}
