package main

import (
	"context"
	"encoding/json"
	"fmt"

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
	record     string
	json       bool
	prog       *progress
}

// loadPredicates reads --predicates, or the predicates a PA property file
// given as --unsafe or --start names; none: ppa starts from the atoms of
// the start and unsafe conditions.
func (r *ppaRun) loadPredicates(m *symbolic.Model) ([]*symbolic.Cond, string, error) {
	if r.predicates != "" {
		ps, err := jani.LoadPredicates(r.predicates, m)
		return ps, r.predicates, err
	}
	for _, f := range []string{*r.mf.plaja.unsafe, *r.mf.plaja.start} {
		if f == "" {
			continue
		}
		ps, found, err := jani.PredicatesOf(f, m)
		if err != nil || found {
			return ps, f, err
		}
	}
	return nil, "", nil
}

func (r *ppaRun) run(e *env, ctx context.Context) int {
	m, prop, decl := r.lm.m, r.lm.prop, r.lm.decl
	preds, from, err := r.loadPredicates(m)
	if err != nil {
		fmt.Fprintf(e.stderr, "vigil verify: %v\n", err)
		return exitError
	}
	for _, p := range preds {
		if err := ppa.Linear(m, p); err != nil {
			fmt.Fprintf(e.stderr, "vigil verify: %v\n", err)
			return exitError
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
		return exitError
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
				return exitError
			}
		}
	}
	if r.json {
		b, _ := json.MarshalIndent(rep, "", "  ")
		fmt.Fprintln(e.stdout, string(b))
	} else {
		w := e.stdout
		if res.Verdict == explicit.Unknown {
			fmt.Fprintf(w, "unknown: %s\n", res.Reason)
		} else {
			printVerdict(e, r.lm.rerun, m, rep, res.Verdict, res.Trace, false)
		}
		if res.Verdict == explicit.Safe {
			fmt.Fprintf(w, "abstraction: %d reachable abstract states over %d predicates, closed under the policy's transitions\n", s.AbstractStates, s.Predicates)
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
