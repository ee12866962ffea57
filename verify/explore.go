package verify

// The reports of an exploration (vigil explore): the reachable states of
// a model under a property and a policy, counted by the explicit search
// (ExploreReport) or by BDDs (BDDExploreReport), in the exact shape of
// vigil explore --json, with their text.

import (
	"encoding/json"
	"io"

	"vigil/bdd"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// ExploreReport is the JSON form of an explicit exploration.
type ExploreReport struct {
	Model           string  `json:"model"`
	Property        string  `json:"property"`
	Policy          string  `json:"policy"`
	Complete        bool    `json:"complete"`
	Stopped         string  `json:"stopped,omitempty"`
	States          int     `json:"states"`
	StartStates     int     `json:"start_states"`
	Transitions     int     `json:"transitions"`
	Depth           int     `json:"depth"`
	Unsafe          int     `json:"unsafe"`
	Goal            int     `json:"goal"`
	Deadlocks       int     `json:"deadlocks"`
	Stuck           int     `json:"stuck"`
	Seconds         float64 `json:"seconds"`
	StatesPerSecond float64 `json:"states_per_second"`
	BytesPerState   float64 `json:"bytes_per_state"`
	WordsPerState   int     `json:"words_per_state"`
}

// NewExploreReport describes res, an explicit search of m from the start
// states of prop (nil: none) under the policy decl (nil: every label).
// stopped says why an incomplete search ended ("": the state limit).
func NewExploreReport(m *symbolic.Model, prop *symbolic.Property, decl *symbolic.PolicyDecl, res *explicit.Result, stopped string) *ExploreReport {
	s := res.Stats
	r := &ExploreReport{
		Model: m.Name, Property: propertyName(prop), Policy: policyName(decl),
		Complete: res.Verdict != explicit.Unknown,
		States:   s.States, StartStates: s.Starts, Transitions: s.Transitions, Depth: s.Depth,
		Unsafe: s.Unsafe, Goal: s.Goal, Deadlocks: s.Deadlocks, Stuck: s.Stuck,
		Seconds: s.Elapsed.Seconds(), StatesPerSecond: s.StatesPerSecond(),
		BytesPerState: s.BytesPerState(), WordsPerState: s.Words,
	}
	if !r.Complete {
		r.Stopped = stopped
		if r.Stopped == "" {
			r.Stopped = "state limit"
		}
	}
	return r
}

func propertyName(p *symbolic.Property) string {
	if p == nil {
		return ""
	}
	return p.Name
}

// writeExploreHead writes the lines that open an exploration report, for
// the explicit and the BDD engine alike.
func writeExploreHead(w *textWriter, model, property, policy string, complete bool, why string) {
	pol := "all applicable labels"
	if policy != "" {
		pol = "policy " + policy
	}
	if property == "" {
		property = "none"
	}
	w.printf("model %s, property %s, %s\n", model, property, pol)
	if !complete {
		w.printf("incomplete: %s; the figures below are partial\n", Stopped(why))
	}
}

// WriteText writes the report as vigil explore prints it.
func (r *ExploreReport) WriteText(out io.Writer) error {
	w := &textWriter{w: out}
	writeExploreHead(w, r.Model, r.Property, r.Policy, r.Complete, r.Stopped)
	w.printf("states        %d (%d start)\n", r.States, r.StartStates)
	w.printf("transitions   %d\n", r.Transitions)
	w.printf("depth         %d\n", r.Depth)
	w.printf("terminal      %d unsafe, %d goal\n", r.Unsafe, r.Goal)
	w.printf("deadlocks     %d\n", r.Deadlocks)
	if r.Policy != "" {
		w.printf("policy stuck  %d\n", r.Stuck)
	}
	w.printf("time          %.3fs (%.0f states/s)\n", r.Seconds, r.StatesPerSecond)
	w.printf("memory        %.1f bytes/state (%d-word packed states)\n", r.BytesPerState, r.WordsPerState)
	return w.err
}

// BDDExploreReport is the JSON form of an exploration with BDDs. Counts
// are JSON numbers of any size.
type BDDExploreReport struct {
	Model       string      `json:"model"`
	Property    string      `json:"property"`
	Policy      string      `json:"policy"`
	Engine      string      `json:"engine"`
	Complete    bool        `json:"complete"`
	Stopped     string      `json:"stopped,omitempty"`
	States      json.Number `json:"states"`
	StartStates json.Number `json:"start_states"`
	Transitions json.Number `json:"transitions,omitempty"`
	Depth       int         `json:"depth"`
	Unsafe      json.Number `json:"unsafe"`
	Goal        json.Number `json:"goal"`
	Deadlocks   json.Number `json:"deadlocks"`
	Stuck       json.Number `json:"stuck"`
	Seconds     float64     `json:"seconds"`
	BDD         *BDDFigures `json:"bdd"`

	transitionsReason string
}

// NewBDDExploreReport describes ex, an exploration of m with BDDs in the
// variable order named order.
func NewBDDExploreReport(m *symbolic.Model, prop *symbolic.Property, decl *symbolic.PolicyDecl, ex *bdd.Exploration, order string) *BDDExploreReport {
	return &BDDExploreReport{Model: m.Name, Property: propertyName(prop), Policy: policyName(decl), Engine: "bdd",
		Complete: ex.Complete, Stopped: ex.Reason, States: Num(ex.States), StartStates: Num(ex.Starts), Transitions: Num(ex.Transitions),
		Depth: ex.Depth, Unsafe: Num(ex.Unsafe), Goal: Num(ex.Goal), Deadlocks: Num(ex.Deadlocks), Stuck: Num(ex.Stuck),
		Seconds: ex.Stats.Elapsed.Seconds(), BDD: NewBDDFigures(order, ex.Stats), transitionsReason: ex.TransitionsReason}
}

// WriteText writes the report as vigil explore --engine bdd prints it.
func (r *BDDExploreReport) WriteText(out io.Writer) error {
	w := &textWriter{w: out}
	writeExploreHead(w, r.Model, r.Property, r.Policy, r.Complete, r.Stopped)
	w.printf("states        %s (%s start)\n", r.States, r.StartStates)
	if r.Transitions != "" {
		w.printf("transitions   %s\n", r.Transitions)
	} else if r.transitionsReason != "" {
		w.printf("transitions   not counted (%s)\n", r.transitionsReason)
	}
	w.printf("depth         %d\n", r.Depth)
	w.printf("terminal      %s unsafe, %s goal\n", r.Unsafe, r.Goal)
	w.printf("deadlocks     %s\n", r.Deadlocks)
	if r.Policy != "" {
		w.printf("policy stuck  %s\n", r.Stuck)
	}
	if w.err != nil {
		return w.err
	}
	return r.BDD.WriteText(out, "engine bdd", r.Seconds)
}
