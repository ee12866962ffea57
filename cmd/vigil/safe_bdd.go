package main

// vigil safe --algo propu-bdd: Prop-U with BDDs over every state at once
// (package bdd), then the answers for the states asked.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/big"
	"time"

	"vigil/bdd"
	"vigil/safety"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// regionReport is propu-bdd's unsafe region in the --json output. Counts
// are JSON numbers of any size.
type regionReport struct {
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
}

// safeBDDReport is vigil safe's report for propu-bdd: safety.Report with
// the unsafe region and the BDD figures (package bdd's, which safety does
// not import).
type safeBDDReport struct {
	*safety.Report
	Region *regionReport   `json:"region,omitempty"`
	BDD    *bddStatsReport `json:"bdd,omitempty"`
}

// maxListedStarts bounds the start states propu-bdd lists one by one.
const maxListedStarts = 1000

// runSafeBDD is vigil safe --algo propu-bdd: the unsafe region of every
// state at once, then the answers for the states asked.
func runSafeBDD(e *env, sf *safetyFlags, bf *bddFlags, file, stateText string, all bool, cubes int, certFile string) int {
	if !bf.check(e, "safe", true) {
		return exitUsage
	}
	r := sf.radius.r
	switch {
	case r != safety.Inf && r != 0:
		fmt.Fprintf(e.stderr, "vigil safe: --algo propu-bdd decides radius inf or 0; for radius %v use an explicit decider (--algo propu)\n", r)
		return exitUsage
	case certFile != "":
		fmt.Fprintln(e.stderr, "vigil safe: --algo propu-bdd writes no certificates; use an explicit decider (--algo propu) with --cert")
		return exitUsage
	case cubes < 0:
		fmt.Fprintf(e.stderr, "vigil safe: --cubes %d: give a number of cubes (0 lists none)\n", cubes)
		return exitUsage
	}
	pd := onlyPolicy
	if r >= 0 {
		pd = thePolicy
	}
	lm, ok := sf.load(e, "safe", file, true, pd)
	if !ok {
		return exitError
	}
	if lm.decl == nil && r >= 0 {
		fmt.Fprintf(e.stderr, "vigil safe: a finite --radius needs a tested policy, and model %s has none; declare one or give --policy-file\n", lm.m.Name)
		return exitError
	}
	scope, states, code := safeBDDStates(e, lm, stateText, all)
	if code != exitOK {
		return code
	}
	ctx, cancel := runContext(*sf.timeout)
	defer cancel()
	prog := newProgress(e, *sf.jsonOut)
	res, err := bdd.PropU(ctx, lm.m, lm.prop, lm.decl, r, states, bf.options(prog, "safe (propu-bdd)"))
	prog.clear()
	if err != nil {
		fmt.Fprintf(e.stderr, "vigil safe: %v\n", err)
		return exitFor(err)
	}
	rep := &safeBDDReport{Report: &safety.Report{Model: lm.m.Name, Property: lm.prop.Name, Policy: policyName(lm.decl), Radius: r.String(), Algo: "propu-bdd", Scope: scope,
		States: []safety.StateReport{}}, Region: &regionReport{Complete: res.Complete, Reason: res.Reason, States: num(res.Total), Unsafe: num(res.Unsafe)}}
	if res.Complete {
		rep.Region.Safe = num(new(big.Int).Sub(res.Total, res.Unsafe))
	}
	if err := rep.fillBDD(lm.m, res, states, all, cubes); err != nil {
		fmt.Fprintf(e.stderr, "vigil safe: %v\n", err)
		return exitFor(err)
	}
	rep.Reason = res.Reason
	rep.Seconds = res.Stats.Elapsed.Seconds()
	rep.BDD = newBDDStats(bf.order.val, res.Stats)
	return finishSafe(e, rep.Report, *sf.jsonOut, rep)
}

// safeBDDStates returns the states propu-bdd answers for: the one
// --state gives (scope "state"), the start states when they are at most
// maxListedStarts and listed within a second (scope "start"; nil when
// they are answered as a set), or none for --all (scope "all").
func safeBDDStates(e *env, lm *loadedModel, stateText string, all bool) (scope string, states []symbolic.State, code int) {
	scope = "all"
	switch {
	case stateText != "":
		scope = "state"
		s, err := explicit.ParseState(lm.m, stateText)
		if err != nil {
			fmt.Fprintf(e.stderr, "vigil safe: --state: %s\n", stateMessage(err))
			return "", nil, exitError
		}
		states = append(states, s)
	case !all:
		scope = "start"
		many := false
		// Listing the start states may take at most a second (a sparse
		// start condition over wide ranges); beyond it they are answered
		// as a set, as when there are many.
		lctx, lcancel := context.WithTimeout(context.Background(), time.Second)
		err := lm.g.StartsContext(lctx, func(s symbolic.State) bool {
			if len(states) == maxListedStarts {
				many = true
				return false
			}
			states = append(states, append(symbolic.State(nil), s...))
			return true
		})
		lcancel()
		if err != nil && lctx.Err() != nil {
			err, many = nil, true
		}
		if err != nil {
			fmt.Fprintf(e.stderr, "vigil safe: %v\n", err)
			return "", nil, exitFor(err)
		}
		if many {
			states = nil // answered as a set
		}
	}
	return scope, states, exitOK
}

// fillBDD fills in rep's answers from propu-bdd's result: per state
// asked, for the start states as a set, or for every state (all, with at
// most cubes cubes of the unsafe region).
func (rep *safeBDDReport) fillBDD(m *symbolic.Model, res *bdd.Safety, states []symbolic.State, all bool, cubes int) error {
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
		rep.Region.Cubes, rep.Region.Cover = res.Cubes(cubes)
		if rep.Region.Cubes == nil {
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
		rep.Region.Starts, rep.Region.StartsUnsafe, rep.Region.StartsSafe = num(starts), num(unsafe), num(safe)
		if unsafe.Sign() > 0 {
			rep.Unsafe = 1
		}
		if safe == nil {
			rep.Unknown = 1
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
func (r *safeBDDReport) WriteText(w io.Writer) error {
	what := radiusWords(r.Radius)
	who := r.Deviations()
	g := r.Region
	switch {
	case g.States == "":
		fmt.Fprintf(w, "unknown: %s while encoding model %s\n", stopped(r.Reason), r.Model)
	case len(r.States) == 1:
		s := r.States[0]
		switch s.Verdict {
		case "safe":
			fmt.Fprintf(w, "%s: %s%s\n", what, s.State, who)
		case "unsafe":
			fmt.Fprintf(w, "not %s: %s%s\n", what, s.State, who)
		default:
			fmt.Fprintf(w, "unknown: %s before deciding %s\n", stopped(r.Reason), s.State)
		}
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
			fmt.Fprintf(w, "unknown: %s before deciding the start states of property %s\n", stopped(r.Reason), r.Property)
		case g.StartsSafe == "":
			fmt.Fprintf(w, "%s start states of property %s: at least %s not %s, the others unknown (%s)%s\n", g.Starts, r.Property, g.StartsUnsafe, what, r.Reason, who)
		default:
			fmt.Fprintf(w, "%s start states of property %s: %s %s, %s not %s%s\n", g.Starts, r.Property, g.StartsSafe, what, g.StartsUnsafe, what, who)
		}
	default: // all
		if g.Complete {
			fmt.Fprintf(w, "all %s states of model %s, property %s: %s %s, %s not %s%s\n", g.States, r.Model, r.Property, g.Safe, what, g.Unsafe, what, who)
		} else {
			fmt.Fprintf(w, "all %s states of model %s, property %s: at least %s not %s, the others unknown (%s)%s\n", g.States, r.Model, r.Property, g.Unsafe, what, stopped(r.Reason), who)
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
			fmt.Fprintf(w, "unsafe region: %s with %s of %s states known not %s\n", stopped(r.Reason), g.Unsafe, g.States, what)
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

// clampInt returns x as an int, or the largest int when it does not fit
// (the region report has the exact number).
func clampInt(x *big.Int) int {
	if x.IsInt64() {
		return int(x.Int64())
	}
	return math.MaxInt
}
