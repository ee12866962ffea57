package main

// vigil faults: the policy decisions on an unsafe run that leave the safe
// region (paper 000, Definition 3), found by safety.Faults with the
// deciders vigil safe uses (see safe.go for the shared flags).

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"vigil/safety"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

func init() {
	register(&command{
		Name:    "faults",
		Summary: "find the policy decisions on an unsafe run that leave the safe region (paper 000, Definition 3)",
		Usage:   "vigil faults [flags] FILE.spec --run RUN.json",
		Examples: []string{
			"vigil verify specs/tarjansafe.spec --policy hasty --record cex.json; vigil faults specs/tarjansafe.spec --policy hasty --run cex.json",
			"vigil faults specs/oneway_line.spec --policy careful --run run.json --radius 1 --algo tarjan --json",
		},
		Run: runFaults,
	})
}

// faultJSON is one fault in the --json output.
type faultJSON struct {
	Step    int    `json:"step"`
	State   string `json:"state"`
	Label   string `json:"label"`
	Outcome string `json:"unsafe_outcome"`
	Alt     string `json:"safe_alternative"`
}

type faultsReport struct {
	Model     string      `json:"model"`
	Property  string      `json:"property"`
	Policy    string      `json:"policy"`
	Radius    string      `json:"radius"`
	Algo      string      `json:"algorithm"`
	Steps     int         `json:"run_states"`
	EndUnsafe bool        `json:"run_ends_unsafe"`
	Analysed  int         `json:"states_analysed"`
	Safe      []bool      `json:"safe"`
	Bugs      []int       `json:"bugs"`
	Faults    []faultJSON `json:"faults"`
	Decisions int         `json:"decisions"`
	CacheHits int         `json:"cache_hits"`
	Expanded  int         `json:"expanded"`
	Seconds   float64     `json:"seconds"`
	Reason    string      `json:"reason,omitempty"`
}

func runFaults(e *env, args []string) int {
	c := commands["faults"]
	fs := newFlags(e, c)
	addProgressFlags(e, fs)
	sf := addSafetyFlags(fs, false)
	runFile := fs.String("run", "", "the unsafe run to analyse: a run file of vigil run --record or vigil verify --record")
	file, ok := parseModelArg(e, c, fs, args)
	if !ok {
		return exitUsage
	}
	if sf.algo.val == "propu-bdd" {
		fmt.Fprintln(e.stderr, "vigil faults: propu-bdd decides vigil safe questions only; fault analysis needs an explicit decider (tarjan, ipi, ...)")
		return exitUsage
	}
	if *runFile == "" {
		fmt.Fprintln(e.stderr, "vigil faults: give the run to analyse with --run RUN.json")
		return exitUsage
	}
	su, ok := setupSafety(e, "faults", sf, file)
	if !ok {
		return exitError
	}
	rf, err := os.Open(*runFile)
	if err != nil {
		fmt.Fprintf(e.stderr, "vigil faults: %v\n", err)
		return exitFor(err)
	}
	_, steps, err := explicit.ReadRun(rf, su.m)
	rf.Close()
	if err != nil {
		fmt.Fprintf(e.stderr, "vigil faults: %s: %s\n", *runFile, runFileMessage(err))
		return exitError
	}
	run, err := safety.RunStates(su.sp, steps)
	if err != nil {
		fmt.Fprintf(e.stderr, "vigil faults: %s: %v\n", *runFile, err)
		return exitFor(err)
	}
	ctx, cancel := runContext(*sf.timeout)
	defer cancel()
	prog := newProgress(e, *sf.jsonOut)
	su.d.SetProgress(func(st safety.Stats) {
		prog.printf("faults (%s): %d expanded, %d stored", su.d.Name(), st.Expanded, su.sp.Len())
	})
	t0 := time.Now()
	fr, err := safety.Faults(ctx, su.d, run)
	prog.clear()
	if err != nil && ctx.Err() == nil {
		fmt.Fprintf(e.stderr, "vigil faults: %v\n", err)
		return exitFor(err)
	}
	m := su.m
	rep := &faultsReport{Model: m.Name, Property: su.prop.Name, Policy: policyName(su.decl), Radius: sf.radius.r.String(), Algo: su.d.Name(),
		Steps: len(run), EndUnsafe: fr.EndUnsafe, Analysed: fr.Done, Bugs: fr.Bugs, Decisions: fr.Decisions, CacheHits: fr.CacheHits,
		Expanded: su.d.Stats().Expanded, Seconds: time.Since(t0).Seconds(), Reason: stopReason(ctx), Faults: []faultJSON{}}
	if rep.Bugs == nil {
		rep.Bugs = []int{}
	}
	rep.Safe = fr.Safe[len(run)-fr.Done:]
	for _, f := range fr.Faults {
		alt := ""
		if f.Alt != symbolic.NoLabel {
			alt = m.Labels[f.Alt].Name
		}
		rep.Faults = append(rep.Faults, faultJSON{Step: f.Step, State: su.sp.Format(f.State), Label: m.Labels[f.Label].Name, Outcome: su.sp.Format(f.Outcome), Alt: alt})
	}
	if *sf.jsonOut {
		b, _ := json.MarshalIndent(rep, "", "  ")
		fmt.Fprintln(e.stdout, string(b))
	} else {
		printFaults(e, rep)
	}
	if rep.Reason != "" {
		return exitUnknown
	}
	return exitOK
}

func printFaults(e *env, r *faultsReport) {
	w := e.stdout
	what := radiusWords(r.Radius)
	end := "ends in an unsafe state"
	if !r.EndUnsafe {
		end = "does not end in an unsafe state (no bugs can be named)"
	}
	fmt.Fprintf(w, "run of %s of policy %s %s\n", plural(r.Steps, "state"), r.Policy, end)
	if r.Reason != "" {
		switch r.Analysed {
		case 0:
			fmt.Fprintf(w, "%s before any state was analysed\n", capitalize(stopped(r.Reason)))
		case 1:
			fmt.Fprintf(w, "%s: only the last state was analysed\n", capitalize(stopped(r.Reason)))
		default:
			fmt.Fprintf(w, "%s: only the last %d states were analysed\n", capitalize(stopped(r.Reason)), r.Analysed)
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
		fmt.Fprintf(w, "%s:\n", plural(len(r.Faults), "fault"))
		for _, f := range r.Faults {
			fmt.Fprintf(w, "  step %d: %s\n    policy takes %s, which may lead to %s (not %s)\n", f.Step, f.State, f.Label, f.Outcome, what)
			if f.Alt != "" {
				fmt.Fprintf(w, "    %s keeps it %s\n", f.Alt, what)
			}
		}
	}
	if r.EndUnsafe {
		fmt.Fprintf(w, "bugs (states where the policy is unsafe but a %s policy exists): %s of %d\n", what, plural(len(r.Bugs), "step"), r.Steps-1)
	}
	fmt.Fprintf(w, "%s: %s (%d from the caches), %d expanded, %.3fs\n", r.Algo, plural(r.Decisions, "decision"), r.CacheHits, r.Expanded, r.Seconds)
}
