// Package ppa verifies policies by predicate abstraction with CEGAR
// (policy predicate abstraction: Vinzent, Steinmetz and Hoffmann, ICAPS
// 2022, for networks; Jain et al., ECAI 2024, for tree ensembles), the
// baseline "PPA" of paper 004.
//
// # Abstraction
//
// An abstract state is a valuation of the predicates (linear conditions
// over the model's variables), that is a cube: the set of in-range states
// where exactly these predicates hold. The abstract state space of the
// policy-restricted model is explored breadth first from the abstract
// start states (the cubes that meet the start condition). An abstract
// transition (c, a, c') exists when some state of c is not terminal, the
// policy may choose a there (policy.go: exactly for rules, table and most
// ensembles, over-approximated within float64 rounding bounds for
// networks), and an outcome of a leads into c'. One Z3 solver holds the
// encoding; each abstract state is a scope (push, its cube, pop), and per
// label the questions go from cheap to dear: is a applicable somewhere in
// c, may the policy choose it, and then the successor cubes, enumerated
// by blocking each one found. A label shown impossible in a cube stays
// impossible in every finer cube of later iterations (the transition-test
// cache).
//
// # CEGAR
//
// When an abstract state meets the bad region (unsafe states, and states
// where the chosen label has an outcome that leaves a variable's range),
// the rest of its breadth-first layer is tested for the bad region too,
// and the abstract path to each bad state of the layer is checked
// concretely (refine, in ppa.go: with a learned policy's SMT encoding
// only the first maxSMTPaths that need it), so that the refinement does not
// hang on which bad cube the solver's models led to first. A path is
// checked concretely: one incremental SMT query
// unrolls it step by step (fresh state variables per step, each in its
// cube, each step under the policy's encoding; for a learned policy, the
// same query without the policy first, whose unsat core refines as well
// at a fraction of the cost). If every prefix is
// feasible and the last state can be bad, the states found are replayed in
// the explicit semantics with the policy's real (float64) choice, along
// the abstract path; a run that reaches an unsafe state is the
// counterexample. Otherwise the path is spurious: the unsat core of the
// first infeasible prefix names the cube literals that matter, and their
// weakest preconditions back along the path (with the guards of the
// commands taken and, for rules policies, the rule conditions) become new
// predicates. A predicate is new only when it differs from every
// predicate (and its negation) on the states in range: small atoms are
// compared by their truth tables, larger ones after simplification by
// interval bounds (preds.go), so that a weakest precondition that repeats
// a predicate in another form adds nothing. When that yields nothing new,
// or (for paths whose cubes are small enough to enumerate) when no new
// predicate splits a cube of the path, which would bring the same path
// back, the states of the feasible prefix's last step are split off by
// bounds on their variables. Each path's refinement is computed on its
// own; the small ones are kept (keepRefinements), and the exploration
// restarts with the larger predicate set.
//
// # Safe verdicts
//
// When the exploration closes without meeting the bad region, the union
// of the reachable cubes contains every start state, no bad state, and is
// closed under the (over-approximated) policy's transitions: an inductive
// invariant. Result.Invariant lists the cubes and, per cube, the labels
// the policy never chooses there (where the label is applicable but no
// abstract transition exists).
package ppa

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"vigil/smt"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// Options configure Check.
type Options struct {
	// Predicates are the initial predicates (their atoms are taken);
	// none: the atoms of the property's start and unsafe conditions.
	Predicates []*symbolic.Cond
	// Policy is the executable policy of a learned declaration (nn or
	// trees); nil: Check instantiates it.
	Policy symbolic.Policy
	// MaxIterations bounds the CEGAR iterations (0: no bound).
	MaxIterations int
	// MaxStates bounds the abstract states of one iteration (0: no bound).
	MaxStates int
	// QueryTimeout bounds each SMT query over a learned policy's
	// encoding (see learned.go); an unanswered one keeps the transition.
	// 0: DefaultQueryTimeout.
	QueryTimeout time.Duration
	// NoEnumeration switches off the enumeration of small cubes: every
	// abstract transition and path goes through SMT (for tests and for
	// measuring what enumeration saves).
	NoEnumeration bool
	// Progress, when set, is called about every ProgressEvery.
	Progress      func(Stats)
	ProgressEvery time.Duration
	// Compiled, if set, is the model and property compiled by
	// explicit.NewContext (vigil verify has it already); it is used when
	// it was compiled from the same model and property, and otherwise
	// Check compiles them itself, under its context.
	Compiled *explicit.Generator
	// cubeLimit and nodeLimit replace maxCube and maxNodes (0: those),
	// so that tests can compare the region search (region.go) with the
	// enumeration of the same cubes.
	cubeLimit, nodeLimit int
	// leafLimit replaces leafStates (0: that), so that tests make the
	// region search split down to small boxes and ask the certifier on
	// them.
	leafLimit int
	// loseQuery, when set, is asked before each bounded policy query
	// (learned.go) with its number in the run (from 0); true runs it
	// under a resource limit of 1 instead of QueryTimeout, which Z3
	// spends at once, so that tests lose the solver cheaply.
	loseQuery func(n int) bool
	// beforeWarm and beforeAsserts, when set, run before each warm-up
	// check of a solver and before the assertions of its base (on
	// their goroutine, under a context that can end: solver.go), so
	// that tests stop a run there.
	beforeWarm, beforeAsserts func()
	// checkStarts makes every refinement of the start cubes
	// (startcubes.go) compare itself with their enumeration from scratch,
	// and fail on a difference (for tests).
	checkStarts bool
}

// Stats are the figures of a run.
type Stats struct {
	Iterations     int // CEGAR iterations (abstractions explored)
	Predicates     int // predicates of the last abstraction
	AbstractStates int // abstract states of the last abstraction
	Transitions    int // abstract transitions of the last abstraction
	SMTCalls       int
	CacheHits      int // label tests answered by the transition-test cache
	Spurious       int // spurious abstract paths
	CertCalls      int // PolIC3 certifier calls (learned policies)
	Undecided      int // policy queries kept unanswered (over-approximated)
	Rebuilds       int // solvers rebuilt after a policy query without an answer (solver.go)
	RegionNone     int // region searches (region.go) that excluded a label or transition
	RegionFound    int // region searches that found a state taking it
	RegionUnknown  int // region searches that ran out of budget
	CertTime       time.Duration
	SMTTime        time.Duration
	Elapsed        time.Duration
}

// Cube is an abstract state of a safe answer: Values[i] is the value of
// predicate i; Never lists labels applicable somewhere in the cube that
// the policy never chooses there.
type Cube struct {
	Values []bool
	Never  []symbolic.LabelID
}

// Result is the answer of Check.
type Result struct {
	Verdict explicit.Verdict
	Reason  string // why Unknown
	// Trace is the counterexample (unsafe), replayed in the explicit
	// semantics with the policy's float64 choice.
	Trace []explicit.Step
	// Predicates of the last abstraction, canonical atoms.
	Predicates []*symbolic.Cond
	// Invariant (safe): the reachable abstract states.
	Invariant []Cube
	// Exact reports that the policy's encoding is its float64 choice.
	Exact bool
	Stats Stats
	// prop is the property answered (Export's policy facts step the
	// explicit semantics of it).
	prop *symbolic.Property
	// unanswered counts the bounded policy queries without an answer,
	// handedOff reports assertions abandoned by a stop (for tests).
	unanswered int
	handedOff  bool
}

// DefaultQueryTimeout bounds an SMT query over a learned policy's encoding.
const DefaultQueryTimeout = 10 * time.Second

// Validate reports why Check cannot take the question.
func Validate(m *symbolic.Model, prop *symbolic.Property, policy *symbolic.PolicyDecl) error {
	if prop == nil {
		return fmt.Errorf("ppa: no property to verify")
	}
	if prop.Unsafe == nil {
		return fmt.Errorf("ppa: %s: property %s has no unsafe condition; ppa proves that unsafe states are unreachable", prop.Pos, prop.Name)
	}
	if prop.Unsafe.Op == symbolic.CFalse {
		return fmt.Errorf("ppa: %s: the unsafe condition of property %s is always false (after constants are folded): no state is unsafe, so there is nothing for ppa to prove; check the condition, or use --engine bfs, which answers safe", prop.Pos, prop.Name)
	}
	for i := range m.Vars {
		v := &m.Vars[i]
		if v.Lo < -(1<<53) || v.Hi > 1<<53 {
			return fmt.Errorf("ppa: %s: variable %s has range %d..%d, beyond ±2^53; narrow the range", v.Pos, v.Name, v.Lo, v.Hi)
		}
	}
	check := func(c *symbolic.Cond, what string) error {
		if err := Linear(m, c); err != nil {
			return fmt.Errorf("ppa: %s: %v", what, err)
		}
		return nil
	}
	for i := range m.Commands {
		c := &m.Commands[i]
		if err := check(c.Guard, "a guard"); err != nil {
			return err
		}
		for _, o := range c.Outcomes {
			for _, a := range o.Assigns {
				if err := check(symbolic.Compare(a.Value, symbolic.Eq, symbolic.Lit(0)), "an assignment"); err != nil {
					return err
				}
			}
		}
	}
	for _, c := range []*symbolic.Cond{prop.Start, prop.Unsafe, prop.Goal} {
		if err := check(c, "the property"); err != nil {
			return err
		}
	}
	if policy != nil {
		for _, r := range policy.Rules {
			if err := check(r.Cond, "a rule"); err != nil {
				return err
			}
		}
	}
	return nil
}

// engine is one Check.
type engine struct {
	ctx   context.Context
	m     *symbolic.Model
	prop  *symbolic.Property
	decl  *symbolic.PolicyDecl
	opts  Options
	g     *explicit.Generator
	dec   explicit.Decider
	x     *smt.Context
	e     *smt.Encoder
	ch    *chooser
	preds *predSet
	stats Stats
	// handedOff: a stop abandoned assertions still running in x on a
	// goroutine of their own (assertAll), which closes x.
	handedOff bool
	// bounded counts the bounded policy queries asked (Options.loseQuery),
	// unanswered those that gave no answer (for tests).
	bounded, unanswered int
	start               time.Time
	last                time.Time
	// impossible[key]: label tests answered "never" on a cube of an
	// earlier abstraction (key: predicate count, cube, label).
	impossible map[string]uint8
	sizes      []int // predicate counts of earlier abstractions
	// enum caches states: the states of a cube (keyed by its values over
	// a prefix of the predicates, so a key means one cube in every
	// iteration), nil where it has too many; enumEmpty marks the empty
	// ones.
	enum      map[string][]symbolic.State
	enumEmpty map[string]bool
	cached    int        // states held in enum
	firstVars []int      // per predicate, the least variable it reads
	fast      []fastPred // per predicate, compiled (fasteval.go)
	// prevStarts are the start cubes of the last exploration (over its
	// predicates prevPreds) that SMT enumerated, with a start state in
	// each (startcubes.go).
	prevStarts []startCube
	prevPreds  []*symbolic.Cond
	// starts caches startStates.
	starts               []symbolic.State
	startsOK, startsDone bool
	reason               string
	// The policy-restricted step over Cur and Next, built once: per label
	// "Cur is not terminal, the policy may choose the label, and an
	// outcome of it leads to Next (in range)"; the labels' applicability
	// and choice over Cur; the bad region over Cur; side constraints.
	trans, app, chosen []smt.Term
	steps              []smt.Term           // per label, without the policy
	rangeErr           []smt.Term           // per label: an outcome leaves a range (Cur)
	unsafe             smt.Term             // the unsafe condition over Cur
	cert               symbolic.Certifiable // the learned policy with its certifier
	bad, nonterm       smt.Term
	side               []smt.Term
}

// Check decides whether some run of policy (nil: any label) from a start
// state of prop reaches an unsafe state, by predicate abstraction with
// CEGAR. A timeout or cancellation of ctx gives Unknown with a reason.
func Check(ctx context.Context, m *symbolic.Model, prop *symbolic.Property, policy *symbolic.PolicyDecl, opts Options) (*Result, error) {
	begin := time.Now()
	if err := Validate(m, prop, policy); err != nil {
		return nil, err
	}
	for _, p := range opts.Predicates {
		if err := Linear(m, p); err != nil {
			return nil, fmt.Errorf("ppa: %v", err)
		}
	}
	if opts.QueryTimeout == 0 {
		opts.QueryTimeout = DefaultQueryTimeout
	}
	if opts.ProgressEvery == 0 {
		opts.ProgressEvery = 200 * time.Millisecond
	}
	// Compiling a model of millions of expression nodes takes seconds:
	// a timeout or Ctrl-C then gives Unknown, not an error.
	g := opts.Compiled
	if g == nil || g.M != m || g.Prop != prop {
		var err error
		if g, err = explicit.NewContext(ctx, m, prop); err != nil {
			if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
				res := &Result{Verdict: explicit.Unknown, Reason: ctxReason(ctx), prop: prop}
				res.Stats.Elapsed = time.Since(begin)
				return res, nil
			}
			return nil, err
		}
	}
	var err error
	r := &engine{ctx: ctx, m: m, prop: prop, decl: policy, opts: opts, g: g, start: begin, impossible: map[string]uint8{}}
	r.last = r.start
	pol := opts.Policy
	if policy != nil && pol == nil && (policy.Kind == symbolic.KindNN || policy.Kind == symbolic.KindTrees) {
		if pol, err = symbolic.Instantiate(m, policy); err != nil {
			return nil, err
		}
	}
	switch {
	case policy == nil:
	case policy.Kind == symbolic.KindNN || policy.Kind == symbolic.KindTrees:
		if r.dec, err = explicit.PolicyDecider(m, pol); err != nil {
			return nil, err
		}
		var ok bool
		if r.cert, ok = pol.(symbolic.Certifiable); !ok {
			return nil, fmt.Errorf("ppa: a %T policy has no certifier", pol)
		}
		if s, ok := r.cert.(stoppable); ok {
			// a network's branch and bound over one box takes seconds:
			// it gives up (unknown: the label stays possible) on Ctrl-C
			s.StopOn(ctx.Done())
			// and only this run's: a policy given in memory outlives it
			defer s.StopOn(nil)
		}
	default:
		pol = nil
		if r.dec, err = explicit.NewDecider(m, policy); err != nil {
			return nil, err
		}
	}
	if r.x, err = smt.NewContext(); err != nil {
		return nil, err
	}
	x := r.x
	done, err := encodeUnder(ctx, x, func() error {
		var err error
		if r.e, err = smt.NewEncoder(x, m); err != nil {
			return err
		}
		if r.ch, err = newChooser(r.e, m, policy, pol); err != nil {
			return err
		}
		return r.encodeBase()
	})
	if !done {
		// the encoding goes on, and closes x, on a goroutine of its own
		res := &Result{Verdict: explicit.Unknown, Reason: ctxReason(ctx), prop: prop}
		res.Stats.Elapsed = time.Since(begin)
		return res, nil
	}
	defer func() {
		if !r.handedOff {
			x.Close()
		}
	}()
	if err != nil {
		return nil, err
	}
	r.preds = newPredSet(m)
	for _, p := range opts.Predicates {
		r.preds.add(p)
	}
	if len(opts.Predicates) == 0 {
		r.preds.add(prop.Start)
		r.preds.add(prop.Unsafe)
	}
	res, err := r.loop()
	if err != nil && ctx.Err() != nil {
		res, err = r.unknown(ctxReason(ctx)), nil
	}
	if res != nil {
		res.Exact = r.ch.exact
		res.prop = prop
		res.unanswered, res.handedOff = r.unanswered, r.handedOff
		r.stats.Predicates = len(r.preds.list)
		r.stats.Elapsed = time.Since(r.start)
		res.Stats = r.stats
		for _, p := range r.preds.list {
			res.Predicates = append(res.Predicates, p.c)
		}
	}
	return res, err
}

// encodeUnder runs encode (building terms in x) until it returns or ctx
// is done, whichever comes first. Encoding a model of millions of
// expression nodes into Z3 takes seconds and the encoder does not look at
// ctx, so when ctx ends first encodeUnder returns done false at once and
// leaves encode running: it closes x when it returns (its goroutine then
// ends; within a CLI run, the process exits first). With done true, x is
// the caller's to close.
func encodeUnder(ctx context.Context, x *smt.Context, encode func() error) (done bool, err error) {
	if ctx.Done() == nil {
		return true, encode()
	}
	if ctx.Err() != nil {
		// Ended already (a --timeout spent compiling): no encoding to
		// leave running, on a core the process has no use for.
		x.Close()
		return false, nil
	}
	type answer struct {
		err error
		p   any // a panic of encode, raised again on the caller's goroutine
	}
	ch := make(chan answer)
	abandoned := make(chan struct{})
	go func() {
		var a answer
		func() {
			defer func() { a.p = recover() }()
			a.err = encode()
		}()
		select {
		case ch <- a:
		case <-abandoned:
			x.Close()
		}
	}()
	get := func(a answer) (bool, error) {
		if a.p != nil {
			panic(a.p)
		}
		return true, a.err
	}
	select {
	case a := <-ch:
		return get(a)
	case <-ctx.Done():
		select {
		case a := <-ch: // finished at the same time: keep it
			return get(a)
		default:
			close(abandoned)
			return false, nil
		}
	}
}

func ctxReason(ctx context.Context) string {
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return "timeout"
	case ctx.Err() != nil:
		return "interrupted"
	}
	return ""
}

func (r *engine) unknown(reason string) *Result {
	return &Result{Verdict: explicit.Unknown, Reason: reason}
}

func (r *engine) progress() {
	if r.opts.Progress == nil {
		return
	}
	if now := time.Now(); now.Sub(r.last) >= r.opts.ProgressEvery {
		r.last = now
		r.stats.Elapsed = now.Sub(r.start)
		r.stats.Predicates = len(r.preds.list)
		r.opts.Progress(r.stats)
	}
}

// loop runs CEGAR iterations until a verdict.
func (r *engine) loop() (*Result, error) {
	for {
		if err := r.ctx.Err(); err != nil {
			return r.unknown(ctxReason(r.ctx)), nil
		}
		if r.opts.MaxIterations > 0 && r.stats.Iterations >= r.opts.MaxIterations {
			return r.unknown(fmt.Sprintf("iteration limit %d", r.opts.MaxIterations)), nil
		}
		r.stats.Iterations++
		ab, err := r.newAbstraction()
		if err != nil {
			return nil, err
		}
		paths, res, err := ab.explore()
		if res != nil || err != nil {
			return res, err
		}
		if paths == nil { // closed: safe
			return &Result{Verdict: explicit.Safe, Invariant: ab.invariant()}, nil
		}
		res, err = r.refine(ab, paths)
		if res != nil || err != nil {
			return res, err
		}
	}
}

// maxSMTPaths bounds the paths per iteration that refine checks by the
// SMT path query with a learned policy's encoding (paths with a cube too
// large to enumerate, feasible without the policy): with a network's
// encoding one costs seconds (be3_16x16_safe: 4 to 24 s), where a path of
// enumerable cubes, or the query without the policy, costs milliseconds.
const maxSMTPaths = 2

// maxRefinement is the size up to which refine keeps every path's
// refinement (see keepRefinements).
const maxRefinement = 8

// refine checks the paths concretely (the first real one is the answer;
// of those that need the SMT path query, only the first maxSMTPaths) and
// refines the predicates by each spurious one. Each path's refinement is
// computed alone, against the abstraction's predicates; keepRefinements
// chooses which to keep.
func (r *engine) refine(ab *abstraction, paths [][]int) (*Result, error) {
	var undecided *Result
	var refs [][]pred
	policyQueries := 0
	for _, path := range paths {
		res, _, checked, err := r.concretize(ab, path, &policyQueries)
		if err == nil && !checked {
			continue
		}
		if err != nil {
			r.truncatePreds(ab.n)
			return nil, err
		}
		switch {
		case res == nil:
			r.stats.Spurious++
			refs = append(refs, append([]pred(nil), r.preds.list[ab.n:]...))
		case res.Verdict != explicit.Unknown || r.ctx.Err() != nil:
			return res, nil
		case undecided == nil:
			// The path's query found no answer: the others may still
			// refine the abstraction.
			undecided = res
		}
		r.truncatePreds(ab.n)
	}
	for _, p := range keepRefinements(refs) {
		r.preds.addPred(p)
	}
	if len(r.preds.list) > ab.n {
		return nil, nil
	}
	if undecided != nil {
		return undecided, nil
	}
	return r.unknown("a spurious abstract path gave no new predicate (the policy's float64 rounding relaxation admits a choice no state makes)"), nil
}

// truncatePreds drops the predicates from index n on, and what is cached
// per predicate index.
func (r *engine) truncatePreds(n int) {
	r.preds.truncate(n)
	if len(r.firstVars) > n {
		r.firstVars = r.firstVars[:n]
	}
}

// keepRefinements chooses among the refinements of the spurious paths of
// one exploration (in the paths' order): the smallest non-empty one, and
// with it every one of at most maxRefinement predicates or at most twice
// its size. One path's weakest preconditions may bring in hundreds of
// predicates (be3_trees_safe: 176 at the second iteration, where the
// other 7 paths of its layer added 2), which the abstraction then pays for
// in every cube; small refinements of several paths cut the paths of the
// next abstraction at once. The choice depends on the abstraction alone.
func keepRefinements(refs [][]pred) []pred {
	least := -1
	for _, ps := range refs {
		if len(ps) > 0 && (least < 0 || len(ps) < least) {
			least = len(ps)
		}
	}
	var out []pred
	for _, ps := range refs {
		if len(ps) > 0 && (len(ps) <= maxRefinement || len(ps) <= 2*least) {
			out = append(out, ps...)
		}
	}
	return out
}

// check runs one SMT check with statistics; Unknown answers become the
// engine's reason.
func (r *engine) check(s *smt.Solver, assumptions ...smt.Term) (smt.Result, error) {
	t0 := time.Now()
	res, err := s.CheckContext(r.ctx, assumptions...)
	r.stats.SMTTime += time.Since(t0)
	r.stats.SMTCalls++
	if err == nil && res == smt.Unknown {
		r.reason = s.ReasonUnknown()
		if why := ctxReason(r.ctx); why != "" {
			r.reason = why
		}
	}
	return res, err
}

// errUnknown stops an iteration whose SMT check answered unknown.
var errUnknown = errors.New("ppa: the solver answered unknown")

func (r *engine) solverUnknown() *Result {
	reason := r.reason
	if why := ctxReason(r.ctx); why != "" {
		// stopped: not the reason of a check before the stop (a lost
		// policy query's, when the stop came during the rebuild)
		reason = why
	}
	if reason == "" {
		reason = "the solver answered unknown"
	}
	return r.unknown(reason)
}

func key(vals []bool) string {
	var b strings.Builder
	for _, v := range vals {
		if v {
			b.WriteByte('1')
		} else {
			b.WriteByte('0')
		}
	}
	return b.String()
}

// stoppable is a certifier whose queries give up (unknown, the
// conservative answer) once a channel closes: nn.Policy.StopOn.
type stoppable interface{ StopOn(done <-chan struct{}) }
