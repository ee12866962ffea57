package ic3

import (
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

// walkSeed makes the walks repeatable.
const walkSeed = 0x706f6c6963

// walkAfter is the work a run does before it walks, walkSteps the walk
// steps per unit of work (variables for tests, which walk from the
// start and more).
var (
	walkAfter = 4000
	walkSteps = 2
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
}

// walk runs random walks while the run's walk budget allows; it returns
// a counterexample when a walk reaches an unsafe state.
func (r *run) walk() *Result {
	w := &r.walker
	if r.learned == nil || w.off || r.opts.NoWalks {
		return nil
	}
	work := r.stats.SMTCalls + r.stats.CertCalls + r.stats.Evaluated
	if work < walkAfter || w.Steps >= walkSteps*(work+1) {
		return nil
	}
	ctx, g := r.sv.ctx, r.learned.g
	if !w.started {
		w.started = true
		w.rng = rand.New(rand.NewPCG(walkSeed, 1))
		w.steps = 256
		ss, err := g.NewStartSampler(ctx, explicit.SamplerOptions{Seed: walkSeed})
		w.sampler, w.sampling = ss, err == nil
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
