package verify

import (
	"encoding/json"
	"fmt"
	"io"
	"math/big"

	"vigil/bdd"
	"vigil/internal/phrase"
	"vigil/safety"
	"vigil/symbolic"
)

// Region is propu-bdd's unsafe region in the --json output. Counts
// are JSON numbers of any size.
type Region struct {
	Complete     bool        `json:"complete"`
	Reason       string      `json:"reason,omitempty"`
	States       json.Number `json:"states"`         // every state of the model
	Unsafe       json.Number `json:"unsafe"`         // not (r-)safe (known so far when incomplete)
	Safe         json.Number `json:"safe,omitempty"` // when complete
	Starts       json.Number `json:"start_states,omitempty"`
	StartsUnsafe json.Number `json:"start_states_unsafe,omitempty"`
	StartsSafe   json.Number `json:"start_states_safe,omitempty"`
	Cover        float64     `json:"cover_cubes,omitempty"` // cubes of the whole cover (--all)
	Cubes        []bdd.Cube  `json:"cubes,omitempty"`       // the first --cubes of them
	// CubesStopped says why the cubes were not listed (a stop while
	// listing them); then Cubes and Cover are absent, not an empty cover.
	CubesStopped string `json:"cubes_stopped,omitempty"`
}

// SafeBDDReport is vigil safe's report for --algo propu-bdd (Prop-U with
// BDDs over every state at once): safety.Report with the unsafe region and
// the BDD figures (package bdd's, which safety does not import).
type SafeBDDReport struct {
	*safety.Report
	Region *Region     `json:"region,omitempty"`
	BDD    *BDDFigures `json:"bdd,omitempty"`
}

// NewSafeBDDReport makes vigil safe's report of propu-bdd's result res
// for model m, property prop and tested policy policy ("" for none) at
// radius r: the answers per state asked (states), for the start states as
// a set (states nil, scope "start"), or for every state (scope "all", with
// at most cubes cubes of the unsafe region). order is the BDD variable
// order the run used, for the figures.
func NewSafeBDDReport(m *symbolic.Model, prop *symbolic.Property, policy string, r safety.Radius, scope string, res *bdd.Safety, states []symbolic.State, cubes int, order string) (*SafeBDDReport, error) {
	rep := &SafeBDDReport{Report: &safety.Report{Model: m.Name, Property: prop.Name, Policy: policy, Radius: r.String(), Algo: "propu-bdd", Scope: scope,
		States: []safety.StateReport{}}, Region: &Region{Complete: res.Complete, Reason: res.Reason, States: Num(res.Total), Unsafe: Num(res.Unsafe)}}
	if res.Complete {
		rep.Region.Safe = Num(new(big.Int).Sub(res.Total, res.Unsafe))
	}
	if err := rep.fill(m, res, states, scope == "all", cubes); err != nil {
		return nil, err
	}
	rep.Reason = res.Reason
	rep.Seconds = res.Stats.Elapsed.Seconds()
	rep.BDD = NewBDDFigures(order, res.Stats)
	return rep, nil
}

// fill fills in rep's answers from propu-bdd's result: per state
// asked, for the start states as a set, or for every state (all, with at
// most cubes cubes of the unsafe region).
func (rep *SafeBDDReport) fill(m *symbolic.Model, res *bdd.Safety, states []symbolic.State, all bool, cubes int) error {
	switch {
	case res.Total == nil: // stopped while encoding
		rep.Unknown = max(len(states), 1)
		for _, s := range states {
			rep.States = append(rep.States, safety.StateReport{State: m.FormatState(s), Verdict: "unknown"})
		}
	case all:
		if err := res.RangeError(); err != nil {
			return err
		}
		rep.Region.Cubes, rep.Region.Cover, rep.Region.CubesStopped = res.CubesOrStop(cubes)
		if rep.Region.Cubes == nil && rep.Region.CubesStopped == "" {
			rep.Region.Cubes = []bdd.Cube{}
		}
		rep.Unsafe = clampInt(res.Unsafe)
		if res.Complete {
			rep.Safe = clampInt(new(big.Int).Sub(res.Total, res.Unsafe))
		} else {
			rep.Unknown = 1 // the rest of the states
		}
	case states == nil: // many start states: answered as a set
		starts, unsafe, safe, err := res.StartCounts()
		if err != nil {
			return err
		}
		if starts == nil {
			rep.Unknown = 1
			break
		}
		rep.Region.Starts, rep.Region.StartsUnsafe, rep.Region.StartsSafe = Num(starts), Num(unsafe), Num(safe)
		// The counts of the start states, as for states listed one by
		// one (clamped to an int; the region has them exactly).
		rep.Unsafe = clampInt(unsafe)
		if safe == nil {
			rep.Unknown = max(clampInt(new(big.Int).Sub(starts, unsafe)), 1)
		} else {
			rep.Safe = clampInt(safe)
		}
	default:
		ans, err := res.Decide(states)
		if err != nil {
			return err
		}
		for i, s := range states {
			rep.States = append(rep.States, safety.StateReport{State: m.FormatState(s), Verdict: ans[i].String()})
			switch ans[i] {
			case bdd.AnswerSafe:
				rep.Safe++
			case bdd.AnswerUnsafe:
				rep.Unsafe++
			default:
				rep.Unknown++
			}
		}
	}
	return nil
}

// WriteText writes the report as vigil safe --algo propu-bdd prints it.
func (r *SafeBDDReport) WriteText(w io.Writer) error {
	what := phrase.Safe(r.Radius)
	who := r.Deviations()
	g := r.Region
	switch {
	case g.States == "":
		fmt.Fprintf(w, "unknown: %s while encoding model %s\n", phrase.Stopped(r.Reason), r.Model)
	case len(r.States) == 1:
		s := r.States[0]
		s.WriteVerdict(w, what, who, r.Reason)
	case r.Scope == "start" && len(r.States) > 0:
		fmt.Fprintf(w, "%d start states of property %s: %d %s, %d not %s", len(r.States), r.Property, r.Safe, what, r.Unsafe, what)
		if r.Unknown > 0 {
			fmt.Fprintf(w, ", %d unknown (%s)", r.Unknown, r.Reason)
		}
		fmt.Fprintf(w, "%s\n", who)
		for _, s := range r.States {
			fmt.Fprintf(w, "  %-8s %s\n", s.Verdict, s.State)
		}
	case r.Scope == "start":
		switch {
		case g.Starts == "":
			fmt.Fprintf(w, "unknown: %s before deciding the start states of property %s\n", phrase.Stopped(r.Reason), r.Property)
		case g.StartsSafe == "":
			fmt.Fprintf(w, "%s start states of property %s: at least %s not %s, the others unknown (%s)%s\n", g.Starts, r.Property, g.StartsUnsafe, what, r.Reason, who)
		default:
			fmt.Fprintf(w, "%s start states of property %s: %s %s, %s not %s%s\n", g.Starts, r.Property, g.StartsSafe, what, g.StartsUnsafe, what, who)
		}
	default: // all
		if g.Complete {
			fmt.Fprintf(w, "all %s states of model %s, property %s: %s %s, %s not %s%s\n", g.States, r.Model, r.Property, g.Safe, what, g.Unsafe, what, who)
		} else {
			fmt.Fprintf(w, "all %s states of model %s, property %s: at least %s not %s, the others unknown (%s)%s\n", g.States, r.Model, r.Property, g.Unsafe, what, phrase.Stopped(r.Reason), who)
		}
		if g.CubesStopped != "" {
			fmt.Fprintf(w, "not %s: cubes not listed (%s while listing them)\n", what, phrase.Stopped(g.CubesStopped))
		}
		if len(g.Cubes) > 0 {
			fmt.Fprintf(w, "not %s (a cover of %s):\n", what, cubeCount(g.Cover))
			for _, c := range g.Cubes {
				fmt.Fprintf(w, "  %s\n", c)
			}
			if more := g.Cover - float64(len(g.Cubes)); more > 0 {
				fmt.Fprintf(w, "  ... and %s more (--cubes N lists more)\n", cubeCount(more))
			}
		}
	}
	if r.Scope != "all" && g.States != "" {
		if g.Complete {
			fmt.Fprintf(w, "unsafe region: %s of %s states not %s\n", g.Unsafe, g.States, what)
		} else {
			fmt.Fprintf(w, "unsafe region: %s with %s of %s states known not %s\n", phrase.Stopped(r.Reason), g.Unsafe, g.States, what)
		}
	}
	r.BDD.WriteText(w, "propu-bdd", r.Seconds)
	return nil
}

func cubeCount(n float64) string {
	if n == 1 {
		return "1 cube"
	}
	return fmt.Sprintf("%.0f cubes", n)
}
