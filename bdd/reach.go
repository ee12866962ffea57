package bdd

// Forward reachability. Breadth-first in layers like the explicit engine's
// BFS: layer d holds the states first reached at depth d; unsafe and goal
// states are terminal (never expanded), and so are deadlocks and, under a
// policy, states where it is stuck. The image of a layer is the union over
// labels, over the label's commands and over their outcomes of the
// relational product of (layer ∧ open ∧ policy chooses the label ∧ guard)
// with the outcome's relation (encode.go: post). Verification keeps the
// layers and walks back from an unsafe state of the first layer that has
// one, which gives a shortest counterexample, as BFS does.
//
// Range errors mirror the explicit engine, which fails when it expands a
// state where an enabled command of an expanded label has an outcome out of
// a variable's range: before a layer is expanded, its states are checked
// against the commands' out-of-range conditions, and a witness state gives
// the same *explicit.RangeError the explicit engine reports. One difference
// in verification: when the first layer with an unsafe state also has a
// state with a range error, the explicit engine reports whichever it meets
// first in its discovery order; this engine reports the counterexample.

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"time"

	"vigil/internal/vigilerr"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// Verdict is the answer of a verification.
type Verdict uint8

const (
	Unknown Verdict = iota // a limit, timeout or cancellation came first
	Safe
	Unsafe
)

func (v Verdict) String() string { return [...]string{"unknown", "safe", "unsafe"}[v] }

// Explicit returns the explicit engine's form of v.
func (v Verdict) Explicit() explicit.Verdict {
	return [...]explicit.Verdict{explicit.Unknown, explicit.Safe, explicit.UnsafeVerdict}[v]
}

// Options configure the BDD computations.
type Options struct {
	// MaxNodes is the node budget: the computation stops with Unknown when
	// rudd's node table grows beyond it. 0 means DefaultMaxNodes; a
	// negative value is an error.
	MaxNodes int
	// Order is the BDD variable order.
	Order Order
	// PolicyStates bounds how many states a network or tree-ensemble
	// policy is evaluated on (0: DefaultPolicyStates).
	PolicyStates int
	// Progress, if set, is called after every iteration.
	Progress func(Progress)
	// Executable, if set, is the policy to evaluate for a declaration of a
	// kind other than rules and table, instead of instantiating the
	// declaration (for policies built in memory, such as random networks).
	Executable symbolic.Policy
	// Compiled, if set, is the model and property compiled by
	// explicit.NewContext (vigil verify has it already); it is used when
	// it was compiled from the same model and property, and otherwise the
	// engine compiles them itself. Compiling a model of millions of
	// expression nodes takes seconds.
	Compiled *explicit.Generator
}

// Progress describes a computation in progress.
type Progress struct {
	Phase     string // "reach" or "propu"
	Iteration int
	Nodes     int    // used slots of the node table
	SetNodes  int    // nodes of the set being built (reached or unsafe)
	HeapBytes uint64 // Go heap in use
	Elapsed   time.Duration
}

// Stats describe a finished (or stopped) computation.
type Stats struct {
	Iterations int   // image or pre-image rounds (squarings and lifting images included)
	Squarings  int   // of them, iterative squaring's compositions and images by its relations (closure.go)
	BDDVars    int   // BDD variables of states (current and next bits; not the auxiliary copy used to square relations)
	Order      Order // the variable order used (OrderAuto's choice)
	// OrderTrials counts OrderAuto's trials that did not fit their
	// node allowance (0 when the first, interleaved, fit).
	OrderTrials int
	SetNodes    int           // nodes of the final set; -1 when the stop abandoned an operation (not measured)
	Mem         MemStats      // node table, collections, heap
	Encode      time.Duration // building the relations and policy regions
	Elapsed     time.Duration // in all
}

// Result is the outcome of Verify.
type Result struct {
	Verdict Verdict
	// Reason says why the verdict is Unknown ("node limit 1000",
	// "timeout", "canceled", "policy evaluation limit: ...").
	Reason string
	// Trace is a shortest counterexample when Verdict is Unsafe; it
	// replays with explicit.Generator.CheckCounterexample.
	Trace []explicit.Step
	// States is the number of states reached (all of them when the
	// verdict is Safe; those of the layers computed otherwise, or, when
	// the stop abandoned an operation on a large table, those counted
	// after the last layer or squaring before it). Starts is the number
	// of start states.
	States, Starts *big.Int
	// Depth is the deepest layer computed.
	Depth int
	Stats Stats
}

func (o Options) check() error {
	if o.MaxNodes < 0 {
		return fmt.Errorf("bdd: node budget %d: want a positive number of nodes (or 0 for the default, %d)", o.MaxNodes, DefaultMaxNodes)
	}
	if o.Order > OrderAuto {
		return fmt.Errorf("bdd: unknown variable order %d", o.Order)
	}
	return nil
}

// run runs f, turning a *stop into its value; errors inside a stop are
// returned as errors. When the context can end, f runs on a goroutine of
// its own, holding the manager's lock except inside rudd calls (see
// mgr.outside), and run waits for it or for the context: once the context
// has ended and f has not returned within what is left of stopGrace (a
// grace shared by the calls of run after the end: the computation, then
// the figures of a stop; none when the table was large, see mgr.large),
// run takes the lock
// (f is then inside a rudd call) and abandons the manager, and returns
// the context's stop at once. f's writes made before are then visible to
// the caller (they were made under the lock), and f makes none after
// (it stops when its rudd call returns). A panic other than a stop is
// raised again on the caller's goroutine.
func (sp *space) run(f func() error) (st *stop, err error) {
	m := sp.m
	if m.abandoned.Load() {
		return &stop{reason: m.abandonReason}, nil
	}
	if m.guarded || m.stopCtx.Done() == nil {
		return sp.runHere(f)
	}
	type result struct {
		st  *stop
		err error
		p   any
		ok  bool // f returned or stopped (else it panicked, with p)
	}
	done := make(chan result, 1)
	go func() {
		m.mu.Lock()
		m.guarded = true
		var r result
		defer func() {
			if !r.ok {
				r.p = recover()
			}
			m.guarded = false
			done <- r // before the unlock: run sees it once it has the lock
			m.mu.Unlock()
		}()
		if m.abandoned.Load() {
			// The caller abandoned the manager before this goroutine
			// got the lock (the grace was used up): f must not run,
			// since it writes what the caller reads (finishStats wrote
			// the figures beside the caller's own, a data race).
			r.st, r.ok = &stop{reason: m.abandonReason}, true
			return
		}
		r.st, r.err = sp.runHere(f)
		r.ok = true
	}()
	var r result
	select {
	case r = <-done:
	case <-m.stopCtx.Done():
		if !m.graceUsed {
			m.graceLeft, m.graceUsed = stopGrace, true
			if m.large.Load() {
				m.graceLeft = 0 // its figures were counted after each layer
			}
		}
		wait := time.Now()
		t := time.NewTimer(m.graceLeft)
		select {
		case r = <-done:
			m.graceLeft -= time.Since(wait)
		case <-t.C:
			m.mu.Lock()
			select {
			case r = <-done: // it ended meanwhile
			default:
				m.abandonReason = ctxReason(m.stopCtx)
				m.abandoned.Store(true)
				m.mu.Unlock()
				return &stop{reason: m.abandonReason}, nil
			}
			m.mu.Unlock()
		}
		t.Stop()
	}
	if !r.ok {
		panic(r.p)
	}
	return r.st, r.err
}

// runHere runs f on the caller's goroutine, turning a *stop into its
// value.
func (sp *space) runHere(f func() error) (st *stop, err error) {
	defer func() {
		if r := recover(); r != nil {
			st = sp.m.recoverPanic(r)
			if st.err != nil {
				st, err = nil, st.err
			}
		}
	}()
	return nil, f()
}

// setup encodes the model, the property and the policy under opt.Order;
// OrderAuto chooses between OrderInterleaved and OrderBitwise first (see
// setupAuto).
func setup(ctx context.Context, m *symbolic.Model, prop *symbolic.Property, pd *symbolic.PolicyDecl, opt Options) (sp *space, pol *policyEnc, st *stop, err error) {
	if err := opt.check(); err != nil {
		return nil, nil, nil, err
	}
	// The model is compiled once, not once per trial of OrderAuto, and
	// under ctx: a compile of seconds stops with it (Unknown, no space).
	if g := opt.Compiled; g == nil || g.M != m || g.Prop != prop {
		if opt.Compiled, err = explicit.NewContext(ctx, m, prop); err != nil {
			if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
				return nil, nil, &stop{reason: ctxReason(ctx)}, nil
			}
			return nil, nil, nil, err
		}
	}
	if opt.Order == OrderAuto {
		return setupAuto(ctx, m, prop, pd, opt)
	}
	return setupOrder(ctx, m, prop, pd, opt, 0)
}

// setupOrderTrial encodes under opt.Order (not OrderAuto). With
// allowance > 0 it is a trial: the encoding, the policy and the start set
// must be built with at most allowance nodes made (see mgr.trial) and
// within the budget, and fit is false (sp, pol, st and err nil) when they
// were not. Without an allowance fit is always true.
func setupOrderTrial(ctx context.Context, m *symbolic.Model, prop *symbolic.Property, pd *symbolic.PolicyDecl, opt Options, allowance int) (sp *space, pol *policyEnc, st *stop, fit bool, err error) {
	if sp, err = newSpace(ctx, m, prop, opt); err != nil {
		return nil, nil, nil, true, err
	}
	body := func() error {
		if err := sp.encode(); err != nil {
			return err
		}
		var err error
		if pol, err = sp.policy(pd, opt); err != nil {
			return err
		}
		if allowance > 0 {
			// The start set is part of the trial (a start condition
			// can be what blows up); its error, if any, is kept for
			// the caller that asks for it.
			sp.startsMemo, sp.startsErr = sp.buildStarts()
			sp.startsDone = true
		}
		return nil
	}
	if allowance == 0 {
		st, err = sp.run(body)
		return sp, pol, st, true, err
	}
	fit = true
	st, err = sp.run(func() error {
		var berr error
		fit = sp.m.trial(allowance, func() { berr = body() })
		return berr
	})
	if !fit && st == nil && err == nil {
		return nil, nil, nil, false, nil
	}
	return sp, pol, st, true, err
}

func setupOrder(ctx context.Context, m *symbolic.Model, prop *symbolic.Property, pd *symbolic.PolicyDecl, opt Options, allowance int) (sp *space, pol *policyEnc, st *stop, err error) {
	sp, pol, st, _, err = setupOrderTrial(ctx, m, prop, pd, opt, allowance)
	return sp, pol, st, err
}

// autoTrialNodes is the node allowance of OrderAuto's first two trials,
// and autoTrialGrowth the factor of the next two's.
var autoTrialNodes = 1 << 16

const autoTrialGrowth = 8

// setupAuto encodes under OrderInterleaved or OrderBitwise. Each bit of a
// sum (or of a comparison) of two variables is a BDD exponential in the
// bits below it when the variables' bits are in separate blocks
// (interleaved; x + y > 7 over 0..10^6 needs 11.5·10^6 nodes and
// seconds), and linear when bits of equal weight are together (bitwise);
// elsewhere interleaved is often much better (a condition on one variable
// selecting what happens to another: bench/polic3's blocks.spec with
// N=10 encodes in 6·10^4 nodes interleaved and does not fit in 1.2·10^7
// bitwise). So: a trial of interleaved, then one of bitwise, each allowed
// to make autoTrialNodes nodes (mgr.trial) to encode the model, the
// property, the policy and the start set, then the same with
// autoTrialGrowth times as many; the first that fits is used, and when
// none does, interleaved runs without an allowance, as with
// OrderInterleaved (trials of half the budget or more are skipped). A
// trial that does not fit is dropped, its table with it; the trials cost
// at most 2·(1+autoTrialGrowth)·autoTrialNodes nodes made, plus one
// operation each. Answers do not depend on the order (BDDs are canonical
// and every set the engines compute is the same set); which
// counterexample or witness state is picked does (pick takes the least
// state in level order), so the choice is made on node counts, which are
// deterministic except that rudd makes a node again when a dead one was
// collected, which depends on when Go's collector ran its finalizer: near
// an allowance, two runs may choose differently.
func setupAuto(ctx context.Context, m *symbolic.Model, prop *symbolic.Property, pd *symbolic.PolicyDecl, opt Options) (sp *space, pol *policyEnc, st *stop, err error) {
	budget := opt.MaxNodes
	if budget == 0 {
		budget = DefaultMaxNodes
	}
	trials := 0
	for _, allowance := range []int{autoTrialNodes, autoTrialGrowth * autoTrialNodes} {
		if allowance >= budget/2 {
			break
		}
		for _, o := range []Order{OrderInterleaved, OrderBitwise} {
			opt.Order = o
			sp, pol, st, fit, err := setupOrderTrial(ctx, m, prop, pd, opt, allowance)
			if fit {
				if sp != nil {
					sp.trials = trials
				}
				return sp, pol, st, err
			}
			trials++
		}
	}
	opt.Order = OrderInterleaved
	sp, pol, st, err = setupOrder(ctx, m, prop, pd, opt, 0)
	if sp != nil {
		sp.trials = trials
	}
	return sp, pol, st, err
}

// starts returns the start states of the property.
func (sp *space) starts() (Node, error) {
	if sp.startsDone {
		return sp.startsMemo, sp.startsErr
	}
	return sp.buildStarts()
}

// buildStarts builds the start states.
func (sp *space) buildStarts() (Node, error) {
	m := sp.m
	if sp.prop == nil || sp.prop.Start == nil {
		s, err := sp.M.InitialState()
		if err != nil {
			if u := errors.Unwrap(err); u != nil {
				err = u // the reason, without symbolic's prefix
			}
			return nil, fmt.Errorf("bdd: %v", err)
		}
		return sp.cube(s), nil
	}
	c, err := sp.cond(sp.prop.Start, "the start condition of property "+sp.prop.Name)
	if err != nil {
		return nil, err
	}
	x := m.and(sp.dom, c)
	if m.isFalse(x) {
		pos := sp.prop.Pos
		if sp.prop.Start.Pos.IsValid() {
			pos = sp.prop.Start.Pos
		}
		return nil, fmt.Errorf("bdd: %s: no state satisfies the start condition of property %s; check its bounds against the variables' ranges", pos, sp.prop.Name)
	}
	return x, nil
}

// image returns the successors of the open states of s under the policy.
func (sp *space) image(p *policyEnc, s Node) Node {
	m := sp.m
	s = m.and(s, sp.open)
	sp.ensure(p, s)
	img := m.fls()
	for l := range sp.M.Labels {
		sl := sp.chosen(p, l, s)
		if m.isFalse(sl) {
			continue
		}
		for _, ci := range sp.byLabel[l] {
			sc := m.and(sl, sp.cmds[ci].guard)
			if m.isFalse(sc) {
				continue
			}
			for oi := range sp.cmds[ci].outs {
				img = m.or(img, sp.post(&sp.cmds[ci].outs[oi], sc))
			}
		}
	}
	return img
}

// rangeError returns the explicit engine's error for the open states of s
// when an enabled command of an expanded label (all labels without a
// policy) has an outcome out of range in one of them.
func (sp *space) rangeError(p *policyEnc, s Node) error {
	m := sp.m
	s = m.and(s, sp.errAll)
	if m.isFalse(s) {
		return nil
	}
	sp.ensure(p, s)
	for l := range sp.M.Labels {
		sl := sp.chosen(p, l, s)
		for _, ci := range sp.byLabel[l] {
			bad := m.and(sl, sp.cmds[ci].err)
			if m.isFalse(bad) {
				continue
			}
			return sp.witnessError(sp.pick(bad), p != nil, symbolic.LabelID(l))
		}
	}
	return nil
}

// witnessError returns the range error the explicit engine reports when it
// expands state w: the first enabled command (of label l when onlyLabel,
// of every label in order otherwise) with an outcome out of range.
func (sp *space) witnessError(w symbolic.State, onlyLabel bool, l symbolic.LabelID) error {
	for lab := range sp.M.Labels {
		if onlyLabel && symbolic.LabelID(lab) != l {
			continue
		}
		for _, ci := range sp.byLabel[lab] {
			if !sp.g.Guard(w, ci) {
				continue
			}
			for oi := range sp.M.Commands[ci].Outcomes {
				if _, err := sp.g.Apply(w, ci, oi); err != nil {
					return err
				}
			}
		}
	}
	return vigilerr.Internalf("bdd", "no range error in witness state %s", sp.M.FormatState(w))
}

// progressEvery spaces the per-iteration samples: a sample reads the Go
// heap (runtime.ReadMemStats stops the world) and, for a progress report,
// walks the set, which costs more than an iteration on a small frontier (a
// chain of 10^5 one-state rounds). rudd walks a set by scanning its whole
// node table, so a sample also waits 20 times its own cost: sampling then
// takes at most 5% of the time however large the table grows.
var progressEvery = 50 * time.Millisecond

func (sp *space) progress(opt Options, phase string, it int, set Node, begin time.Time) {
	now := time.Now()
	if it > 1 && now.Sub(sp.lastProgress) < max(progressEvery, 20*sp.progressCost) {
		return
	}
	ms := sp.m.sample()
	if opt.Progress != nil {
		opt.Progress(Progress{Phase: phase, Iteration: it, Nodes: sp.m.used(), SetNodes: sp.m.size(set), HeapBytes: ms.PeakHeap, Elapsed: time.Since(begin)})
	}
	sp.lastProgress = time.Now()
	sp.progressCost = sp.lastProgress.Sub(now)
}

// finish fills in st's figures at the end of a computation: in run, since
// measuring set reaches rudd, unless the manager was abandoned (then
// nothing is measured, see finishStats).
func (sp *space) finish(st *Stats, set Node, begin time.Time) {
	if sp.m.abandoned.Load() {
		sp.finishStats(st, set, begin)
		return
	}
	if s, _ := sp.run(func() error { sp.finishStats(st, set, begin); return nil }); s != nil && sp.m.abandoned.Load() {
		sp.finishStats(st, set, begin) // abandoned while measuring
	}
}

func (sp *space) finishStats(st *Stats, set Node, begin time.Time) {
	if sp == nil { // stopped while compiling the model
		st.Elapsed = time.Since(begin)
		return
	}
	st.BDDVars = sp.stateVars
	st.Order = sp.order
	st.OrderTrials = sp.trials
	st.Mem = sp.m.sample()
	st.Elapsed = time.Since(begin)
	switch {
	case sp.m.abandoned.Load():
		st.SetNodes = -1
	case set != nil:
		st.SetNodes = sp.m.size(set)
	}
}

// Verify decides whether some run of the policy pd (nil: any labels) from
// a start state of prop reaches an unsafe state, by forward BDD
// reachability. An Unsafe verdict comes with a shortest counterexample.
// Errors are the explicit engine's: malformed models, range errors on
// reachable states, no start state; plus expressions this engine cannot
// encode. Limits, timeouts and cancellation give Unknown.
func Verify(ctx context.Context, m *symbolic.Model, prop *symbolic.Property, pd *symbolic.PolicyDecl, opt Options) (*Result, error) {
	begin := time.Now()
	if prop == nil {
		return nil, errors.New("bdd: no property to verify")
	}
	sp, pol, st, err := setup(ctx, m, prop, pd, opt)
	if err != nil {
		return nil, err
	}
	res := &Result{States: new(big.Int), Starts: new(big.Int)}
	if st != nil {
		res.Reason = st.reason
		sp.finishStats(&res.Stats, nil, begin)
		return res, nil
	}
	res.Stats.Encode = time.Since(begin)
	var reached Node
	st, err = sp.run(func() error {
		if err := sp.verifyRounds(pol, opt, res, &reached, begin); err != nil {
			return err
		}
		// The states reached, counted before the verdict is returned:
		// once the context has ended, the count stops and so does the
		// verdict (counted after run, a count stopped by the context
		// left 0 states beside an established verdict).
		if answerHook != nil {
			answerHook()
		}
		res.States = sp.count(reached)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if st != nil {
		res.Verdict, res.Reason, res.Trace = Unknown, st.reason, nil
		sp.m.relax()
		if reached != nil {
			sp.run(func() error { res.States = sp.count(reached); return nil })
		}
	}
	sp.finish(&res.Stats, reached, begin)
	return res, nil
}

// answerHook, when set (by tests), runs on the computation's goroutine
// once Verify's or PropU's answer is established, before its counts.
var answerHook func()

// verifyRounds computes Verify's answer into res, the states reached
// into reached.
func (sp *space) verifyRounds(pol *policyEnc, opt Options, res *Result, reached *Node, begin time.Time) error {
	mm := sp.m
	front, err := sp.starts()
	if err != nil {
		return err
	}
	res.Starts = sp.count(front)
	*reached = front
	layers := []Node{front}
	// Long chains (closure.go): squaring decides a safe model, or
	// one whose first layer with a range error comes before any
	// unsafe state, in log(depth) rounds; not with a policy
	// evaluated state by state (known only on the states reached).
	var q *squarer
	if pol == nil || !pol.lazy {
		q = sp.newSquarer(func() Node { return sp.policyRelation(pol) }, func() {
			res.Stats.Iterations++
			res.Stats.Squarings++
			if mm.async() { // as after a layer below
				res.States = sp.count(*reached)
			}
			sp.progress(opt, "reach", res.Stats.Iterations, *reached, begin)
		})
	}
	for {
		res.Depth = len(layers) - 1
		if bad := mm.and(front, sp.unsafe); !mm.isFalse(bad) {
			t := sp.pick(bad)
			tr, err := sp.trace(pol, layerSets(layers), t)
			if err != nil {
				return err
			}
			res.Verdict, res.Trace = Unsafe, tr
			return nil
		}
		if err := sp.rangeError(pol, mm.and(front, sp.open)); err != nil {
			return err
		}
		if q != nil && q.due(res.Depth) {
			done, depth, uns, err := sp.squareReach(q, pol, reached, front, res.Depth, sp.unsafe)
			if err != nil {
				return err
			}
			if done && uns != nil {
				// The layered rounds' counterexample, from the
				// states on shortest runs to the unsafe state.
				sl := sp.slices(uns.c, pol, layers[0], uns.u, uns.depth, q.round)
				layers = nil // the trace needs only the slices
				tr, err := sp.trace(pol, sl, sp.pick(uns.u))
				if err != nil {
					return err
				}
				res.Verdict, res.Depth, res.Trace = Unsafe, depth, tr
				slicedTraces++
				return nil
			}
			if done {
				res.Verdict, res.Depth = Safe, depth
				return nil
			}
		}
		next := mm.diff(sp.image(pol, front), *reached)
		res.Stats.Iterations++
		if mm.isFalse(next) {
			res.Verdict = Safe
			return nil
		}
		*reached = mm.or(*reached, next)
		front = next
		layers = append(layers, next)
		if mm.async() {
			// An operation may yet be abandoned, after which
			// nothing can be counted: count the layers so far
			// (little beside operations on a table this large).
			res.States = sp.count(*reached)
		}
		sp.progress(opt, "reach", res.Stats.Iterations, *reached, begin)
	}
}

// slicedTraces counts the counterexamples built from squaring's slices
// (for tests).
var slicedTraces int

// Exploration is the outcome of Explore: the figures of explicit BFS
// exploration (explicit.Stats), as exact counts.
type Exploration struct {
	// Complete is false when a limit, timeout or cancellation stopped the
	// exploration (Reason says which); the counts are then those of the
	// layers computed.
	Complete bool
	Reason   string
	States   *big.Int // reached states, terminal ones included
	Starts   *big.Int
	Unsafe   *big.Int // reached unsafe states
	Goal     *big.Int // reached goal states (not unsafe)
	// Deadlocks are reached open states without an applicable label;
	// Stuck are those where the policy chooses none of the applicable ones.
	Deadlocks, Stuck *big.Int
	// Transitions counts distinct (state, label, successor) triples from
	// the expanded states; nil when counting them ran out of nodes (see
	// TransitionsReason).
	Transitions       *big.Int
	TransitionsReason string
	Depth             int
	Stats             Stats
}

// Explore computes the states reachable from the start states of prop
// (nil: the initial-value state) under the policy pd (nil: all labels),
// with the counts of explicit exploration.
func Explore(ctx context.Context, m *symbolic.Model, prop *symbolic.Property, pd *symbolic.PolicyDecl, opt Options) (*Exploration, error) {
	begin := time.Now()
	sp, pol, st, err := setup(ctx, m, prop, pd, opt)
	if err != nil {
		return nil, err
	}
	zero := func() *big.Int { return new(big.Int) }
	ex := &Exploration{States: zero(), Starts: zero(), Unsafe: zero(), Goal: zero(), Deadlocks: zero(), Stuck: zero()}
	if st != nil {
		ex.Reason = st.reason
		sp.finishStats(&ex.Stats, nil, begin)
		return ex, nil
	}
	ex.Stats.Encode = time.Since(begin)
	var reached Node
	st, err = sp.run(func() error {
		mm := sp.m
		front, err := sp.starts()
		if err != nil {
			return err
		}
		ex.Starts = sp.count(front)
		reached = front
		var q *squarer // as in Verify
		if pol == nil || !pol.lazy {
			q = sp.newSquarer(func() Node { return sp.policyRelation(pol) }, func() {
				ex.Stats.Iterations++
				ex.Stats.Squarings++
				sp.progress(opt, "reach", ex.Stats.Iterations, reached, begin)
			})
		}
		for {
			if err := sp.rangeError(pol, mm.and(front, sp.open)); err != nil {
				return err
			}
			if q != nil && q.due(ex.Depth) {
				done, depth, _, err := sp.squareReach(q, pol, &reached, front, ex.Depth, mm.fls())
				if err != nil {
					return err
				}
				if done {
					ex.Depth = depth
					break
				}
			}
			next := mm.diff(sp.image(pol, front), reached)
			ex.Stats.Iterations++
			if mm.isFalse(next) {
				break
			}
			reached = mm.or(reached, next)
			ex.Depth++ // after the union: a stop inside it left a depth beyond the states counted
			front = next
			if mm.async() { // as in Verify
				ex.States = sp.count(reached)
			}
			sp.progress(opt, "reach", ex.Stats.Iterations, reached, begin)
		}
		ex.Complete = true
		return nil
	})
	if err != nil {
		return nil, err
	}
	if st != nil {
		ex.Reason = st.reason
		sp.m.relax()
	}
	if reached != nil {
		st2, err := sp.run(func() error {
			mm := sp.m
			ex.States = sp.count(reached)
			ex.Unsafe = sp.count(mm.and(reached, sp.unsafe))
			ex.Goal = sp.count(mm.and(reached, sp.goal))
			open := mm.and(reached, sp.open)
			ex.Deadlocks = sp.count(mm.diff(open, sp.hasApp))
			ex.Stuck = sp.count(sp.stuck(pol, open))
			return nil
		})
		if err != nil {
			return nil, err
		}
		if st2 != nil && ex.Complete {
			ex.Complete, ex.Reason = false, st2.reason
		}
		if ex.Complete {
			st3, err := sp.run(func() error {
				ex.Transitions = sp.transitions(pol, reached)
				return nil
			})
			if err != nil {
				return nil, err
			}
			if st3 != nil {
				ex.TransitionsReason = st3.reason
			}
		}
	}
	sp.finish(&ex.Stats, reached, begin)
	return ex, nil
}

// transitions counts the distinct (state, label, successor) triples from
// the open states of r: per label, the union over its commands and
// outcomes of the full relations (with frame conditions), counted over the
// current and next bits.
func (sp *space) transitions(p *policyEnc, r Node) *big.Int {
	m := sp.m
	frame := make([]Node, len(sp.vars))
	for v, ve := range sp.vars {
		f := m.tru()
		for i := range ve.n {
			f = m.and(f, m.iff(m.ithvar(ve.cur[i]), m.ithvar(ve.next[i])))
		}
		frame[v] = f
	}
	// The frame of the variables an outcome leaves alone, built once per
	// set of assigned variables (outcomes share them) and conjoined with
	// the relation in one step: conjoining a hundred frames one by one
	// with a growing relation took minutes on QVBS cdrive.10 (1,514
	// commands, 103 variables, 2,203 states).
	frames := map[string]Node{}
	frameOf := func(vars []symbolic.VarID) Node {
		key := fmt.Sprint(vars)
		if f, ok := frames[key]; ok {
			return f
		}
		assigned := make([]bool, len(sp.vars))
		for _, v := range vars {
			assigned[v] = true
		}
		f := m.tru()
		for v := len(sp.vars) - 1; v >= 0; v-- {
			if !assigned[v] {
				f = m.and(frame[v], f)
			}
		}
		frames[key] = f
		return f
	}
	open := m.and(r, sp.open)
	total := new(big.Int)
	for l := range sp.M.Labels {
		sl := sp.chosen(p, l, open)
		pairs := m.fls()
		for _, ci := range sp.byLabel[l] {
			sc := m.and(sl, sp.cmds[ci].guard)
			if m.isFalse(sc) {
				continue
			}
			for oi := range sp.cmds[ci].outs {
				o := &sp.cmds[ci].outs[oi]
				rel := sc
				for j := range o.vars {
					rel = m.and(rel, o.eq[j])
				}
				pairs = m.or(pairs, m.and(rel, frameOf(o.vars)))
			}
		}
		c := m.satcount(pairs)
		c.Rsh(c, uint(sp.nvars-2*len(sp.curLevels)))
		total.Add(total, c)
	}
	return total
}
