package cert

import (
	"context"
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
			return &Failure{Condition: "fact", msg: fmt.Sprintf("policy fact on box %d, label %s: %v", f.Box, Quote(m.Labels[f.Label].Name), Message(err))}
		}
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
// into a context of the checker's own. The checks (init, consecution per
// label for a learned policy, sure, safety) are first asked at once, as
// their disjunction, which is unsat exactly when each is: Z3 reads and
// internalizes the shared invariant once (blocks 4, eleven checks: 16 ->
// 8 ms). The policy facts' sure checks form a disjunction of their own,
// asked after the others'. The disjunction is asserted at the base level, not in a scope,
// of a one-shot solver (Z3's SMT core as a tactic, askOnce): Z3 then
// preprocesses the formula as a whole and skips the incremental solver's
// set-up, which decides PolIC3's certificates of bench/polic3 in less
// time (against a scope of the simple solver, in process: beluga be1,
// 16x16 network 0.30 -> 0.13 s; blocks 4 7 -> 5 ms; npuzzle 2x3 about
// the same, 0.06-0.08 s). Only when the disjunction is not unsat
// (or a cancelled check left it undecided) does solveEach ask the
// checks one by one, to name the failing one.
//
// A small model (at most maxExhaustStates states, and a text that is
// not too long for them: exhaustible) is decided first without Z3
// (evaluate): Script.Posts, the checks' disjunction over the current
// state alone, evaluated exactly in every state within the ranges. When
// it is false in all of them the certificate's conditions hold, and the
// process makes no Z3 context at all (bench/polic3's blocks 4: the
// whole PolIC3 run 23 -> 13 ms of CPU, the check 12 -> 3 ms). When it holds in
// one, Z3 asks the checks one by one to name the failing one and its
// witness, and must find one.
func solve(ctx context.Context, m *symbolic.Model, s *smtlib.Script, facts factList) error {
	found, decided := evaluate(m, s)
	if decided && found == nil {
		return nil
	}
	if !decided && len(s.Checks) > 1 {
		x, err := smt.NewContext()
		if err != nil {
			return err
		}
		fs, err := parseChecks(ctx, x, s, false)
		if err != nil {
			x.Close()
			return err
		}
		// The facts' sure checks apart from the rest: Z3 takes them
		// together superlinearly (be2_64x64_safe of bench/polic3, 12,041
		// sure checks: 7.2 -> 5.0 s for the whole check).
		var sure, rest []smt.Term
		for i, q := range s.Checks {
			if q.Name == "sure" {
				sure = append(sure, fs[i])
			} else {
				rest = append(rest, fs[i])
			}
		}
		all := true
		for _, g := range [][]smt.Term{rest, sure} {
			if len(g) == 0 {
				continue
			}
			ans, err := askOnce(ctx, x, x.Or(g...))
			if err != nil {
				x.Close()
				return err
			}
			if ans != smt.Unsat {
				all = false
				break
			}
		}
		x.Close()
		if all {
			return nil
		}
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

// evaluation turns evaluate on; tests turn it off to compare with Z3.
var evaluation = true

// solveEach asks the script's checks one at a time in one solver, each
// in a scope of its own, in a context of its own; a sat check becomes a
// *Failure with the witness read from the model. A failing certificate
// pays a second context and parse, so that the steps Z3 takes here, and
// with them the witness states that messages quote, do not depend on the
// fast path: the disjunction first, in a scope, then each check.
func solveEach(ctx context.Context, m *symbolic.Model, s *smtlib.Script, facts factList) error {
	x, err := smt.NewContext()
	if err != nil {
		return err
	}
	defer x.Close()
	sv, err := x.NewSolver()
	if err != nil {
		return errorf("%v", err)
	}
	if err := sv.SetParams(checkTuning...); err != nil {
		return errorf("%v", err)
	}
	if len(s.Checks) > 1 {
		fs, err := parseChecks(ctx, x, s, true)
		if err != nil {
			return err
		}
		ans, err := ask(ctx, sv, fs[0], true)
		if err != nil || ans == smt.Unsat {
			return err
		}
	}
	fs, err := parseChecks(ctx, x, s, false)
	if err != nil {
		return err
	}
	for i, q := range s.Checks {
		ans, err := ask(ctx, sv, fs[i], false)
		if err != nil {
			return err
		}
		switch ans {
		case smt.Unsat:
			continue
		case smt.Sat:
			return failure(x, sv, m, s, q, facts)
		}
		if err := ctx.Err(); err != nil {
			return errorf("%w", context.Cause(ctx))
		}
		return errorf("the %s condition could not be decided (unknown: %s)", q.Name, sv.ReasonUnknown())
	}
	return nil
}

// parseChecks reads the script's definitions and its checks' formulas
// into x: as one disjunction (one), or one assertion per check. Both read
// each check's Formula, over the state and its successor: Z3 decides the
// disjunction of the checks' Post (one successor per outcome, written in
// place) about as fast on a small certificate, but 1.5 times slower on a
// large one (bench/polic3's beluga 1, 401 boxes: 0.25 -> 0.39 s), where
// each outcome's copy of the invariant is a formula of its own.
func parseChecks(ctx context.Context, x *smt.Context, s *smtlib.Script, one bool) ([]smt.Term, error) {
	var b strings.Builder
	b.WriteString(s.Defs)
	b.WriteString(s.NextDefs)
	if one {
		b.WriteString("\n(assert (or")
		for _, q := range s.Checks {
			b.WriteString(" ")
			b.WriteString(q.Formula)
		}
		b.WriteString("))")
	} else {
		for _, q := range s.Checks {
			b.WriteString("\n(assert ")
			b.WriteString(q.Formula)
			b.WriteString(")")
		}
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
	want := len(s.Checks)
	if one {
		want = 1
	}
	if len(fs) != want {
		return nil, errorf("Z3 read %d assertions from the checks' text, not %d", len(fs), want)
	}
	return fs, nil
}

// askOnce checks f on a fresh one-shot solver of x (Z3's SMT core as a
// tactic: smt.NewOneShotSolver), tuned as the checks' solver, with f
// asserted at the base level.
func askOnce(ctx context.Context, x *smt.Context, f smt.Term) (smt.Result, error) {
	sv, err := x.NewOneShotSolver()
	if err != nil {
		return smt.Unknown, errorf("%v", err)
	}
	defer sv.Close()
	if err := sv.SetParams(checkTuning...); err != nil {
		return smt.Unknown, errorf("%v", err)
	}
	return assertCheck(ctx, sv, f)
}

// assertCheck asserts f on sv and checks: the step askOnce and ask
// share, with the solver's errors as the checker's.
func assertCheck(ctx context.Context, sv *smt.Solver, f smt.Term) (smt.Result, error) {
	if err := sv.Assert(f); err != nil {
		return smt.Unknown, errorf("%v", err)
	}
	ans, err := sv.CheckContext(ctx)
	if err != nil {
		return smt.Unknown, errorf("%v", err)
	}
	return ans, nil
}

// ask checks f in a scope of its own. The scope is left when the answer
// is unsat, or always with popAlways; otherwise it stays, so that the
// model of a sat answer can be read.
func ask(ctx context.Context, sv *smt.Solver, f smt.Term, popAlways bool) (smt.Result, error) {
	if err := sv.Push(); err != nil {
		return smt.Unknown, errorf("%v", err)
	}
	ans, err := assertCheck(ctx, sv, f)
	if err != nil {
		return smt.Unknown, err
	}
	if ans == smt.Unsat || popAlways {
		if err := sv.Pop(1); err != nil {
			return smt.Unknown, errorf("%v", err)
		}
	}
	return ans, nil
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
