package cert

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"vigil/smt"
	"vigil/smt/smtlib"
	"vigil/symbolic"
)

// Failure is a condition of the certificate that does not hold, with the
// states that show it.
type Failure struct {
	Condition string // init, consecution, sure, safety (unsafe or a range error) or fact
	State     symbolic.State
	Next      symbolic.State // consecution: the successor outside
	msg       string
}

func (f *Failure) Error() string { return "cert: " + f.msg }

// Check checks c against the model and question it claims to answer:
// the property and policy names, the variables, the model hash, and the
// conditions. A nil error means the invariant is a proof that no run of
// policy (nil: any label) from a start state of prop reaches a bad state.
// A *Failure names the condition that fails with its witness states.
//
// The conditions are written as SMT-LIB2 text by package smtlib (the
// same definitions as the certificate file's, rebuilt from the model, not
// read from the file) and solved by Z3's text front end: nothing here
// goes through the smt.Encoder that ic3 searches with (see the package
// documentation).
func Check(ctx context.Context, c *Cert, m *symbolic.Model, prop *symbolic.Property, policy *symbolic.PolicyDecl) error {
	return CheckWith(ctx, c, m, prop, policy, nil)
}

// CheckWith is Check with the learned policy's evaluation given (p, for
// a policy made in memory rather than loaded from its files); p nil
// instantiates policy.
func CheckWith(ctx context.Context, c *Cert, m *symbolic.Model, prop *symbolic.Property, policy *symbolic.PolicyDecl, p symbolic.Policy) error {
	pol := ""
	if policy != nil {
		pol = policy.Name
	}
	if prop == nil {
		return errorf("no property to check against")
	}
	if prop.Name != c.Property || pol != c.Policy {
		return errorf("the certificate answers property %s with policy %s, not property %s with policy %s",
			Quote(c.Property), Quote(c.Policy), Quote(prop.Name), Quote(pol))
	}
	if len(c.Vars) != len(m.Vars) {
		return errorf("the certificate does not belong to model %s: its invariant has %d variables, the model %d", Quote(m.Name), len(c.Vars), len(m.Vars))
	}
	for i, v := range c.Vars {
		if v != m.Vars[i].Name {
			return errorf("the certificate does not belong to model %s: its variable %d is %s, the model's is %s", Quote(m.Name), i+1, Quote(v), Quote(m.Vars[i].Name))
		}
	}
	if c.PolicyHash != "" {
		h, err := PolicyHash(policy)
		if err != nil {
			return err
		}
		if h != c.PolicyHash {
			return errorf("the certificate was made for another policy file: its policy-sha256 is %.16s..., policy %s's files hash to %s (was the network, ensemble or table retrained or replaced?)", c.PolicyHash, Quote(pol), orNone(h))
		}
	}
	h, err := ModelHash(m, prop.Name, pol)
	if err != nil {
		return err
	}
	if h != c.Hash {
		return errorf("the certificate does not belong to this model: its model-sha256 is %.12s..., the model loaded is %.12s... (was the model, a -D value or the policy changed?)", c.Hash, h)
	}
	learned := policy != nil && (policy.Kind == symbolic.KindNN || policy.Kind == symbolic.KindTrees)
	if !learned && len(c.Facts) > 0 {
		return errorf("the certificate has policy facts, but policy %s is not learned", Quote(pol))
	}
	facts, err := c.resolveFacts(m)
	if err != nil {
		return err
	}
	differ, err := c.resolveDiffer(m)
	if err != nil {
		return err
	}
	q := smtlib.Question{Model: opaque(m), Property: prop, Policy: policy, Differ: differ}
	if learned {
		q.Policy = nil // SMT sees every label; the facts restrict them
	}
	script, err := smtlib.CertScript(q, smtlib.Boxes(c.Inv), facts.exclusions(), learned)
	if err != nil {
		return errorf("%v", err)
	}
	if err := solve(ctx, m, script, facts); err != nil {
		return err
	}
	if !learned {
		return nil
	}
	// The facts themselves, against the policy, by a method that shares
	// nothing with the certifier that proved them.
	if p == nil {
		if p, err = symbolic.Instantiate(m, policy); err != nil {
			return errorf("%v", err)
		}
	}
	fc := NewFactChecker(m, p)
	// A fact the checker cannot re-check within its bounds (or Z3
	// leaves undecided) is no verdict, but the facts after it are still
	// checked: one of them refuted makes the certificate invalid (the
	// first undecided fact made it unknown, the refutation unseen:
	// s32b_cert_fact_after_budget.txtar).
	var undecided *Inconclusive
	for _, f := range facts {
		// The fact's region: its invariant box within its sub-region, the
		// bounds and the linear atoms of both (exactly the region
		// vigil.fact.<i> defines for consecution).
		region := append(slices.Clone(c.Inv[f.Box]), f.Within...)
		lo, hi := boxBounds(m, region)
		ft := Fact{Lo: lo, Hi: hi, Atoms: regionAtoms(region), Label: f.Label, Sure: f.Sure}
		switch {
		case f.Differ && len(differ) == 0:
			return &Failure{Condition: "fact", msg: fmt.Sprintf("policy fact on box %d, label %s: it claims to hold within the disequalities, but the certificate has no differ lines", f.Box, Quote(m.Labels[f.Label].Name))}
		case f.Differ:
			ft.Differ = differ
		case len(differ) > 0 && countDiffer(m, lo, hi, ft.Atoms, differ, differPrefer):
			// used only within vigil.inv, which lies within the
			// disequalities: enumerating them is enough, and cheaper
			ft.Differ = differ
		}
		if err := fc.Check(ctx, ft); err != nil {
			if _, failed := errors.AsType[*FactFailure](err); !failed && ctx.Err() != nil {
				// stopped, not refuted: no verdict
				return errorf("policy fact on box %d not re-checked: %w", f.Box, context.Cause(ctx))
			}
			if u, ok := errors.AsType[*Inconclusive](err); ok {
				// undecided, not refuted: the certificate could not be checked
				if undecided == nil {
					nu := *u
					nu.Condition = fmt.Sprintf("policy fact on box %d (label %s)", f.Box, Quote(m.Labels[f.Label].Name))
					undecided = &nu
				}
				continue
			}
			return &Failure{Condition: "fact", msg: fmt.Sprintf("policy fact on box %d, label %s: %v", f.Box, Quote(m.Labels[f.Label].Name), Message(err))}
		}
	}
	if undecided != nil {
		return undecided
	}
	return nil
}

func orNone(h string) string {
	if h == "" {
		return "(no file)"
	}
	return h
}

// opaque returns m with its variables and labels renamed v0, v1, ... and
// l0, l1, ...: the checker's text needs no readable names, and a name
// that SMT-LIB cannot hold (a JANI variable named mod, a label with a |)
// must not stop the check. Everything else is shared with m.
func opaque(m *symbolic.Model) *symbolic.Model {
	c := *m
	c.Vars = slices.Clone(m.Vars)
	for i := range c.Vars {
		c.Vars[i].Name = fmt.Sprintf("v%d", i)
	}
	c.Labels = slices.Clone(m.Labels)
	for i := range c.Labels {
		c.Labels[i].Name = fmt.Sprintf("l%d", i)
	}
	return &c
}

// solve checks the script's conditions; each must be unsat. The text
// (definitions, then the checks) goes through Z3's own SMT-LIB2 parser
// into a context of the checker's own, and solveEach asks the checks.
//
// A small model (at most maxExhaustStates states, and a text that is
// not too long for them: exhaustible) is decided first without Z3
// (evaluate): Script.Posts, the checks' disjunction over the current
// state alone, evaluated exactly in every state within the ranges. When
// it is false in all of them the certificate's conditions hold, and the
// process makes no Z3 context at all (bench/polic3's blocks 4: the
// whole PolIC3 run 23 -> 13 ms of CPU, the check 12 -> 3 ms). When it holds in
// one, Z3 asks the checks to name the failing one and its witness, and
// must find one.
func solve(ctx context.Context, m *symbolic.Model, s *smtlib.Script, facts factList) error {
	// An already expired --timeout (or an interrupt) gives no verdict,
	// also where evaluation alone would decide (some 10 ms of work).
	if err := ctx.Err(); err != nil {
		return errorf("%w", context.Cause(ctx))
	}
	found, decided := evaluate(m, s)
	if decided && found == nil {
		return nil
	}
	err := solveEach(ctx, m, s, facts)
	if err == nil && decided {
		return errorf("internal error: evaluating the checks finds state %s satisfying one, Z3 finds every check unsat; please report this bug", m.FormatState(found))
	}
	return err
}

// evaluate decides s's checks by exact evaluation in every state
// (exhaust.go): decided reports whether it could, found is a state in
// which some check holds (nil: none, the checks are all unsat).
func evaluate(m *symbolic.Model, s *smtlib.Script) (found symbolic.State, decided bool) {
	if !evaluation {
		return nil, false
	}
	text := s.Defs + "\n(assert " + s.Posts() + ")"
	if exhaustible(m, len(text)) == 0 {
		return nil, false
	}
	ev, err := compileScript(text, s.Cur)
	if err != nil {
		return nil, false
	}
	found, err = ev.exhaust(m)
	return found, err == nil
}

// evaluation turns evaluate on; tests turn it off to compare with Z3, or
// to have Z3 decide a small model's checks under a resource limit.
var evaluation = true

// solveEach asks the script's checks in one context, each on a one-shot
// solver of its own (askOnce, a fresh solver per check), in order: init,
// consecution (per label for a learned policy), range errors, safety;
// then the policy facts' sure checks, as disjunctions of at most
// sureChunk of them. The first check found sat is the failure, with its
// witness read from that solver's model; a disjunction found sat is
// asked again check by check to name it.
//
// The checks are not asked as one disjunction (as they were until
// session 21, to have Z3 read and internalize the shared invariant
// once): on an invariant of thousands of boxes Z3 4.8.12's SMT core
// spends tens of seconds preprocessing such a disjunction on the one-shot
// solver (`z3 -v:10` stops at smt.flatten-clauses), in a step that
// ignores Z3_interrupt, so that a --timeout or a Ctrl-C landed there up
// to 53 s late. Asked one by one, each check is a
// conjunction at the top level, and the same certificate (2,563
// one-state boxes) checks in 0.2 s instead of 11-15 s; PolIC3's smaller
// certificates pay one solver per check (beluga be1, 400 boxes, 17
// checks: 0.15 -> 0.21 s of CPU). FIGURES.md has the measurements. The
// sure checks read a fact's region, not the invariant, and stay grouped
// (be1's 904 of them: one solver per check would cost more than all the
// rest), in bounded chunks so that no one Z3 call grows with the facts.
func solveEach(ctx context.Context, m *symbolic.Model, s *smtlib.Script, facts factList) error {
	x, err := smt.NewContext()
	if err != nil {
		return err
	}
	defer x.Close()
	fs, err := parseChecks(ctx, x, s)
	if err != nil {
		return err
	}
	var groups [][]int // indices of s.Checks, asked as their disjunction
	var sure []int
	for i, q := range s.Checks {
		if q.Name == "sure" {
			sure = append(sure, i)
		} else {
			groups = append(groups, []int{i})
		}
	}
	for len(sure) > 0 {
		n := min(len(sure), sureChunk)
		groups = append(groups, sure[:n])
		sure = sure[n:]
	}
	for _, g := range groups {
		disj := smt.Unknown
		if len(g) > 1 {
			ts := make([]smt.Term, len(g))
			for k, i := range g {
				ts[k] = fs[i]
			}
			sv, ans, err := askOnce(ctx, x, x.Or(ts...))
			if err != nil {
				return err
			}
			sv.Close()
			if ans == smt.Unsat {
				continue
			}
			disj = ans
			if err := ctx.Err(); err != nil {
				return errorf("%w", context.Cause(ctx))
			}
			// sat or undecided: the checks one by one name the failing
			// one, or the one Z3 cannot decide.
		}
		for _, i := range g {
			if err := askCheck(ctx, x, m, s, s.Checks[i], fs[i], facts); err != nil {
				return err
			}
		}
		// Each check of the group is unsat. A disjunction Z3 left
		// undecided (a resource limit, --rlimit) is then proved by them;
		// only a sat disjunction contradicts them.
		if len(g) > 1 && disj == smt.Sat {
			return errorf("internal error: Z3 does not find the disjunction of %d sure checks unsat, but each of them; please report this bug", len(g))
		}
	}
	return nil
}

// sureChunk is the most sure checks asked as one disjunction.
const sureChunk = 256

// askCheck asks check q, whose formula is f, on a one-shot solver of x:
// nil when it is unsat, its *Failure when sat, an error when Z3 leaves it
// undecided (ctx's cause when ctx ended).
func askCheck(ctx context.Context, x *smt.Context, m *symbolic.Model, s *smtlib.Script, q smtlib.Check, f smt.Term, facts factList) error {
	sv, ans, err := askOnce(ctx, x, f)
	if err != nil {
		return err
	}
	defer sv.Close()
	switch ans {
	case smt.Unsat:
		return nil
	case smt.Sat:
		return failure(x, sv, m, s, q, facts)
	}
	if err := ctx.Err(); err != nil {
		return errorf("%w", context.Cause(ctx))
	}
	return undecided(ctx, q.Name, sv.ReasonUnknown())
}

// parseChecks reads the script's definitions and its checks' formulas
// into x, one assertion per check. Each check's Formula is read, over the
// state and its successor: Z3 decides the checks' Post (one successor per
// outcome, written in place) about as fast on a small certificate, but
// 1.5 times slower on a large one (bench/polic3's beluga 1, 401 boxes:
// 0.25 -> 0.39 s, as one disjunction), where each outcome's copy of the
// invariant is a formula of its own.
func parseChecks(ctx context.Context, x *smt.Context, s *smtlib.Script) ([]smt.Term, error) {
	var b strings.Builder
	b.WriteString(s.Defs)
	b.WriteString(s.NextDefs)
	for _, q := range s.Checks {
		b.WriteString("\n(assert ")
		b.WriteString(q.Formula)
		b.WriteString(")")
	}
	// Z3's parser does not heed an interrupt: ParseSMTLIBContext gives it
	// up (and x with it) when ctx ends.
	fs, err := x.ParseSMTLIBContext(ctx, b.String())
	if err != nil {
		if ctx.Err() != nil {
			return nil, errorf("%w", context.Cause(ctx))
		}
		return nil, errorf("%v", err)
	}
	if len(fs) != len(s.Checks) {
		return nil, errorf("Z3 read %d assertions from the checks' text, not %d", len(fs), len(s.Checks))
	}
	return fs, nil
}

// askOnce checks f on a fresh one-shot solver of x (Z3's SMT core as a
// tactic: smt.NewOneShotSolver), tuned as the checks' solver, with f
// asserted at the base level; the solver is returned open (to read a
// sat answer's model), for the caller to close. CheckContext bounds the
// check by the resource limit of ctx, if any (WithRlimit).
func askOnce(ctx context.Context, x *smt.Context, f smt.Term) (*smt.Solver, smt.Result, error) {
	sv, err := x.NewOneShotSolver()
	if err != nil {
		return nil, smt.Unknown, errorf("%v", err)
	}
	if err := sv.SetParams(checkTuning...); err != nil {
		sv.Close()
		return nil, smt.Unknown, errorf("%v", err)
	}
	if err := sv.Assert(f); err != nil {
		sv.Close()
		return nil, smt.Unknown, errorf("%v", err)
	}
	ans, err := sv.CheckContext(ctx)
	if err != nil {
		sv.Close()
		return nil, smt.Unknown, errorf("%v", err)
	}
	return sv, ans, nil
}

// failure names the check q that sv found satisfiable, with its witness
// states read from sv's model.
func failure(x *smt.Context, sv *smt.Solver, m *symbolic.Model, s *smtlib.Script, q smtlib.Check, facts factList) error {
	f := &Failure{Condition: q.Name}
	switch {
	case strings.HasPrefix(q.Name, "consecution"):
		f.Condition = "consecution"
	case strings.HasPrefix(q.Name, "rangeerr"):
		f.Condition = "safety" // a range error is a bad state
	}
	var err error
	if f.State, err = values(x, sv, m, s.Cur); err != nil {
		return err
	}
	switch {
	case q.Name == "init":
		f.msg = fmt.Sprintf("init fails: start state %s is outside the invariant", m.FormatState(f.State))
	case f.Condition == "consecution":
		if f.Next, err = values(x, sv, m, s.Next); err != nil {
			return err
		}
		via := ""
		if q.Name != "consecution" {
			via = fmt.Sprintf(" (taking label %s, which no policy fact excludes there)", Quote(m.Labels[q.Label].Name))
		}
		f.msg = fmt.Sprintf("consecution fails: state %s is inside the invariant, its successor %s is not%s", m.FormatState(f.State), m.FormatState(f.Next), via)
	case q.Name == "sure":
		ft := facts[q.Fact]
		f.msg = fmt.Sprintf("the policy fact on box %d (label %s) claims label %s applicable throughout its region, but it is not applicable in state %s",
			ft.Box, Quote(m.Labels[ft.Label].Name), Quote(m.Labels[q.Label].Name), m.FormatState(f.State))
	case strings.HasPrefix(q.Name, "rangeerr"):
		f.msg = fmt.Sprintf("safety fails: state %s is inside the invariant, and an outcome of label %s, which no policy fact excludes there, leaves a variable's range", m.FormatState(f.State), Quote(m.Labels[q.Label].Name))
	default:
		f.msg = fmt.Sprintf("safety fails: state %s is inside the invariant and unsafe (or an outcome leaves a range there)", m.FormatState(f.State))
	}
	return f
}

// checkTuning are Z3 parameters of the checker's solver: the simplex
// arithmetic solver (arith.solver=2) and no relevancy filtering
// (relevancy=0), under which Z3 decides the checks of bench/polic3's
// certificates in about 0.6 of the default's time (npuzzle 2x3, 16x16
// network: 0.16 -> 0.10 s with the z3 binary). They choose Z3's
// algorithm, not the answer: an unsat check is unsat under any of them.
// They are the checker's own choice (ic3 sets the same ones on its own
// solvers), set on this solver only, never as Z3 global parameters.
// arith.auto_config_simplex keeps the simplex solver where Z3's auto
// configuration would take a formula that looks like difference logic to
// its difference-logic solver, which gives up on the atoms that are not
// (an ite in a sum), printing "(smt.diff_logic: non-diff logic
// expression ...)" on stderr for each: noise on a valid certificate, and
// an "unknown" where such an atom is needed for the answer.
var checkTuning = []smt.Param{
	{Name: "arith.solver", Value: "2"},
	{Name: "arith.auto_config_simplex", Value: "true"},
	{Name: "relevancy", Value: "0"},
}

// values reads the values of the integer constants vs (SMT-LIB symbols,
// |quoted| or simple) in the model of sv's last check.
func values(x *smt.Context, sv *smt.Solver, m *symbolic.Model, vs []string) (symbolic.State, error) {
	s := make(symbolic.State, len(vs))
	if len(vs) == 0 {
		return s, nil
	}
	ts := make([]smt.Term, len(vs))
	for i, v := range vs {
		if len(v) >= 2 && v[0] == '|' && v[len(v)-1] == '|' {
			v = v[1 : len(v)-1]
		}
		ts[i] = x.IntConst(v)
	}
	if err := x.Err(); err != nil {
		return nil, errorf("cannot read Z3's witness: %v", err)
	}
	out := make([]int64, len(vs))
	if err := sv.Eval(ts, out); err != nil {
		return nil, errorf("cannot read Z3's witness: %v", err)
	}
	for i, k := range out {
		if int64(int(k)) != k {
			return nil, errorf("cannot read Z3's witness: the value %d of %s is not an int", k, vs[i])
		}
		s[i] = int(k)
	}
	if m.InRange(s) >= 0 {
		return nil, errorf("cannot read Z3's witness %v: the state is outside the variables' ranges", out)
	}
	return s, nil
}

type resolvedFact struct {
	Box    int
	Label  symbolic.LabelID
	Sure   []symbolic.LabelID
	Within []smt.Lit // none: the whole box
	Differ bool      // holds within the certificate's disequalities only
}

type factList []resolvedFact

// exclusions returns the facts as smtlib writes them.
func (fs factList) exclusions() []smtlib.Exclusion {
	var out []smtlib.Exclusion
	for _, f := range fs {
		e := smtlib.Exclusion{Box: f.Box, Label: f.Label, Sure: f.Sure}
		if len(f.Within) > 0 {
			e.Within = smtlib.Boxes([][]smt.Lit{f.Within})[0]
		}
		out = append(out, e)
	}
	return out
}

// resolveFacts maps the facts' label names to the model's labels.
func (c *Cert) resolveFacts(m *symbolic.Model) (factList, error) {
	label := func(n string) (symbolic.LabelID, error) {
		if l := m.LabelIndex(n); l != symbolic.NoLabel {
			return l, nil
		}
		return 0, errorf("a policy fact names label %s, which model %s lacks%s", Quote(n), Quote(m.Name), lookAlike(n, m))
	}
	var out factList
	for _, f := range c.Facts {
		if f.Box < 0 || f.Box >= len(c.Inv) {
			return nil, errorf("a policy fact names box %d of %d", f.Box, len(c.Inv))
		}
		r := resolvedFact{Box: f.Box, Differ: f.Differ}
		for _, w := range f.Within {
			l, err := parseLit(m, w)
			if err != nil {
				return nil, errorf("%v", err)
			}
			r.Within = append(r.Within, l)
		}
		var err error
		if r.Label, err = label(f.Label); err != nil {
			return nil, err
		}
		for _, n := range f.Sure {
			l, err := label(n)
			if err != nil {
				return nil, err
			}
			r.Sure = append(r.Sure, l)
		}
		out = append(out, r)
	}
	return out, nil
}

// lookAlike returns ", though it looks like label NAME" when n differs
// from one of m's labels only in characters outside ASCII.
func lookAlike(n string, m *symbolic.Model) string {
	for _, l := range m.Labels {
		if Skeleton(l.Name) == Skeleton(n) {
			return fmt.Sprintf(" (it only looks like label %s)", Quote(l.Name))
		}
	}
	return ""
}

// regionAtoms returns the linear atoms of a region's literals.
func regionAtoms(b []smt.Lit) []symbolic.Atom {
	var out []symbolic.Atom
	for _, l := range b {
		if l.Form != nil {
			out = append(out, symbolic.Atom{Form: l.Form, Upper: l.Upper, K: l.K})
		}
	}
	return out
}

// boxBounds returns the per-variable bounds of a box; linear atoms are
// left out, which gives a bounding box of the region (regionAtoms are
// the rest of it).
func boxBounds(m *symbolic.Model, b []smt.Lit) (lo, hi []int) {
	lo, hi = make([]int, len(m.Vars)), make([]int, len(m.Vars))
	for i := range m.Vars {
		lo[i], hi[i] = m.Vars[i].Lo, m.Vars[i].Hi
	}
	for _, l := range b {
		if l.Form != nil {
			// A linear atom: the bounding box of the region (a superset,
			// so an exclusion proved over it holds in the region).
			continue
		}
		if l.Upper {
			hi[l.Var] = min(hi[l.Var], l.K)
		} else {
			lo[l.Var] = max(lo[l.Var], l.K)
		}
	}
	return lo, hi
}
