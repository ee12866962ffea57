// Package walk walks a policy through a model's explicit semantics to hunt
// for counterexamples: PolIC3 (ic3/walks.go) spends a share of its work on
// such walks, and the hunter of `vigil verify --engine auto`
// (verify/hunt.go) spends a core on them. A walk that ends in an unsafe
// state is a counterexample, which the caller replays in the explicit
// semantics like every other; a walk proves nothing else.
//
// Two kinds of walks. Random walks start from start states sampled
// uniformly, take at each step the policy's label (a uniformly random
// applicable label without a policy) and an outcome drawn at random, and
// get longer as the hunt goes on (from 256 steps, doubling every 64 walks,
// up to 65,536), so that short counterexamples come first and deep ones
// (tr5 of bench/polic3 at depth 88) are still reached.
//
// Where the model is deterministic, a walk from a state is the policy's
// only run from it, so walking it again from the same start, or from a
// state an earlier walk passed, repeats the earlier walk step for step:
// random walks would spend their budget on the same few runs (a start set
// of 24 states), and a run into an unsafe state 20,000 steps deep waits
// for walks of 32,768 steps, after some two million steps of repeats (rnd9
// of bench/adversarial/polic3_deepline.txtar, which bfs decides in 50
// ms). Determinism is decided per state, not by the model's syntax: a
// state is deterministic when the policy's label there has one distinct
// successor (one enabled command of one outcome, or several that agree;
// a label split into commands with disjoint guards, as a JANI import
// splits an edge, is as deterministic as one command). The walker starts
// deterministic and falls back to random walks for good at the first
// state a walk reaches that has two successors under the chosen label
// (or, without a policy, two applicable labels).
//
// A deterministic walker keeps the states its walks passed (in an
// explicit.Store, up to Options.SeenBytes of memory) and ends a walk on
// one of them (it joins an earlier run, or closes a cycle: no new state
// lies ahead). It walks from each start state once, in order when the
// sampler enumerated at most detStartsCap of them, else from sampled
// ones, 256 steps at first; a walk cut there (or by the budget) is
// continued later to twice its depth, and so on, the cut walks in turn.
// Continuing takes three quarters of the budget while there are cut
// walks, new starts the rest; while detCutCap cut walks are kept, no new
// start is taken, so no run is dropped. Past SeenBytes the store takes no
// more states: a walk then ends where it closes a cycle of its own
// (Brent's cycle detection, cutWalk.closes) or at its run's end, and
// walks that join an earlier run walk its rest again; a sampled start is charged detSampleCost
// steps, for a sampler by rejection draws thousands of points per start
// (npuzzle 3x4: an acceptance of 5e-5, some 7 ms a start) while a walk on
// a puzzle closes its cycle in a few steps. The walks then visit each
// state the policy reaches from the starts at most once, as bfs does, in
// depth-first order; the counterexample is the run replayed from its
// start (under the one successor of each step).
package walk

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// Options configure a Walker.
type Options struct {
	// Seed makes the walks repeatable.
	Seed uint64
	// SeenBytes bounds the memory of the states deterministic walks
	// remember (0: DefaultSeenBytes); past it, a walk ends only where it
	// closes a cycle of its own or its run ends, not where it joins an
	// earlier walk.
	SeenBytes int64
	// ThenRandom makes a deterministic walker that has ended every run
	// from its start states walk at random from then on, as the hunter
	// does with the rest of its time; without it the walker is then
	// done.
	ThenRandom bool
}

// DefaultSeenBytes is the memory deterministic walks remember states in
// unless told otherwise: about 2^21 states of one word.
const DefaultSeenBytes = 64 << 20

// detStartsCap bounds the enumerated start states a deterministic walker
// walks from in order (else it samples), detCutCap the cut walks it keeps,
// detSampleCost is what a sampled start costs in steps.
const (
	detStartsCap  = 1 << 16
	detCutCap     = 256
	detSampleCost = 4096
)

// Walker is the state of a hunt's walks. Its fields Walks and Steps count
// the walks made and the steps taken (and sampled starts' charges).
type Walker struct {
	Walks, Steps int

	g        *explicit.Generator
	dec      explicit.Decider
	opt      Options
	rng      *rand.Rand
	sampler  *explicit.StartSampler
	sampling bool // sampler is usable (else Generator.SampleStart)
	started  bool
	// enumerated: deterministic walks go from each start state in turn
	enumerated bool
	rangeErr   error // the first range error a deterministic walk ended on
	done       bool
	steps      int // steps per random walk
	rwalks     int // random walks made

	// deterministic walks (see the package comment)
	det      bool
	seen     *explicit.Store // packed states deterministic walks passed
	seenFull bool            // seen reached SeenBytes: no more states are added
	// remembered is seen's size when it was dropped; metNondet says a walk
	// met a state with two successors
	remembered int
	metNondet  bool
	cut        []cutWalk // walks cut by their limit or the budget, to continue
	starts     []symbolic.State
	next       int // starts[next] is the next to walk from
	newSteps   int // steps (and sample charges) of walks from new starts
	conSteps   int // steps continuing cut walks
	x          explicit.Expansion
	src        []uint64
}

// cutWalk is a deterministic walk cut before its end: from start, it has
// reached at after depth steps. Past SeenBytes, mark, power and lam find
// the walk's return into a cycle of its own (closes).
type cutWalk struct {
	start, at  symbolic.State
	depth      int
	mark       []uint64
	power, lam int
}

// closes reports whether the walk, now at the packed state x, is back at
// a state it passed: Brent's cycle detection, which compares x with the
// state the walk was at after its last power of two of steps, so that a
// walk in a cycle ends within some three times the cycle's length and
// its lead-in without remembering its states. Past SeenBytes this is
// what ends a walk in a cycle of states the store did not take.
func (c *cutWalk) closes(x []uint64) bool {
	if c.mark != nil && slices.Equal(c.mark, x) {
		return true
	}
	c.lam++
	if c.mark == nil || c.lam >= c.power {
		c.mark = append(c.mark[:0], x...)
		c.power, c.lam = max(2*c.power, 1), 0
	}
	return false
}

// New returns a walker of dec (nil: a uniformly random applicable label)
// on g's model and property. It does no work until Walk.
func New(g *explicit.Generator, dec explicit.Decider, o Options) *Walker {
	if o.SeenBytes <= 0 {
		o.SeenBytes = DefaultSeenBytes
	}
	return &Walker{g: g, dec: dec, opt: o, det: true}
}

// Det reports whether the walks are deterministic: no state a walk has
// reached had two successors under the chosen label.
func (w *Walker) Det() bool { return w.det }

// Done reports whether the walker has nothing more to walk: no start
// state to sample, an error, or (deterministic, without ThenRandom) every
// run from the start states has ended.
func (w *Walker) Done() bool { return w.done }

// Seen is the number of states deterministic walks remembered.
func (w *Walker) Seen() int {
	if w.seen != nil {
		return w.seen.Len()
	}
	return w.remembered
}

// Sampled reports whether deterministic walks start from sampled start
// states (more than detStartsCap of them, or not enumerated), not from
// each start state in turn.
func (w *Walker) Sampled() bool { return w.started && !w.enumerated }

// RangeErr returns the first range error a deterministic walk ended on
// (Walk returns those of random walks), nil if none: an error of the
// model on a run of the policy from a start state.
func (w *Walker) RangeErr() error { return w.rangeErr }

// MetNondet reports whether a walk has met a state with two successors
// under the chosen label (then the walks are random).
func (w *Walker) MetNondet() bool { return w.metNondet }

// Walk walks until Steps reaches budget, ctx ends, the walker is done or
// its walks turn out not to be deterministic (Det);
// it returns the run of a walk that reached an unsafe state (its last step
// the unsafe state). An error (a range error on a random walk, a policy
// that fails) ends the walker (Done) and is returned; a range error on a
// deterministic walk ends only that walk.
func (w *Walker) Walk(ctx context.Context, budget int) ([]explicit.Step, error) {
	if w.done {
		return nil, nil
	}
	if !w.started {
		w.start(ctx)
	}
	if w.det {
		// Where a walk meets a state with two successors, the walks are
		// random from the next call on (whose budget the caller may set
		// by Det).
		return w.walkDet(ctx, budget)
	}
	return w.walkRandom(ctx, budget)
}

// start sets the walker up: its random source, its sampler, and the
// enumerated start states of deterministic walks.
func (w *Walker) start(ctx context.Context) {
	w.started = true
	w.rng = rand.New(rand.NewPCG(w.opt.Seed, 1))
	w.steps = 256
	ss, err := w.g.NewStartSampler(ctx, explicit.SamplerOptions{Seed: w.opt.Seed})
	w.sampler, w.sampling = ss, err == nil
	w.seen = explicit.NewStoreFor(w.g.L, 1024)
	w.src = make([]uint64, w.g.L.W)
	if w.sampling {
		if n, exact := ss.Count(); exact && n <= detStartsCap {
			w.enumerated = ss.Enumerated(func(s symbolic.State) bool {
				w.starts = append(w.starts, append(symbolic.State(nil), s...))
				return true
			}) && len(w.starts) > 0
		}
	}
}

// sample draws a start state; nil when there is none.
func (w *Walker) sample(ctx context.Context) (symbolic.State, error) {
	if w.sampling {
		return w.sampler.Sample(ctx, w.rng)
	}
	return w.g.SampleStart(w.rng, 1<<16)
}

// nondet switches the walker to random walks for good.
func (w *Walker) nondet() {
	w.det = false
	if w.seen != nil {
		w.remembered = w.seen.Len()
	}
	w.seen, w.cut, w.starts = nil, nil, nil
}

// walkRandom makes random walks while the budget allows.
func (w *Walker) walkRandom(ctx context.Context, budget int) ([]explicit.Step, error) {
	for w.Steps < budget && ctx.Err() == nil {
		s, err := w.sample(ctx)
		if err != nil || s == nil {
			w.done = true // no start state to sample
			if ctx.Err() != nil {
				return nil, nil
			}
			return nil, err
		}
		trace, end, err := explicit.Simulate(w.g, s, explicit.SimOptions{Steps: w.steps, Outcomes: explicit.OutcomesRandom, Rand: w.rng, Policy: w.dec, Ctx: ctx})
		if err != nil {
			w.done = true
			return nil, err
		}
		w.Walks++
		w.rwalks++
		w.Steps += max(1, len(trace)-1) // a walk of no step (a terminal start) counts as one
		if end == explicit.EndUnsafe {
			return trace, nil
		}
		if w.rwalks%64 == 0 && w.steps < 1<<16 {
			w.steps *= 2
		}
	}
	return nil, nil
}

// walkDet continues the cut walks and walks from new start states, until
// the budget (a total of steps) is spent, every run from the start states
// has ended, or a walk meets a state with two successors (then w.det is
// false and the caller walks at random).
func (w *Walker) walkDet(ctx context.Context, budget int) ([]explicit.Step, error) {
	for w.Steps < budget && ctx.Err() == nil {
		var c cutWalk
		// Every walk ends (on a state remembered, or, past SeenBytes, on
		// closing a cycle of its own: cutWalk.closes), so a new start
		// waits while detCutCap cut walks are kept, and no run is
		// dropped. (Session 17 let new starts in past SeenBytes, their
		// walks dropped when cut, while walks in cycles went on for
		// ever: a deep run behind 256 cycles was never walked.)
		more := w.starts == nil || w.next < len(w.starts)
		fresh := more && len(w.cut) < detCutCap
		cont := len(w.cut) > 0 && (!fresh || w.conSteps <= 3*w.newSteps)
		if cont {
			c = w.cut[0]
			w.cut = w.cut[1:]
		} else if fresh {
			s, err := w.nextStart(ctx)
			if err != nil || s == nil {
				w.done = true // no start state to sample
				if ctx.Err() != nil {
					return nil, nil
				}
				return nil, err
			}
			c = cutWalk{start: s, at: s}
			w.Walks++
		} else {
			// every run from every start state has ended (fresh is false
			// with more only while cut walks are kept: cont)
			if !w.opt.ThenRandom {
				w.done = true
			}
			w.nondet()
			return nil, nil
		}
		before := w.Steps
		unsafe, err := w.extend(ctx, &c, max(2*c.depth, 256), budget)
		if cont {
			w.conSteps += w.Steps - before
		} else {
			w.newSteps += w.Steps - before
		}
		var rangeErr *explicit.RangeError
		if errors.As(err, &rangeErr) {
			// A range error on the walk ends it, and the other walks go
			// on (bfs may well find an unsafe state first: rnd81 of the
			// generator, whose counter leaves its range a step after
			// another run turns unsafe). The caller's engine reports it
			// where it finds it; RangeErr keeps the first.
			if w.rangeErr == nil {
				w.rangeErr = err
			}
			continue
		}
		if err != nil {
			w.done = true
			return nil, err
		}
		if !w.det {
			return nil, nil
		}
		if unsafe {
			// the one run from c.start of c.depth steps, with its labels
			trace, end, err := explicit.Simulate(w.g, c.start, explicit.SimOptions{Steps: max(c.depth, 1), Outcomes: explicit.OutcomesFirst, Policy: w.dec, Ctx: ctx})
			if err == nil && end == explicit.EndUnsafe && len(trace) == c.depth+1 {
				return trace, nil
			}
			// not the run walked: cannot happen where every state passed
			// has one successor
			w.done = true
			return nil, err
		}
	}
	return nil, nil
}

// nextStart returns the next enumerated start state, or a sampled one
// (charged detSampleCost steps); nil when there is none to sample.
func (w *Walker) nextStart(ctx context.Context) (symbolic.State, error) {
	if w.starts != nil {
		w.next++
		w.Steps++
		w.newSteps++
		return w.starts[w.next-1], nil
	}
	s, err := w.sample(ctx)
	if err != nil || s == nil {
		return nil, err
	}
	w.Steps += detSampleCost
	w.newSteps += detSampleCost
	return s, nil
}

// remember adds the packed state w.src to the states walked; false when
// it was there already.
func (w *Walker) remember() (bool, error) {
	if w.seenFull {
		_, ok := w.seen.Lookup(w.src)
		return !ok, nil
	}
	_, added, err := w.seen.Intern(w.src)
	if err != nil {
		return false, err
	}
	if added && w.seen.Len()&(seenCheck-1) == 0 && w.seenAhead() > w.opt.SeenBytes {
		w.seenFull = true
	}
	return added, nil
}

// seenCheck is how often (in states added) remember looks at the store's
// memory.
const seenCheck = 4096

// seenAhead is the memory the store of walked states may hold by the next
// look, seenCheck states on: its memory now, a page more of its arena,
// and the growth of its hash table if it doubles meanwhile. (Looking at
// the memory now only let the store reach 1.5 times SeenBytes, where its
// table doubled past the bound between two looks.)
func (w *Walker) seenAhead() int64 {
	n := w.seen.Len()
	page := int64(8 * w.g.L.W << 16)
	return int64(w.seen.Bytes()) + page + seenTableBytes(n+seenCheck) - seenTableBytes(n)
}

// seenTableBytes is the memory of the hash table of an explicit.Store of
// n states made for 1,024 (open addressing in slots of 8 bytes from 1,024
// slots on, doubled past a load of 3/4).
func seenTableBytes(n int) int64 {
	t := int64(1024)
	for int64(n) > t*3/4 {
		t *= 2
	}
	return 8 * t
}

// keep keeps the cut walk c to continue (first when the budget cut it),
// unless detCutCap walks are kept: then c is dropped (walkDet takes no
// new start while they are, so this does not happen). (Dropping the
// deepest kept walk instead lets the walks from later start states in,
// but then no walk gets deep where every start's run is long: the
// deepline of bench/adversarial with sampled start states.)
func (w *Walker) keep(c cutWalk, first bool) {
	switch {
	case len(w.cut) >= detCutCap:
	case first:
		w.cut = append([]cutWalk{c}, w.cut...)
	default:
		w.cut = append(w.cut, c)
	}
}

// extend walks c on until it ends (an unsafe state: true; a goal, a
// deadlock, a stuck policy, a state walked before, a state with two
// successors under the policy's label: then w.det is false), reaches
// depth limit, spends the budget or ctx ends (then it is cut: kept to
// continue, first unless the limit cut it).
func (w *Walker) extend(ctx context.Context, c *cutWalk, limit, budget int) (bool, error) {
	g := w.g
	s := c.at
	for n := 1; ; n++ {
		switch g.Status(s) {
		case explicit.Unsafe:
			return true, nil
		case explicit.Open:
		default:
			return false, nil // a goal state: the run ends
		}
		if c.depth >= limit || w.Steps >= budget || n&1023 == 0 && ctx.Err() != nil {
			c.at = s
			w.keep(*c, c.depth < limit)
			return false, nil
		}
		g.L.Pack(s, w.src)
		if fresh, err := w.remember(); err != nil || !fresh {
			return false, err // on an earlier walk's run, or in a cycle of its own
		}
		if w.seenFull && c.closes(w.src) {
			return false, nil // in a cycle of its own, past SeenBytes
		}
		g.Applicable(s, &w.x)
		if len(w.x.Labels) == 0 {
			return false, nil // deadlock
		}
		l := w.x.Labels[0]
		if w.dec == nil {
			if len(w.x.Labels) > 1 {
				w.metNondet = true
				w.nondet()
				return false, nil
			}
		} else {
			var err error
			if l, err = w.dec.Decide(s, w.x.App); err != nil {
				return false, err
			}
			if l == symbolic.NoLabel {
				return false, nil // stuck
			}
		}
		if err := g.Successors(w.src, s, l, &w.x); err != nil {
			return false, err
		}
		switch len(w.x.Succs) {
		case 0:
			return false, nil
		case 1:
		default:
			w.metNondet = true
			w.nondet()
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
