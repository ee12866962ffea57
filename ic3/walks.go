package ic3

import (
	"math/rand/v2"
	"time"

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
// proves nothing else; safety still rests on IC3's invariant). The walks
// start only after walkAfter, so that quick proofs pay nothing, and take
// at most a walkShare of the time since the run began, in slices of
// walkSlice.

const (
	walkShare = 20 // at most 1/walkShare of the run's time
	walkSlice = 5 * time.Millisecond
	// walkSeed makes the walks repeatable.
	walkSeed = 0x706f6c6963
)

// walkAfter is the time a run goes on before it walks (a variable for
// tests, which walk from the start).
var walkAfter = 250 * time.Millisecond

// walker is the state of a run's random walks.
type walker struct {
	rng      *rand.Rand
	sampler  *explicit.StartSampler
	steps    int // steps per walk
	spent    time.Duration
	off      bool // given up: no start state to sample, or an error
	Walks    int
	Steps    int
	started  bool
	sampling bool // sampler is usable (else Generator.SampleStart)
}

// walk runs a slice of random walks when the run's walk budget allows
// one; it returns a counterexample when a walk reaches an unsafe state.
func (r *run) walk() *Result {
	w := &r.walker
	if r.learned == nil || w.off || r.opts.NoWalks {
		return nil
	}
	elapsed := time.Since(r.start)
	if elapsed < walkAfter || walkAfter > 0 && w.spent*walkShare > elapsed {
		return nil
	}
	t0 := time.Now()
	defer func() { w.spent += time.Since(t0) }()
	ctx, g := r.sv.ctx, r.learned.g
	if !w.started {
		w.started = true
		w.rng = rand.New(rand.NewPCG(walkSeed, 1))
		w.steps = 256
		ss, err := g.NewStartSampler(ctx, explicit.SamplerOptions{Seed: walkSeed})
		w.sampler, w.sampling = ss, err == nil
	}
	for time.Since(t0) < walkSlice && ctx.Err() == nil {
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
		w.Steps += len(trace) - 1
		if end == explicit.EndUnsafe {
			return &Result{Verdict: Unsafe, Trace: trace}
		}
		if w.Walks%64 == 0 && w.steps < 1<<16 {
			w.steps *= 2
		}
	}
	return nil
}
