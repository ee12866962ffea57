package ic3

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"vigil/ic3/walk"
	"vigil/smt"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// Verdict is the answer of Check.
type Verdict uint8

const (
	Unknown Verdict = iota
	Safe
	Unsafe
)

func (v Verdict) String() string {
	switch v {
	case Safe:
		return "safe"
	case Unsafe:
		return "unsafe"
	}
	return "unknown"
}

// Order is the order in which generalization tries to drop literals.
type Order string

const (
	OrderIndex    Order = "index"    // the variables' declaration order
	OrderReverse  Order = "reverse"  // the reverse of it
	OrderActivity Order = "activity" // variables seldom in recent clauses first (IC3ref)
)

// Orders lists the variable orders.
var Orders = []Order{OrderIndex, OrderReverse, OrderActivity}

// Options configure Check.
type Options struct {
	// Generalize is false for paper 004's variant without reason
	// generalization (ic3-nog): a clause blocks exactly one state.
	Generalize bool
	// Order of literal dropping; "" is OrderActivity.
	Order Order
	// Widen selects bound widening after literal dropping: "" (auto: on
	// for symbolic policies; for learned ones only on variables of at
	// least wideRange values, since on small ranges wider boxes cost more
	// certification than they save: 13x slower on bench/polic3
	// transport), "on" or "off".
	Widen string
	// Progress, when set, is called about every ProgressEvery with the
	// statistics so far.
	Progress      func(Stats)
	ProgressEvery time.Duration
	// Learned, when set, is the policy PolIC3 verifies (the policy
	// declaration passed to Check then only names it). Check instantiates
	// nn and trees declarations itself when Learned is nil.
	Learned symbolic.Certifiable
	// CTG switches on counterexamples to generalization in literal
	// dropping (generalize.go). Off by default: on oneway_line (L=300,
	// slow) they shrink the invariant from 132 to 77 boxes but double the
	// SMT calls and the time (ic3/FIGURES.md).
	CTG bool
	// FreeCores lets PolIC3 take an APFT unsat core that rests on no
	// policy exclusion as a lemma without certifying it again (freeCore).
	// Off by default: it saves queries on some tree ensembles (bench/polic3
	// be1_trees_safe 1.5 -> 1.2 s) but sends generalization elsewhere on
	// np3x4_trees_safe (24 -> 104 s CPU, 1,566 -> 5,982 boxes; ic3/FIGURES.md).
	FreeCores bool
	// NoRelational keeps lemmas to boxes: no linear atoms over several
	// variables (relational.go).
	NoRelational bool
	// NoDiffer switches off PolIC3's disequality invariants (differ.go):
	// no pairs are looked for, frames are boxes alone.
	NoDiffer bool
	// NoCertCache switches off the cache of certification results (a
	// proved exclusion holds on every sub-box, a failed one on every
	// super-box): every APFT certification calls the certifier. For
	// measuring what the cache saves; the answers are the same.
	NoCertCache bool
	// NoWalks switches off PolIC3's random walks of the policy in search
	// of deep counterexamples (walks.go).
	NoWalks bool
	// WalkMemory bounds the memory of the states PolIC3's deterministic
	// walks remember (0: walk.DefaultSeenBytes).
	WalkMemory int64
}

// Stats are the figures of a run. Times of generalization and
// propagation include the SMT calls they make.
type Stats struct {
	Frames      int // N, the path-length limit reached
	Clauses     int // live clauses over all levels
	Obligations int // obligations popped
	Blocked     int // clauses learned
	Pushed      int // clause moves during propagation
	PushSkips   int // pushes not retried: the frame had not changed
	SMTCalls    int
	// GenSMTCalls are the SMT calls made by generalization (per learned
	// clause: GenSMTCalls / Blocked).
	GenSMTCalls int
	// RelLemmas counts learned clauses with a linear atom over several
	// variables; Axes is the number of the model's axes they draw on.
	RelLemmas, Axes int
	// CTGs counts clauses learned for counterexamples to generalization.
	CTGs     int
	Rebuilds int // solver rebuilds
	// Restores counts the rebuilds (in Rebuilds too) of a solver that a
	// query left lost (smt.Solver.Lost: it ran out of its resource limit,
	// --rlimit, and Z3 may have dropped assertions): see restore.
	Restores  int
	Invariant int // boxes of the invariant (safe)
	SMTTime   time.Duration
	GenTime   time.Duration
	PropTime  time.Duration
	Elapsed   time.Duration
	// PolIC3: certifier calls, cache hits, undecided calls and their time.
	CertCalls, CertHits, CertUnknown int
	CertTime                         time.Duration
	// RegionCalls counts the certifier calls over a region with linear
	// atoms (symbolic.RegionCertifiable.ExcludeWithin) rather than a box.
	RegionCalls int
	// Refuted counts PolIC3's generalization candidates and clause pushes
	// rejected by a concrete state of the box (a real step into the
	// frame), without SMT.
	Refuted int
	// Evaluated counts PolIC3's questions about a small box that were
	// answered by evaluating the model and the policy on the box's states
	// instead of by SMT: whether it meets the bad region, which labels
	// are applicable throughout it, APFT, and the invariant's box facts.
	Evaluated int
	// SubBoxes counts the sub-boxes where APFT excluded a label that wins
	// elsewhere in the box it was asked about.
	SubBoxes int
	// SplitCalls counts the certifier calls over the parts of a region
	// whose certification was undecided and split (split.go).
	SplitCalls int
	// FreeCores counts PolIC3's generalizations to an unsat core that
	// needed no policy exclusion, taken without a further query.
	FreeCores int
	// DifferPairs is the size of the disequality invariant D (differ.go),
	// DifferTime the time spent finding it; DifferFacts counts the
	// certifications that succeeded only by enumerating a region within D.
	DifferPairs, DifferFacts int
	DifferTime               time.Duration
	// Walks and WalkSteps count PolIC3's random walks of the policy
	// (walks.go) and their steps.
	Walks, WalkSteps int
	// RangeFacts counts the regions where PolIC3 certified that a label
	// with a range error there is never chosen, taking them out of the
	// bad region (rangeerr.go).
	RangeFacts int
}

// Result is the answer of Check with its evidence.
type Result struct {
	Verdict Verdict
	// Reason says why the verdict is Unknown.
	Reason string
	// Trace is the counterexample (Unsafe): a run from a start state into
	// an unsafe state, in the form the explicit engine replays.
	Trace []explicit.Step
	// Invariant (Safe) is a union of boxes that contains every start
	// state, no bad state, and is closed under the transitions.
	Invariant [][]smt.Lit
	// Facts (Safe, learned policies) are the policy exclusions the
	// invariant's consecution relies on.
	Facts []Fact
	// Differ (Safe) are the pairs of variables of the disequality
	// invariant D (differ.go): the invariant is D ∧ (the union of
	// Invariant's boxes). Empty: the union alone.
	Differ [][2]symbolic.VarID
	Stats  Stats
}

// MaxMagnitude bounds the absolute value of variable bounds: beyond it
// the explicit replay's arithmetic could overflow.
const MaxMagnitude = 1 << 53

// Validate reports why Check cannot take the question: a range too large,
// a property without unsafe states, a policy SMT cannot encode exactly.
func Validate(m *symbolic.Model, prop *symbolic.Property, policy *symbolic.PolicyDecl) error {
	for i := range m.Vars {
		v := &m.Vars[i]
		if v.Lo < -MaxMagnitude || v.Hi > MaxMagnitude {
			return fmt.Errorf("ic3: %s: variable %s has range %d..%d, beyond ±2^53; narrow the range", v.Pos, v.Name, v.Lo, v.Hi)
		}
	}
	if prop == nil {
		return fmt.Errorf("ic3: no property to verify")
	}
	if prop.Unsafe == nil {
		return fmt.Errorf("ic3: %s: property %s has no unsafe condition; ic3 proves that unsafe states are unreachable, so give the property an `unsafe` line", prop.Pos, prop.Name)
	}
	if prop.Unsafe.Op == symbolic.CFalse {
		return fmt.Errorf("ic3: %s: the unsafe condition of property %s is always false (after constants are folded): no state is unsafe, so there is nothing for ic3 to prove; check the condition, or use --engine bfs, which answers safe", prop.Pos, prop.Name)
	}
	if policy != nil && policy.Kind != symbolic.KindRules && policy.Kind != symbolic.KindTable && !IsLearned(policy) {
		return fmt.Errorf("ic3: %s: policy %s is a %s policy, which neither SMT nor a certifier can handle", policy.Pos, policy.Name, policy.Kind)
	}
	return checkOps(m, prop, policy)
}

// checkOps walks every expression the encoding will see and names one it
// cannot express exactly.
func checkOps(m *symbolic.Model, prop *symbolic.Property, policy *symbolic.PolicyDecl) error {
	var bad error
	var expr func(e *symbolic.Expr)
	var cond func(c *symbolic.Cond)
	expr = func(e *symbolic.Expr) {
		if e == nil || bad != nil {
			return
		}
		if e.Op > symbolic.OpBool || e.Op == symbolic.OpDiv && e.K <= 0 {
			bad = fmt.Errorf("ic3: %s: the expression (%v) cannot be encoded exactly in linear integer arithmetic", e.Pos, e.Op)
			return
		}
		for _, a := range e.Args {
			expr(a)
		}
		cond(e.Cond)
	}
	cond = func(c *symbolic.Cond) {
		if c == nil || bad != nil {
			return
		}
		if c.Op > symbolic.CImplies {
			bad = fmt.Errorf("ic3: %s: the condition cannot be encoded exactly", c.Pos)
			return
		}
		expr(c.L)
		expr(c.R)
		for _, a := range c.Args {
			cond(a)
		}
	}
	for i := range m.Commands {
		c := &m.Commands[i]
		cond(c.Guard)
		for _, o := range c.Outcomes {
			for _, a := range o.Assigns {
				expr(a.Value)
			}
		}
	}
	cond(prop.Start)
	cond(prop.Unsafe)
	cond(prop.Goal)
	if policy != nil {
		for _, r := range policy.Rules {
			cond(r.Cond)
		}
	}
	return bad
}

// obligation is a state that must be shown not to reach the bad region in
// level steps, or be the start of a counterexample.
type obligation struct {
	s      symbolic.State
	level  int
	depth  int // steps from the start state
	seq    int // insertion order, for a stable queue
	parent *obligation
	cmd    int // the parent's transition into s: command and outcome
	out    int
}

type queue []*obligation

func (q queue) Len() int { return len(q) }
func (q queue) Less(i, j int) bool {
	a, b := q[i], q[j]
	if a.level != b.level {
		return a.level < b.level
	}
	if a.depth != b.depth {
		return a.depth > b.depth
	}
	return a.seq < b.seq
}
func (q queue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *queue) Push(x any)   { *q = append(*q, x.(*obligation)) }
func (q *queue) Pop() any {
	old := *q
	n := len(old)
	x := old[n-1]
	*q = old[:n-1]
	return x
}

// run is one Check.
type run struct {
	someStart bool // the start states were enumerated, and there are some
	m         *symbolic.Model
	prop      *symbolic.Property
	opts      Options
	sv        *solver
	frames    [][]box // frames[k]: clauses of level k (k ≥ 1); frames[0] unused
	N         int
	stats     Stats
	act       []float64 // activity per variable
	seq       int
	start     time.Time
	last      time.Time
	// pending are temporary literals to retire before the next check.
	pending  []smt.Term
	genLevel int       // the frame generalize works against
	learned  *learned  // PolIC3; nil for symbolic policies
	lastCore box       // PolIC3: the core of APFT's last unsat query
	levels   levelMemo // PolIC3: the levels of concrete states (memo.go)
	pack     packer    // numbers the states for the memos (memo.go)
	// lastCoreFree reports that APFT's last "no transition" came from an
	// SMT query whose unsat core holds no policy literal (no label
	// exclusion, no sub-box exclusion): the core's box then has no
	// transition into the frame under any label, as for a symbolic
	// query, and needs no certifier (see freeCore).
	lastCoreFree bool
	// wantCore makes APFT ask SMT even on a small box, for its unsat core
	// (apftConcrete's core is the box itself).
	wantCore bool
	// widenWideOnly: widening skips variables of fewer than wideRange values.
	widenWideOnly bool
	// nextStart is where the scan of the enumerated start states goes on
	// (startOutside).
	nextStart int
	// PolIC3: the state of APFT's last concrete transition (a state of the
	// queried box where the policy takes the transition the solver found),
	// and per failed push the state that made it fail.
	lastWitness symbolic.State
	// axes of relational generalization (nil: boxes only); relWins and
	// relFails count its outcomes, to stop trying where it never works.
	// differ is the disequality invariant D (differ.go); nil: none.
	// lastDiffer reports that the last "excluded" answer of excluded
	// holds within D only.
	differ            *differ
	lastDiffer        bool
	axes              []*axis
	relWins, relFails int
	relSkips          int
	inCTG             bool // generalizing a CTG: no nested CTGs
	ctgBudget         int  // CTG attempts left for the clause being generalized
	pushWitness       map[string]symbolic.State
	widen             bool // bound widening in generalization
	// Propagation skips a clause whose push failed while its frame has
	// not changed since: tick counts clause additions, added[L] is the
	// tick of the last addition at level L (F_k changes with additions at
	// levels ≥ k), failed[k, box] the tick of the failed push.
	tick   int
	added  []int
	failed map[string]int
	walker *walk.Walker // PolIC3's random walks (walks.go); nil until they start
}

// note records that a clause was added at level L.
func (r *run) note(L int) {
	r.tick++
	for len(r.added) <= L {
		r.added = append(r.added, 0)
	}
	r.added[L] = r.tick
}

// changedSince reports whether F_k has gained a clause after tick t.
func (r *run) changedSince(k, t int) bool {
	for L := k; L < len(r.added); L++ {
		if r.added[L] > t {
			return true
		}
	}
	return false
}

// Check decides whether some run of the model under the property's start
// condition, with labels chosen by policy (nil: any applicable label),
// reaches an unsafe state. A timeout or cancellation of ctx, or a solver
// that cannot decide, gives Unknown with a reason. Errors are reserved for
// questions Check cannot take (Validate) and internal failures; a
// reachable range error is an error too, as in the explicit engine.
func Check(ctx context.Context, m *symbolic.Model, prop *symbolic.Property, policy *symbolic.PolicyDecl, opts Options) (*Result, error) {
	if err := Validate(m, prop, policy); err != nil {
		return nil, err
	}
	if opts.Order == "" {
		opts.Order = OrderActivity
	}
	switch opts.Widen {
	case "", "on", "off":
	default:
		return nil, fmt.Errorf("ic3: widening %q: want on, off or auto", opts.Widen)
	}
	if opts.ProgressEvery == 0 {
		opts.ProgressEvery = 200 * time.Millisecond
	}
	r := &run{m: m, prop: prop, opts: opts, act: make([]float64, len(m.Vars)), start: time.Now(), failed: map[string]int{}, pack: newPacker(m)}
	r.last = r.start
	topts := smt.TransOptions{Property: prop, Policy: policy}
	if opts.Learned == nil && IsLearned(policy) {
		var err error
		if opts.Learned, err = NewLearned(m, policy); err != nil {
			return nil, err
		}
	}
	if opts.Learned != nil {
		if s, ok := opts.Learned.(stoppable); ok {
			// a network's branch and bound over one box takes seconds:
			// it gives up (unknown: the label stays possible) on Ctrl-C
			s.StopOn(ctx.Done())
			// and only this run's: a policy given in memory outlives it
			defer s.StopOn(nil)
		}
		var err error
		if r.learned, err = newLearned(m, prop, opts.Learned); err != nil {
			return nil, err
		}
		r.learned.reads = policyReads(m, policy)
		topts.Policy = nil // SMT sees every label; the certifier sees the policy
	}
	// auto: for a learned policy only the variables of wide ranges (the
	// binary search costs APFT calls that pay off only there; on small
	// ranges dropping and the concrete refutations do the work).
	r.widen = opts.Widen == "on" || opts.Widen == ""
	r.widenWideOnly = opts.Widen == "" && r.learned != nil
	sv := newSolver(ctx, m, topts, &r.stats, r.learned != nil, func() [][]box { return r.frames })
	defer sv.close()
	r.sv = sv
	if r.learned != nil {
		r.errLabelsByEvaluation()
	}
	// Disequality invariants for networks only: a tree ensemble's
	// choices are constant on boxes between its thresholds, and where
	// it is safe the invariant is a union of boxes, which D only makes
	// costlier to find (np3x4_trees_safe of bench/polic3: frame 13 at
	// 40 s without D, frame 4 at 30 s with it; SMT checks over 66
	// disequalities, and exclusions by enumeration).
	if r.learned != nil && !opts.NoDiffer && r.learned.pol.Params().Network != nil {
		t0 := time.Now()
		pairs, err := differPairs(ctx, m, prop, r.learned.g)
		r.stats.DifferTime = time.Since(t0)
		if err != nil {
			return nil, err
		}
		r.differ = newDiffer(pairs, len(m.Vars))
		r.stats.DifferPairs = len(pairs)
		sv.differ = pairs
	}
	// Relational lemmas for networks, and for ensembles whose decisions
	// are oblique in the state space (relationalPays); not within a
	// disequality invariant, whose models permute values among their
	// variables: there the cells of the model's linear comparisons cut
	// the permutations into thin slices, one lemma each (npuzzle 3x3,
	// 16x16 network: unknown at 60 s with 10,360 relational clauses at
	// level 1; with boxes safe in 2.3 s, 85 boxes).
	if opts.Generalize && !opts.NoRelational && (r.learned == nil || relationalPays(r.learned.pol.Params())) && r.differ == nil {
		r.axes = modelAxes(m, prop, policy)
		r.stats.Axes = len(r.axes)
	}
	res, err := r.main()
	if err == nil && res != nil && res.Verdict == Safe && !r.someStart {
		// No start state is an error, as in bfs and bdd: a question
		// about no runs is a mistake in the start condition, and "safe"
		// (its vacuous answer) would hide it. Asked after the search, so
		// that the solver's search is the same as without the question.
		if e := r.restore(); e != nil {
			err = e
		} else if e := sv.ready(); e != nil {
			err = e
		} else if sat, e := sv.check(nil, []smt.Term{sv.initNext}); e != nil {
			err = e
		} else if sat == smt.Unsat {
			res, err = nil, noStart(prop)
		} else if sat == smt.Unknown {
			res = r.unknown()
		}
	}
	if err != nil && ctx.Err() != nil {
		// The limit or an interrupt stopped Z3 inside some call that
		// reports it as an error (push, assert): that is an unknown
		// answer, with the statistics so far.
		sv.reason = ctxReason(ctx)
		res, err = r.unknown(), nil
	}
	if res != nil {
		if r.walker != nil {
			r.stats.Walks, r.stats.WalkSteps = r.walker.Walks, r.walker.Steps
		}
		r.stats.Elapsed = time.Since(r.start)
		r.stats.Frames = r.N
		r.stats.Clauses = r.live()
		res.Stats = r.stats
	}
	return res, err
}

func (r *run) live() int {
	n := 0
	for _, f := range r.frames {
		n += len(f)
	}
	return n
}

func (r *run) unknown() *Result {
	reason := r.sv.reason
	if reason == "" {
		reason = "the solver answered unknown"
	}
	return &Result{Verdict: Unknown, Reason: reason}
}

func (r *run) progress() {
	if r.opts.Progress == nil {
		return
	}
	if now := time.Now(); now.Sub(r.last) >= r.opts.ProgressEvery {
		r.last = now
		r.stats.Elapsed = now.Sub(r.start)
		r.stats.Frames = r.N
		r.stats.Clauses = r.live()
		r.opts.Progress(r.stats)
	}
}

// noStart is the error of a property that no state satisfies the start
// condition of.
func noStart(prop *symbolic.Property) error {
	pos := prop.Pos
	if prop.Start != nil && prop.Start.Pos.IsValid() {
		pos = prop.Start.Pos
	}
	return fmt.Errorf("ic3: %s: no state satisfies the start condition of property %s; check its bounds against the variables' ranges", pos, prop.Name)
}

func (r *run) main() (*Result, error) {
	sv := r.sv
	// A bad start state is a counterexample of length 0. A learned run
	// with few start states enumerates them once and asks both start
	// queries of them by evaluation (concrete.go), else SMT answers.
	starts, bad, concrete := r.concreteStarts()
	if concrete && len(starts) == 0 {
		return nil, noStart(r.prop)
	}
	r.someStart = concrete
	if concrete && bad >= 0 {
		return r.counterexample(&obligation{s: starts[bad]})
	}
	if !concrete {
		if err := sv.ready(); err != nil {
			return nil, err
		}
		for n := 0; ; n++ {
			if err := r.restore(); err != nil {
				return nil, err
			}
			if err := sv.ready(); err != nil {
				return nil, err
			}
			res, err := sv.check(nil, []smt.Term{sv.initNext, sv.badNext})
			if err != nil {
				return nil, err
			}
			if res == smt.Unknown {
				return r.unknown(), nil
			}
			if res == smt.Unsat {
				break
			}
			s, err := sv.st.E.Decode(sv.st.S, sv.st.E.Next)
			if err != nil {
				return nil, err
			}
			if r.learned != nil && n < maxRangeRefines {
				// a range error of a label the policy does not choose in
				// this start state: certify it away over the start
				// states' bounding box, or a sub-box of it around s, and
				// ask again (rangeerr.go)
				var sb box
				if lo, hi, ok := r.learned.g.StartBounds(); ok {
					if sb = r.boxOf(lo, hi); !sb.holds(s) {
						sb = nil
					}
				}
				ok, err := r.rangeRefine(sb, s)
				if err != nil {
					return nil, err
				}
				if ok {
					continue
				}
			}
			return r.counterexample(&obligation{s: s})
		}
	}
	r.N = 1
	r.frames = make([][]box, 2)
	r.levels = levelMemo{}
	for {
		if err := sv.ctx.Err(); err != nil {
			sv.reason = ctxReason(sv.ctx)
			return r.unknown(), nil
		}
		// A start state in F_N (the paper's selectStartState).
		var s symbolic.State
		found := false
		if concrete {
			s, found = r.startOutside(starts)
		} else {
			if err := r.restore(); err != nil {
				return nil, err
			}
			if err := sv.ready(); err != nil {
				return nil, err
			}
			acts := sv.frame([]smt.Term{sv.initNext}, r.N, r.N)
			res, err := sv.check(nil, acts)
			if err != nil {
				return nil, err
			}
			switch res {
			case smt.Unknown:
				return r.unknown(), nil
			case smt.Sat:
				if s, err = sv.st.E.Decode(sv.st.S, sv.st.E.Next); err != nil {
					return nil, err
				}
				found = true
			}
		}
		if found {
			ob := &obligation{s: s, level: r.N, cmd: -1, out: -1}
			res, err := r.block(ob)
			if res != nil || err != nil {
				return res, err
			}
			continue
		}
		// No start state in F_N: open F_{N+1} and propagate.
		r.N++
		r.frames = append(r.frames, nil)
		k, res2, err := r.propagate()
		if res2 != nil || err != nil {
			return res2, err
		}
		if k > 0 {
			var boxes []box
			for j := k + 1; j < len(r.frames); j++ {
				boxes = append(boxes, r.frames[j]...)
			}
			res := &Result{Verdict: Safe, Invariant: make([][]smt.Lit, 0, len(boxes))}
			if r.differ != nil {
				res.Differ = slices.Clone(r.differ.pairs)
			}
			for _, b := range boxes {
				res.Invariant = append(res.Invariant, append([]smt.Lit(nil), b...))
			}
			r.stats.Invariant = len(boxes)
			if r.learned != nil {
				facts, ok, err := r.certifyInvariant(boxes, k+1)
				if err != nil {
					return nil, err
				}
				if !ok {
					r.sv.reason = "the policy facts of the invariant could not all be certified again"
					if reason := ctxReason(r.sv.ctx); reason != "" {
						r.sv.reason = reason
					}
					return r.unknown(), nil
				}
				if err := r.shrinkSure(boxes, facts); err != nil {
					return nil, err
				}
				res.Facts = facts
			}
			return res, nil
		}
	}
}

// block handles the obligations of one start state: it returns a
// counterexample, or nil when the start state is blocked in F_N.
func (r *run) block(root *obligation) (*Result, error) {
	q := &queue{}
	r.push(q, root)
	for q.Len() > 0 {
		if err := r.sv.ctx.Err(); err != nil {
			r.sv.reason = ctxReason(r.sv.ctx)
			return r.unknown(), nil
		}
		r.progress()
		if res := r.walk(); res != nil {
			return res, nil
		}
		ob := heap.Pop(q).(*obligation)
		r.stats.Obligations++
		if ob.level == 0 {
			return r.counterexample(ob)
		}
		if r.blockedAt(ob.s, ob.level) {
			if ob.level < r.N {
				ob.level++
				r.push(q, ob)
			}
			continue
		}
		// A successor of s in F_{level-1} (PolIC3's selectSuccessorState,
		// successor for a learned policy), with relative induction: a
		// successor other than s itself.
		pt := point(r.m, ob.s)
		var res smt.Result
		var cube box
		var err error
		if r.learned != nil {
			to, cmd, out, found, err := r.successor(ob.s, ob.level-1)
			if err != nil {
				return nil, err
			}
			if found {
				r.push(q, ob)
				r.push(q, &obligation{s: to, level: ob.level - 1, depth: ob.depth + 1, parent: ob, cmd: cmd, out: out})
				continue
			}
			res = smt.Unsat
		} else if res, cube, err = r.query(pt, ob.level-1); err != nil {
			return nil, err
		}
		switch res {
		case smt.Unknown:
			return r.unknown(), nil
		case smt.Sat:
			_, to, cmd, out, err := r.sv.st.Witness()
			if err != nil {
				return nil, err
			}
			r.push(q, ob)
			r.push(q, &obligation{s: to, level: ob.level - 1, depth: ob.depth + 1, parent: ob, cmd: cmd, out: out})
			continue
		}
		// No successor in F_{level-1}. A bad state (unsafe ones are
		// terminal; range errors may also have other outcomes) ends a
		// counterexample here rather than being blocked.
		if r.prop.Unsafe.Holds(ob.s) {
			return r.counterexample(ob)
		}
		if hit, w, err := r.meetsBad(pt); err != nil {
			return nil, err
		} else if hit && w == nil {
			return r.unknown(), nil
		} else if hit {
			return r.counterexample(ob)
		}
		// Blocked: generalize the reason and learn ¬r at the highest level
		// it holds.
		t0, calls0 := time.Now(), r.stats.SMTCalls
		var b box
		switch {
		case r.learned != nil:
			if b, err = r.generalizeRel(ob.s, ob.level-1); b == nil && err == nil {
				b, err = r.generalizeLearned(ob.s, ob.level-1)
			}
		case r.opts.Generalize:
			if b, err = r.generalizeRel(ob.s, ob.level-1); b == nil && err == nil {
				b, err = r.generalize(ob.s, cube, ob.level-1)
			}
		default:
			b = pt
		}
		r.stats.GenTime += time.Since(t0)
		r.stats.GenSMTCalls += r.stats.SMTCalls - calls0
		if err != nil {
			return nil, err
		}
		if b == nil {
			return r.unknown(), nil
		}
		level := ob.level
		for level < r.N {
			ok, err := r.blocks(b, level, true)
			if err != nil {
				return nil, err
			}
			if !ok {
				break
			}
			level = r.jump(level)
		}
		if err := r.learn(b, level); err != nil {
			return nil, err
		}
		if ob.level < r.N {
			ob.level++
			r.push(q, ob)
		}
	}
	return nil, nil
}

func (r *run) push(q *queue, ob *obligation) {
	r.seq++
	ob.seq = r.seq
	heap.Push(q, ob)
}

// blockedAt reports whether s is outside F_k: some clause of level ≥ k
// excludes it.
func (r *run) blockedAt(s symbolic.State, k int) bool {
	switch {
	case r.learned != nil && k >= 1:
		return r.levelOf(s) >= k
	case k >= 1:
		return r.scanLevel(s) >= k
	}
	for j := k; j < len(r.frames); j++ {
		for _, b := range r.frames[j] {
			if b.holds(s) {
				return true
			}
		}
	}
	return false
}

// query asks whether some state of b has a transition into F_j ∧ ¬b (into
// F_0 = bad for j = 0). On unsat it returns the core: the literals of b
// that suffice.
func (r *run) query(b box, j int) (smt.Result, box, error) {
	return r.queryRel(b, j, true)
}

// queryRel is query with the temporary clause ¬b' only when rel is set
// (propagation leaves it out: ¬b is in F_j already).
func (r *run) queryRel(b box, j int, rel bool) (smt.Result, box, error) {
	sv := r.sv
	if err := r.flushRetired(); err != nil {
		return smt.Unknown, nil, err
	}
	if err := sv.ready(); err != nil {
		return smt.Unknown, nil, err
	}
	acts := sv.frame([]smt.Term{sv.trans}, j, r.N)
	var tmp smt.Term
	rel = rel && j > 0
	if rel {
		tmp = sv.st.Activation()
		if err := sv.st.Block(tmp, b, true); err != nil {
			return smt.Unknown, nil, err
		}
		acts = append(acts, tmp)
	}
	res, err := sv.check(b, acts)
	var core box
	if err == nil && res == smt.Unsat {
		core, err = sv.core()
	}
	if rel {
		// Retired before the next check, after the caller has read the
		// witness of a sat answer (a rebuild would lose the model).
		r.pending = append(r.pending, tmp)
	}
	return res, core, err
}

// blocks reports whether no transition leads from b into F_j (∧ ¬b with
// rel): by SMT, or by APFT for a learned policy. Unknown answers are
// false (sound: the clause just stays where it is).
func (r *run) blocks(b box, j int, rel bool) (bool, error) {
	if r.learned != nil {
		if r.stepsOut(b, j, rel) {
			r.stats.Refuted++
			return false, nil
		}
		possible, err := r.apft(b, j, rel, nil, 0, nil)
		return !possible, err
	}
	res, _, err := r.queryRel(b, j, rel)
	return res == smt.Unsat, err
}

// jump returns the level a clause goes to after blocks(b, j, ...)
// answered true: j+1, or higher when the unsat core of that answer used
// no clause of the levels j..L-1 (their literals are not in it): b then has
// no transition into F_L either, and belongs at level L+1 (capped at N;
// with no level in the core at all, b is inductive on its own). IC3ref
// pushes clauses the same way.
func (r *run) jump(j int) int {
	if L := r.sv.coreLevel; L != noLevel && L > j {
		return min(L+1, r.N)
	}
	if r.sv.coreLevel == noLevel {
		return r.N
	}
	return j + 1
}

// flushRetired retires the temporary literals of earlier queries, and
// rebuilds a lost solver (restore).
func (r *run) flushRetired() error {
	if err := r.restore(); err != nil {
		return err
	}
	for len(r.pending) > 0 {
		t := r.pending[len(r.pending)-1]
		r.pending = r.pending[:len(r.pending)-1]
		rebuilt, err := r.sv.retire(t, func() [][]box { return r.frames })
		if err != nil {
			return err
		}
		if rebuilt {
			r.pending = r.pending[:0] // they lived in the old context
		}
	}
	return nil
}

// restore rebuilds the run's solvers, from the fixed parts and the live
// clauses, when a query left one of them lost (smt.Solver.Lost): a check
// that ran out of Z3's resource limit (verify --rlimit) while the run's
// context goes on. Z3 may have dropped assertions then, and smt answers
// every later check of that solver Unknown; without a rebuild one
// generalization or propagation query over the limit (whose Unknown only
// keeps a literal, or a clause where it is) made the next query of the
// main loop Unknown, and so the run's answer. Called where a rebuild is
// safe, as retire's: no query holds terms of the old context (the
// temporary literals pending retirement lived there and are dropped).
//
// Each rebuild encodes the model again (seconds on a model of 14,400
// commands), so restores are bounded: at most restoreBase plus one per
// restoreEvery SMT calls; past that the loss stands, and the run ends
// Unknown at its next main query, with the limit's reason.
func (r *run) restore() error {
	sv := r.sv
	if sv.x == nil || sv.ctx.Err() != nil || !sv.lost() || r.stats.Restores >= restoreBase+r.stats.SMTCalls/restoreEvery {
		return nil
	}
	r.stats.Restores++
	r.stats.Rebuilds++
	r.pending = r.pending[:0]
	if err := sv.build(r.frames); err != nil {
		// as ready does: a half-built solver must not pass for a built one
		sv.close()
		return err
	}
	return nil
}

// The bound of restore: restoreBase rebuilds, and one more per
// restoreEvery SMT calls of the run. Variables so that a test can turn
// restores off (s33z_restore_internal_test.go).
var (
	restoreBase  = 8
	restoreEvery = 100
)

// learn adds ¬b at level k, dropping the clauses of levels ≤ k it subsumes.
func (r *run) learn(b box, k int) error {
	if err := r.flushRetired(); err != nil {
		return err
	}
	for j := 1; j <= k && j < len(r.frames); j++ {
		f := r.frames[j][:0]
		for _, c := range r.frames[j] {
			if !c.within(b) {
				f = append(f, c)
			}
		}
		r.frames[j] = f
	}
	r.frames[k] = append(r.frames[k], b)
	r.note(k)
	r.levels.added(b, k)
	r.stats.Blocked++
	for _, l := range b {
		r.act[l.Var]++
	}
	return r.sv.addClause(k, b)
}

// propagate pushes clauses forward, level by level; it returns k > 0 when
// F_k = F_{k+1} (level k became empty).
func (r *run) propagate() (int, *Result, error) {
	t0 := time.Now()
	defer func() { r.stats.PropTime += time.Since(t0) }()
	for k := 1; k < r.N; k++ {
		var keep []box
		for _, b := range r.frames[k] {
			r.progress()
			if res := r.walk(); res != nil {
				return 0, res, nil
			}
			key := fmt.Sprint(k, " ", boxKey(b))
			if t, ok := r.failed[key]; ok && !r.changedSince(k, t) {
				keep = append(keep, b) // same frame, same answer
				r.stats.PushSkips++
				continue
			}
			var ok bool
			var err error
			if w := r.pushWitness[key]; w != nil && r.concreteStep(w, nil, k) {
				// The state that made the last push fail still does.
				r.stats.Refuted++
			} else if ok, err = r.blocks(b, k, false); err != nil {
				return 0, nil, err
			}
			switch {
			case ok:
				to := r.jump(k)
				r.frames[to] = append(r.frames[to], b)
				r.note(to)
				r.levels.added(b, to)
				r.stats.Pushed++
				if err := r.sv.addClause(to, b); err != nil {
					return 0, nil, err
				}
				continue
			}
			if r.sv.ctx.Err() != nil {
				r.sv.reason = ctxReason(r.sv.ctx)
				return 0, r.unknown(), nil
			}
			r.failed[key] = r.tick
			if r.learned != nil && r.lastWitness != nil && b.holds(r.lastWitness) {
				if r.pushWitness == nil {
					r.pushWitness = map[string]symbolic.State{}
				}
				r.pushWitness[key] = r.lastWitness
			}
			keep = append(keep, b)
		}
		if err := r.flushRetired(); err != nil {
			return 0, nil, err
		}
		r.frames[k] = keep
		if len(keep) == 0 {
			return k, nil, nil
		}
	}
	return 0, nil, nil
}

// counterexample builds the run from the root to ob (a bad state) and
// checks it is a run into an unsafe state, not a range error.
func (r *run) counterexample(ob *obligation) (*Result, error) {
	var chain []*obligation
	for o := ob; o != nil; o = o.parent {
		chain = append(chain, o)
	}
	trace := make([]explicit.Step, len(chain))
	for i := range chain {
		o := chain[len(chain)-1-i]
		trace[i] = explicit.Step{State: o.s, Label: symbolic.NoLabel, Cmd: -1, Outcome: -1}
		if i > 0 {
			c := o.cmd
			trace[i-1].Cmd, trace[i-1].Outcome = c, o.out
			trace[i-1].Label = r.m.Commands[c].Label
		}
	}
	last := trace[len(trace)-1].State
	if !r.prop.Unsafe.Holds(last) && r.learned != nil {
		// Is the policy's choice one of the labels with a range error?
		// (The bad region counts a label's range errors where no fact
		// excludes it: a state the certifier could not clear ends here
		// too.)
		l := r.learned
		l.g.Applicable(last, &l.x)
		a, err := l.dec.Decide(last, l.x.App)
		if err != nil {
			return nil, err
		}
		for c := range r.m.Commands {
			if a == symbolic.NoLabel || r.m.Commands[c].Label != a || !l.g.Guard(last, c) {
				continue
			}
			for o := range r.m.Commands[c].Outcomes {
				if _, err := l.g.Apply(last, c, o); err != nil {
					return nil, fmt.Errorf("ic3: a state reachable in %d steps: %w", len(trace)-1, err)
				}
			}
		}
		return &Result{Verdict: Unknown, Reason: fmt.Sprintf("state %s, reachable in %d steps, has a command whose outcome leaves a variable's range, for a label the policy does not choose there, and the certifier could not prove that label never chosen around it; guarding the command (vigil check --bounds finds such places) makes the question easier", r.m.FormatState(last), len(trace)-1)}, nil
	}
	if !r.prop.Unsafe.Holds(last) {
		// a probability outside [0, 1], or an array access out of
		// range: the explicit engine's error there, which names it
		if err := r.rangeError(last); err != nil {
			return nil, fmt.Errorf("ic3: a state reachable in %d steps: %w", len(trace)-1, err)
		}
		return nil, fmt.Errorf("ic3: a state reachable in %d steps has an outcome that leaves a variable's range: %s; widen the range or strengthen the guard (vigil check --bounds finds such places)", len(trace)-1, r.m.FormatState(last))
	}
	return &Result{Verdict: Unsafe, Trace: trace}, nil
}

// rangeError replays the expansion of state s in the explicit engine
// (under the symbolic policy, if any) and returns the range error it
// meets there when it is a probability outside [0, 1] (which the message
// of a variable's range error would misname) or an array access out of
// range (named as bfs names it: the access and its index, not the
// variable that carries the error), or nil.
func (r *run) rangeError(s symbolic.State) error {
	g, err := explicit.New(r.m, r.prop)
	if err != nil {
		return nil
	}
	var dec explicit.Decider
	if d := r.sv.opts.Policy; d != nil {
		if dec, err = explicit.NewDecider(r.m, d); err != nil {
			return nil
		}
	}
	var re *explicit.RangeError
	if err := g.ErrorAt(s, dec); errors.As(err, &re) && (re.Prob || re.NamesAccess()) {
		return err
	}
	return nil
}

// stoppable is a certifier whose queries give up (unknown, the
// conservative answer) once a channel closes: nn.Policy.StopOn.
type stoppable interface{ StopOn(done <-chan struct{}) }
