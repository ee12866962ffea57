package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"vigil/ic3"
	invcert "vigil/ic3/cert"
	"vigil/lang"
	"vigil/lang/jani"
	"vigil/ppa"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// ppaFigures are the --json statistics of a ppa run.
type ppaFigures struct {
	Iterations     int     `json:"cegar_iterations"`
	Predicates     int     `json:"predicates"`
	InitialPreds   int     `json:"initial_predicates"`
	AbstractStates int     `json:"abstract_states"`
	Transitions    int     `json:"abstract_transitions"`
	Spurious       int     `json:"spurious_paths"`
	SMTCalls       int     `json:"smt_calls"`
	CacheHits      int     `json:"transition_cache_hits"`
	SMTSeconds     float64 `json:"smt_seconds"`
	ExactPolicy    bool    `json:"exact_policy_encoding"`
	PredicateFile  string  `json:"predicates_file,omitempty"`
}

// ppaRun is vigil verify --engine ppa.
type ppaRun struct {
	file       string
	mf         *modelFlags
	lm         *loadedModel
	predicates string // --predicates
	cert       string // --cert
	record     string
	json       bool
	prog       *progress
}

// loadPredicates reads --predicates, or the predicates a PA property file
// given as --unsafe or --start names; none: ppa starts from the atoms of
// the start and unsafe conditions.
func (r *ppaRun) loadPredicates(m *symbolic.Model) ([]*symbolic.Cond, string, error) {
	if r.predicates != "" {
		if isSpecPredicates(r.predicates) {
			ps, err := r.specPredicates(m)
			return ps, r.predicates, err
		}
		ps, err := jani.LoadPredicates(r.predicates, m)
		return ps, r.predicates, err
	}
	// A PA property (from --start/--unsafe files, or inside the model,
	// chosen by --property) brings its own predicates.
	if p := r.lm.prop; p != nil && len(p.Predicates) > 0 {
		return p.Predicates, "PA property " + p.Name, nil
	}
	return nil, "", nil
}

func (r *ppaRun) run(e *env, ctx context.Context) int {
	m, prop, decl := r.lm.m, r.lm.prop, r.lm.decl
	preds, from, err := r.loadPredicates(m)
	if err != nil {
		fmt.Fprintf(e.stderr, "vigil verify: %v\n", err)
		return exitFor(err)
	}
	for _, p := range preds {
		if err := ppa.Linear(m, p); err != nil {
			fmt.Fprintf(e.stderr, "vigil verify: %v\n", err)
			return exitFor(err)
		}
	}
	opts := ppa.Options{Predicates: preds}
	opts.Progress = func(s ppa.Stats) {
		r.prog.printf("verify (ppa): iteration %d, %d predicates, %d abstract states, %d SMT calls, %.1fs", s.Iterations, s.Predicates, s.AbstractStates, s.SMTCalls, s.Elapsed.Seconds())
	}
	res, err := ppa.Check(ctx, m, prop, decl, opts)
	r.prog.clear()
	if err != nil {
		fmt.Fprintf(e.stderr, "vigil verify: %v\n", err)
		return exitFor(err)
	}
	s := res.Stats
	rep := &verifyReport{
		Verdict: res.Verdict.String(), Engine: "ppa", Model: m.Name,
		Property: prop.Name, Policy: policyName(decl), Seconds: s.Elapsed.Seconds(),
		Reason: res.Reason,
		PPA: &ppaFigures{Iterations: s.Iterations, Predicates: s.Predicates, InitialPreds: len(preds),
			AbstractStates: s.AbstractStates, Transitions: s.Transitions, Spurious: s.Spurious,
			SMTCalls: s.SMTCalls, CacheHits: s.CacheHits, SMTSeconds: s.SMTTime.Seconds(),
			ExactPolicy: res.Exact, PredicateFile: from},
	}
	if res.Verdict == explicit.UnsafeVerdict {
		res.Trace = corruptAnswer.traceOf(res.Trace)
		// Check our own answer before printing it.
		if err := r.lm.g.CheckCounterexample(r.lm.dec, res.Trace); err != nil {
			return internalError(e, "verify", "the ppa counterexample does not replay in the explicit semantics: %v", err)
		}
		rep.Counterexample = explicit.NewRun(m, prop.Name, policyName(decl), explicit.EndUnsafe, res.Trace)
		if r.record != "" {
			if err := writeRunFile(r.record, rep.Counterexample); err != nil {
				fmt.Fprintf(e.stderr, "vigil verify: %v\n", err)
				return exitFor(err)
			}
		}
	}
	certNote := ""
	if res.Verdict == explicit.Safe {
		// The reachable cubes as a box certificate, checked by the
		// independent checker before the verdict is printed.
		note, code, stop := r.certify(e, ctx, res, rep)
		if stop {
			return code
		}
		certNote = note
	}
	if r.json {
		b, _ := json.MarshalIndent(rep, "", "  ")
		fmt.Fprintln(e.stdout, string(b))
	} else {
		w := e.stdout
		if res.Verdict == explicit.Unknown {
			fmt.Fprintf(w, "unknown: %s\n", res.Reason)
		} else {
			printVerdict(e, r.lm, rep, res.Verdict, res.Trace, false)
		}
		if res.Verdict == explicit.Safe {
			fmt.Fprintf(w, "abstraction: %d reachable abstract states over %d predicates, closed under the policy's transitions\n", s.AbstractStates, s.Predicates)
			fmt.Fprintln(w, certNote)
		}
		fmt.Fprintf(w, "engine ppa: %d CEGAR iterations (%d spurious paths), %d predicates (%d given), %d abstract states, %d abstract transitions, %d SMT calls (%d cache hits), %.3fs (smt %.3fs)\n",
			s.Iterations, s.Spurious, s.Predicates, len(preds), s.AbstractStates, s.Transitions, s.SMTCalls, s.CacheHits, s.Elapsed.Seconds(), s.SMTTime.Seconds())
	}
	switch res.Verdict {
	case explicit.Safe:
		return exitOK
	case explicit.UnsafeVerdict:
		return exitUnsafe
	}
	return exitUnknown
}

// maxCheckedBoxes is the largest box certificate a safe ppa answer is
// checked as without --cert: a learned policy's cubes are listed state by
// state, and the checker's SMT queries over tens of thousands of boxes
// take minutes where the abstraction took a second.
const maxCheckedBoxes = 4096

// certify turns a safe answer's cubes into an ic3/cert certificate (boxes
// and policy facts), checks it with the independent checker, and writes it
// with --cert. It returns the line to print, or stop with an exit code.
func (r *ppaRun) certify(e *env, ctx context.Context, res *ppa.Result, rep *verifyReport) (note string, code int, stop bool) {
	m, prop, decl := r.lm.m, r.lm.prop, r.lm.decl
	var pol symbolic.Policy
	if ic3.IsLearned(decl) {
		var err error
		if pol, err = symbolic.Instantiate(m, decl); err != nil {
			fmt.Fprintf(e.stderr, "vigil verify: %v\n", err)
			return "", exitFor(err), true
		}
	}
	limit := maxCheckedBoxes
	if r.cert != "" {
		limit = 0
	}
	inv, bfacts, err := ppa.Boxes(ctx, m, res, pol, limit)
	if errors.Is(err, ppa.ErrTooManyBoxes) {
		return fmt.Sprintf("invariant: more than %d boxes, not checked (--cert FILE exports and checks it)", maxCheckedBoxes), 0, false
	}
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Sprintf("invariant not certified: %s while converting it", stopReason(ctx)), 0, false
		}
		if r.cert != "" {
			fmt.Fprintf(e.stderr, "vigil verify: safe, but no certificate: %v\n", err)
			return "", exitFor(err), true
		}
		return fmt.Sprintf("invariant not exported as boxes: %v", err), 0, false
	}
	ir := &ic3Run{file: r.file, mf: r.mf, lm: r.lm}
	ires := &ic3.Result{Invariant: inv}
	for _, f := range bfacts {
		ires.Facts = append(ires.Facts, ic3.Fact{Box: f.Box, Label: f.Label, Sure: f.Sure})
	}
	h, err := ir.header(ires)
	if err != nil {
		fmt.Fprintf(e.stderr, "vigil verify: %v\n", err)
		return "", exitFor(err), true
	}
	ires.Invariant = corruptAnswer.invariantOf(ires.Invariant)
	c := &invcert.Cert{Header: h, Inv: ires.Invariant}
	for _, v := range m.Vars {
		c.Vars = append(c.Vars, v.Name)
	}
	if err := invcert.Check(ctx, c, m, prop, decl); err != nil {
		var f *invcert.Failure
		if ctx.Err() == nil && pol != nil && errors.As(err, &f) && (f.Condition == "consecution" || f.Condition == "fact") {
			// A large cube where a learned policy's choice varies: the
			// box format states facts per box, not per cube; the safe
			// verdict stands on the abstraction, not on this export.
			if r.cert != "" {
				fmt.Fprintf(e.stderr, "vigil verify: safe, but the box certificate does not hold: %v\n", err)
				return "", exitFor(err), true
			}
			return fmt.Sprintf("invariant not exported: the box certificate does not hold (%v)", err), 0, false
		}
		if ctx.Err() == nil {
			return "", internalError(e, "verify", "the ppa invariant does not check: %v", err), true
		}
		return fmt.Sprintf("invariant not certified: %s while checking it", stopReason(ctx)), 0, false
	}
	note = fmt.Sprintf("inductive invariant: %s with %d policy facts, checked", boxes(len(inv)), len(bfacts))
	if r.cert != "" {
		if err := writeInvariant(r.cert, c, m, prop, decl); err != nil {
			fmt.Fprintf(e.stderr, "vigil verify: %v\n", err)
			return "", exitFor(err), true
		}
		rep.Certificate = r.cert
		note += fmt.Sprintf("; certificate %s (check with: vigil cert check %s)", r.cert, r.cert)
	}
	return note, 0, false
}

// isSpecPredicates reports whether a predicates file is .spec text (pred
// declarations) rather than PlaJA's JSON.
func isSpecPredicates(path string) bool {
	if strings.EqualFold(filepath.Ext(path), ".spec") {
		return true
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return false // the JSON reader reports it
	}
	t := strings.TrimSpace(string(b))
	return t != "" && t[0] != '[' && t[0] != '{'
}

// specPredicates reads a .spec predicates file: `pred NAME = COND`
// declarations over the model's variables, checked and lowered by the
// .spec front end as if the file imported the model (diagnostics keep the
// file's own lines and columns).
func (r *ppaRun) specPredicates(m *symbolic.Model) ([]*symbolic.Cond, error) {
	src, err := os.ReadFile(r.predicates)
	if err != nil {
		return nil, err
	}
	model, err := filepath.Abs(r.file)
	if err != nil {
		return nil, err
	}
	text := append(append(src, '\n'), fmt.Sprintf("import %q\n", model)...)
	pm, diags := lang.LoadSource(r.predicates, text, lang.Options{Defines: r.mf.defs})
	if diags.HasErrors() {
		return nil, fmt.Errorf("%s", strings.TrimRight(diags.Render(), "\n"))
	}
	if len(pm.Vars) != len(m.Vars) {
		return nil, fmt.Errorf("%s: the predicates see %d variables, the model %d", r.predicates, len(pm.Vars), len(m.Vars))
	}
	for i := range pm.Vars {
		if pm.Vars[i].Name != m.Vars[i].Name {
			return nil, fmt.Errorf("%s: the predicates see variable %s where the model has %s", r.predicates, pm.Vars[i].Name, m.Vars[i].Name)
		}
	}
	var ps []*symbolic.Cond
	for _, p := range pm.Preds {
		if p.Pos.File == r.predicates {
			ps = append(ps, p.Cond)
		}
	}
	if len(ps) == 0 {
		return nil, fmt.Errorf("%s: no predicates: write one `pred NAME = CONDITION` per line", r.predicates)
	}
	return ps, nil
}
