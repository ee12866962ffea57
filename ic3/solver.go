package ic3

// The one solver of a run: transition relation, bad region, start
// condition and frame clauses, each under an activation literal (see
// doc.go).

import (
	"context"
	"fmt"
	"slices"
	"time"

	"vigil/smt"
	"vigil/symbolic"
)

// rebuildAfter is the number of retired temporary literals after which the
// solver is rebuilt from the live clauses.
//
// PolIC3 rebuilds sooner, after rebuildLearned, once its frames hold
// rebuildLarge live clauses. A retired literal stays in Z3's context as a
// Boolean constant with its clause, and Z3 4.8.12 builds the model of a
// sat check from the whole context: fetching a model of 14 bounded
// integers cost 21 µs with no retired literal, 75 µs with 500, 247 µs
// with 2,000 and 1.2 ms with 8,000 (checks 16, 26, 42, 124 µs), and APFT
// fetches one per sat answer (20,662 on be2_64x64_safe of bench/polic3,
// as much time as its 31,452 checks; 4,175 live clauses at the end):
// there 2,000 -> 500 took the engine from 31-34 to 26 s of CPU
// (ic3/FIGURES.md). Smaller runs keep 2,000: a rebuild at another moment
// changes Z3's models and so the search, which on be1_trees_safe (141
// clauses) took 3 rebuilds and a worse path (103 -> 141 boxes, 0.86 ->
// 1.1 s).
//
// rebuildLearned and rebuildLarge are variables so that a test can make
// PolIC3 rebuild at every retired literal (review15b_rebuild_test.go).
const rebuildAfter = 2000

var (
	rebuildLearned = 500
	rebuildLarge   = 2000
)

type solver struct {
	ctx  context.Context
	m    *symbolic.Model
	x    *smt.Context
	opts smt.TransOptions
	st   *smt.Step

	trans, badCur, badNext, initNext smt.Term
	lvl                              []smt.Term // lvl[k]: clauses of level k (k ≥ 1)
	// fixed are the activation literals of the fixed parts and the
	// levels, neg their negations: a check assumes the negation of every
	// one it does not use, so that Z3 switches those parts off at once
	// instead of satisfying them (a sat check of a current-state question
	// would otherwise build a whole transition as a side effect).
	fixed, neg []smt.Term
	retired    int
	lastBox    box // the box of the last check
	// lastActs are the activation literals assumed by the last check
	// (after the box's), and coreLevel, after core, the lowest level whose
	// literal is in the unsat core (noLevel: none is).
	lastActs  []smt.Term
	coreLevel int
	// coreActs are, after core, the literals of lastActs in the core.
	coreActs []smt.Term

	stats *Stats
	// learned: PolIC3 also needs notApp[l] ⇒ "label l is not applicable
	// in the current state", to compute the surely applicable labels.
	learned bool
	notApp  []smt.Term
	// notLabel[l] is ¬(the step takes label l), to exclude labels from
	// a transition query.
	notLabel []smt.Term
	// cur is a second solver over the current state only (the bad region
	// and notApp, no transition, no frames): box ∩ bad and the surely
	// applicable labels are asked there, where a sat answer is cheap.
	cur     *smt.Solver
	curLits *smt.Literals
	// reason is set when a check answered unknown.
	reason string
	// live returns the run's clauses per level, for the first build.
	live func() [][]box
	// differ are the pairs of the disequality invariant D (differ.go):
	// the transition solver asserts D over the current state (every frame
	// lies in D), and curDiffer is D over the current state as a formula
	// for the current-state solver, where the bad region is asked within
	// D but the surely applicable labels are not (the certificate checks
	// them over the whole region); true without pairs.
	differ    [][2]symbolic.VarID
	curDiffer smt.Term
	// rfacts[a] (learned runs) are the regions where the policy is
	// proved never to choose label a, for the bad region: a's range
	// errors count only outside them (a range error of a label the
	// policy does not choose is none). rx are their literals over the
	// current and the next state (see build). The regions are kept
	// here so that a rebuild asserts them again.
	rfacts [][]box
	rx     [2][]smt.Term
	// rerrCur[a] (learned runs) is "the current state is in range, not
	// terminal, and a command of label a enabled there has an outcome
	// that leaves a variable's range"; canErr[a] tells that some command
	// of a may leave a range at all (symbolic.Model.Bounds).
	rerrCur []smt.Term
	canErr  []bool
	// errLabels[a] (learned runs, from the first build on): label a has
	// a range error in some state at all (findErrLabels). Without one,
	// the bad region is written as for symbolic policies.
	errLabels []bool
}

// z3Tuning are the Z3 parameters under which IC3's many small incremental
// checks run fastest (measured on the PolIC3 suite and specs/: 5-6x less
// time in Z3 on blocks, npuzzle and transport, the same or better on the
// rest): the older simplex arithmetic solver (arith.solver=2), no
// relevancy filtering (relevancy=0), and models without compaction
// (compact=false, the model module's parameter, which the SMT solver reads
// from its own parameters; fetching the model of a sat check cost more
// than the check). Each is a choice of algorithm, not of answer: verdicts
// do not depend on them. Z3 4.8.12 reports compact as an unknown
// parameter of the simple solver when it sets the solver up, having
// read it; until session 32 that report went to the Scopes call of
// NewLiterals, unseen (an assertion made first would have been dropped),
// and the current-state solver failed its first rebuild (SetRecycle,
// after 1,000 checks). smt.Solver.SetParams now sets the solver up
// itself and clears exactly that report (TestS32yParamsCheckedAtSet).
// They are set on IC3's own solvers only
// (smt.Solver.SetParams): as Z3 global parameters they leaked into every
// later context of the process, where relevancy=0 made ppa's first query
// on PlaJA's blocksworld_4_3 take more than 60 s instead of 0.01 s.
var z3Tuning = []smt.Param{
	{Name: "arith.solver", Value: "2"},
	{Name: "relevancy", Value: "0"},
	{Name: "compact", Value: "false"},
}

// newTunedSolver makes a solver of x with z3Tuning set.
func newTunedSolver(x *smt.Context) (*smt.Solver, error) {
	sv, err := x.NewSolver()
	if err != nil {
		return nil, err
	}
	if err := sv.SetParams(z3Tuning...); err != nil {
		sv.Close()
		return nil, err
	}
	return sv, nil
}

// newSolver returns the run's solver, not yet built: its Z3 context is
// made by the first query (ready), with the clauses live then, so that a
// run whose questions are all answered by evaluation (PolIC3 on small
// models) makes none. live returns the clauses per level.
func newSolver(ctx context.Context, m *symbolic.Model, opts smt.TransOptions, stats *Stats, learned bool, live func() [][]box) *solver {
	s := &solver{ctx: ctx, m: m, opts: opts, stats: stats, learned: learned, live: live}
	s.canErr = make([]bool, len(m.Labels))
	for ci := range m.Commands {
		c := &m.Commands[ci]
		for _, o := range c.Outcomes {
			if o.StateProb() {
				// a state-dependent probability may leave [0, 1]: a
				// range error of the outcome (symbolic.Outcome.BadProb)
				s.canErr[c.Label] = true
			}
			for _, a := range o.Assigns {
				v := &m.Vars[a.Var]
				if lo, hi := m.Bounds(a.Value); lo < v.Lo || hi > v.Hi {
					s.canErr[c.Label] = true
				}
			}
		}
	}
	return s
}

// ready builds the solver if no query has yet.
func (s *solver) ready() error {
	if s.x != nil {
		return nil
	}
	if err := s.build(s.live()); err != nil {
		s.close()
		return err
	}
	return nil
}

// lost reports that a check left one of the built solvers lost
// (smt.Solver.Lost): it answers Unknown until rebuilt (run.restore).
func (s *solver) lost() bool {
	return s.x != nil && (s.st.S.Lost() != "" || s.cur.Lost() != "")
}

func (s *solver) close() {
	if s.x != nil {
		s.x.Close()
		s.x = nil
	}
}

// build makes a fresh context and solver with the fixed parts and the
// clauses given (clauses[k]: the boxes of level k). A fresh context drops
// every term of the old one, retired literals included.
func (s *solver) build(clauses [][]box) error {
	s.close()
	x, err := smt.NewContext()
	if err != nil {
		return err
	}
	// the encoding of a large model takes seconds of term constructions,
	// which Z3's interrupt does not reach: they poll the run's context
	x.StopWhen(s.ctx)
	s.x, s.lvl = x, nil
	m := s.m
	e, err := smt.NewEncoder(x, m)
	if err != nil {
		return err
	}
	tr, err := e.Transition(s.opts)
	if err != nil {
		return err
	}
	sv, err := newTunedSolver(x)
	if err != nil {
		return err
	}
	sv.SetRecycle(0) // we rebuild ourselves
	s.st = &smt.Step{E: e, S: sv, T: tr, Lits: e.NewLiterals(sv)}
	s.retired = 0
	p := s.opts.Property
	// rx[0][a] and rx[1][a] (learned runs): "a range-error fact excludes
	// label a in the current (next) state", implied by the region of each
	// fact (addRangeFact); a label's range error counts only where it
	// does not hold, that is outside every such region.
	var rx [2][]smt.Term
	if s.learned && s.errLabels == nil {
		if err := s.findErrLabels(p); err != nil {
			return err
		}
	}
	// Without a label that has a range error somewhere, the bad region
	// is the one of symbolic policies (the same formula, so Z3 searches
	// as before): no fact is ever needed.
	perLabel := s.learned && slices.Contains(s.errLabels, true)
	if perLabel {
		for k, tick := range []string{"", "'"} {
			for l := range m.Labels {
				rx[k] = append(rx[k], x.Keep(x.BoolConst(fmt.Sprintf("ic3.rexcl%d%s", l, tick))))
			}
		}
	}
	s.rx = rx
	bad := func(vs []smt.Term, k int) (smt.Term, error) {
		var rerr smt.Term
		if perLabel {
			per, err := e.RangeErrors(s.opts, vs)
			if err != nil {
				return smt.Term{}, err
			}
			for l := range per {
				per[l] = x.And(per[l], x.Not(rx[k][l]))
			}
			rerr = x.Or(per...)
		} else {
			var err error
			if rerr, err = e.RangeError(s.opts, vs); err != nil {
				return smt.Term{}, err
			}
		}
		return x.And(e.InRange(vs), x.Or(e.Cond(p.Unsafe, vs), x.And(x.Not(e.Terminal(p, vs)), rerr))), nil
	}
	s.trans = x.Keep(x.BoolConst("ic3.trans"))
	s.badCur = x.Keep(x.BoolConst("ic3.bad"))
	s.badNext = x.Keep(x.BoolConst("ic3.bad'"))
	s.initNext = x.Keep(x.BoolConst("ic3.init'"))
	s.fixed, s.neg = nil, nil
	for _, t := range []smt.Term{s.trans, s.badCur, s.badNext, s.initNext} {
		s.addFixed(t)
	}
	bc, err := bad(e.Cur, 0)
	if err != nil {
		return err
	}
	s.rerrCur = nil
	if perLabel {
		per, err := e.RangeErrors(s.opts, e.Cur)
		if err != nil {
			return err
		}
		pre := x.And(e.InRange(e.Cur), x.Not(e.Terminal(p, e.Cur)))
		for _, t := range per {
			s.rerrCur = append(s.rerrCur, x.Keep(x.And(pre, t)))
		}
	}
	bn, err := bad(e.Next, 1)
	if err != nil {
		return err
	}
	init := e.State
	var in smt.Term
	if p.Start != nil {
		in = e.Cond(p.Start, e.Next)
	} else {
		st, err := m.InitialState()
		if err != nil {
			return err
		}
		in = init(st, e.Next)
	}
	var ne []smt.Term
	for _, p := range s.differ {
		ne = append(ne, x.Ne(e.Cur[p[0]], e.Cur[p[1]]))
	}
	s.curDiffer = x.Keep(x.And(ne...))
	if len(ne) > 0 {
		if err := sv.Assert(s.curDiffer); err != nil {
			return err
		}
	}
	for _, t := range []smt.Term{
		x.Implies(s.trans, tr.Formula),
		x.Implies(s.badCur, bc),
		x.Implies(s.badNext, bn),
		x.Implies(s.initNext, x.And(e.InRange(e.Next), in)),
	} {
		if err := sv.Assert(t); err != nil {
			return err
		}
	}
	cur, err := newTunedSolver(x)
	if err != nil {
		return err
	}
	s.cur, s.curLits = cur, e.NewLiterals(cur)
	if err := cur.Assert(x.Implies(s.badCur, bc)); err != nil {
		return err
	}
	s.notApp, s.notLabel = nil, nil
	if s.learned {
		for l := range m.Labels {
			s.notLabel = append(s.notLabel, x.Keep(x.Not(tr.Label[l])))
		}
		app := e.Applicable(e.Cur)
		for l := range m.Labels {
			t := x.Keep(x.BoolConst(fmt.Sprintf("ic3.notapp%d", l)))
			def := x.Implies(t, x.And(e.InRange(e.Cur), x.Not(app[l])))
			if err := sv.Assert(def); err != nil {
				return err
			}
			if err := cur.Assert(def); err != nil {
				return err
			}
			s.notApp = append(s.notApp, t)
		}
	}
	if err := x.Err(); err != nil {
		return err
	}
	for l, rs := range s.rfacts {
		for _, b := range rs {
			if err := s.assertRangeFact(symbolic.LabelID(l), b); err != nil {
				return err
			}
		}
	}
	for k, bs := range clauses {
		for _, b := range bs {
			if err := s.addClause(k, b); err != nil {
				return err
			}
		}
	}
	return nil
}

// addRangeFact records that the policy never chooses label a in region b
// (a certified exclusion) and takes a's range errors there out of the bad
// region, over the current and the next state, in both solvers once they
// are built (build asserts the recorded ones).
func (s *solver) addRangeFact(a symbolic.LabelID, b box) error {
	for len(s.rfacts) <= int(a) {
		s.rfacts = append(s.rfacts, nil)
	}
	s.rfacts[a] = append(s.rfacts[a], b)
	if s.x == nil {
		return nil
	}
	return s.assertRangeFact(a, b)
}

// assertRangeFact asserts b ⇒ rx[a] over the current and the next state.
func (s *solver) assertRangeFact(a symbolic.LabelID, b box) error {
	if len(s.rx[0]) == 0 {
		return nil // no range error anywhere: the bad region has none to take out
	}
	x, e := s.x, s.st.E
	mark := x.Mark()
	defer x.Release(mark)
	cur := x.Implies(e.Cube(b, e.Cur), s.rx[0][a])
	next := x.Implies(e.Cube(b, e.Next), s.rx[1][a])
	for _, t := range []smt.Term{cur, next} {
		if err := s.st.S.Assert(t); err != nil {
			return err
		}
	}
	return s.cur.Assert(cur)
}

// findErrLabels sets errLabels: per label, whether some in-range state,
// not terminal, has a command of the label enabled with an outcome that
// leaves a variable's range (one SMT check per label whose commands may
// leave a range at all, once per run; unknown counts as yes). It asks in
// a Z3 context of its own: terms made in the run's context change the
// order in which Z3 meets them there, and with it the search (np2x3 with
// trees of bench/polic3: 865 SMT calls, 1,355 with the terms made there).
//
// errLabels is set only when every label was asked: a later build skips
// the search once it is set, and a search stopped half-way (the run's
// context, which the term constructors poll since session 31) left the
// labels not yet asked at false, "no range error anywhere".
func (s *solver) findErrLabels(p *symbolic.Property) error {
	if !slices.Contains(s.canErr, true) {
		s.errLabels = make([]bool, len(s.m.Labels))
		return nil
	}
	errLabels := make([]bool, len(s.m.Labels))
	x, err := smt.NewContext()
	if err != nil {
		return err
	}
	defer x.Close()
	x.StopWhen(s.ctx)
	e, err := smt.NewEncoder(x, s.m)
	if err != nil {
		return err
	}
	sv, err := x.NewSolver()
	if err != nil {
		return err
	}
	defer sv.Close()
	per, err := e.RangeErrors(s.opts, e.Cur)
	if err != nil {
		return err
	}
	base := x.Keep(x.And(e.InRange(e.Cur), x.Not(e.Terminal(p, e.Cur))))
	if err := sv.Assert(base); err != nil {
		return err
	}
	for a, can := range s.canErr {
		if !can {
			continue
		}
		if err := sv.Push(); err != nil {
			return err
		}
		if err := sv.Assert(per[a]); err != nil {
			return err
		}
		if errHook != nil {
			errHook(sv)
		}
		res, err := sv.CheckContext(s.ctx)
		s.stats.SMTCalls++
		if err != nil {
			return err
		}
		errLabels[a] = res != smt.Unsat
		if sv.Lost() != "" {
			// The check ran out of the resource limit (--rlimit) and
			// left the solver lost: every later label would answer
			// Unknown, "a range error", and the bad region carry each
			// label's range errors (sound, but each such label's
			// errors then cost certifications). A fresh start asks the
			// next label on its own.
			if err := sv.Reset(); err != nil {
				return err
			}
			if err := sv.Assert(base); err != nil {
				return err
			}
			continue
		}
		if err := sv.Pop(1); err != nil {
			return err
		}
	}
	if err := x.Err(); err != nil {
		return err
	}
	s.errLabels = errLabels
	return nil
}

// level returns the activation literal of level k, making it when new.
func (s *solver) level(k int) smt.Term {
	for len(s.lvl) <= k {
		n := len(s.lvl)
		var t smt.Term
		if n > 0 {
			t = s.x.Keep(s.x.BoolConst(fmt.Sprintf("ic3.lvl%d", n)))
			s.addFixed(t)
		}
		s.lvl = append(s.lvl, t)
	}
	return s.lvl[k]
}

func (s *solver) addFixed(t smt.Term) {
	s.fixed = append(s.fixed, t)
	s.neg = append(s.neg, s.x.Keep(s.x.Not(t)))
}

// addClause asserts ¬b over the next state under level k's literal (once
// the solver is built: ready adds the clauses live then).
func (s *solver) addClause(k int, b box) error {
	if s.x == nil {
		return nil
	}
	return s.st.Block(s.level(k), b, true)
}

// frame appends the literals selecting F_j over the next state: the bad
// region for j = 0, else the levels j..top.
func (s *solver) frame(dst []smt.Term, j, top int) []smt.Term {
	if j == 0 {
		return append(dst, s.badNext)
	}
	for k := j; k <= top; k++ {
		dst = append(dst, s.level(k))
	}
	return dst
}

// check runs one check with the assumptions and the box r on the current
// state; it records time and the reason of an unknown.
func (s *solver) check(r box, acts []smt.Term) (smt.Result, error) {
	if err := s.x.Err(); err != nil {
		return smt.Unknown, err
	}
	as, err := s.st.Lits.AssumeAll(nil, r, false)
	if err != nil {
		return smt.Unknown, err
	}
	nbox := len(as)
	as = append(as, acts...)
	for i, f := range s.fixed {
		if !slices.Contains(acts, f) {
			as = append(as, s.neg[i])
		}
	}
	if checkHook != nil {
		checkHook(s.st.S)
	}
	t0 := time.Now()
	res, err := s.st.S.CheckContext(s.ctx, as...)
	s.stats.SMTCalls++
	s.stats.SMTTime += time.Since(t0)
	s.lastBox = r[:nbox:nbox]
	s.lastActs = acts
	if err == nil && res == smt.Unknown {
		s.reason = s.st.S.ReasonUnknown()
		if s.ctx.Err() != nil {
			s.reason = ctxReason(s.ctx)
		}
		if s.reason == "" {
			s.reason = "the solver answered unknown"
		}
	}
	return res, err
}

// checkCur asks the current-state solver whether some state of box r
// satisfies every term of acts (activation literals or formulas over the
// current state); on sat, the state is returned.
func (s *solver) checkCur(r box, acts ...smt.Term) (smt.Result, symbolic.State, error) {
	if err := s.x.Err(); err != nil {
		return smt.Unknown, nil, err
	}
	// The box literals are made before the Push: their definitions must
	// outlive the Pop.
	as, err := s.curLits.AssumeAll(nil, r, false)
	if err != nil {
		return smt.Unknown, nil, err
	}
	if err := s.cur.Push(); err != nil {
		return smt.Unknown, nil, err
	}
	defer s.cur.Pop(1)
	for _, a := range acts {
		if err := s.cur.Assert(a); err != nil {
			return smt.Unknown, nil, err
		}
	}
	if curHook != nil {
		curHook(s.cur)
	}
	t0 := time.Now()
	res, err := s.cur.CheckContext(s.ctx, as...)
	s.stats.SMTCalls++
	s.stats.SMTTime += time.Since(t0)
	if err != nil || res != smt.Sat {
		if err == nil && res == smt.Unknown {
			s.reason = s.cur.ReasonUnknown()
			if s.ctx.Err() != nil {
				s.reason = ctxReason(s.ctx)
			}
		}
		return res, nil, err
	}
	w, err := s.st.E.Decode(s.cur, s.st.E.Cur)
	return res, w, err
}

// core returns, after an unsat check, the literals of its box in the core.
func (s *solver) core() (box, error) {
	idx, err := s.st.S.Core()
	if err != nil {
		return nil, err
	}
	var b box
	s.coreLevel = noLevel
	s.coreActs = s.coreActs[:0]
	for _, i := range idx {
		if i < len(s.lastBox) {
			b = append(b, s.lastBox[i])
			continue
		}
		if i -= len(s.lastBox); i < len(s.lastActs) {
			s.coreActs = append(s.coreActs, s.lastActs[i])
			if k := slices.Index(s.lvl, s.lastActs[i]); k > 0 && k < s.coreLevel {
				s.coreLevel = k
			}
		}
	}
	return b.sorted(), nil
}

// noLevel is the coreLevel of a core without level literals.
const noLevel = int(^uint(0) >> 1)

// retire retires a temporary literal and rebuilds the solver when too
// many have piled up. After a rebuild (rebuilt true) every other temporary
// literal is gone with the old context: the caller must drop them.
func (s *solver) retire(act smt.Term, live func() [][]box) (rebuilt bool, err error) {
	if err := s.st.Retire(act); err != nil {
		return false, err
	}
	s.retired++
	limit := rebuildAfter
	if s.learned && s.retired >= rebuildLearned {
		n := 0
		for _, bs := range live() {
			n += len(bs)
		}
		if n >= rebuildLarge {
			limit = rebuildLearned
		}
	}
	if s.retired >= limit {
		s.stats.Rebuilds++
		if err := s.build(live()); err != nil {
			// as ready does: a half-built solver (a build the run's
			// context stopped, StopWhen) must not pass for a built one
			s.close()
			return true, err
		}
		return true, nil
	}
	return false, nil
}

// checkHook, when set (by tests), runs before each check of the
// transition solver (solver.check), on that solver: a test sets a
// resource limit there to make one chosen query run out of it.
var checkHook func(*smt.Solver)

// curHook is checkHook for the current-state solver (solver.checkCur),
// and errHook for the one of findErrLabels.
var curHook, errHook func(*smt.Solver)

func ctxReason(ctx context.Context) string {
	switch ctx.Err() {
	case context.DeadlineExceeded:
		return "timeout"
	case context.Canceled:
		return "interrupted"
	}
	return ""
}
