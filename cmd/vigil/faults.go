package main

// vigil faults: the policy decisions on an unsafe run that leave the safe
// region (paper 000, Definition 3), found by safety.Faults with the
// deciders vigil safe uses (see safe.go for the shared flags).

import (
	"vigil/safety"
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
		return fail(e, exitUsage, "vigil faults: propu-bdd decides vigil safe questions only; fault analysis needs an explicit decider (tarjan, ipi, ...)")
	}
	if *runFile == "" {
		return fail(e, exitUsage, "vigil faults: give the run to analyse with --run RUN.json")
	}
	su, ok := setupSafety(e, "faults", sf, file)
	if !ok {
		return exitError
	}
	run, err := safety.ReadRun(su.sp, *runFile)
	if err != nil {
		return fail(e, exitFor(err), "vigil faults: %v", err)
	}
	ctx, cancel := runContext(*sf.timeout)
	defer cancel()
	prog := newProgress(e, *sf.jsonOut)
	rep, err := safety.CheckRun(ctx, su.d, run, policyName(su.decl), lineTo(prog))
	prog.clear()
	if err != nil {
		return fail(e, exitFor(err), "vigil faults: %v", err)
	}
	code := exitOK
	if rep.Reason != "" {
		code = exitUnknown
	}
	return writeReport(e, "faults", *sf.jsonOut, rep, code)
}
