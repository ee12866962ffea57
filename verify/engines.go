package verify

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"

	"vigil/bdd"
	"vigil/ic3"
	invcert "vigil/ic3/cert"
	"vigil/ppa"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// BFSOptions configure the explicit breadth-first search.
type BFSOptions struct {
	// Workers > 1 searches on that many goroutines (level-synchronous
	// parallel BFS: the same states, verdicts and counterexample lengths).
	Workers int
}

// IC3Options configure ic3 and PolIC3 (see ic3.Options).
type IC3Options struct {
	// Order of literal dropping: "activity" (also ""), "index", "reverse".
	Order string
	// Widen is "auto" (also ""), "on" or "off".
	Widen string
	// NoRelational keeps lemmas to boxes; CTG learns clauses for
	// counterexamples to generalization; FreeCores takes PolIC3's
	// policy-free unsat cores without certifying them (ic3.Options);
	// NoCertCache switches off PolIC3's cache of certification results;
	// NoWalks switches off PolIC3's random walks of the policy in search
	// of deep counterexamples (auto's hunter walks in its place).
	NoRelational, CTG, FreeCores, NoCertCache, NoWalks bool
}

// PPAOptions configure policy predicate abstraction.
type PPAOptions struct {
	// Predicates are the initial predicates (nil: the property's PA
	// predicates, else the atoms of its start and unsafe conditions);
	// From says where they came from, for reports.
	Predicates []*symbolic.Cond
	From       string
	// NoEnumeration sends every cube through SMT (see ppa.Options).
	NoEnumeration bool
	// MaxCheckedBoxes is the largest invariant a safe answer is checked
	// as without Question.Certificate (0: DefaultMaxCheckedBoxes).
	MaxCheckedBoxes int
}

// BDDOptions configure the BDD engine: its Order, PolicyStates and
// Progress (Question.Limits.MaxNodes and Question.Executable fill in
// MaxNodes and Executable).
type BDDOptions = bdd.Options

// IC3Result is an ic3 or PolIC3 answer with the options it ran with.
type IC3Result struct {
	*ic3.Result
	Generalize bool
	Order      string // as asked ("" for the default)
	BoxOnly    bool   // lemmas were boxes only
}

// PPAResult is a ppa answer with the predicates it started from.
type PPAResult struct {
	*ppa.Result
	Initial int    // initial predicates
	From    string // where they came from ("" for the default)
	Facts   int    // policy facts of the exported invariant
}

// decideBFS is the explicit breadth-first search from every start state.
func decideBFS(ctx context.Context, q *Prepared) (*Verdict, error) {
	return bfs(ctx, q, q.Limits.MaxStates)
}

// learnedPollEvery is how often (in states expanded) bfs looks at its
// context under a learned policy, whose decisions may take a millisecond.
const learnedPollEvery = 512

// bfs is the breadth-first search up to maxStates states.
func bfs(ctx context.Context, q *Prepared, maxStates int) (*Verdict, error) {
	return bfsDepth(ctx, q, maxStates, nil)
}

// bfsDepth is bfs that stores, with each progress report, the layer it
// expands in depth (every layer before it is expanded: the auto
// portfolio's hunter needs that).
func bfsDepth(ctx context.Context, q *Prepared, maxStates int, depth *atomic.Int64) (*Verdict, error) {
	opts := explicit.Options{StopAtUnsafe: true, MaxStates: maxStates, Policy: q.Dec, Workers: q.BFS.Workers}
	if q.Policy != nil {
		opts.NewPolicy = q.newDecider
	}
	if ic3.IsLearned(q.Policy) {
		// The search looks at ctx (and reports progress) every
		// ProgressEvery expansions, 65,536 by default: with a network of
		// a few wide layers (0.3 ms a state) that is 20 s, and bfs (alone
		// or in auto) ignored --timeout and Ctrl-C for as long.
		opts.ProgressEvery = learnedPollEvery
	}
	opts.Progress = func(s explicit.Stats) {
		if depth != nil {
			depth.Store(int64(s.Depth))
		}
		if s.Expanded == 0 {
			q.progress("bfs", "%d start states so far", s.Starts)
			return
		}
		q.progress("bfs", "%d states, depth %d, %.0f states/s", s.States, s.Depth, s.StatesPerSecond())
	}
	res, err := explicit.Search(ctx, q.Gen, opts)
	if err != nil {
		return nil, err
	}
	v := &Verdict{Answer: res.Verdict, Engine: "bfs", Trace: res.Trace, BFS: res, Elapsed: res.Stats.Elapsed}
	if res.Verdict == explicit.Safe {
		v.exhaustive = q
	}
	if res.Verdict == explicit.Unknown {
		v.Reason = stopReason(ctx)
		if v.Reason == "" {
			v.Reason = fmt.Sprintf("state limit %d", maxStates)
		}
	}
	return v, nil
}

// decideIC3 is IC3 (symbolic policies and none) or PolIC3 (networks and
// tree ensembles), with or without generalization.
func decideIC3(ctx context.Context, q *Prepared, generalize bool) (*Verdict, error) {
	name := "ic3"
	if ic3.IsLearned(q.Policy) {
		name = "polic3"
	} else if strings.HasPrefix(q.Engine, "polic3") {
		return nil, fmt.Errorf("verify: engine %s verifies network and tree-ensemble policies; policy %q is not one: use engine ic3", q.Engine, q.policyName())
	}
	if !generalize {
		name += "-nog"
	}
	o := q.IC3
	opts := ic3.Options{Generalize: generalize, Order: ic3.Order(o.Order), NoRelational: o.NoRelational, CTG: o.CTG, FreeCores: o.FreeCores, NoCertCache: o.NoCertCache, NoWalks: o.NoWalks, WalkMemory: q.walkMemory()}
	if o.Widen != "auto" {
		opts.Widen = o.Widen
	}
	if q.Executable != nil && ic3.IsLearned(q.Policy) {
		lp, err := ic3.Certifier(q.Executable)
		if err != nil {
			return nil, err
		}
		opts.Learned = lp
	}
	opts.Progress = func(s ic3.Stats) {
		q.progress(name, "level %d, %d obligations, %d clauses, %d SMT calls, %.1fs", s.Frames, s.Obligations, s.Clauses, s.SMTCalls, s.Elapsed.Seconds())
	}
	res, err := ic3.Check(ctx, q.Model, q.Property, q.Policy, opts)
	if err != nil {
		return nil, err
	}
	v := &Verdict{Engine: name, Reason: res.Reason, Trace: res.Trace, Elapsed: res.Stats.Elapsed,
		IC3: &IC3Result{Result: res, Generalize: generalize, Order: o.Order, BoxOnly: o.NoRelational}}
	switch res.Verdict {
	case ic3.Safe:
		v.Answer = explicit.Safe
		// The invariant goes through the independent checker (check)
		// before the verdict is returned.
		if v.Invariant, err = q.certificate(res.Invariant, res.Facts, res.Differ); err != nil {
			return nil, err
		}
	case ic3.Unsafe:
		v.Answer = explicit.UnsafeVerdict
	}
	return v, nil
}

// decideBDD is forward BDD reachability in breadth-first layers.
func decideBDD(ctx context.Context, q *Prepared) (*Verdict, error) {
	opts := q.BDD
	opts.MaxNodes = q.Limits.MaxNodes
	opts.Compiled = q.Gen // compiled once (prepare), not again
	if q.Executable != nil {
		opts.Executable = q.Executable
	}
	res, err := bdd.Verify(ctx, q.Model, q.Property, q.Policy, opts)
	if err != nil {
		return nil, err
	}
	v := &Verdict{Answer: res.Verdict.Explicit(), Engine: "bdd", Reason: res.Reason, Trace: res.Trace, BDD: res, Elapsed: res.Stats.Elapsed}
	if v.Answer == explicit.Safe {
		v.exhaustive = q
	}
	if v.Answer == explicit.Unknown && ctx.Err() != nil && (res.Reason == "canceled" || res.Reason == "timeout") {
		// bdd says "canceled" where every other engine, and vigil
		// verify's text, say "interrupted" (--json's reason).
		v.Reason = stopReason(ctx)
	}
	return v, nil
}

// DefaultMaxCheckedBoxes is the largest box certificate a safe ppa answer
// is checked as without a certificate file: a learned policy's cubes are
// listed state by state, and the checker's SMT queries over tens of
// thousands of boxes take minutes where the abstraction took a second.
const DefaultMaxCheckedBoxes = 4096

// decidePPA is policy predicate abstraction with CEGAR. A safe answer's
// reachable cubes become a box certificate with policy facts, checked by
// ic3/cert (certifyPPA).
func decidePPA(ctx context.Context, q *Prepared) (*Verdict, error) {
	preds := q.PPA.Predicates
	from := q.PPA.From
	if preds == nil {
		// A PA property (from --start/--unsafe files, or inside the
		// model) brings its own predicates.
		if p := q.Property; len(p.Predicates) > 0 {
			preds, from = p.Predicates, "PA property "+p.Name
		}
	}
	for _, p := range preds {
		if err := ppa.Linear(q.Model, p); err != nil {
			return nil, err
		}
	}
	opts := ppa.Options{Predicates: preds, Policy: q.Executable, NoEnumeration: q.PPA.NoEnumeration, Compiled: q.Gen}
	opts.Progress = func(s ppa.Stats) {
		q.progress("ppa", "iteration %d, %d predicates, %d abstract states, %d SMT calls, %.1fs", s.Iterations, s.Predicates, s.AbstractStates, s.SMTCalls, s.Elapsed.Seconds())
	}
	res, err := ppa.Check(ctx, q.Model, q.Property, q.Policy, opts)
	if err != nil {
		return nil, err
	}
	v := &Verdict{Answer: res.Verdict, Engine: "ppa", Reason: res.Reason, Trace: res.Trace, Elapsed: res.Stats.Elapsed,
		PPA: &PPAResult{Result: res, Initial: len(preds), From: from}}
	if res.Verdict == explicit.Safe {
		if err := q.certifyPPA(ctx, v); err != nil {
			return nil, err
		}
		if v.Answer == explicit.Safe { // not cut short while certifying
			v.exhaustive = q
		}
	}
	return v, nil
}

// certifyPPA turns a safe ppa answer's cubes into an ic3/cert certificate
// (boxes and policy facts) and checks it with the independent checker,
// noting in v.CertNote what became of it.
func (q *Prepared) certifyPPA(ctx context.Context, v *Verdict) error {
	m, res := q.Model, v.PPA.Result
	pol := q.Executable
	if pol == nil && ic3.IsLearned(q.Policy) {
		var err error
		if pol, err = symbolic.Instantiate(m, q.Policy); err != nil {
			return err
		}
	}
	if !ic3.IsLearned(q.Policy) {
		pol = nil
	}
	maxBoxes := q.PPA.MaxCheckedBoxes
	if maxBoxes == 0 {
		maxBoxes = DefaultMaxCheckedBoxes
	}
	limit := maxBoxes
	if q.Certificate {
		limit = 0
	}
	pc, err := ppa.Export(ctx, m, res, pol, limit)
	if errors.Is(err, ppa.ErrTooManyBoxes) {
		v.CertNote = fmt.Sprintf("invariant: more than %d boxes, not checked (--cert FILE exports and checks it)", maxBoxes)
		return nil
	}
	if err != nil {
		if ctx.Err() != nil {
			ppaUnchecked(ctx, v, "converting")
			return nil
		}
		if q.Certificate {
			return fmt.Errorf("safe, but no certificate: %v", err)
		}
		v.CertNote = fmt.Sprintf("not certified: the verdict rests on the abstraction alone, since it does not export as boxes (%v)", err)
		return nil
	}
	inv, bfacts := pc.Inv, pc.Facts
	facts := make([]ic3.Fact, len(bfacts))
	for i, f := range bfacts {
		facts[i] = ic3.Fact{Box: f.Box, Label: f.Label, Sure: f.Sure, Within: f.Within, Differ: f.Differ}
	}
	c, err := q.certificate(inv, facts, pc.Differ)
	if err != nil {
		return err
	}
	if err := q.checkCert(ctx, c); err != nil {
		var f *invcert.Failure
		if ctx.Err() == nil && pol != nil && errors.As(err, &f) && (f.Condition == "consecution" || f.Condition == "fact") {
			// A large cube where a learned policy's choice varies: the
			// box format states facts per box, not per cube; the safe
			// verdict stands on the abstraction, not on this export.
			if q.Certificate {
				return fmt.Errorf("safe, but the box certificate does not hold: %v", err)
			}
			v.CertNote = fmt.Sprintf("not certified: the verdict rests on the abstraction alone, since its export as boxes with per-box policy facts does not check (%v)", err)
			return nil
		}
		if ctx.Err() == nil && errors.As(err, &f) && f.Condition == "safety" {
			if label, ok := q.rangeUnderOtherLabel(f.State); ok {
				// The box format counts a range error under every label
				// that no policy fact of the box excludes, the semantics
				// only under the policy's: the verdict stands on the
				// abstraction.
				if q.Certificate {
					return fmt.Errorf("safe, but no box certificate: in state %s an outcome of %s, a label the policy does not choose there, leaves a variable's range, and no policy fact of the box certificate excludes that label there (guard the command; vigil check --bounds finds such places)", q.Model.FormatState(f.State), label)
				}
				v.CertNote = fmt.Sprintf("not certified: the verdict rests on the abstraction alone, since in state %s an outcome of %s, a label the policy does not choose there, leaves a variable's range, which no policy fact of the box certificate excludes there", q.Model.FormatState(f.State), label)
				return nil
			}
		}
		if u, ok := errors.AsType[*invcert.Inconclusive](err); ok && ctx.Err() == nil {
			// Z3 answered unknown on a condition: the safe answer is
			// not certified, so it is no answer (not a bug).
			v.Answer, v.Invariant = explicit.Unknown, nil
			v.Reason = inconclusiveReason(u)
			v.CertNote = "invariant not certified: " + inconclusiveReason(u)
			return nil
		}
		if ctx.Err() == nil {
			return internal("the ppa invariant does not check: %v", err)
		}
		ppaUnchecked(ctx, v, "checking")
		return nil
	}
	v.Invariant, v.PPA.Facts = c, len(bfacts)
	v.CertNote = fmt.Sprintf("inductive invariant: %s with %d policy facts, checked", Boxes(len(inv)), len(bfacts))
	if len(pc.Differ) > 0 {
		// the regions lie within pairwise disequalities, stated once
		v.CertNote = fmt.Sprintf("inductive invariant: %s within %d disequalities (differ lines) with %d policy facts, checked", Boxes(len(inv)), len(pc.Differ), len(bfacts))
	}
	return nil
}

// ppaUnchecked makes v, a safe ppa answer whose certificate the end of
// ctx cut short while doing (converting or checking it), Unknown: the
// certificate is checked before safe is printed (SOUNDNESS.md), and an
// unchecked one is no answer, as for ic3 (checkInvariant).
func ppaUnchecked(ctx context.Context, v *Verdict, doing string) {
	v.Answer, v.Invariant = explicit.Unknown, nil
	v.Reason = fmt.Sprintf("%s while %s the invariant", stopReason(ctx), doing)
	v.CertNote = fmt.Sprintf("invariant not certified: %s while %s it", stopReason(ctx), doing)
}

// Boxes writes "1 box" or "N boxes".
func Boxes(n int) string {
	if n == 1 {
		return "1 box"
	}
	return fmt.Sprintf("%d boxes", n)
}

// rangeUnderOtherLabel tells whether s, a state the certificate checker
// found inside an invariant and "unsafe (or an outcome leaves a range
// there)", is neither unsafe nor leaves a range under the label the policy
// chooses, but has a command of another label whose outcome leaves a
// range: the box format's safety condition counts range errors under
// every label that no policy fact of the box excludes. It returns that
// label. Anything else (an unsafe state, a
// range error the policy's choice meets) is not this case.
func (q *Prepared) rangeUnderOtherLabel(s symbolic.State) (string, bool) {
	m, g := q.Model, q.Gen
	if s == nil || q.Dec == nil || g == nil || q.Property.Unsafe.Holds(s) || g.Status(s) != explicit.Open {
		return "", false
	}
	var x explicit.Expansion
	g.Applicable(s, &x)
	a, err := q.Dec.Decide(s, x.App)
	if err != nil {
		return "", false
	}
	other := ""
	for c := range m.Commands {
		if !g.Guard(s, c) {
			continue
		}
		for o := range m.Commands[c].Outcomes {
			if _, err := g.Apply(s, c, o); err != nil {
				if m.Commands[c].Label == a {
					return "", false // the policy's own step leaves the range
				}
				other = m.Labels[m.Commands[c].Label].Name
			}
		}
	}
	return other, other != ""
}
