package main

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"vigil/ic3"
	invcert "vigil/ic3/cert"
	"vigil/symbolic/explicit"
	"vigil/verify"
)

// verifyReport is the --json form of a verification.
type verifyReport struct {
	Verdict        string            `json:"verdict"` // safe, unsafe, unknown
	Reason         string            `json:"reason,omitempty"`
	Engine         string            `json:"engine"`
	Model          string            `json:"model"`
	Property       string            `json:"property"`
	Policy         string            `json:"policy"`
	States         int               `json:"states"`
	StartStates    int               `json:"start_states"`
	Transitions    int               `json:"transitions"`
	Depth          int               `json:"depth"`
	Seconds        float64           `json:"seconds"`
	Counterexample *explicit.Run     `json:"counterexample,omitempty"`
	IC3            *ic3Figures       `json:"ic3,omitempty"`
	PPA            *ppaFigures       `json:"ppa,omitempty"`
	Hunt           *verify.HuntStats `json:"hunt,omitempty"`
	Auto           *verify.AutoStats `json:"auto,omitempty"`
	Certificate    string            `json:"certificate,omitempty"`
}

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

// certHeader is what a certificate of this verification records about
// where the question came from: the model file, -D values and PlaJA files,
// relative to the certificate's directory when one is written.
func certHeader(file string, mf *modelFlags, cert string) (invcert.Header, error) {
	h := invcert.Header{Model: file}
	for k, v := range mf.defs {
		h.Defines = append(h.Defines, k+"="+v)
	}
	sort.Strings(h.Defines)
	if p := mf.plaja; p != nil {
		h.StartFile, h.UnsafeFile, h.PolicyFile = *p.start, *p.unsafe, *p.policyFile
	}
	if cert == "" {
		return h, nil
	}
	var err error
	h.Dir, err = certPaths(cert, &h.Model, &h.StartFile, &h.UnsafeFile, &h.PolicyFile)
	return h, err
}

// verifyOutput turns a checked verdict into vigil verify's output.
type verifyOutput struct {
	e    *env
	lm   *loadedModel
	mf   *modelFlags
	file string
	v    *verify.Verdict
	cert string // --cert
	json bool
	bdd  string // --order of the BDD engine
}

// report is the --json form of the verdict (the text form prints from it
// too).
func (o *verifyOutput) report() *verifyReport {
	v, lm := o.v, o.lm
	rep := &verifyReport{Verdict: v.Answer.String(), Reason: v.Reason, Engine: v.Engine, Model: lm.m.Name,
		Property: lm.prop.Name, Policy: policyName(lm.decl), Seconds: v.Elapsed.Seconds(), Auto: v.Auto, Hunt: v.Hunt}
	switch {
	case v.BFS != nil:
		s := v.BFS.Stats
		rep.States, rep.StartStates, rep.Transitions, rep.Depth = s.States, s.Starts, s.Transitions, s.Depth
	case v.IC3 != nil:
		r := v.IC3
		rep.IC3 = figures(r.Stats, r.Generalize, r.Order, r.BoxOnly)
		rep.IC3.PolicyFacts = len(r.Facts)
		if v.Auto != nil {
			rep.IC3.BFSStates, _ = v.Auto.GaveWay()
		}
	case v.PPA != nil:
		s := v.PPA.Stats
		rep.PPA = &ppaFigures{Iterations: s.Iterations, Predicates: s.Predicates, InitialPreds: v.PPA.Initial,
			AbstractStates: s.AbstractStates, Transitions: s.Transitions, Spurious: s.Spurious,
			SMTCalls: s.SMTCalls, CacheHits: s.CacheHits, SMTSeconds: s.SMTTime.Seconds(),
			ExactPolicy: v.PPA.Exact, PredicateFile: v.PPA.From}
	case v.BDD != nil:
		rep.States, rep.StartStates, rep.Depth = clampInt(v.BDD.States), clampInt(v.BDD.Starts), v.BDD.Depth
	case v.Hunt != nil:
		rep.Depth = v.Hunt.Depth
	}
	if v.Answer == explicit.UnsafeVerdict {
		rep.Counterexample = explicit.NewRun(lm.m, lm.prop.Name, policyName(lm.decl), explicit.EndUnsafe, v.Trace)
	}
	return rep
}

// writeCert writes the certificate of a safe verdict to --cert, printing
// what goes wrong; it reports whether the command may go on.
func (o *verifyOutput) writeCert(rep *verifyReport) bool {
	v := o.v
	if o.cert == "" || v.Answer != explicit.Safe {
		return true
	}
	switch {
	case v.BFS != nil:
		if err := writeReachCert(o.cert, o.file, o.mf, o.lm, v.BFS); err != nil {
			fmt.Fprintf(o.e.stderr, "vigil verify: --cert: %v\n", err)
			return false
		}
	case v.Invariant != nil:
		if err := writeInvariant(o.cert, v.Invariant, o.lm.m, o.lm.prop, o.lm.decl); err != nil {
			fmt.Fprintf(o.e.stderr, "vigil verify: %v\n", err)
			return false
		}
		if v.PPA != nil {
			v.CertNote += fmt.Sprintf("; certificate %s (check with: vigil cert check %s)", o.cert, o.cert)
		}
	default:
		return true
	}
	rep.Certificate = o.cert
	return true
}

// print writes the verdict as JSON or as text.
func (o *verifyOutput) print(rep *verifyReport) {
	e, v := o.e, o.v
	if o.json {
		var b []byte
		if v.BDD != nil {
			b, _ = json.MarshalIndent(&bddVerifyReport{verifyReport: rep, ReachedStates: num(v.BDD.States), Starts: num(v.BDD.Starts), BDD: newBDDStats(o.bdd, v.BDD.Stats)}, "", "  ")
		} else {
			b, _ = json.MarshalIndent(rep, "", "  ")
		}
		fmt.Fprintln(e.stdout, string(b))
		return
	}
	w := e.stdout
	switch {
	case v.BFS != nil:
		printVerdict(e, o.lm, rep, v.Answer, v.Trace, true)
		fmt.Fprintf(w, "engine bfs: %s, %s, depth %d, %.3fs\n", plural(rep.States, "state"), plural(rep.Transitions, "transition"), rep.Depth, rep.Seconds)
		if rep.Certificate != "" {
			fmt.Fprintf(w, "certificate: %s, the %s reached (check with: vigil cert check %s)\n", rep.Certificate, plural(rep.States, "state"), shellQuote(rep.Certificate))
		}
	case v.IC3 != nil:
		o.printIC3(rep)
	case v.PPA != nil:
		s := v.PPA.Stats
		if v.Answer == explicit.Unknown {
			fmt.Fprintf(w, "unknown: %s\n", v.Reason)
		} else {
			printVerdict(e, o.lm, rep, v.Answer, v.Trace, false)
		}
		if v.Answer == explicit.Safe {
			fmt.Fprintf(w, "abstraction: %d reachable abstract states over %d predicates, closed under the policy's transitions\n", s.AbstractStates, s.Predicates)
			fmt.Fprintln(w, v.CertNote)
		}
		fmt.Fprintf(w, "engine ppa: %d CEGAR iterations (%d spurious paths), %d predicates (%d given), %d abstract states, %d abstract transitions, %d SMT calls (%d cache hits), %.3fs (smt %.3fs)\n",
			s.Iterations, s.Spurious, s.Predicates, v.PPA.Initial, s.AbstractStates, s.Transitions, s.SMTCalls, s.CacheHits, s.Elapsed.Seconds(), s.SMTTime.Seconds())
	case v.BDD != nil:
		printVerdict(e, o.lm, rep, v.Answer, v.Trace, true)
		fmt.Fprintf(w, "engine bdd: %s states reached (%s start), depth %d\n", v.BDD.States, v.BDD.Starts, v.BDD.Depth)
		newBDDStats(o.bdd, v.BDD.Stats).print(e, "bdd", rep.Seconds)
	default:
		printVerdict(e, o.lm, rep, v.Answer, v.Trace, false)
		if h := v.Hunt; h != nil {
			fmt.Fprintf(w, "engine hunt: %s, %s, %.3fs\n", plural(h.Walks, "random walk"), plural(h.Steps, "step"), rep.Seconds)
		}
	}
	if a := v.Auto; a != nil {
		fmt.Fprintln(w, autoLine(a))
	}
}

// printIC3 writes the text form of an ic3 or PolIC3 verdict.
func (o *verifyOutput) printIC3(rep *verifyReport) {
	e, v, w := o.e, o.v, o.e.stdout
	res := v.IC3
	printVerdict(e, o.lm, rep, v.Answer, v.Trace, false)
	if v.Answer == explicit.Safe {
		fmt.Fprintf(w, "inductive invariant: %s, checked", verify.Boxes(res.Stats.Invariant))
		if o.cert != "" {
			fmt.Fprintf(w, "; certificate %s (check with: vigil cert check %s; z3 %s checks only the definitions written in it)", o.cert, o.cert, o.cert)
		}
		fmt.Fprintln(w)
	}
	s := res.Stats
	if rep.IC3.BFSStates > 0 {
		fmt.Fprintf(w, "engine auto: bfs gave way after %s\n", plural(rep.IC3.BFSStates, "state"))
	}
	fmt.Fprintf(w, "engine %s: %d frames, %d clauses, %d obligations, %d SMT calls, %.3fs (smt %.3fs, generalization %.3fs, propagation %.3fs)\n",
		v.Engine, s.Frames, s.Clauses, s.Obligations, s.SMTCalls, s.Elapsed.Seconds(), s.SMTTime.Seconds(), s.GenTime.Seconds(), s.PropTime.Seconds())
	if s.Blocked > 0 && res.Generalize && !ic3.IsLearned(o.lm.decl) {
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

// autoLine says which member of the auto portfolio won and how the
// others ended.
func autoLine(a *verify.AutoStats) string {
	var others []string
	for _, m := range a.Members {
		if m.Outcome == "won" {
			continue
		}
		s := m.Engine + " " + m.Outcome
		switch {
		case m.States > 0:
			s += " after " + plural(m.States, "state")
		case m.Walks > 0:
			s += " after " + plural(m.Walks, "random walk")
		}
		if m.Reason != "" && m.Outcome != "cancelled" {
			s += " (" + m.Reason + ")"
		}
		others = append(others, s)
	}
	who := "no engine decided"
	if a.Winner != "" {
		who = a.Winner + " won"
	}
	return fmt.Sprintf("engine auto: %s on %s in %.3fs; %s", who, plural(a.Cores, "core"), a.Seconds, strings.Join(others, ", "))
}
