package verify

import (
	"context"
	"time"

	"vigil/ic3/walk"
	"vigil/symbolic/explicit"
)

// The counterexample hunter of the auto portfolio: walks of the policy (a
// uniformly random applicable label without one) from start states, by
// package walk (ic3/walk), the walks PolIC3 makes too. Where each state
// the walks reach has one successor under the policy's label (a
// deterministic model, or a label split into commands of disjoint
// guards), it walks from each start state once, ending a walk where it
// joins an earlier one, and then at random for the rest of its time;
// elsewhere its walks are random from sampled start states, each outcome
// of a step drawn uniformly, longer as the hunt goes on (from 256 steps,
// doubling every 64 walks up to 65,536), so that short counterexamples
// come first and deep ones (tr5 of bench/polic3 at depth 88) are still
// reached. A walk that ends in an unsafe state is a counterexample; it is
// checked like every other engine's. The hunter never claims safety: it
// runs until it finds one or its context ends.

// HuntStats are the figures of a hunt.
type HuntStats struct {
	Walks int // walks made
	Steps int // steps taken over all walks
	Depth int // steps of the counterexample (unsafe)
	// Deterministic says the hunt's walks met no state with two
	// successors under the policy's label: it walked from each start
	// state once (and then, having ended every run, at random);
	// Remembered counts the states its deterministic walks remembered.
	Deterministic bool `json:",omitempty"`
	Remembered    int  `json:",omitempty"`
	// Sampled says the deterministic walks went from sampled start
	// states (too many to walk from each), not from each in turn.
	Sampled bool `json:",omitempty"`
}

// huntSeed is the seed of the hunter's random walks: a fixed seed makes a
// hunt repeatable on the same model.
const huntSeed = 0x76696769

// huntChunk is the steps the hunter walks between looks at the clock (for
// its progress line).
const huntChunk = 1 << 14

func hunt(ctx context.Context, q *Prepared) (*Verdict, error) {
	start := time.Now()
	st := &HuntStats{}
	v := &Verdict{Engine: "hunt", Hunt: st}
	w := walk.New(q.Gen, q.Dec, walk.Options{Seed: huntSeed, SeenBytes: q.walkMemory(), ThenRandom: true})
	last := time.Now()
	for ctx.Err() == nil && !w.Done() {
		trace, err := w.Walk(ctx, w.Steps+huntChunk)
		st.Walks, st.Steps = w.Walks, w.Steps
		st.Deterministic, st.Remembered, st.Sampled = !w.MetNondet(), w.Seen(), w.Sampled()
		if err == nil && trace == nil {
			// A deterministic walk's range error (Walk goes on with the
			// other walks, as PolIC3 needs): the hunter stops on it as
			// on a random walk's, which auto answers once bfs gave way
			// (the hunter went on and the error was lost).
			err = w.RangeErr()
		}
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			// A range error on a sampled run: the explicit search
			// reports it as an error of the model; the hunter stops.
			return nil, err
		}
		if trace != nil {
			v.Answer, v.Trace, st.Depth = explicit.UnsafeVerdict, trace, len(trace)-1
			break
		}
		if time.Since(last) > time.Second {
			last = time.Now()
			q.progress("hunt", "%d walks, %d steps", st.Walks, st.Steps)
		}
	}
	if v.Answer != explicit.UnsafeVerdict {
		v.Reason = stopReason(ctx)
		if v.Reason == "" {
			v.Reason = "no start state to walk from"
		}
	}
	v.Elapsed = time.Since(start)
	return v, nil
}
