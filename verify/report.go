package verify

// The reports of a verdict: Report is its JSON form (the exact shape of
// vigil verify --json), WriteText its text and WriteHTML its page. They
// live beside the verdict they describe so that a Go program gets the
// same report as the command line without it.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"math/big"
	"slices"
	"strings"

	"vigil/bdd"
	"vigil/ic3"
	"vigil/internal/phrase"
	"vigil/smt"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// Report is the JSON form of a checked verdict, as vigil verify --json
// prints it. Make one with NewReport: WriteText and WriteHTML read the
// verdict and the question it keeps (a Report read back from JSON has
// neither, and no BDD figures).
type Report struct {
	Verdict  string `json:"verdict"` // safe, unsafe, unknown
	Reason   string `json:"reason,omitempty"`
	Engine   string `json:"engine"`
	Model    string `json:"model"`
	Property string `json:"property"`
	Policy   string `json:"policy"`
	// Notes say how the command line changed the question the model
	// declares: an --argmax that overrode the policy's reading
	// (load.OverrideNote). The text ends with them as "note: ..." lines.
	Notes       []string `json:"notes,omitempty"`
	States      int      `json:"states"`
	StartStates int      `json:"start_states"`
	Transitions int      `json:"transitions"`
	Depth       int      `json:"depth"`
	Seconds     float64  `json:"seconds"`
	// Counterexample is the unsafe verdict's run in run-file form. NewReport
	// leaves it nil (in this form a run of 10^6 steps takes some 350 MB,
	// which the text report does not need): Run builds it, and the JSON
	// form always carries it.
	Counterexample *explicit.Run `json:"counterexample,omitempty"`
	IC3            *IC3Figures   `json:"ic3,omitempty"`
	PPA            *PPAFigures   `json:"ppa,omitempty"`
	Hunt           *HuntStats    `json:"hunt,omitempty"`
	Auto           *AutoStats    `json:"auto,omitempty"`
	Certificate    string        `json:"certificate,omitempty"` // the file a certificate was written to
	// CertNotWritten is the certificate file a stop (Reason) interrupted
	// while it was written; FILE was not written, an older one kept (as vigil safe's report).
	CertNotWritten string `json:"certificate_not_written,omitempty"`
	// CertError is why the certificate asked for could not be written
	// (the verdict stands; the command exits 1).
	CertError string            `json:"certificate_error,omitempty"`
	BDD       *BDDVerifyFigures `json:"-"` // engine bdd: follows the fields above in the JSON

	q *Question
	v *Verdict
}

// BDDVerifyFigures are what a verdict of the BDD engine adds to its
// report: the exact state counts (Report's int counts are clamped) and the
// engine's statistics.
type BDDVerifyFigures struct {
	ReachedStates json.Number `json:"reached_states"`
	Starts        json.Number `json:"start_states_exact"`
	BDD           *BDDFigures `json:"bdd"`
}

// report is Report without its MarshalJSON.
type report Report

// MarshalJSON writes the report's fields, then those of BDD when set.
func (r *Report) MarshalJSON() ([]byte, error) {
	r.Run()
	if r.BDD == nil {
		return json.Marshal((*report)(r))
	}
	return json.Marshal(struct {
		*report
		*BDDVerifyFigures
	}{(*report)(r), r.BDD})
}

// IC3Figures are the statistics of an ic3 or PolIC3 run.
type IC3Figures struct {
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
	SplitCalls  int     `json:"cert_split_calls,omitempty"`   // certifier calls on the parts of undecided regions (ic3/split.go)
	// RegionCalls are the certifier calls over a region with linear atoms
	// (ic3.Stats.RegionCalls), and RegionFacts the policy facts whose
	// region has one.
	RegionCalls int `json:"cert_region_calls,omitempty"`
	RegionFacts int `json:"policy_facts_over_regions,omitempty"`
	// Evaluated counts PolIC3's questions about small boxes answered by
	// evaluating their states instead of by SMT (ic3.Stats.Evaluated).
	Evaluated int `json:"evaluated_questions,omitempty"`
	// FreeCores counts PolIC3's generalizations to an unsat core that
	// needed no policy exclusion (ic3.Stats.FreeCores).
	FreeCores int `json:"policy_free_cores,omitempty"`
	// DifferPairs is the size of PolIC3's disequality invariant and
	// DifferSeconds the time spent finding it; DifferFacts counts the
	// certifications that succeeded only within it (ic3.Stats).
	DifferPairs   int     `json:"differ_pairs,omitempty"`
	DifferSeconds float64 `json:"differ_seconds,omitempty"`
	DifferFacts   int     `json:"differ_certified,omitempty"`
	// RangeFacts counts the regions PolIC3 took out of the bad region by
	// certifying that a label with a range error there is never chosen
	// (ic3.Stats.RangeFacts).
	RangeFacts int `json:"range_error_regions,omitempty"`
	// Walks and WalkSteps count PolIC3's random walks of the policy in
	// search of deep counterexamples, and their steps (ic3.Stats).
	Walks     int `json:"walks,omitempty"`
	WalkSteps int `json:"walk_steps,omitempty"`
}

// NewIC3Figures summarizes the statistics of an IC3 run made with the
// given options.
func NewIC3Figures(s ic3.Stats, generalize bool, order string, boxOnly bool) *IC3Figures {
	lemmas := "linear"
	if boxOnly {
		lemmas = "box"
	}
	per := 0.0
	if s.Blocked > 0 {
		per = float64(s.GenSMTCalls) / float64(s.Blocked)
	}
	return &IC3Figures{
		Generalize: generalize, Order: order, GenSMTCalls: s.GenSMTCalls, GenPerClause: per,
		Lemmas: lemmas, RelLemmas: s.RelLemmas, Axes: s.Axes, CTGs: s.CTGs,
		Frames: s.Frames, Clauses: s.Clauses, InvariantBoxes: s.Invariant, Obligations: s.Obligations,
		Learned: s.Blocked, Pushed: s.Pushed, SMTCalls: s.SMTCalls, Rebuilds: s.Rebuilds,
		SMTSeconds: s.SMTTime.Seconds(), GenSeconds: s.GenTime.Seconds(), PropSeconds: s.PropTime.Seconds(),
		CertCalls: s.CertCalls, CertHits: s.CertHits, CertUnknown: s.CertUnknown, CertSeconds: s.CertTime.Seconds(),
		Refuted: s.Refuted, SubBoxes: s.SubBoxes, SplitCalls: s.SplitCalls, Evaluated: s.Evaluated, RegionCalls: s.RegionCalls,
		FreeCores: s.FreeCores, DifferPairs: s.DifferPairs, DifferSeconds: s.DifferTime.Seconds(), DifferFacts: s.DifferFacts,
		RangeFacts: s.RangeFacts, Walks: s.Walks, WalkSteps: s.WalkSteps,
	}
}

// PPAFigures are the statistics of a ppa run.
type PPAFigures struct {
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
	// RegionNone, RegionFound and RegionUnknown count the region
	// searches over cubes too large to enumerate (ppa.Stats): a label or
	// step excluded, a state found taking it, the budget spent.
	RegionNone    int `json:"region_excluded,omitempty"`
	RegionFound   int `json:"region_found,omitempty"`
	RegionUnknown int `json:"region_unknown,omitempty"`
}

// BDDFigures are the statistics of the BDD engine.
type BDDFigures struct {
	Order string `json:"order"`
	// OrderTrials counts the automatic order's trials that did not fit
	// their node allowance before the order that ran (bdd.Stats).
	OrderTrials   int     `json:"order_trials,omitempty"`
	Variables     int     `json:"bdd_variables"`
	Iterations    int     `json:"iterations"`
	SetNodes      int     `json:"set_nodes"` // -1: not measured (a stop abandoned an operation)
	PeakNodes     int     `json:"peak_table_nodes"`
	Produced      int     `json:"nodes_produced"`
	RuddGCs       int     `json:"node_collections"`
	Resizes       int     `json:"table_resizes"`
	GoGCs         int     `json:"go_collections"`
	PeakHeap      uint64  `json:"peak_heap_bytes"`
	EncodeSeconds float64 `json:"encode_seconds"`
}

// NewBDDFigures summarizes the statistics of a BDD run with the given
// variable order ("auto": the one it chose, s.Order).
func NewBDDFigures(order string, s bdd.Stats) *BDDFigures {
	if order == bdd.OrderAuto.String() {
		order = s.Order.String()
	}
	return &BDDFigures{Order: order, OrderTrials: s.OrderTrials, Variables: s.BDDVars, Iterations: s.Iterations, SetNodes: s.SetNodes,
		PeakNodes: s.Mem.PeakTableNodes, Produced: s.Mem.Produced, RuddGCs: s.Mem.RuddGCs, Resizes: s.Mem.Resizes,
		GoGCs: s.Mem.GoGCs, PeakHeap: s.Mem.PeakHeap, EncodeSeconds: s.Encode.Seconds()}
}

// WriteText writes the figures as two lines, the first opening with what
// (the engine's name in the command's words) and the run's seconds.
func (r *BDDFigures) WriteText(w io.Writer, what string, seconds float64) error {
	result := fmt.Sprintf("%d nodes in the result", r.SetNodes)
	if r.SetNodes < 0 {
		result = "result not measured (an operation was abandoned)"
	}
	trials := ""
	if r.OrderTrials > 0 {
		trials = fmt.Sprintf(", after %s that did not fit", Plural(r.OrderTrials, "order trial"))
	}
	_, err := fmt.Fprintf(w, "%s: %d BDD variables (%s order%s), %s, %s, %.3fs (encoding %.3fs)\n"+
		"memory: peak node table %d nodes, %d nodes made, %d node collections, %d table resizes, %d Go collections, peak heap %s\n",
		what, r.Variables, r.Order, trials, Plural(r.Iterations, "iteration"), result, seconds, r.EncodeSeconds,
		r.PeakNodes, r.Produced, r.RuddGCs, r.Resizes, r.GoGCs, HumanBytes(r.PeakHeap))
	return err
}

// HumanBytes writes a byte count in KiB, MiB or GiB.
func HumanBytes(b uint64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	}
	return fmt.Sprintf("%.1f KiB", float64(b)/(1<<10))
}

// Num writes a count of any size as a JSON number ("" for nil).
func Num(x *big.Int) json.Number {
	if x == nil {
		return ""
	}
	return json.Number(x.String())
}

// clampInt returns x as an int, or the largest int when it does not fit.
func clampInt(x *big.Int) int {
	if x.IsInt64() {
		return int(x.Int64())
	}
	return math.MaxInt
}

// NewReport describes v, the verdict Decide gave on q.
func NewReport(q *Question, v *Verdict) *Report {
	r := &Report{Verdict: v.Answer.String(), Reason: v.Reason, Engine: v.Engine, Model: q.Model.Name,
		Property: q.Property.Name, Policy: policyName(q.Policy), Seconds: v.Elapsed.Seconds(), Auto: v.Auto, Hunt: v.Hunt,
		q: q, v: v}
	switch {
	case v.BFS != nil:
		s := v.BFS.Stats
		r.States, r.StartStates, r.Transitions, r.Depth = s.States, s.Starts, s.Transitions, s.Depth
	case v.IC3 != nil:
		res := v.IC3
		r.IC3 = NewIC3Figures(res.Stats, res.Generalize, res.Order, res.BoxOnly)
		r.IC3.PolicyFacts = len(res.Facts)
		r.IC3.RegionFacts = regionFacts(res.Result)
		if v.Auto != nil {
			r.IC3.BFSStates, _ = v.Auto.GaveWay()
		}
	case v.PPA != nil:
		s := v.PPA.Stats
		r.PPA = &PPAFigures{Iterations: s.Iterations, Predicates: s.Predicates, InitialPreds: v.PPA.Initial,
			AbstractStates: s.AbstractStates, Transitions: s.Transitions, Spurious: s.Spurious,
			SMTCalls: s.SMTCalls, CacheHits: s.CacheHits, SMTSeconds: s.SMTTime.Seconds(),
			ExactPolicy: v.PPA.Exact, PredicateFile: v.PPA.From,
			RegionNone: s.RegionNone, RegionFound: s.RegionFound, RegionUnknown: s.RegionUnknown}
	case v.BDD != nil:
		r.States, r.StartStates, r.Depth = clampInt(v.BDD.States), clampInt(v.BDD.Starts), v.BDD.Depth
		r.BDD = &BDDVerifyFigures{ReachedStates: Num(v.BDD.States), Starts: Num(v.BDD.Starts), BDD: NewBDDFigures(q.BDD.Order.String(), v.BDD.Stats)}
	case v.Hunt != nil:
		r.Depth = v.Hunt.Depth
	}
	return r
}

// Run returns the counterexample of an unsafe verdict in run-file form
// (nil for other verdicts), and keeps it in r.Counterexample.
func (r *Report) Run() *explicit.Run {
	if r.Counterexample == nil && r.v != nil && r.v.Answer == explicit.UnsafeVerdict {
		q := r.q
		r.Counterexample = explicit.NewRun(q.Model, q.Property.Name, policyName(q.Policy), explicit.EndUnsafe, r.v.Trace)
	}
	return r.Counterexample
}

func policyName(d *symbolic.PolicyDecl) string {
	if d == nil {
		return ""
	}
	return d.Name
}

// TextOptions shape the text form of a verdict.
type TextOptions struct {
	// Full lists every variable at every step of a counterexample (by
	// default the states after the first list the variables that
	// changed).
	Full bool
	// Rerun is the vigil run command that loads the same model
	// ("vigil run FILE -D ..."); when set, an unsafe verdict ends with
	// the command that replays its counterexample.
	Rerun string
}

// WriteText writes the verdict as vigil verify prints it: the verdict
// line, the counterexample or what proves safety, and the engine's
// figures.
//
// The text goes through one buffer, flushed before WriteText returns: a
// counterexample of 10^6 steps is 3·10^6 lines, which unbuffered cost one
// write system call each.
func (r *Report) WriteText(w io.Writer, opt TextOptions) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	tw := &textWriter{w: bw}
	r.writeText(tw, opt)
	if err := bw.Flush(); tw.err == nil {
		tw.err = err
	}
	return tw.err
}

// textWriter keeps the first write error.
type textWriter struct {
	w   io.Writer
	err error
}

func (t *textWriter) printf(format string, args ...any) {
	if t.err == nil {
		_, t.err = fmt.Fprintf(t.w, format, args...)
	}
}

func (r *Report) writeText(w *textWriter, opt TextOptions) {
	v := r.v
	switch {
	case v.BFS != nil:
		r.writeVerdict(w, opt, true)
		w.printf("engine bfs: %s, %s, depth %d, %.3fs\n", Plural(r.States, "state"), Plural(r.Transitions, "transition"), r.Depth, r.Seconds)
		if r.Certificate != "" {
			w.printf("certificate: %s, the %s reached (check with: vigil cert check %s)\n", r.Certificate, Plural(r.States, "state"), ShellQuote(r.Certificate))
		}
	case v.IC3 != nil:
		r.writeIC3(w, opt)
	case v.PPA != nil:
		s := v.PPA.Stats
		if v.Answer == explicit.Unknown {
			w.printf("unknown: %s\n", v.Reason)
		} else {
			r.writeVerdict(w, opt, false)
		}
		if v.Answer == explicit.Safe {
			w.printf("abstraction: %d reachable abstract states over %d predicates, closed under the policy's transitions\n", s.AbstractStates, s.Predicates)
			note := v.CertNote
			if r.Certificate != "" {
				note += fmt.Sprintf("; certificate %s (check with: vigil cert check %s)", r.Certificate, r.Certificate)
			}
			w.printf("%s\n", note)
		}
		w.printf("engine ppa: %s (%s), %d predicates (%d given), %d abstract states, %d abstract transitions, %d SMT calls (%d cache hits), %.3fs (smt %.3fs)\n",
			phrase.Plural(s.Iterations, "CEGAR iteration"), phrase.Plural(s.Spurious, "spurious path"), s.Predicates, v.PPA.Initial, s.AbstractStates, s.Transitions, s.SMTCalls, s.CacheHits, s.Elapsed.Seconds(), s.SMTTime.Seconds())
	case v.BDD != nil:
		r.writeVerdict(w, opt, true)
		w.printf("engine bdd: %s states reached (%s start), depth %d\n", v.BDD.States, v.BDD.Starts, v.BDD.Depth)
		if w.err == nil {
			w.err = r.BDD.BDD.WriteText(w.w, "bdd", r.Seconds)
		}
	default:
		r.writeVerdict(w, opt, false)
		if h := v.Hunt; h != nil {
			walks := Plural(h.Walks, "random walk")
			if h.Deterministic {
				walks = Plural(h.Walks, "walk") + detWalks(h.Sampled)
			}
			w.printf("engine hunt: %s, %s, %.3fs\n", walks, Plural(h.Steps, "step"), r.Seconds)
		}
	}
	if a := v.Auto; a != nil {
		w.printf("%s\n", a.Line())
	}
	if r.CertNotWritten != "" {
		w.printf("certificate: %s not written: %s while it was written\n", r.CertNotWritten, Stopped(r.Reason))
	}
	for _, n := range r.Notes {
		w.printf("note: %s\n", n)
	}
}

// writeIC3 writes the text form of an ic3 or PolIC3 verdict.
func (r *Report) writeIC3(w *textWriter, opt TextOptions) {
	v := r.v
	res := v.IC3
	r.writeVerdict(w, opt, false)
	if v.Answer == explicit.Safe {
		w.printf("inductive invariant: %s, checked", Boxes(res.Stats.Invariant))
		if c := r.Certificate; c != "" {
			w.printf("; certificate %s (check with: vigil cert check %s; z3 %s checks only the definitions written in it)", c, c, c)
		}
		w.printf("\n")
	}
	s := res.Stats
	if r.IC3.BFSStates > 0 {
		w.printf("engine auto: bfs gave way after %s\n", Plural(r.IC3.BFSStates, "state"))
	}
	w.printf("engine %s: %s, %s, %s, %s, %.3fs (smt %.3fs, generalization %.3fs, propagation %.3fs)\n",
		v.Engine, Plural(s.Frames, "frame"), Plural(s.Clauses, "clause"), Plural(s.Obligations, "obligation"), Plural(s.SMTCalls, "SMT call"),
		s.Elapsed.Seconds(), s.SMTTime.Seconds(), s.GenTime.Seconds(), s.PropTime.Seconds())
	if s.Blocked > 0 && res.Generalize && !ic3.IsLearned(r.q.Policy) {
		w.printf("lemmas: %d learned, %d relational (linear atoms over %d axes of the model), %d for counterexamples to generalization; generalization made %d SMT calls (%.1f per clause)\n",
			s.Blocked, s.RelLemmas, s.Axes, s.CTGs, s.GenSMTCalls, float64(s.GenSMTCalls)/float64(s.Blocked))
	}
	if s.CertCalls+s.CertHits > 0 {
		w.printf("certification: %d calls (%d undecided), %d cache hits, %.3fs; %d policy facts", s.CertCalls, s.CertUnknown, s.CertHits, s.CertTime.Seconds(), len(res.Facts))
		if s.SubBoxes > 0 {
			w.printf("; %d labels excluded on a sub-box", s.SubBoxes)
		}
		if s.SplitCalls > 0 {
			w.printf("; %d calls on the parts of undecided regions", s.SplitCalls)
		}
		if n := regionFacts(res.Result); s.RegionCalls > 0 || n > 0 {
			w.printf("; %d calls and %d facts over regions with linear atoms", s.RegionCalls, n)
		}
		if s.RangeFacts > 0 {
			w.printf("; %d regions out of the bad region (range errors of labels not chosen there)", s.RangeFacts)
		}
		w.printf("\n")
	}
	if s.Refuted > 0 {
		w.printf("generalization: %d candidates refuted by a concrete state (no SMT call)\n", s.Refuted)
	}
	if s.Evaluated > 0 {
		w.printf("evaluation: %d questions about small boxes answered from their states (no SMT call)\n", s.Evaluated)
	}
	if s.Walks > 0 {
		w.printf("walks: %s of the policy from start states (random ones, or each once on a deterministic model), %s (in search of deep counterexamples)\n", Plural(s.Walks, "walk"), Plural(s.WalkSteps, "step"))
	}
}

// writeVerdict writes the verdict line and, for unsafe, the
// counterexample and how to replay it (shortest: the engine finds
// shortest ones).
func (r *Report) writeVerdict(w *textWriter, opt TextOptions, shortest bool) {
	v := r.v
	who := "policy " + r.Policy
	if r.Policy == "" {
		who = "some choice of labels"
	}
	kind := "a counterexample"
	if shortest {
		kind = "a shortest counterexample"
	}
	switch v.Answer {
	case explicit.Safe:
		// Without a policy the claim is about every choice of labels:
		// "no choice reaches", never "some choice never reaches".
		claim := who + " never reaches"
		if r.Policy == "" {
			claim = "no choice of labels reaches"
		}
		if r.Engine == "bfs" {
			w.printf("safe: %s an unsafe state of property %s from its %s\n", claim, r.Property, Plural(r.StartStates, "start state"))
		} else {
			w.printf("safe: %s an unsafe state of property %s from any start state\n", claim, r.Property)
		}
	case explicit.UnsafeVerdict:
		trace := v.Trace
		w.printf("unsafe: %s reaches an unsafe state of property %s in %s (%s)\n", who, r.Property, Plural(len(trace)-1, "step"), kind)
		if opt.Full {
			w.printf("counterexample:\n")
		} else {
			w.printf("counterexample (each state after the first lists the variables that changed; --full lists all):\n")
		}
		r.writeCounterexample(w, opt.Full)
		if opt.Rerun == "" {
			return
		}
		args := []string{opt.Rerun, "--property", ShellQuote(r.Property)}
		if r.Policy != "" {
			args = append(args, "--policy", ShellQuote(r.Policy))
		}
		args = append(args, "--from", ShellQuote(r.q.Model.FormatState(trace[0].State)))
		w.printf("replay: %s\n", strings.Join(args, " "))
		w.printf("(for these exact outcomes: add --record cex.json to the verify command, then %s --replay cex.json)\n", opt.Rerun)
	default:
		if strings.HasPrefix(r.Reason, inconclusivePrefix) {
			// not stopped: the answer's certificate could not be checked
			w.printf("unknown: %s\n", r.Reason)
			break
		}
		// The held counterexample's note follows the stop: "stopped by
		// the timeout before a verdict; the hunter found ...", not
		// "stopped by the timeout; the hunter found ... is not ruled
		// out before a verdict".
		reason, held, ok := strings.Cut(r.Reason, heldNote)
		if ok {
			held = heldNote + held
		} else if reason, held, ok = strings.Cut(r.Reason, pendNote); ok {
			held = pendNote + held
		}
		w.printf("unknown: %s before a verdict%s\n", Stopped(reason), held)
	}
	if r.v.Answer == explicit.Unknown {
		if next := r.nextStep(); next != "" {
			w.printf("next: %s\n", next)
		}
	}
}

// nextStep says, for an unknown verdict, what a user can try next, or ""
// when the user stopped the run (Ctrl-C) or nothing better is known.
func (r *Report) nextStep() string {
	reason := r.Reason
	if strings.HasPrefix(reason, "interrupted") || strings.HasPrefix(reason, "canceled") || strings.HasPrefix(reason, "cancelled") {
		return ""
	}
	longer := strings.HasPrefix(reason, "timeout")
	engine := r.Engine
	if r.Auto != nil {
		engine = "auto"
	}
	switch engine {
	case "bfs":
		if strings.HasPrefix(reason, "state limit") {
			return "a larger --max-states, or --engine ic3 (polic3 for a learned policy) or --engine auto, which do not list the states one by one"
		}
	case "bdd":
		if strings.HasPrefix(reason, "node limit") {
			return "a larger --max-nodes or another --bdd-order, or --engine ic3 (polic3 for a learned policy)"
		}
		if longer && r.BDD != nil && r.BDD.BDD != nil && r.BDD.BDD.Order == "interleaved" {
			// A sum or comparison of two wide variables is exponential
			// under the interleaved order and linear under bitwise.
			return "a longer --timeout, --bdd-order bitwise (where the model adds or compares variables of wide ranges), or --engine auto"
		}
	case "ic3", "ic3-nog", "polic3", "ppa":
		if longer {
			return "a longer --timeout, or --engine auto, which also runs bfs (while the reached states fit in memory) and a counterexample hunter on the other cores"
		}
	case "auto":
		if longer {
			return "a longer --timeout"
		}
	}
	if longer {
		return "a longer --timeout, or --engine auto"
	}
	return ""
}

// Line says in one line which member of the auto portfolio won and how
// the others ended.
func (a *AutoStats) Line() string {
	var others []string
	for _, m := range a.Members {
		if m.Outcome == "won" {
			continue
		}
		s := m.Engine + " " + m.Outcome
		switch {
		case m.States > 0:
			s += " after " + Plural(m.States, "state")
		case m.Frames > 0:
			s += fmt.Sprintf(" after %s, at frame %d with %s", Plural(m.SMTCalls, "SMT call"), m.Frames, Plural(m.Clauses, "clause"))
		case m.Walks > 0 && m.Deterministic:
			s += fmt.Sprintf(" after %s%s, %s", Plural(m.Walks, "walk"), detWalks(m.Sampled), Plural(m.Steps, "step"))
		case m.Walks > 0:
			s += fmt.Sprintf(" after %s, %s", Plural(m.Walks, "random walk"), Plural(m.Steps, "step"))
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
	line := fmt.Sprintf("engine auto: %s on %s in %.3fs; %s", who, Plural(a.Cores, "core"), a.Seconds, strings.Join(others, ", "))
	if a.RangeCheck != "" {
		line += "; range errors closer than the counterexample: " + a.RangeCheck
	}
	if a.Bounded != "" {
		line += "; bounded question: " + a.Bounded
	}
	return line
}

// Plural writes a count with its noun: "1 state", "2 states".
func Plural(n int, what string) string { return phrase.Plural(n, what) }

// ShellQuote quotes s for a POSIX shell when it needs it.
func ShellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=.,/:@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// RunCommand is the vigil run command line that loads the model file
// with the defines (sorted by name) and the PlaJA start, unsafe and
// policy files ("" for none), quoted for a POSIX shell: the start of
// TextOptions.Rerun.
func RunCommand(file string, defines map[string]string, start, unsafe, policyFile string) string {
	args := []string{"vigil", "run", ShellQuote(file)}
	for _, n := range slices.Sorted(maps.Keys(defines)) {
		args = append(args, "-D", ShellQuote(n+"="+defines[n]))
	}
	for _, f := range []struct{ flag, val string }{{"--start", start}, {"--unsafe", unsafe}, {"--policy-file", policyFile}} {
		if f.val != "" {
			args = append(args, f.flag, ShellQuote(f.val))
		}
	}
	return strings.Join(args, " ")
}

// Stopped turns a stop reason ("timeout", "state limit 10", ...) into a
// phrase that says what happened (phrase.Stopped).
func Stopped(reason string) string { return phrase.Stopped(reason) }

// regionFacts counts the policy facts of res whose region (invariant box
// and sub-region) has a linear atom.
func regionFacts(res *ic3.Result) int {
	n := 0
	for _, f := range res.Facts {
		if f.Box < 0 || f.Box >= len(res.Invariant) {
			continue
		}
		for _, l := range append(append([]smt.Lit(nil), res.Invariant[f.Box]...), f.Within...) {
			if l.Form != nil {
				n++
				break
			}
		}
	}
	return n
}

// detWalks says where the hunter's deterministic walks started: from each
// start state once, or, with too many start states to walk from each,
// from sampled ones (the text said "from each start state once" for 320
// walks of a million start states).
func detWalks(sampled bool) string {
	if sampled {
		return " (from sampled start states, each run once)"
	}
	return " (from each start state once)"
}
