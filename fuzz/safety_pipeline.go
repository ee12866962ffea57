package fuzz

// The safety-testing pipeline (paper 000, Figure 1): fuzz with Algorithm
// 1, confirm the bugs on each unsafe run with the safety deciders (the
// test oracles), and find the run's faults.
//
// Workers share the runs in a fixed way: run i belongs to worker i mod K,
// and each worker confirms and analyses its unsafe runs as it finds them
// (so an interrupt keeps what was confirmed), with its own Space and
// deciders. Runs are numbered and each has its own random stream, so the
// set of unsafe runs does not depend on K; the deciders' answers (safe or
// not) do not either. Only the safe alternative named for a fault can
// depend on what a worker's caches learnt before, which is fixed for a
// given seed and K. Results are merged in run order, dropping unsafe runs
// equal to an earlier one.
//
// A state of an unsafe run is a bug when it is (r-)safe (paper 000,
// Definitions 2 and 5): the policy's run from it reaches an unsafe state,
// but some policy avoids them. The first oracle decides every state of the
// run, backwards so that its caches carry over; every further oracle
// re-decides each bug and each fault independently, and a disagreement is
// an error. Fault analysis (safety.Faults) runs with the first oracle on
// every run with a bug.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"vigil/internal/vigilerr"
	"vigil/safety"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// SafetyOptions configure SafetyTest. Zero fields take the defaults.
type SafetyOptions struct {
	Config SafetyConfig
	Runs   int // fuzzing runs (default 1,000)
	Limits SafetyLimits
	Seed   uint64
	// Oracles are safety deciders (safety.Algorithms); default tarjan.
	Oracles []string
	Radius  *safety.Radius    // the radius of r-safety (nil: plain safety, radius inf)
	Decider safety.Options    // the deciders' options (action order, seed)
	NoCheck bool              // fuzz only: no confirmation, no fault analysis
	Runtime time.Duration     // stop after this long (0: no limit)
	OnRun   func(SafetyTally) // called after each run (under a lock)
}

// SafetyTally counts progress so far.
type SafetyTally struct {
	Runs, Total, Unsafe, Bugs int
}

// SafetyFault is a fault on an unsafe run (paper 000, Definition 3): State
// is (r-)safe, the policy's Label may lead to Outcome, which is not, and
// Alt (NoLabel when the decider named none) keeps State (r-)safe.
type SafetyFault struct {
	Step    int
	State   symbolic.State
	Label   symbolic.LabelID
	Outcome symbolic.State
	Alt     symbolic.LabelID
}

// SafetyCase is an unsafe run with its analysis.
type SafetyCase struct {
	Run      *SafetyRun
	Analysed bool   // confirmation and fault analysis finished
	Safe     []bool // per step: (r-)safe per the first oracle
	Bugs     []int  // the steps whose states are bugs
	Faults   []SafetyFault
	// Confirm and FaultTime are the time spent on confirmation and on
	// fault analysis.
	Confirm, FaultTime time.Duration
}

// SafetyResult is SafetyTest's result.
type SafetyResult struct {
	Config     SafetyConfig
	Runs       int            // fuzzing runs completed
	Ends       map[string]int // runs by how they ended
	Cases      []*SafetyCase  // the distinct unsafe runs, in run order
	Duplicates int            // unsafe runs equal to an earlier one
	Expanded   int            // policy-graph states the lookahead visited
	// Fuzz, Confirm and Faults are the wall-clock time in which some
	// worker was in that phase (with several workers the phases overlap;
	// each is at most Elapsed, the wall-clock time of the whole test).
	// FuzzWork, ConfirmWork and FaultsWork sum the workers' time per
	// phase instead (equal to the wall-clock times with one worker).
	Fuzz, Confirm, Faults, Elapsed    time.Duration
	FuzzWork, ConfirmWork, FaultsWork time.Duration
	Workers                           int  // the workers that ran the test
	Complete                          bool // every run done and every unsafe run analysed
}

// The phases of a safety test, for phaseClock.
const (
	phaseFuzz = iota
	phaseConfirm
	phaseFaults
	numPhases
)

// phaseClock measures, per phase, the wall-clock time in which at least
// one worker is in it: the union of the workers' intervals, kept as a
// count of the workers in each phase and the time the count last left 0.
// (The workers' times summed exceed the wall clock: with two workers the
// report said "fuzz 1.9s, total 1.0s".)
type phaseClock struct {
	mu     sync.Mutex
	active [numPhases]int
	since  [numPhases]time.Time
	wall   [numPhases]time.Duration
}

func (c *phaseClock) enter(p int) {
	c.mu.Lock()
	if c.active[p] == 0 {
		c.since[p] = time.Now()
	}
	c.active[p]++
	c.mu.Unlock()
}

func (c *phaseClock) leave(p int) {
	c.mu.Lock()
	if c.active[p]--; c.active[p] == 0 {
		c.wall[p] += time.Since(c.since[p])
	}
	c.mu.Unlock()
}

// Unsafe returns the number of unsafe runs (duplicates included).
func (r *SafetyResult) Unsafe() int { return r.Ends[SafetyEndUnsafe] }

// SafetyTest runs opt.Runs runs of Algorithm 1 with len(tasks) workers
// (at least one task; each worker needs its own), confirming and
// analysing each unsafe run unless NoCheck.
func SafetyTest(ctx context.Context, tasks []*SafetyTask, opt SafetyOptions) (*SafetyResult, error) {
	if opt.Runs < 0 {
		return nil, fmt.Errorf("fuzz: %d runs: must be positive", opt.Runs)
	}
	if opt.Runs == 0 {
		opt.Runs = 1000
	}
	if opt.Runtime < 0 {
		return nil, fmt.Errorf("fuzz: runtime %v: must be positive", opt.Runtime)
	}
	lim, err := opt.Limits.withDefaults()
	if err != nil {
		return nil, err
	}
	if len(opt.Oracles) == 0 {
		opt.Oracles = []string{"tarjan"}
	}
	if err := CheckSafetyOracles(opt.Oracles); err != nil {
		return nil, err
	}
	if opt.Runtime > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opt.Runtime)
		defer cancel()
	}
	k := len(tasks)
	began := time.Now()
	if tasks[0].Sampler == nil {
		ss, err := NewSampler(ctx, tasks[0].Gen, explicit.SamplerOptions{})
		if err != nil {
			if ctx.Err() != nil {
				return &SafetyResult{Config: opt.Config, Ends: map[string]int{}, Elapsed: time.Since(began)}, nil
			}
			return nil, err
		}
		for _, t := range tasks {
			t.Sampler = ss
		}
	}
	outs := make([]safetyWorker, k)
	clock := &phaseClock{}
	var mu sync.Mutex
	tally := SafetyTally{Total: opt.Runs}
	note := func(unsafe bool, bugs int) {
		mu.Lock()
		defer mu.Unlock()
		tally.Runs++
		if unsafe {
			tally.Unsafe++
		}
		tally.Bugs += bugs
		if opt.OnRun != nil {
			opt.OnRun(tally)
		}
	}
	var wg sync.WaitGroup
	for w := range outs {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			outs[w].work(ctx, tasks[w], opt, lim, began, w, k, clock, note)
		}(w)
	}
	wg.Wait()
	res, err := mergeSafety(outs, opt, began)
	if err != nil {
		return nil, err
	}
	res.Fuzz, res.Confirm, res.Faults = clock.wall[phaseFuzz], clock.wall[phaseConfirm], clock.wall[phaseFaults]
	return res, nil
}

// safetyWorker is what one worker of SafetyTest did: its runs (run i of
// the test is its (i/k)-th when i mod k is its index), the analysis of
// its unsafe runs by run number, its time per phase, and the error that
// stopped it.
type safetyWorker struct {
	runs                  []*SafetyRun
	cases                 map[int]*SafetyCase
	fuzz, confirm, faults time.Duration
	err                   error
}

// work makes runs w, w+k, w+2k, ... of the test with task t, analysing
// each unsafe one unless opt.NoCheck, and calls note after each.
func (o *safetyWorker) work(ctx context.Context, t *SafetyTask, opt SafetyOptions, lim SafetyLimits, began time.Time, w, k int, clock *phaseClock, note func(unsafe bool, bugs int)) {
	o.cases = map[int]*SafetyCase{}
	var ck *safetyChecker
	if !opt.NoCheck {
		if ck, o.err = t.newChecker(opt); o.err != nil {
			return
		}
		ck.clock = clock
	}
	for i := w; i < opt.Runs; i += k {
		if ctx.Err() != nil {
			return
		}
		t0 := time.Now()
		clock.enter(phaseFuzz)
		r, err := t.Run(ctx, opt.Config, lim, opt.Seed, i)
		clock.leave(phaseFuzz)
		o.fuzz += time.Since(t0)
		if err != nil {
			if ctx.Err() == nil {
				o.err = err
			}
			return
		}
		r.At = time.Since(began)
		o.runs = append(o.runs, r)
		bugs := 0
		if r.Unsafe() && ck != nil {
			ck.phase = phaseConfirm
			clock.enter(phaseConfirm)
			c, err := ck.analyse(ctx, r)
			clock.leave(ck.phase)
			if err != nil {
				o.err = err
				return
			}
			o.confirm += c.Confirm
			o.faults += c.FaultTime
			o.cases[i] = c
			bugs = len(c.Bugs)
		}
		note(r.Unsafe(), bugs)
	}
}

// mergeSafety merges the workers' runs in run order, keeping the first of
// equal unsafe runs.
func mergeSafety(outs []safetyWorker, opt SafetyOptions, began time.Time) (*SafetyResult, error) {
	k := len(outs)
	res := &SafetyResult{Config: opt.Config, Ends: map[string]int{}, Elapsed: time.Since(began), Workers: k, Complete: true}
	for _, o := range outs {
		if o.err != nil {
			return nil, o.err
		}
		res.FuzzWork += o.fuzz
		res.ConfirmWork += o.confirm
		res.FaultsWork += o.faults
	}
	// Run i is the (i/k)-th run of worker i mod k. Runs from k times the
	// longest worker's count on were not made: the loop stops there, not
	// at opt.Runs (--runs 2^62 stopped by --timeout looped on for hours;
	// so did --runs 2^63-1 with two workers, where (Runs+k-1)/k
	// overflowed, whatever the signals).
	made := 0
	for _, o := range outs {
		made = max(made, len(o.runs))
	}
	last := opt.Runs
	if made < share(opt.Runs, k, 0) {
		last = made * k
		res.Complete = false
	}
	// An unsafe run equal to an earlier one is a duplicate; the earlier
	// one keeps its place but takes the duplicate's analysis when only
	// the duplicate's was finished (an interrupt stopped one worker's
	// analysis of a run another worker had analysed: its bugs were lost
	// and the run reported not analysed).
	seen := map[string]int{} // run key: index in res.Cases
	for i := 0; i < last; i++ {
		o := &outs[i%k]
		j := i / k
		if j >= len(o.runs) {
			res.Complete = false
			continue
		}
		r := o.runs[j]
		res.Runs++
		res.Ends[r.End]++
		res.Expanded += r.Expanded
		if !r.Unsafe() {
			continue
		}
		key := runKey(r.Steps)
		if ci, ok := seen[key]; ok {
			res.Duplicates++
			if c := o.cases[i]; c != nil && c.Analysed && !res.Cases[ci].Analysed {
				// the same states and labels: the same analysis, of the
				// run found first
				a := *c
				a.Run = res.Cases[ci].Run
				res.Cases[ci] = &a
			}
			continue
		}
		seen[key] = len(res.Cases)
		c := o.cases[i]
		if c == nil {
			c = &SafetyCase{Run: r}
		}
		res.Cases = append(res.Cases, c)
	}
	for _, c := range res.Cases {
		if !c.Analysed && !opt.NoCheck {
			res.Complete = false
		}
	}
	return res, nil
}

func runKey(steps []explicit.Step) string {
	var b strings.Builder
	for _, st := range steps {
		b.WriteString(goalKey(st.State))
		b.WriteByte(byte(st.Label))
		b.WriteByte(0xff)
	}
	return b.String()
}

// CheckSafetyOracles checks the names of safety mode's oracles (safety
// deciders, safety.Algorithms), saying which one is unknown.
func CheckSafetyOracles(names []string) error {
	for i, n := range names {
		if slices.Contains(names[:i], n) {
			// the others re-check the first: tarjan,tarjan checked
			// nothing twice and was reported as a cross-check
			return fmt.Errorf("fuzz: oracle %q given twice", n)
		}
		ok := false
		for _, a := range safety.Algorithms {
			ok = ok || a == n
		}
		if !ok {
			return fmt.Errorf("fuzz: unknown oracle %q%s; valid oracles (safety deciders): %s", n, symbolic.Suggest(n, safety.Algorithms), strings.Join(safety.Algorithms, ", "))
		}
	}
	return nil
}

// safetyChecker is one worker's oracles over its own Space. The worker
// enters clock's phase phaseConfirm before analyse and leaves phase after
// it; analyse moves on to phaseFaults.
type safetyChecker struct {
	t     *SafetyTask
	sp    *safety.Space
	ds    []safety.Decider
	clock *phaseClock
	phase int
}

func (t *SafetyTask) newChecker(opt SafetyOptions) (*safetyChecker, error) {
	ck := &safetyChecker{t: t, sp: safety.NewSpace(t.Gen, t.Policy)}
	r := safety.Inf
	if opt.Radius != nil {
		r = *opt.Radius
	}
	for _, n := range opt.Oracles {
		d, err := safety.New(n, ck.sp, r, opt.Decider)
		if err != nil {
			return nil, fmt.Errorf("fuzz: %v", err)
		}
		ck.ds = append(ck.ds, d)
	}
	return ck, nil
}

// analyse confirms the bugs of an unsafe run and finds its faults. When
// ctx ends first, the case is returned unanalysed.
func (ck *safetyChecker) analyse(ctx context.Context, r *SafetyRun) (*SafetyCase, error) {
	c := &SafetyCase{Run: r}
	t0 := time.Now()
	ids, err := safety.RunStates(ck.sp, r.Steps)
	if _, ok := errors.AsType[*explicit.RangeError](err); ok {
		// A label the policy does not take leaves a range on the run: the
		// oracles, which try every label, cannot decide its states.
		return nil, fmt.Errorf("fuzz: unsafe run %d: %w", r.Index, err)
	} else if err != nil {
		return nil, fmt.Errorf("fuzz: run %d does not replay: %w", r.Index, err)
	}
	n := len(ids)
	c.Safe = make([]bool, n)
	d := ck.ds[0]
	for i := n - 1; i >= 0; i-- {
		ok, err := d.Decide(ctx, ids[i])
		if err != nil {
			if ctx.Err() != nil {
				c.Confirm = time.Since(t0)
				return c, nil
			}
			return nil, err
		}
		c.Safe[i] = ok
	}
	for i := 0; i < n-1; i++ {
		if c.Safe[i] {
			c.Bugs = append(c.Bugs, i)
			if err := ck.crossCheck(ctx, ids[i], true); err != nil {
				c.Confirm = time.Since(t0)
				return ck.stopped(ctx, c, err)
			}
		}
	}
	c.Confirm = time.Since(t0)
	if len(c.Bugs) == 0 {
		c.Analysed = true
		return c, nil
	}
	t1 := time.Now()
	if ck.clock != nil {
		ck.clock.leave(ck.phase)
		ck.phase = phaseFaults
		ck.clock.enter(ck.phase)
	}
	fr, err := safety.Faults(ctx, d, ids)
	if err != nil {
		c.FaultTime = time.Since(t1)
		if ctx.Err() != nil {
			return c, nil
		}
		return nil, err
	}
	for _, f := range fr.Faults {
		if err := ck.crossCheck(ctx, f.State, true); err != nil {
			c.FaultTime = time.Since(t1)
			return ck.stopped(ctx, c, err)
		}
		if err := ck.crossCheck(ctx, f.Outcome, false); err != nil {
			c.FaultTime = time.Since(t1)
			return ck.stopped(ctx, c, err)
		}
		c.Faults = append(c.Faults, SafetyFault{Step: f.Step, State: ck.sp.State(f.State), Label: f.Label, Outcome: ck.sp.State(f.Outcome), Alt: f.Alt})
	}
	c.FaultTime = time.Since(t1)
	c.Analysed = true
	return c, nil
}

func (ck *safetyChecker) stopped(ctx context.Context, c *SafetyCase, err error) (*SafetyCase, error) {
	if ctx.Err() != nil {
		c.Bugs, c.Faults = nil, nil
		return c, nil
	}
	return nil, err
}

// crossCheck has every oracle after the first decide state id, which the
// first found safe (want) or not.
func (ck *safetyChecker) crossCheck(ctx context.Context, id uint32, want bool) error {
	for _, d := range ck.ds[1:] {
		ok, err := d.Decide(ctx, id)
		if err != nil {
			return err
		}
		if ok != want {
			return vigilerr.Internalf("fuzz", "oracles disagree on %s: %s says %s, %s says %s", ck.sp.Format(id),
				ck.ds[0].Name(), safeWord(want), d.Name(), safeWord(ok))
		}
	}
	return nil
}

func safeWord(ok bool) string {
	if ok {
		return "safe"
	}
	return "not safe"
}
