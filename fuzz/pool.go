package fuzz

// The pool fuzzer: paper 003's Algorithm 1 (the refined version of paper
// 001's), with paper 001's novelty filter and its policy-quality bias.
//
// The pool starts with start states. Each round picks a walk length l in
// 1..L and a pool state s_0 uniformly, and walks l steps: every successor
// s' of s (over all labels and outcomes) that is neither a goal nor unsafe
// nor proved a dead end by the relaxation is a candidate; when a bias needs
// the policy's run, the partial run from s' (at most B_state steps, and at
// most B_expansion policy steps for all of s's successors together) gives
// its bias value, infinite when the run already fails (paper 003) -- or,
// for the policy-quality bias alone, weight 0 and s' goes straight to the
// pool (paper 001). The walk moves to a candidate chosen with probability
// proportional to its (shifted) bias, and the state it ends in joins the
// pool if it passes the novelty filter (when on).
//
// Everything random comes from one PCG seeded by PoolOptions.Seed, and
// outcomes along partial runs are drawn from it too, so a seed and the
// same budgets give the same pool (a Runtime limit can cut a run short at
// a different point; the step budget MaxSteps cannot).

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// PoolOptions are Algorithm 1's parameters. Zero fields take the defaults
// of paper 003's experiments; negative ones are errors.
type PoolOptions struct {
	MaxPool    int           // N: pool size (default 100)
	WalkLen    int           // L: maximal walk length (default 5)
	Runtime    time.Duration // T: runtime limit (0: none)
	BExpansion int           // policy steps per walk step, over all successors (default 200)
	BState     int           // policy steps per partial run (default 50)
	MaxSteps   int           // total successor and policy steps (default 1,000,000): a reproducible budget
	Starts     int           // start states sampled into the initial pool (default 8)
	Seed       uint64
	Biases     []string // names from BiasNames; empty: uniform random walks
	// OnAdd, if set, is called with the pool and the index of each state
	// as it joins the pool (bug confirmation interleaved with fuzzing, as
	// in paper 001's Figure 4); an error ends fuzzing with that error.
	OnAdd func(p *Pool, i int) error
}

func (o PoolOptions) withDefaults() (PoolOptions, error) {
	if o.Runtime < 0 {
		return o, fmt.Errorf("fuzz: runtime %v: must be positive", o.Runtime)
	}
	err := goalDefaults([]goalOption{
		{"pool size", &o.MaxPool, 100}, {"walk length", &o.WalkLen, 5}, {"expansion budget", &o.BExpansion, 200},
		{"state budget", &o.BState, 50}, {"step budget", &o.MaxSteps, 1_000_000}, {"start states", &o.Starts, 8}})
	return o, err
}

// goalOption is an integer option with its name and default.
type goalOption struct {
	name string
	v    *int
	def  int
}

// goalDefaults rejects negative options and gives zero ones their
// defaults.
func goalDefaults(os []goalOption) error {
	for _, o := range os {
		if *o.v < 0 {
			return fmt.Errorf("fuzz: %s %d: must be positive", o.name, *o.v)
		}
	}
	for _, o := range os {
		if *o.v == 0 {
			*o.v = o.def
		}
	}
	return nil
}

// PoolEntry is one test state with how the fuzzer reached it: Walk runs
// from the state of pool entry Parent to State (Parent -1 and no Walk for
// start states). The undo oracle walks this ancestry backwards.
type PoolEntry struct {
	State  symbolic.State
	Parent int
	Walk   []explicit.Step
}

// Pool is the fuzzer's result.
type Pool struct {
	Entries []PoolEntry
	Walks   int
	Steps   int    // successor and policy steps spent
	Stop    string // why fuzzing stopped: "pool full", "step budget", "runtime", "canceled", "no new states"
	Elapsed time.Duration
	// Work is the time the workers spent, summed (GoalTest; Elapsed with
	// one worker), the whole of which the confirmation times of
	// GoalResult.Elapsed, also summed over the workers, are a share.
	Work time.Duration
	// Fuzzing is the wall-clock time in which some worker fuzzed (not
	// confirming a state; GoalTest).
	Fuzzing time.Duration
}

type poolCandidate struct {
	s    symbolic.State
	step explicit.Step
	b    float64
}

// Fuzz builds a pool of test states by biased random walks.
func (t *GoalTask) Fuzz(ctx context.Context, opt PoolOptions) (*Pool, error) {
	opt, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	bias, err := parseGoalBiases(opt.Biases)
	if err != nil {
		return nil, err
	}
	began := time.Now()
	rng := rand.New(rand.NewPCG(opt.Seed, 0x676f616c))
	relax := newGoalRelax(t.M, t.Prop.Goal)
	p := &Pool{}
	nov := newPoolNovelty()
	inPool := map[string]bool{}
	var addErr error
	add := func(e PoolEntry) bool {
		k := goalKey(e.State)
		if inPool[k] || len(p.Entries) >= opt.MaxPool {
			return false
		}
		if bias.poolNovelty && len(p.Entries) > 0 && !nov.novel(e.State) {
			return false
		}
		inPool[k] = true
		nov.add(e.State)
		p.Entries = append(p.Entries, e)
		if opt.OnAdd != nil && addErr == nil {
			addErr = opt.OnAdd(p, len(p.Entries)-1)
		}
		return true
	}
	starts, err := t.sampleStarts(ctx, rng, opt.Starts)
	if err != nil {
		if ctx.Err() != nil {
			return &Pool{Stop: "canceled", Elapsed: time.Since(began)}, nil
		}
		return nil, err
	}
	for _, s := range starts {
		if t.Gen.Status(s) == explicit.Open {
			add(PoolEntry{State: s, Parent: -1})
		}
	}
	if addErr != nil {
		return nil, addErr
	}
	if len(p.Entries) == 0 {
		return nil, fmt.Errorf("fuzz: every sampled start state of property %s already satisfies its goal or unsafe condition: nothing to test", t.Prop.Name)
	}
	var deadline time.Time
	if opt.Runtime > 0 {
		deadline = began.Add(opt.Runtime)
	}
	idle := 0
	// budget says why fuzzing must stop now ("" to go on); it is asked
	// between walks and at each step of a walk (--walk 2^62 walked on
	// for hours past --timeout)
	budget := func() string {
		switch {
		case p.Steps >= opt.MaxSteps:
			return "step budget"
		case !deadline.IsZero() && time.Now().After(deadline):
			return "runtime"
		case ctx.Err() != nil:
			return "canceled"
		}
		return ""
	}
	for {
		switch {
		case len(p.Entries) >= opt.MaxPool:
			p.Stop = "pool full"
		case budget() != "":
			p.Stop = budget()
		case idle > 0 && (idle-1)/50 >= opt.MaxPool: // idle > 50 N, which overflowed for N near 2^63
			p.Stop = "no new states" // walks keep ending in states the pool has
		}
		if p.Stop != "" {
			break
		}
		p.Walks++
		before := len(p.Entries)
		l := 1 + rng.IntN(opt.WalkLen)
		parent := rng.IntN(len(p.Entries))
		s := p.Entries[parent].State
		var walk []explicit.Step
		for i := 0; i < l && budget() == ""; i++ {
			cands, err := t.candidates(s, bias, relax, rng, opt, p, func(c poolCandidate) {
				w := append(append([]explicit.Step(nil), walk...), c.step, explicit.Step{State: c.s, Label: symbolic.NoLabel, Cmd: -1})
				add(PoolEntry{State: c.s, Parent: parent, Walk: w})
			})
			if err != nil {
				return nil, err
			}
			if len(cands) == 0 {
				break
			}
			c := poolSelect(rng, cands)
			walk = append(walk, c.step)
			s = c.s
		}
		if len(walk) > 0 {
			add(PoolEntry{State: s, Parent: parent, Walk: append(walk, explicit.Step{State: s, Label: symbolic.NoLabel, Cmd: -1})})
		}
		if addErr != nil {
			return nil, addErr
		}
		if len(p.Entries) == before {
			idle++
		} else {
			idle = 0
		}
	}
	p.Elapsed = time.Since(began)
	return p, nil
}

// sampleStarts draws up to k distinct start states uniformly: a
// reservoir sample when the sampler enumerated them, else k draws from the
// sampler (fewer when draws repeat).
func (t *GoalTask) sampleStarts(ctx context.Context, rng *rand.Rand, k int) ([]symbolic.State, error) {
	if t.Sampler == nil {
		ss, err := NewSampler(ctx, t.Gen, explicit.SamplerOptions{})
		if err != nil {
			return nil, err
		}
		t.Sampler = ss
	}
	var out []symbolic.State
	n := 0
	if t.Sampler.Enumerated(func(s symbolic.State) bool {
		n++
		if len(out) < k {
			out = append(out, append(symbolic.State(nil), s...))
		} else if j := rng.IntN(n); j < k {
			out[j] = append(symbolic.State(nil), s...)
		}
		return true
	}) {
		return out, nil
	}
	seen := map[string]bool{}
	for try := 0; try/4 < k && len(out) < k; try++ { // try < 4k, which overflows for k near 2^63
		s, err := t.Sampler.Sample(ctx, rng)
		if err != nil {
			return nil, err
		}
		if key := goalKey(s); !seen[key] {
			seen[key] = true
			out = append(out, s)
		}
	}
	return out, nil
}

// candidates computes the successors of s the walk may move to, with their
// bias values. Successors whose partial policy run fails are handed to
// direct when only the policy-quality bias is on (paper 001).
func (t *GoalTask) candidates(s symbolic.State, bias goalBiasSet, relax *goalRelax, rng *rand.Rand, opt PoolOptions, p *Pool, direct func(poolCandidate)) ([]poolCandidate, error) {
	var out []poolCandidate
	j := opt.BExpansion
	labels := t.applicable(s)
	for _, l := range labels {
		succ, err := t.succs(s, l)
		if err != nil {
			return nil, err
		}
		p.Steps++
		for _, e := range succ {
			if t.Gen.Status(e.s) != explicit.Open {
				continue
			}
			if hmax, _ := relax.goalDist(e.s); hmax >= goalInf {
				continue // a dead end: no test state
			}
			c := poolCandidate{s: e.s, step: explicit.Step{State: s, Label: l, Cmd: e.cmd, Outcome: e.out}}
			if bias.needsRun() {
				if j <= 0 {
					return out, nil
				}
				run, fails, err := t.partialRun(e.s, min(j, opt.BState), rng)
				if err != nil {
					return nil, err
				}
				j -= len(run) - 1
				p.Steps += len(run) - 1
				switch {
				case fails && bias.shape():
					c.b = math.Inf(1)
				case fails:
					direct(c)
					c.b = 0
				default:
					c.b = bias.value(relax, run)
				}
			}
			if !math.IsInf(c.b, -1) {
				out = append(out, c)
			}
		}
	}
	return out, nil
}

// partialRun runs the policy from s for at most k steps, drawing outcomes
// by their weights. It reports whether the run already fails (it meets an
// unsafe state, a deadlock, a stuck policy or a state it visited before).
func (t *GoalTask) partialRun(s symbolic.State, k int, rng *rand.Rand) ([]symbolic.State, bool, error) {
	run := []symbolic.State{s}
	seen := map[string]bool{goalKey(s): true}
	for len(run) <= k {
		switch t.Gen.Status(s) {
		case explicit.Goal:
			return run, false, nil
		case explicit.Unsafe:
			return run, true, nil
		}
		l, err := t.decide(s)
		if err != nil {
			return nil, false, err
		}
		if l == symbolic.NoLabel {
			return run, true, nil
		}
		succ, err := t.succs(s, l)
		if err != nil {
			return nil, false, err
		}
		s = succ[rng.IntN(len(succ))].s
		k0 := goalKey(s)
		if seen[k0] {
			return append(run, s), true, nil
		}
		seen[k0] = true
		run = append(run, s)
	}
	return run, false, nil
}

// poolSelect is paper 003's: uniformly among infinite biases if there
// are any, else proportionally to the biases shifted to be non-negative
// (uniformly when they are all zero).
func poolSelect(rng *rand.Rand, cs []poolCandidate) poolCandidate {
	var inf []int
	lo := math.Inf(1)
	for i, c := range cs {
		if math.IsInf(c.b, 1) {
			inf = append(inf, i)
		}
		lo = math.Min(lo, c.b)
	}
	if len(inf) > 0 {
		return cs[inf[rng.IntN(len(inf))]]
	}
	shift := 0.0
	if lo < 0 {
		shift = -lo
	}
	total := 0.0
	for _, c := range cs {
		total += c.b + shift
	}
	if total <= 0 {
		return cs[rng.IntN(len(cs))]
	}
	u := rng.Float64() * total
	for _, c := range cs {
		u -= c.b + shift
		if u < 0 {
			return c
		}
	}
	return cs[len(cs)-1]
}
