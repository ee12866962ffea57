package safety

// Reports of vigil safe and vigil faults: the --json shapes and the text
// the command prints, next to the results they describe, so that a Go
// program gets the same figures as the command line.

import (
	"fmt"
	"io"
	"strconv"
	"time"

	"vigil/internal/phrase"
	"vigil/symbolic"
)

// StateReport is one decided state of a Report.
type StateReport struct {
	State    string  `json:"state"`
	Verdict  string  `json:"verdict"` // safe, unsafe, unknown
	Expanded int     `json:"expanded"`
	Seconds  float64 `json:"seconds"`
	Cert     string  `json:"certificate,omitempty"`
}

// Report is the answer of vigil safe: the states decided, with the
// verdicts counted and the decider's figures.
type Report struct {
	// Verdict sums up the states, as the exit code does: unknown if any is
	// undecided, else unsafe if any is not (r-)safe, else safe (see Finish).
	Verdict  string        `json:"verdict"`
	Model    string        `json:"model"`
	Scope    string        `json:"scope,omitempty"` // propu-bdd: state, start or all
	Property string        `json:"property"`
	Policy   string        `json:"policy"`
	Radius   string        `json:"radius"`
	Algo     string        `json:"algorithm"`
	States   []StateReport `json:"states"`
	Safe     int           `json:"safe"`
	Unsafe   int           `json:"unsafe"`
	Unknown  int           `json:"unknown"`
	Reason   string        `json:"reason,omitempty"`
	// CertNotWritten is the certificate file a stop (Reason) interrupted
	// while it was written; FILE was not written (an older file of that name is kept).
	CertNotWritten string `json:"certificate_not_written,omitempty"`
	// CertError is why the certificate asked for could not be written
	// (the verdicts stand; the command exits 1).
	CertError string `json:"certificate_error,omitempty"`
	// More: a stop ended the enumeration of the start states; those not
	// reached are not in States.
	More     bool `json:"more_start_states,omitempty"`
	Expanded int  `json:"expanded"`
	// ScopeExpanded: the states the search of the scope for range errors
	// expanded first (Stats.Scope), not in Expanded.
	ScopeExpanded int     `json:"scope_expanded,omitempty"`
	Backups       int     `json:"backups,omitempty"`
	Stored        int     `json:"stored_states"`
	Seconds       float64 `json:"seconds"`
}

// Add adds the decisions of res to the report, counting the verdicts, and
// returns the states decided (safe or not), as CertifyStarts takes them.
func (r *Report) Add(sp *Space, res *Starts) (decided []uint32) {
	r.More = res.More
	for _, d := range res.States {
		r.States = append(r.States, StateReport{State: sp.Format(d.ID), Verdict: d.Verdict.String(), Expanded: d.Expanded, Seconds: d.Time.Seconds()})
		switch d.Verdict {
		case Safe:
			r.Safe++
		case Unsafe:
			r.Unsafe++
		default:
			r.Unknown++
			continue
		}
		decided = append(decided, d.ID)
	}
	return decided
}

// Finish sets Verdict from the counts: unknown if any state is undecided
// or the enumeration stopped, else unsafe if any is not (r-)safe, else
// safe.
func (r *Report) Finish() {
	switch {
	case r.Unknown > 0 || r.More:
		r.Verdict = "unknown"
	case r.Unsafe > 0:
		r.Verdict = "unsafe"
	default:
		r.Verdict = "safe"
	}
}

// Deviations is the phrase for a finite radius, " (at most 1 deviation
// from policy p along every run)", and "" for radius inf.
func (r *Report) Deviations() string {
	if r.Radius == "inf" {
		return ""
	}
	n, _ := strconv.Atoi(r.Radius)
	return fmt.Sprintf(" (at most %s from policy %s along every run)", phrase.Plural(n, "deviation"), r.Policy)
}

// WriteText writes the report as vigil safe prints it: one line for a
// single state, else a table of the start states; then the decider's
// figures.
func (r *Report) WriteText(w io.Writer) error {
	what := phrase.Safe(r.Radius)
	who := r.Deviations()
	if len(r.States) == 1 && !r.More {
		s := r.States[0]
		s.WriteVerdict(w, what, who, r.Reason)
		if s.Cert != "" {
			fmt.Fprintf(w, "certificate: %s (check with: vigil cert check %s)\n", s.Cert, s.Cert)
		}
	} else {
		if r.More {
			fmt.Fprintf(w, "%s of property %s reached, then the enumeration was %s: %d %s, %d not %s", phrase.Plural(len(r.States), "start state"), r.Property, phrase.Stopped(r.Reason), r.Safe, what, r.Unsafe, what)
		} else {
			fmt.Fprintf(w, "%d start states of property %s: %d %s, %d not %s", len(r.States), r.Property, r.Safe, what, r.Unsafe, what)
		}
		if r.Unknown > 0 {
			fmt.Fprintf(w, ", %d unknown (%s)", r.Unknown, phrase.Stopped(r.Reason))
		}
		fmt.Fprintf(w, "%s\n", who)
		fmt.Fprintf(w, "  %-8s %9s %9s  %s\n", "verdict", "expanded", "ms", "state")
		for _, s := range r.States {
			fmt.Fprintf(w, "  %-8s %9d %9.1f  %s\n", s.Verdict, s.Expanded, 1000*s.Seconds, s.State)
		}
	}
	if r.CertNotWritten != "" {
		fmt.Fprintf(w, "certificate: %s not written: %s while it was written\n", r.CertNotWritten, phrase.Stopped(r.Reason))
	}
	_, err := fmt.Fprintf(w, "%s: %d expanded, %d states stored, %.3fs%s\n", r.Algo, r.Expanded, r.Stored, r.Seconds, scopeNote(r.ScopeExpanded))
	return err
}

// scopeNote is the figures' words for the states the search of the scope
// for range errors expanded first (none: nothing).
func scopeNote(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" (and %d expanded first by the search of the scope for range errors)", n)
}

// FaultEntry is one fault of a FaultsReport, with names for states and
// labels.
type FaultEntry struct {
	Step    int    `json:"step"`
	State   string `json:"state"`
	Label   string `json:"label"`
	Outcome string `json:"unsafe_outcome"`
	Alt     string `json:"safe_alternative"`
}

// FaultsReport is the answer of vigil faults: a FaultReport with names
// and the decider's figures.
type FaultsReport struct {
	Model     string       `json:"model"`
	Property  string       `json:"property"`
	Policy    string       `json:"policy"`
	Radius    string       `json:"radius"`
	Algo      string       `json:"algorithm"`
	Steps     int          `json:"run_states"`
	EndUnsafe bool         `json:"run_ends_unsafe"`
	Analysed  int          `json:"states_analysed"`
	Safe      []bool       `json:"safe"`
	Bugs      []int        `json:"bugs"`
	Faults    []FaultEntry `json:"faults"`
	Decisions int          `json:"decisions"`
	CacheHits int          `json:"cache_hits"`
	Expanded  int          `json:"expanded"`
	// ScopeExpanded: as Report's.
	ScopeExpanded int     `json:"scope_expanded,omitempty"`
	Seconds       float64 `json:"seconds"`
	Reason        string  `json:"reason,omitempty"` // why the analysis stopped early
}

// NewFaultsReport describes fr, the fault analysis of d on a run of n
// states that took elapsed; reason says why it stopped early ("" when it
// did not). The model, property and policy names are the caller's.
func NewFaultsReport(m *symbolic.Model, d Decider, sp *Space, fr *FaultReport, n int, elapsed time.Duration, reason string) *FaultsReport {
	r := &FaultsReport{Model: m.Name, Radius: d.Radius().String(), Algo: d.Name(),
		Steps: n, EndUnsafe: fr.EndUnsafe, Analysed: fr.Done, Bugs: fr.Bugs, Decisions: fr.Decisions, CacheHits: fr.CacheHits,
		Expanded: d.Stats().Expanded, ScopeExpanded: d.Stats().Scope, Seconds: elapsed.Seconds(), Reason: reason, Faults: []FaultEntry{}}
	if r.Bugs == nil {
		r.Bugs = []int{}
	}
	r.Safe = fr.Safe[n-fr.Done:]
	for _, f := range fr.Faults {
		alt := ""
		if f.Alt != symbolic.NoLabel {
			alt = m.Labels[f.Alt].Name
		}
		r.Faults = append(r.Faults, FaultEntry{Step: f.Step, State: sp.Format(f.State), Label: m.Labels[f.Label].Name, Outcome: sp.Format(f.Outcome), Alt: alt})
	}
	return r
}

// WriteText writes the report as vigil faults prints it.
func (r *FaultsReport) WriteText(w io.Writer) error {
	what := phrase.Safe(r.Radius)
	end := "ends in an unsafe state"
	if !r.EndUnsafe {
		end = "does not end in an unsafe state (no bugs can be named)"
	}
	fmt.Fprintf(w, "run of %s of policy %s %s\n", phrase.Plural(r.Steps, "state"), r.Policy, end)
	if r.Reason != "" {
		stop := phrase.Capitalize(phrase.Stopped(r.Reason))
		switch r.Analysed {
		case 0:
			fmt.Fprintf(w, "%s before any state was analysed\n", stop)
		case 1:
			fmt.Fprintf(w, "%s: only the last state was analysed\n", stop)
		default:
			fmt.Fprintf(w, "%s: only the last %d states were analysed\n", stop, r.Analysed)
		}
	}
	switch len(r.Faults) {
	case 0:
		if r.Reason != "" {
			fmt.Fprintf(w, "no faults among the states analysed\n")
			break
		}
		fmt.Fprintf(w, "no faults: no %s state on the run where the policy's label may lead out of the %s region\n", what, what)
	default:
		// A fault is a decision, (state, label) (paper 000, Definition
		// 3): a run through the same state twice shows it at two steps.
		distinct := map[string]bool{}
		for _, f := range r.Faults {
			distinct[f.State] = true
		}
		if len(distinct) == len(r.Faults) {
			fmt.Fprintf(w, "%s:\n", phrase.Plural(len(r.Faults), "fault"))
		} else {
			fmt.Fprintf(w, "%s, at %s:\n", phrase.Plural(len(distinct), "fault"), phrase.Plural(len(r.Faults), "step"))
		}
		for _, f := range r.Faults {
			fmt.Fprintf(w, "  step %d: %s\n    policy takes %s, which may lead to %s (not %s)\n", f.Step, f.State, f.Label, f.Outcome, what)
			if f.Alt != "" {
				fmt.Fprintf(w, "    %s keeps it %s\n", f.Alt, what)
			}
		}
	}
	if r.EndUnsafe {
		fmt.Fprintf(w, "bugs (states where the policy is unsafe but a %s policy exists): %s of %d", what, phrase.Plural(len(r.Bugs), "step"), r.Steps-1)
		if done := max(r.Analysed-1, 0); done < r.Steps-1 {
			// Stopped early: the steps before the analysed ones are
			// not known to be bugs or not.
			fmt.Fprintf(w, ", of which %d analysed", done)
		}
		fmt.Fprintln(w)
	}
	_, err := fmt.Fprintf(w, "%s: %s (%d from the caches), %d expanded, %.3fs%s\n", r.Algo, phrase.Plural(r.Decisions, "decision"), r.CacheHits, r.Expanded, r.Seconds, scopeNote(r.ScopeExpanded))
	return err
}

// WriteVerdict writes the one-line answer for a single decided state:
// "WHAT: STATE WHO", "not WHAT: STATE WHO", or why it stayed unknown
// (reason: the stop reason, as phrase.Stopped reads it).
func (s StateReport) WriteVerdict(w io.Writer, what, who, reason string) {
	switch s.Verdict {
	case "safe":
		fmt.Fprintf(w, "%s: %s%s\n", what, s.State, who)
	case "unsafe":
		fmt.Fprintf(w, "not %s: %s%s\n", what, s.State, who)
	default:
		fmt.Fprintf(w, "unknown: %s before deciding %s\n", phrase.Stopped(reason), s.State)
	}
}
