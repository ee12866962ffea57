package main

import (
	"errors"
	"flag"
	"fmt"
	"strings"
	"time"

	invcert "vigil/ic3/cert"
	"vigil/internal/cli"
	"vigil/load"
	"vigil/safety"
	"vigil/safety/cert"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/verify"
)

func init() {
	cli.Register(&cli.Command{
		Name:    "safe",
		Summary: "decide whether states are safe or r-safe (some policy within radius r of the tested one avoids unsafe states)",
		Usage:   `vigil safe [flags] FILE.spec (--state "x=1 y=2" | --starts | --all)`,
		Examples: []string{
			`vigil safe specs/tarjansafe.spec --policy hasty --state "layer=4 side=true"`,
			"vigil safe specs/flappy.spec -D S=4 -D W=16 --starts --algo ipi",
			`vigil safe specs/oneway_line.spec --policy careful --starts --radius 1 --algo tarjan`,
			`vigil safe specs/tarjansafe.spec --policy hasty --state "layer=0" --cert safe.json; vigil cert check safe.json`,
			`vigil safe specs/oneway_line.spec --policy careful --starts --radius 1 --cert starts.json --timeout 60s; vigil cert check starts.json`,
			"vigil safe specs/flappy.spec -D W=600 -D H=60 --algo propu-bdd --all",
		},
		Run: runSafe,
	})
}

// safetyFlags are the flags safe and faults share.
type safetyFlags struct {
	*modelFlags
	radius      *safety.Radius
	algo, order *cli.EnumFlag
	seed        *uint64
	jsonOut     *bool
	timeout     *time.Duration
	starts      *bool // safe: --starts
}

func addSafetyFlags(fs *flag.FlagSet, withStart bool) *safetyFlags {
	inf := safety.Inf
	sf := &safetyFlags{radius: &inf, starts: new(bool)}
	const propUsage = "property whose unsafe and goal states count (default: the only one)"
	const polUsage = "the tested policy (default: the only one); needed for a finite radius, for --order learn and for faults"
	if withStart {
		sf.starts = fs.Bool("starts", false, "decide every start state of the property")
	}
	sf.modelFlags = addModelFlags(fs, propUsage, polUsage)
	fs.Var(sf.radius, "radius", "how often a policy may deviate from the tested one along a run: a number, or inf for plain safety")
	algos := append(append([]string(nil), safety.Algorithms...), "propu-bdd")
	sf.algo = &cli.EnumFlag{What: "algorithm", Values: algos, Val: "tarjan"}
	if withStart {
		fs.Var(sf.algo, "algo", "decider: "+strings.Join(algos, ", ")+" (propu-bdd: Prop-U with BDDs over all states at once, radius inf or 0)")
	} else { // vigil faults, which refuses propu-bdd (it decides no single states)
		fs.Var(sf.algo, "algo", "decider: "+strings.Join(safety.Algorithms, ", "))
	}
	sf.order = &cli.EnumFlag{What: "action order", Values: []string{"app", "learn", "rand"}, Val: "app"}
	fs.Var(sf.order, "order", "iPI/nPI action order: app (model order), learn (the tested policy's label first), rand (seeded)")
	sf.seed = fs.Uint64("seed", 1, "random seed (--order rand, LRTDP's ties)")
	sf.jsonOut = fs.Bool("json", false, "print the result as JSON")
	sf.timeout = cli.TimeoutFlag(fs)
	return sf
}

// unused names a flag given on the command line that the chosen decider
// does not read, as a usage error ("" when none): --order is iPI's and
// nPI's, --seed their random order's and LRTDP's. Silently ignored, they
// would make two runs that differ only there look like a comparison.
func (sf *safetyFlags) unused(fs *flag.FlagSet, cmd string) string {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	algo := sf.algo.Val
	ordered := algo == "ipi" || algo == "npi"
	switch {
	case set["order"] && !ordered:
		return fmt.Sprintf("vigil %s: --order is the action order of --algo ipi and npi; --algo %s does not read it", cmd, algo)
	case set["seed"] && algo != "lrtdp" && !(ordered && sf.order.Val == "rand"):
		return fmt.Sprintf("vigil %s: --seed seeds --algo lrtdp and the random order of ipi and npi (--order rand); --algo %s%s does not read it", cmd, algo, map[bool]string{true: " --order " + sf.order.Val}[ordered])
	}
	return ""
}

// safetySetup is the loaded model with the space and the decider.
type safetySetup struct {
	*loadedModel
	sp   *safety.Space
	d    safety.Decider
	file string
}

func setupSafety(e *cli.Env, cmd string, sf *safetyFlags, file string) (*safetySetup, bool) {
	// Plain safety ranges over all policies: the tested one matters only
	// for deviations, the learn order and faults.
	lm, ok := loadSafety(e, cmd, sf, file, *sf.radius >= 0 || sf.order.Val == "learn" || cmd == "faults")
	if !ok {
		return nil, false
	}
	su := &safetySetup{loadedModel: lm, file: file, sp: safety.NewSpace(lm.g, lm.dec)}
	ord, _ := safety.ParseOrder(sf.order.Val)
	var err error
	if su.d, err = safety.New(sf.algo.Val, su.sp, *sf.radius, safety.Options{Order: ord, Seed: *sf.seed}); err != nil {
		fmt.Fprintf(e.Stderr, "vigil %s: %v\n", cmd, err)
		return nil, false
	}
	return su, true
}

// loadSafety loads the model with the tested policy when needPolicy (and
// then insists on one), else with the only one if any.
func loadSafety(e *cli.Env, cmd string, sf *safetyFlags, file string, needPolicy bool) (*loadedModel, bool) {
	pd := load.OnlyPolicy
	if needPolicy {
		pd = load.ThePolicy
	}
	lm, ok := sf.load(e, cmd, file, true, pd)
	if ok && lm.decl == nil && needPolicy {
		what := "a finite --radius"
		if cmd == "faults" {
			what = "fault analysis"
		} else if *sf.radius < 0 {
			what = "--order learn"
		}
		if len(lm.m.Policies) > 0 { // --policy none
			fmt.Fprintf(e.Stderr, "vigil %s: %s needs a tested policy, and --policy none selects none; choose one with --policy or give --policy-file\n", cmd, what)
			return nil, false
		}
		fmt.Fprintf(e.Stderr, "vigil %s: %s needs a tested policy, and model %s has none; declare one or give --policy-file\n", cmd, what, lm.m.Name)
		return nil, false
	}
	return lm, ok
}

// parseState reads --state for model m (nil when not given), printing
// what is wrong (after the flag, without the package prefix).
func parseState(e *cli.Env, m *symbolic.Model, text string) (symbolic.State, bool) {
	if text == "" {
		return nil, true
	}
	s, err := explicit.ParseState(m, text)
	if se, ok := errors.AsType[*explicit.StateError](err); ok {
		fmt.Fprintf(e.Stderr, "vigil safe: --state: %s\n", se.Msg)
	} else if err != nil {
		fmt.Fprintf(e.Stderr, "vigil safe: --state: %v\n", err)
	}
	return s, err == nil
}

func runSafe(e *cli.Env, args []string) int {
	fs, c := e.Flags("safe")
	e.AddProgressFlags(fs)
	sf := addSafetyFlags(fs, true)
	stateText := fs.String("state", "", `the state to decide: "NAME=VALUE ..." as vigil prints states (unnamed variables take their initial values)`)
	certFile := fs.String("cert", "", "write the certificate to this file, gzip-compressed when FILE ends in .gz (with --starts: one certificate for every decided start state, sharing one table)")
	sf.modelFlags.writes("cert", certFile)
	all := fs.Bool("all", false, "propu-bdd: decide every state of the model: the numbers of safe and unsafe states, and the unsafe region as a cover of cubes")
	cubes := cli.AddCountFlag(fs, "cubes", 20, "propu-bdd --all: list at most this many cubes of the unsafe region")
	bf := addBDDFlags(fs)
	if bareStart(args) {
		return e.Fail(cli.ExitUsage, "vigil safe: --start FILE names a PlaJA start-condition file, as in every command; to decide every start state give --starts")
	}
	file, ok := e.ParseModelArg(c, fs, args)
	if !ok {
		return cli.ExitUsage
	}
	modes := 0
	for _, on := range []bool{*stateText != "", *sf.starts, *all} {
		if on {
			modes++
		}
	}
	if modes != 1 {
		return e.Fail(cli.ExitUsage, "vigil safe: give --state \"NAME=VALUE ...\" or --starts (every start state), not both or neither (or --all alone: every state, with --algo propu-bdd)")
	}
	if msg := sf.unused(fs, "safe"); msg != "" {
		return e.Fail(cli.ExitUsage, "%s", msg)
	}
	if sf.algo.Val == "propu-bdd" {
		return runSafeBDD(e, sf, bf, file, *stateText, *all, *cubes, *certFile)
	}
	if *all {
		return e.Fail(cli.ExitUsage, "vigil safe: --all decides every state at once, which only --algo propu-bdd does")
	}
	if !bf.check(e, "safe", false) {
		return cli.ExitUsage
	}
	su, ok := setupSafety(e, "safe", sf, file)
	if !ok {
		return cli.ExitError
	}
	state, ok := parseState(e, su.m, *stateText)
	if !ok {
		return cli.ExitError
	}
	ctx, cancel := sf.modelFlags.runContext()
	defer cancel()
	prog := e.NewProgress(*sf.jsonOut)
	rep, err := safety.Check(ctx, su.d, *sf.radius, safety.CheckOptions{State: state, Cert: *certFile, Source: su.source(sf),
		Policy: policyName(su.decl), Progress: cli.LineTo(prog)})
	prog.Clear()
	var certErr *safety.CertError
	if errors.As(err, &certErr) {
		// the verdicts stand: print them, then why there is no certificate
		rep.CertError = certErr.Error()
		finishSafe(e, rep, *sf.jsonOut, rep)
		return e.Fail(cli.ExitFor(certErr.Err), "vigil safe: --cert: %v (the verdicts above stand; no certificate was written)", certErr)
	}
	if err != nil {
		return e.Fail(cli.ExitFor(err), "vigil safe: %v", err)
	}
	return finishSafe(e, rep, *sf.jsonOut, rep)
}

// bareStart tells whether args hold --start without a file after it (the
// way vigil safe asked for every start state before --starts).
func bareStart(args []string) bool {
	for i, a := range args {
		if a == "--" {
			return false
		}
		if (a == "--start" || a == "-start") && (i+1 == len(args) || strings.HasPrefix(args[i+1], "-")) {
			return true
		}
	}
	return false
}

// finishSafe sets the verdict of rep, prints it (JSON, or text with
// text) and returns the exit code: unknown if any state is undecided or
// the certificate asked for was not written (a stop while it was
// written: the command did not do all it was asked, and a script that
// takes exit 0 for "safe, certificate written" must not find no file),
// else unsafe if any is not safe.
func finishSafe(e *cli.Env, rep *safety.Report, asJSON bool, text cli.TextReport) int {
	rep.Finish()
	code := map[string]int{"unknown": cli.ExitUnknown, "unsafe": cli.ExitUnsafe}[rep.Verdict]
	if rep.CertNotWritten != "" {
		code = cli.ExitUnknown
	}
	return e.WriteReport("safe", asJSON, text, code)
}

// source says how su's model was loaded, for a certificate.
func (su *safetySetup) source(sf *safetyFlags) safety.Source {
	src := safety.Source{Spec: su.file, Defines: sf.defs, Property: su.prop.Name, Policy: su.decl}
	if pf := sf.plaja; *pf.start != "" || *pf.unsafe != "" || *pf.policyFile != "" {
		src.Plaja = &cert.Plaja{Start: *pf.start, Unsafe: *pf.unsafe, PolicyFile: *pf.policyFile}
	}
	src.ArgMax = string(sf.plaja.reading())
	src.ModelHash = func(policy string) (string, error) { return invcert.ModelHash(su.m, su.prop.Name, policy) }
	return src
}

// vigil safe --algo propu-bdd: Prop-U with BDDs over every state at once
// (package bdd), then the answers for the states asked.

func runSafeBDD(e *cli.Env, sf *safetyFlags, bf *bddFlags, file, stateText string, all bool, cubes int, certFile string) int {
	if !bf.check(e, "safe", true) {
		return cli.ExitUsage
	}
	r := *sf.radius
	switch {
	case r != safety.Inf && r != 0:
		return e.Fail(cli.ExitUsage, "vigil safe: --algo propu-bdd decides radius inf or 0; for radius %v use an explicit decider (--algo propu)", r)
	case certFile != "":
		return e.Fail(cli.ExitUsage, "vigil safe: --algo propu-bdd writes no certificates; use an explicit decider (--algo propu) with --cert")
	case cubes < 0:
		return e.Fail(cli.ExitUsage, "vigil safe: --cubes %d: give a number of cubes (0 lists none)", cubes)
	}
	lm, ok := loadSafety(e, "safe", sf, file, r >= 0)
	if !ok {
		return cli.ExitError
	}
	state, ok := parseState(e, lm.m, stateText)
	if !ok {
		return cli.ExitError
	}
	ctx, cancel := sf.modelFlags.runContext()
	defer cancel()
	prog := e.NewProgress(*sf.jsonOut)
	rep, err := verify.SafeBDD(ctx, verify.SafeBDDQuestion{Gen: lm.g, Policy: lm.decl, Radius: r, State: state, All: all, Cubes: cubes,
		Options: bf.options(prog, "safe (propu-bdd)"), Order: bf.order.Val})
	prog.Clear()
	if err != nil {
		return e.Fail(cli.ExitFor(err), "vigil safe: %v", err)
	}
	return finishSafe(e, rep.Report, *sf.jsonOut, rep)
}
