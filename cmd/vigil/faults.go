package main

// vigil faults: the policy decisions on an unsafe run that leave the safe
// region (paper 000, Definition 3), found by safety.Faults with the
// deciders vigil safe uses (see safe.go for the shared flags).

import (
	"encoding/json"
	"fmt"

	"vigil/internal/cli"
	"vigil/internal/inputfile"
	"vigil/load"
	"vigil/safety"
	"vigil/verify"
)

func init() {
	cli.Register(&cli.Command{
		Name:    "faults",
		Summary: "find the policy decisions on an unsafe run that leave the safe region (paper 000, Definition 3)",
		Usage:   "vigil faults [flags] FILE.spec --run RUN.json",
		Examples: []string{
			"vigil verify specs/tarjansafe.spec --policy hasty --record cex.json; vigil faults specs/tarjansafe.spec --run cex.json",
			"vigil faults specs/oneway_line.spec --policy careful --run run.json --radius 1 --algo tarjan --json",
		},
		Run: runFaults,
	})
}

func runFaults(e *cli.Env, args []string) int {
	fs, c := e.Flags("faults")
	e.AddProgressFlags(fs)
	sf := addSafetyFlags(fs, false)
	runFile := fs.String("run", "", "the unsafe run to analyse: a run file of vigil run --record or vigil verify --record (its property and policy are the defaults of --property and --policy)")
	file, ok := e.ParseModelArg(c, fs, args)
	if !ok {
		return cli.ExitUsage
	}
	if msg := sf.unused(fs, "faults"); msg != "" {
		return e.Fail(cli.ExitUsage, "%s", msg)
	}
	if sf.algo.Val == "propu-bdd" {
		return e.Fail(cli.ExitUsage, "vigil faults: propu-bdd decides vigil safe questions only; fault analysis needs an explicit decider (tarjan, ipi, ...)")
	}
	if *runFile == "" {
		pol := "NAME"
		if p := *sf.modelFlags.pol; p != "" {
			pol = verify.ShellQuote(p)
		}
		return e.Fail(cli.ExitUsage, "vigil faults: give the run to analyse with --run RUN.json (record one with vigil verify %s --policy %s --record RUN.json, which writes its counterexample, or with vigil run ... --record RUN.json)", verify.ShellQuote(file), pol)
	}
	if note := runDefaults(sf.modelFlags, file, *runFile); note != "" {
		fmt.Fprintf(e.Stderr, "vigil faults: note: %s\n", note)
	}
	su, ok := setupSafety(e, "faults", sf, file)
	if !ok {
		return cli.ExitError
	}
	run, err := safety.ReadRun(su.sp, *runFile)
	if err != nil {
		return e.Fail(cli.ExitFor(err), "vigil faults: %v", err)
	}
	// what the loads left of --timeout: one deadline for the command
	ctx, cancel := sf.modelFlags.runContext()
	defer cancel()
	prog := e.NewProgress(*sf.jsonOut)
	rep, err := safety.CheckRun(ctx, su.d, run, policyName(su.decl), cli.LineTo(prog))
	prog.Clear()
	if err != nil {
		return e.Fail(cli.ExitFor(err), "vigil faults: %v", err)
	}
	code := cli.ExitOK
	if rep.Reason != "" {
		code = cli.ExitUnknown
	}
	return e.WriteReport("faults", *sf.jsonOut, rep, code)
}

// runDefaults takes the property and the policy a run file names as the
// defaults of --property and --policy, each when its flag (for the
// policy, also --policy-file) is not given and the model declares it: the
// run of a model with several policies or properties then needs no flag
// to be analysed, as it needs none to be replayed. Where the file or the
// model cannot be read, or does not name them, the flags stay as they are
// and loading reports what is wrong. It returns a note when --property
// names another property than the run file's (the run is analysed as
// asked, which may not end unsafe there).
func runDefaults(mf *modelFlags, file, runFile string) (note string) {
	data, err := inputfile.ReadFile(runFile)
	if err != nil {
		return ""
	}
	var run struct{ Property, Policy string }
	if json.Unmarshal(data, &run) != nil {
		return ""
	}
	if *mf.prop != "" && run.Property != "" && *mf.prop != run.Property {
		note = fmt.Sprintf("%s was recorded under property %s; it is analysed under --property %s", runFile, run.Property, *mf.prop)
	}
	if (*mf.pol != "" || *mf.plaja.policyFile != "") && *mf.prop != "" {
		return note
	}
	prop := *mf.prop
	if prop == "" {
		prop = run.Property
	}
	// stopped by a signal or --timeout: the main load reports it
	// (mf.preStop), at once
	l := mf.preload(file, load.Options{Defines: mf.defs, Files: mf.plaja.files(), Property: prop, PolicyDefault: load.OnlyPolicy})
	if l == nil {
		return note
	}
	if *mf.prop == "" {
		*mf.prop = run.Property
	}
	if *mf.pol == "" && *mf.plaja.policyFile == "" && run.Policy != "" && l.Model.Policy(run.Policy) != nil {
		*mf.pol = run.Policy
	}
	return note
}
