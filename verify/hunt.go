package verify

import (
	"context"
	"math/rand/v2"
	"time"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// The counterexample hunter of the auto portfolio: random walks of the
// policy (a uniformly random applicable label without one) from sampled
// start states, each outcome of a step drawn uniformly. A walk that ends
// in an unsafe state is a counterexample; it is checked like every other
// engine's. The hunter never claims safety: it runs until it finds one or
// its context ends. Walks get longer as the hunt goes on (from 256 steps,
// doubling every 64 walks up to 65,536), so that short counterexamples
// come first and deep ones (tr5 of bench/polic3 at depth 88) are still
// reached.

// HuntStats are the figures of a hunt.
type HuntStats struct {
	Walks int // random walks made
	Steps int // steps taken over all walks
	Depth int // steps of the counterexample (unsafe)
}

// huntSeed is the seed of the hunter's random walks: a fixed seed makes a
// hunt repeatable on the same model.
const huntSeed = 0x76696769

func hunt(ctx context.Context, q *Prepared) (*Verdict, error) {
	start := time.Now()
	dec := q.Dec
	var err error
	rng := rand.New(rand.NewPCG(huntSeed, 1))
	sampler, serr := q.Gen.NewStartSampler(ctx, explicit.SamplerOptions{Seed: huntSeed})
	st := &HuntStats{}
	v := &Verdict{Engine: "hunt", Hunt: st}
	steps := 256
	last := time.Now()
	for ctx.Err() == nil {
		var s symbolic.State
		if serr == nil {
			s, err = sampler.Sample(ctx, rng)
		} else {
			s, err = q.Gen.SampleStart(rng, 1<<16)
		}
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			return nil, err
		}
		trace, end, err := explicit.Simulate(q.Gen, s, explicit.SimOptions{Steps: steps, Outcomes: explicit.OutcomesRandom, Rand: rng, Policy: dec, Ctx: ctx})
		if err != nil {
			// A range error on a sampled run: the explicit search
			// reports it as an error of the model; the hunter stops.
			return nil, err
		}
		st.Walks++
		st.Steps += len(trace) - 1
		if end == explicit.EndUnsafe {
			v.Answer, v.Trace, st.Depth = explicit.UnsafeVerdict, trace, len(trace)-1
			break
		}
		if st.Walks%64 == 0 && steps < 1<<16 {
			steps *= 2
		}
		if time.Since(last) > time.Second {
			last = time.Now()
			q.progress("hunt", "%d walks, %d steps", st.Walks, st.Steps)
		}
	}
	if v.Answer != explicit.UnsafeVerdict {
		v.Reason = stopReason(ctx)
	}
	v.Elapsed = time.Since(start)
	return v, nil
}
