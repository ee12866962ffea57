package ic3

import (
	"vigil/ic3/walk"
)

// Deep counterexamples. IC3 finds a counterexample of depth d only once it
// has opened d frames; where the frames fill slowly, a shallow learned
// policy's run into an unsafe state at depth 88 (tr5 of bench/polic3,
// the safe-trained networks) stays out of its reach, while walks of the
// policy find it in a tenth of a second (the hunter of `--engine auto`).
// So a learned run spends a share of its time on the walks of package
// walk (ic3/walk): random ones from sampled start states, or, where each
// state the walks reach has one successor under the policy's label, one
// walk from each start state that ends where it joins an earlier run
// (walk's package comment). A walk that ends in an unsafe state is the
// counterexample, and verify replays it in the explicit semantics like
// every other (a walk proves nothing else; safety still rests on IC3's
// invariant).
//
// The budget is counted in the run's own work, not in time, so that a
// run takes the same path on every machine and at every load: the walks
// start once the run has made walkAfter units of work (SMT calls,
// certifier calls and questions answered by evaluation: IC3's proofs
// and counterexamples of less work are never preempted by a longer
// random one), and then take at most walkSteps steps per unit of work
// since the start (walkDetSteps while the walks are deterministic, whose
// walks repeat no state: 16 of its steps cost about what bfs spends on 16
// states, some 10 µs against the 200 µs of a unit). On be2_64x64_safe of
// bench/polic3 (167,000 units, 36 s) that is about 1 s of walking.

// walkSeed makes the walks repeatable.
const walkSeed = 0x706f6c6963

// walkAfter is the work a run does before it walks, walkSteps the walk
// steps per unit of work (walkDetSteps on a deterministic model),
// variables for tests, which walk from the start and more.
var (
	walkAfter    = 4000
	walkSteps    = 2
	walkDetSteps = 16
)

// walk runs the walks while the run's walk budget allows; it returns a
// counterexample when a walk reaches an unsafe state.
func (r *run) walk() *Result {
	if r.learned == nil || r.opts.NoWalks {
		return nil
	}
	work := r.stats.SMTCalls + r.stats.CertCalls + r.stats.Evaluated
	if work < walkAfter {
		return nil
	}
	w := r.walker
	if w == nil {
		w = walk.New(r.learned.g, r.learned.dec, walk.Options{Seed: walkSeed, SeenBytes: r.opts.WalkMemory})
		r.walker = w
	}
	if w.Done() {
		return nil
	}
	rate := walkSteps
	if w.Det() {
		rate = walkDetSteps
	}
	// An error ends the walks: a range error on a random walk, which IC3
	// reports as it finds it, or a policy that fails, which IC3 meets too.
	trace, _ := w.Walk(r.sv.ctx, rate*(work+1))
	if trace != nil {
		return &Result{Verdict: Unsafe, Trace: trace}
	}
	return nil
}
