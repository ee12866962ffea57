package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"

	"vigil/ic3"
	invcert "vigil/ic3/cert"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// ic3Figures are the --json statistics of an ic3 run.
type ic3Figures struct {
	Generalize     bool    `json:"generalize"`
	Order          string  `json:"order"`
	Frames         int     `json:"frames"`
	Clauses        int     `json:"clauses"`
	InvariantBoxes int     `json:"invariant_boxes,omitempty"`
	Obligations    int     `json:"obligations"`
	Learned        int     `json:"clauses_learned"`
	Pushed         int     `json:"clauses_pushed"`
	SMTCalls       int     `json:"smt_calls"`
	GenSMTCalls    int     `json:"generalization_smt_calls"`
	GenPerClause   float64 `json:"generalization_smt_calls_per_clause"`
	Lemmas         string  `json:"lemmas"`                    // linear or box
	RelLemmas      int     `json:"relational_lemmas"`         // learned clauses with a linear atom over several variables
	CTGs           int     `json:"ctg_clauses"`               // clauses learned for counterexamples to generalization
	Axes           int     `json:"relational_axes,omitempty"` // the model's axes (forms and variables) they draw on
	Rebuilds       int     `json:"solver_rebuilds"`
	SMTSeconds     float64 `json:"smt_seconds"`
	GenSeconds     float64 `json:"generalization_seconds"`
	PropSeconds    float64 `json:"propagation_seconds"`
	BFSStates      int     `json:"bfs_states_before,omitempty"` // auto: states BFS stored before it gave way
	// PolIC3: certifier calls, cache hits, undecided calls, their time,
	// and the policy facts of a safe answer.
	CertCalls   int     `json:"cert_calls,omitempty"`
	CertHits    int     `json:"cert_cache_hits,omitempty"`
	CertUnknown int     `json:"cert_undecided,omitempty"`
	CertSeconds float64 `json:"cert_seconds,omitempty"`
	PolicyFacts int     `json:"policy_facts,omitempty"`
	Refuted     int     `json:"refuted_concretely,omitempty"` // generalization candidates a concrete state refuted
	SubBoxes    int     `json:"cert_sub_boxes,omitempty"`     // labels excluded from a sub-box of the box asked about
}

func figures(s ic3.Stats, generalize bool, order string, boxOnly bool) *ic3Figures {
	lemmas := "linear"
	if boxOnly {
		lemmas = "box"
	}
	per := 0.0
	if s.Blocked > 0 {
		per = float64(s.GenSMTCalls) / float64(s.Blocked)
	}
	return &ic3Figures{
		Generalize: generalize, Order: order, GenSMTCalls: s.GenSMTCalls, GenPerClause: per,
		Lemmas: lemmas, RelLemmas: s.RelLemmas, Axes: s.Axes, CTGs: s.CTGs,
		Frames: s.Frames, Clauses: s.Clauses, InvariantBoxes: s.Invariant, Obligations: s.Obligations,
		Learned: s.Blocked, Pushed: s.Pushed, SMTCalls: s.SMTCalls, Rebuilds: s.Rebuilds,
		SMTSeconds: s.SMTTime.Seconds(), GenSeconds: s.GenTime.Seconds(), PropSeconds: s.PropTime.Seconds(),
		CertCalls: s.CertCalls, CertHits: s.CertHits, CertUnknown: s.CertUnknown, CertSeconds: s.CertTime.Seconds(),
		Refuted: s.Refuted, SubBoxes: s.SubBoxes,
	}
}

// ic3Run is vigil verify with --engine ic3, ic3-nog, or auto after BFS
// gave way.
type ic3Run struct {
	file       string
	mf         *modelFlags
	lm         *loadedModel
	generalize bool
	order      string
	widen      string
	boxOnly    bool // --lemmas box
	ctg        bool // --ctg
	// noCertCache: --cert-cache=false.
	noCertCache bool
	cert        string
	record      string
	json        bool
	prog        *progress
	bfsStates   int
}

func (r *ic3Run) run(e *env, ctx context.Context) int {
	m, prop, decl := r.lm.m, r.lm.prop, r.lm.decl
	engine := "ic3"
	if ic3.IsLearned(decl) {
		engine = "polic3"
	}
	if !r.generalize {
		engine += "-nog"
	}
	opts := ic3.Options{Generalize: r.generalize, Order: ic3.Order(r.order), NoRelational: r.boxOnly, CTG: r.ctg}
	opts.NoCertCache = r.noCertCache
	if r.widen != "auto" {
		opts.Widen = r.widen
	}
	opts.Progress = func(s ic3.Stats) {
		r.prog.printf("verify (%s): level %d, %d obligations, %d clauses, %d SMT calls, %.1fs", engine, s.Frames, s.Obligations, s.Clauses, s.SMTCalls, s.Elapsed.Seconds())
	}
	res, err := ic3.Check(ctx, m, prop, decl, opts)
	r.prog.clear()
	if err != nil {
		fmt.Fprintf(e.stderr, "vigil verify: %v\n", err)
		return exitFor(err)
	}
	rep := &verifyReport{
		Verdict: res.Verdict.String(), Engine: engine, Model: m.Name,
		Property: prop.Name, Policy: policyName(decl), Seconds: res.Stats.Elapsed.Seconds(),
		IC3: figures(res.Stats, r.generalize, r.order, r.boxOnly), Reason: res.Reason,
	}
	rep.IC3.PolicyFacts = len(res.Facts)
	rep.IC3.BFSStates = r.bfsStates
	verdict := explicit.Unknown
	switch res.Verdict {
	case ic3.Unsafe:
		verdict = explicit.UnsafeVerdict
		res.Trace = corruptAnswer.traceOf(res.Trace)
		// Check our own answer before printing it.
		if err := r.lm.g.CheckCounterexample(r.lm.dec, res.Trace); err != nil {
			return internalError(e, "verify", "the ic3 counterexample does not replay in the explicit semantics: %v", err)
		}
		rep.Counterexample = explicit.NewRun(m, prop.Name, policyName(decl), explicit.EndUnsafe, res.Trace)
		if r.record != "" {
			if err := writeRunFile(r.record, rep.Counterexample); err != nil {
				fmt.Fprintf(e.stderr, "vigil verify: %v\n", err)
				return exitFor(err)
			}
		}
	case ic3.Safe:
		verdict = explicit.Safe
		// The invariant goes through the independent checker before the
		// verdict is printed.
		h, err := r.header(res)
		if err != nil {
			fmt.Fprintf(e.stderr, "vigil verify: %v\n", err)
			return exitFor(err)
		}
		res.Invariant = corruptAnswer.invariantOf(res.Invariant)
		c := &invcert.Cert{Header: h, Inv: res.Invariant}
		for _, v := range m.Vars {
			c.Vars = append(c.Vars, v.Name)
		}
		if err := invcert.Check(ctx, c, m, prop, decl); err != nil {
			if ctx.Err() == nil {
				return internalError(e, "verify", "the ic3 invariant does not check: %v", err)
			}
			// The limit hit while the invariant was being checked: an
			// unchecked invariant is no answer.
			verdict = explicit.Unknown
			rep.Verdict = ic3.Unknown.String()
			rep.Reason = "timeout while checking the invariant"
			if errors.Is(ctx.Err(), context.Canceled) {
				rep.Reason = "interrupted while checking the invariant"
			}
			break
		}
		if r.cert != "" {
			if err := writeInvariant(r.cert, c, m, prop, decl); err != nil {
				fmt.Fprintf(e.stderr, "vigil verify: %v\n", err)
				return exitFor(err)
			}
			rep.Certificate = r.cert
		}
	}
	if !writeVerifyHTML(e, r.lm, rep, verdict, res.Trace) {
		return exitError
	}
	if r.json {
		b, _ := json.MarshalIndent(rep, "", "  ")
		fmt.Fprintln(e.stdout, string(b))
	} else {
		printVerdict(e, r.lm, rep, verdict, res.Trace, false)
		w := e.stdout
		if verdict == explicit.Safe {
			fmt.Fprintf(w, "inductive invariant: %s, checked", boxes(res.Stats.Invariant))
			if r.cert != "" {
				fmt.Fprintf(w, "; certificate %s (check with: vigil cert check %s; z3 %s checks only the definitions written in it)", r.cert, r.cert, r.cert)
			}
			fmt.Fprintln(w)
		}
		s := res.Stats
		if r.bfsStates > 0 {
			fmt.Fprintf(w, "engine auto: bfs gave way after %s\n", plural(r.bfsStates, "state"))
		}
		fmt.Fprintf(w, "engine %s: %d frames, %d clauses, %d obligations, %d SMT calls, %.3fs (smt %.3fs, generalization %.3fs, propagation %.3fs)\n",
			engine, s.Frames, s.Clauses, s.Obligations, s.SMTCalls, s.Elapsed.Seconds(), s.SMTTime.Seconds(), s.GenTime.Seconds(), s.PropTime.Seconds())
		if s.Blocked > 0 && r.generalize && !ic3.IsLearned(decl) {
			fmt.Fprintf(w, "lemmas: %d learned, %d relational (linear atoms over %d axes of the model), %d for counterexamples to generalization; generalization made %d SMT calls (%.1f per clause)\n",
				s.Blocked, s.RelLemmas, s.Axes, s.CTGs, s.GenSMTCalls, float64(s.GenSMTCalls)/float64(s.Blocked))
		}
		if s.CertCalls+s.CertHits > 0 {
			fmt.Fprintf(w, "certification: %d calls (%d undecided), %d cache hits, %.3fs; %d policy facts", s.CertCalls, s.CertUnknown, s.CertHits, s.CertTime.Seconds(), len(res.Facts))
			if s.SubBoxes > 0 {
				fmt.Fprintf(w, "; %d labels excluded on a sub-box", s.SubBoxes)
			}
			fmt.Fprintln(w)
		}
		if s.Refuted > 0 {
			fmt.Fprintf(w, "generalization: %d candidates refuted by a concrete state (no SMT call)\n", s.Refuted)
		}
	}
	switch verdict {
	case explicit.Safe:
		return exitOK
	case explicit.UnsafeVerdict:
		return exitUnsafe
	}
	return exitUnknown
}

// header records the question: the model file, -D values, PlaJA files,
// property, policy, the model's hash and the policy facts.
func (r *ic3Run) header(res *ic3.Result) (invcert.Header, error) {
	m, prop, decl := r.lm.m, r.lm.prop, r.lm.decl
	h := invcert.Header{Model: r.file, Property: prop.Name, Policy: policyName(decl), Boxes: len(res.Invariant)}
	for _, f := range res.Facts {
		pf := invcert.PolicyFact{Box: f.Box, Label: m.Labels[f.Label].Name}
		for _, l := range f.Within {
			pf.Within = append(pf.Within, invcert.FormatLit(m, l))
		}
		for _, l := range f.Sure {
			pf.Sure = append(pf.Sure, m.Labels[l].Name)
		}
		h.Facts = append(h.Facts, pf)
	}
	for k, v := range r.mf.defs {
		h.Defines = append(h.Defines, k+"="+v)
	}
	sort.Strings(h.Defines)
	if p := r.mf.plaja; p != nil {
		h.StartFile, h.UnsafeFile, h.PolicyFile = *p.start, *p.unsafe, *p.policyFile
	}
	var err error
	if r.cert != "" {
		if h.Dir, err = certPaths(r.cert, &h.Model, &h.StartFile, &h.UnsafeFile, &h.PolicyFile); err != nil {
			return h, err
		}
	}
	if h.Hash, err = invcert.ModelHash(m, h.Property, h.Policy); err != nil {
		return h, err
	}
	h.PolicyHash, err = invcert.PolicyHash(decl)
	return h, err
}

// writeInvariant writes the SMT-LIB2 certificate of c; a learned policy's
// certificate checks consecution per label, given its facts.
func writeInvariant(path string, c *invcert.Cert, m *symbolic.Model, prop *symbolic.Property, decl *symbolic.PolicyDecl) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := c.Write(f, m, prop, decl); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// invariantCheck is vigil cert check on an invariant certificate.
func invariantCheck(e *env, path, spec string, plaja *plajaFlags, defs defines, asJSON bool) int {
	type result struct {
		Verdict   string `json:"verdict"` // valid or invalid
		Valid     bool   `json:"valid"`
		Kind      string `json:"kind"`
		Boxes     int    `json:"boxes"`
		Condition string `json:"failed_condition,omitempty"`
		Error     string `json:"error,omitempty"`
		// Checked is what the certificate was checked against (absent
		// when the model could not be loaded).
		Checked *checked `json:"checked,omitempty"`
	}
	res := result{Kind: "invariant"}
	finish := func(err error, answer bool) int {
		res.Valid, res.Verdict = err == nil, "valid"
		if err != nil {
			res.Verdict = "invalid"
			res.Error = strings.TrimPrefix(err.Error(), "cert: ")
		}
		switch {
		case asJSON:
			b, _ := json.MarshalIndent(res, "", "  ")
			fmt.Fprintln(e.stdout, string(b))
		case err == nil:
			if res.Checked != nil {
				res.Checked.print(e.stdout)
			}
		case answer:
			fmt.Fprintf(e.stdout, "invalid: %s\n", res.Error)
			if res.Checked != nil {
				res.Checked.print(e.stdout)
			}
		default:
			fmt.Fprintf(e.stderr, "vigil cert check: %s\n", res.Error)
		}
		if err != nil {
			return exitError
		}
		return exitOK
	}
	c, err := invcert.Read(path)
	if err != nil {
		return finish(err, true)
	}
	res.Boxes = len(c.Inv)
	rec := certRecord{spec: c.Model, dir: c.Dir, defines: map[string]string{}, property: c.Property, policy: c.Policy,
		start: c.StartFile, unsafe: c.UnsafeFile, policyFile: c.PolicyFile}
	for _, d := range c.Defines {
		k, v, ok := strings.Cut(d, "=")
		if !ok {
			return finish(fmt.Errorf("%s: define %+q: want NAME=VALUE", path, d), true)
		}
		rec.defines[k] = v
	}
	if err := compareDefines(path, rec.defines, defs); err != nil {
		return finish(err, true)
	}
	m, chk, propName, polName, _, err := rec.load(e, path, spec, plaja, defs)
	if err != nil {
		return finish(err, false)
	}
	model := chk.ModelFile
	props, pols := modelNames(m)
	if err := plainName(path, "property", propName, props); err != nil {
		return finish(err, true)
	}
	if err := plainName(path, "policy", polName, pols); err != nil {
		return finish(err, true)
	}
	prop, ok := selectProperty(e, "cert check", m, propName, true)
	if !ok {
		return finish(fmt.Errorf("model %s: no property %q", model, propName), false)
	}
	var pol *symbolic.PolicyDecl
	if polName != "" {
		if pol, ok = selectPolicy(e, "cert check", m, polName, false); !ok {
			return finish(fmt.Errorf("model %s: no policy %q", model, polName), false)
		}
	}
	if err := chk.describe(m, prop, pol, c.PolicyHash); err != nil {
		return finish(err, false)
	}
	res.Checked = chk
	ctx, cancel := runContext(0)
	defer cancel()
	if err := invcert.Check(ctx, c, m, prop, pol); err != nil {
		var f *invcert.Failure
		if errors.As(err, &f) {
			res.Condition = f.Condition
		}
		return finish(err, true)
	}
	chk.ModelSHA256 = c.Hash // Check compared it with the model's
	if !asJSON {
		about := fmt.Sprintf("model %s, property %s", invcert.Quote(m.Name), invcert.Quote(prop.Name))
		if pol != nil {
			about += ", policy " + invcert.Quote(pol.Name)
		}
		holds := "init, consecution and safety hold"
		if len(c.Facts) > 0 {
			holds = fmt.Sprintf("init, consecution, safety and %d policy facts hold", len(c.Facts))
		}
		fmt.Fprintf(e.stdout, "valid: invariant certificate for %s: %s; %s\n", about, boxes(len(c.Inv)), holds)
	}
	return finish(nil, true)
}

func boxes(n int) string {
	if n == 1 {
		return "1 box"
	}
	return fmt.Sprintf("%d boxes", n)
}
