package ic3

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// Deep counterexamples. IC3 finds a counterexample of depth d only once it
// has opened d frames; where the frames fill slowly, a shallow learned
// policy's run into an unsafe state at depth 88 (tr5 of bench/polic3,
// the safe-trained networks) stays out of its reach, while random walks
// of the policy find it in a tenth of a second (the hunter of `--engine
// auto`). So a learned run spends a share of its time on such walks:
// from start states sampled uniformly, each step under the policy's own
// label with an outcome drawn at random, longer walks as the run goes on
// (from 256 steps, doubling every 64 walks, up to 65,536, as the hunter
// does). A walk that ends in an unsafe state is the counterexample, and
// verify replays it in the explicit semantics like every other (a walk
// proves nothing else; safety still rests on IC3's invariant).
//
// The budget is counted in the run's own work, not in time, so that a
// run takes the same path on every machine and at every load: the walks
// start once the run has made walkAfter units of work (SMT calls,
// certifier calls and questions answered by evaluation: IC3's proofs
// and counterexamples of less work are never preempted by a longer
// random one),
// and then take at most walkSteps steps per unit of work since the
// start. On be2_64x64_safe of bench/polic3 (167,000 units, 36 s) that
// is about 1 s of walking.
//
// Deterministic models (every label has one command, of one outcome, as
// in the models of a network that drives a counter down a line) walk
// differently. There a walk from a state is the policy's only run from
// it, so walking it again from the same start, or from a state an
// earlier walk passed, repeats the earlier walk step for step: the 64
// walks of each length above then spend the budget on the same few runs
// (a start set of 24 states), and a run into an unsafe state 20,000
// steps deep waits for walks of 32,768 steps, after some two million
// steps of repeats (rnd9 of the generator of random network models in
// bench/adversarial/polic3_deepline.txtar, which bfs decides in 50 ms).
// So a deterministic model's walker keeps the states its walks passed
// (up to detSeenCap of them) and ends a walk on one of them (it joins an
// earlier run, or closes a cycle: no new state lies ahead). It walks
// from each start state once, in order when the sampler enumerated at
// most detStartsCap of them, else from sampled ones, 256 steps at first;
// a walk cut there (or by the budget) is continued later to twice its
// depth, and so on, the cut walks in turn. Continuing takes three
// quarters of the budget while there are cut walks, new starts the rest;
// a sampled start is charged detSampleCost steps, for a sampler by
// rejection draws thousands of points per start (npuzzle 3x4: an
// acceptance of 5e-5, some 7 ms a start) while a walk on a puzzle closes
// its cycle in a few steps (np3x4_16x16_safe of bench/polic3: a charge
// of 2,048 took 168 starts in 30 s, 4% of the run's time, against the
// 120 of the walks above). The walks then visit each state the policy reaches from the
// starts at most once, as bfs does, in depth-first order; the
// counterexample is the run replayed from its start (under the one
// outcome of each step).

// walkSeed makes the walks repeatable.
const walkSeed = 0x706f6c6963

// walkAfter is the work a run does before it walks, walkSteps the walk
// steps per unit of work (walkDetSteps on a deterministic model, whose
// walks repeat no state: 16 of its steps cost about what bfs spends on
// 16 states, some 10 µs against the 200 µs of a unit), variables for
// tests, which walk from the start and more.
var (
	walkAfter    = 4000
	walkSteps    = 2
	walkDetSteps = 16
)

// walker is the state of a run's random walks.
type walker struct {
	rng      *rand.Rand
	sampler  *explicit.StartSampler
	steps    int  // steps per walk
	off      bool // given up: no start state to sample, or an error
	Walks    int
	Steps    int
	started  bool
	sampling bool // sampler is usable (else Generator.SampleStart)

	// deterministic models (see above)
	det      bool                // every label has one command, of one outcome
	seen     map[string]struct{} // packed states deterministic walks passed
	cut      []cutWalk           // walks cut by their limit or the budget, to continue
	starts   []symbolic.State    // the enumerated start states, nil to sample
	next     int                 // starts[next] is the next to walk from
	newSteps int                 // steps (and sample charges) of walks from new starts
	conSteps int                 // steps continuing cut walks
	x        explicit.Expansion
	src      []uint64
	key      []byte
}

// cutWalk is a deterministic walk cut before its end: from start, it has
// reached at after depth steps.
type cutWalk struct {
	start, at symbolic.State
	depth     int
}

// detSeenCap bounds the states a deterministic model's walker keeps (some
// 60 MB); past it, walks go on without ending on the states they repeat.
// detStartsCap bounds the enumerated start states it walks from in order
// (else it samples), detCutCap the cut walks it keeps, detSampleCost is
// what a sampled start costs in steps.
const (
	detSeenCap    = 1 << 20
	detStartsCap  = 1 << 16
	detCutCap     = 256
	detSampleCost = 4096
)

// deterministic reports whether every label of m has at most one command
// and every command one outcome: then a state and the policy's label fix
// the successor.
func deterministic(m *symbolic.Model) bool {
	seen := make(map[symbolic.LabelID]bool)
	for _, c := range m.Commands {
		if len(c.Outcomes) != 1 || seen[c.Label] {
			return false
		}
		seen[c.Label] = true
	}
	return true
}

// walk runs random walks while the run's walk budget allows; it returns
// a counterexample when a walk reaches an unsafe state.
func (r *run) walk() *Result {
	w := &r.walker
	if r.learned == nil || w.off || r.opts.NoWalks {
		return nil
	}
	work := r.stats.SMTCalls + r.stats.CertCalls + r.stats.Evaluated
	rate := walkSteps
	if w.det {
		rate = walkDetSteps
	}
	if work < walkAfter || w.Steps >= rate*(work+1) {
		return nil
	}
	ctx, g := r.sv.ctx, r.learned.g
	if !w.started {
		w.started = true
		w.rng = rand.New(rand.NewPCG(walkSeed, 1))
		w.steps = 256
		ss, err := g.NewStartSampler(ctx, explicit.SamplerOptions{Seed: walkSeed})
		w.sampler, w.sampling = ss, err == nil
		if w.det = deterministic(g.M); w.det {
			w.seen = make(map[string]struct{})
			w.src = make([]uint64, g.L.W)
			rate = walkDetSteps
			if w.sampling {
				if n, exact := ss.Count(); exact && n <= detStartsCap {
					ss.Enumerated(func(s symbolic.State) bool {
						w.starts = append(w.starts, append(symbolic.State(nil), s...))
						return true
					})
				}
			}
		}
	}
	if w.det {
		return r.walkDet(rate * (work + 1))
	}
	for w.Steps < walkSteps*(work+1) && ctx.Err() == nil {
		var s symbolic.State
		var err error
		if w.sampling {
			s, err = w.sampler.Sample(ctx, w.rng)
		} else {
			s, err = g.SampleStart(w.rng, 1<<16)
		}
		if err != nil || s == nil {
			w.off = true // no start state to sample: IC3 answers alone
			return nil
		}
		trace, end, err := explicit.Simulate(g, s, explicit.SimOptions{Steps: w.steps, Outcomes: explicit.OutcomesRandom, Rand: w.rng, Policy: r.learned.dec, Ctx: ctx})
		if err != nil {
			// a range error on the walk: IC3 reports it as it finds it
			w.off = true
			return nil
		}
		w.Walks++
		w.Steps += max(1, len(trace)-1) // a walk of no step (a terminal start) counts as one
		if end == explicit.EndUnsafe {
			return &Result{Verdict: Unsafe, Trace: trace}
		}
		if w.Walks%64 == 0 && w.steps < 1<<16 {
			w.steps *= 2
		}
	}
	return nil
}

// walkDet is walk on a deterministic model: it continues the cut walks
// and walks from new start states, until the budget (a total of steps)
// is spent or every run from the start states has ended.
func (r *run) walkDet(budget int) *Result {
	w := &r.walker
	ctx, g := r.sv.ctx, r.learned.g
	for w.Steps < budget && ctx.Err() == nil {
		var c cutWalk
		fresh := w.starts == nil || w.next < len(w.starts)
		cont := len(w.cut) > 0 && (!fresh || w.conSteps <= 3*w.newSteps)
		if cont {
			c = w.cut[0]
			w.cut = w.cut[1:]
		} else if fresh {
			s, ok := w.nextStart(r)
			if !ok {
				return nil
			}
			c = cutWalk{start: s, at: s}
			w.Walks++
		} else {
			w.off = true // every run from every start state has ended
			return nil
		}
		before := w.Steps
		unsafe, err := w.extend(g, r.learned.dec, &c, max(2*c.depth, 256), budget)
		if cont {
			w.conSteps += w.Steps - before
		} else {
			w.newSteps += w.Steps - before
		}
		var rangeErr *explicit.RangeError
		if errors.As(err, &rangeErr) {
			// A range error on the walk ends it: IC3 reports it as it
			// finds it, and the other walks go on (bfs may well find an
			// unsafe state first: rnd81 of the generator, whose counter
			// leaves its range a step after another run turns unsafe).
			continue
		}
		if err != nil {
			w.off = true
			return nil
		}
		if unsafe {
			// the one run from c.start of c.depth steps, with its labels
			trace, end, err := explicit.Simulate(g, c.start, explicit.SimOptions{Steps: max(c.depth, 1), Outcomes: explicit.OutcomesFirst, Policy: r.learned.dec, Ctx: ctx})
			if err == nil && end == explicit.EndUnsafe && len(trace) == c.depth+1 {
				return &Result{Verdict: Unsafe, Trace: trace}
			}
			w.off = true // not the run walked: cannot happen in a deterministic model
			return nil
		}
	}
	return nil
}

// nextStart returns the next enumerated start state, or a sampled one
// (charged detSampleCost steps); false when there is none to sample
// (then the walks are off: IC3 answers alone).
func (w *walker) nextStart(r *run) (symbolic.State, bool) {
	if w.starts != nil {
		w.next++
		w.Steps++
		w.newSteps++
		return w.starts[w.next-1], true
	}
	var s symbolic.State
	var err error
	if w.sampling {
		s, err = w.sampler.Sample(r.sv.ctx, w.rng)
	} else {
		s, err = r.learned.g.SampleStart(w.rng, 1<<16)
	}
	if err != nil || s == nil {
		w.off = true
		return nil, false
	}
	w.Steps += detSampleCost
	w.newSteps += detSampleCost
	return s, true
}

// extend walks c on until it ends (an unsafe state: true; a goal, a
// deadlock, a stuck policy, a state walked before), reaches depth limit
// or spends the budget (then it is cut: kept to continue, first when the
// budget cut it).
func (w *walker) extend(g *explicit.Generator, dec explicit.Decider, c *cutWalk, limit, budget int) (bool, error) {
	s := c.at
	for {
		switch g.Status(s) {
		case explicit.Unsafe:
			return true, nil
		case explicit.Open:
		default:
			return false, nil // a goal state: the run ends
		}
		if c.depth >= limit || w.Steps >= budget {
			c.at = s
			if len(w.cut) < detCutCap {
				if c.depth >= limit {
					w.cut = append(w.cut, *c)
				} else {
					w.cut = append([]cutWalk{*c}, w.cut...) // continued first
				}
			}
			return false, nil
		}
		g.L.Pack(s, w.src)
		w.key = w.key[:0]
		for _, x := range w.src {
			w.key = binary.LittleEndian.AppendUint64(w.key, x)
		}
		if _, ok := w.seen[string(w.key)]; ok {
			return false, nil // on an earlier walk's run, or in a cycle of its own
		}
		if len(w.seen) < detSeenCap {
			w.seen[string(w.key)] = struct{}{}
		}
		g.Applicable(s, &w.x)
		if len(w.x.Labels) == 0 {
			return false, nil // deadlock
		}
		l, err := dec.Decide(s, w.x.App)
		if err != nil {
			return false, err
		}
		if l == symbolic.NoLabel {
			return false, nil // stuck
		}
		if err := g.Successors(w.src, s, l, &w.x); err != nil {
			return false, err
		}
		if len(w.x.Succs) == 0 {
			return false, nil
		}
		t, err := g.Apply(s, int(w.x.Succs[0].Cmd), int(w.x.Succs[0].Outcome))
		if err != nil {
			return false, err
		}
		s = t
		c.depth++
		w.Steps++
	}
}
