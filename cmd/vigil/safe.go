package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/big"
	"os"
	"strings"
	"time"

	"vigil/bdd"
	"vigil/safety"
	"vigil/safety/cert"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

func init() {
	register(&command{
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

// radiusFlag is --radius.
type radiusFlag struct{ r safety.Radius }

func (f *radiusFlag) String() string { return f.r.String() }
func (f *radiusFlag) Set(s string) error {
	r, err := safety.ParseRadius(s)
	if err != nil {
		return err
	}
	f.r = r
	return nil
}

// safetyFlags are the flags safe and faults share.
type safetyFlags struct {
	*modelFlags
	radius      *radiusFlag
	algo, order *enumFlag
	seed        *uint64
	jsonOut     *bool
	timeout     *time.Duration
	starts      *bool // safe: --starts
}

func addSafetyFlags(fs *flag.FlagSet, withStart bool) *safetyFlags {
	sf := &safetyFlags{radius: &radiusFlag{safety.Inf}, starts: new(bool)}
	const propUsage = "property whose unsafe and goal states count (default: the only one)"
	const polUsage = "the tested policy (default: the only one); needed for a finite radius, for --order learn and for faults"
	if withStart {
		sf.starts = fs.Bool("starts", false, "decide every start state of the property")
	}
	sf.modelFlags = addModelFlags(fs, propUsage, polUsage)
	fs.Var(sf.radius, "radius", "how often a policy may deviate from the tested one along a run: a number, or inf for plain safety")
	algos := append(append([]string(nil), safety.Algorithms...), "propu-bdd")
	sf.algo = &enumFlag{what: "algorithm", values: algos, val: "tarjan"}
	fs.Var(sf.algo, "algo", "decider: "+strings.Join(algos, ", ")+" (propu-bdd: Prop-U with BDDs over all states at once, radius inf or 0)")
	sf.order = &enumFlag{what: "action order", values: []string{"app", "learn", "rand"}, val: "app"}
	fs.Var(sf.order, "order", "iPI/nPI action order: app (model order), learn (the tested policy's label first), rand (seeded)")
	sf.seed = fs.Uint64("seed", 1, "random seed (--order rand, LRTDP's ties)")
	sf.jsonOut = fs.Bool("json", false, "print the result as JSON")
	sf.timeout = timeoutFlag(fs)
	return sf
}

// safetySetup is the loaded model with the space and the decider.
type safetySetup struct {
	*loadedModel
	sp   *safety.Space
	d    safety.Decider
	file string
}

func setupSafety(e *env, cmd string, sf *safetyFlags, file string) (*safetySetup, bool) {
	// Plain safety ranges over all policies: the tested one matters only
	// for deviations, the learn order and faults.
	needPolicy := sf.radius.r >= 0 || sf.order.val == "learn" || cmd == "faults"
	pd := onlyPolicy
	if needPolicy {
		pd = thePolicy
	}
	lm, ok := sf.load(e, cmd, file, true, pd)
	if !ok {
		return nil, false
	}
	if lm.decl == nil && needPolicy {
		what := "a finite --radius"
		if cmd == "faults" {
			what = "fault analysis"
		} else if sf.radius.r < 0 {
			what = "--order learn"
		}
		fmt.Fprintf(e.stderr, "vigil %s: %s needs a tested policy, and model %s has none; declare one or give --policy-file\n", cmd, what, lm.m.Name)
		return nil, false
	}
	su := &safetySetup{loadedModel: lm, file: file, sp: safety.NewSpace(lm.g, lm.dec)}
	ord, _ := safety.ParseOrder(sf.order.val)
	var err error
	if su.d, err = safety.New(sf.algo.val, su.sp, sf.radius.r, safety.Options{Order: ord, Seed: *sf.seed}); err != nil {
		fmt.Fprintf(e.stderr, "vigil %s: %v\n", cmd, err)
		return nil, false
	}
	return su, true
}

// safeState is one decided state in the --json output.
type safeState struct {
	State    string  `json:"state"`
	Verdict  string  `json:"verdict"` // safe, unsafe, unknown
	Expanded int     `json:"expanded"`
	Seconds  float64 `json:"seconds"`
	Cert     string  `json:"certificate,omitempty"`
}

type safeReport struct {
	// Verdict sums up the states, as the exit code does: unknown if any is
	// undecided, else unsafe if any is not (r-)safe, else safe.
	Verdict  string      `json:"verdict"`
	Model    string      `json:"model"`
	Scope    string      `json:"scope,omitempty"` // propu-bdd: state, start or all
	Property string      `json:"property"`
	Policy   string      `json:"policy"`
	Radius   string      `json:"radius"`
	Algo     string      `json:"algorithm"`
	States   []safeState `json:"states"`
	Safe     int         `json:"safe"`
	Unsafe   int         `json:"unsafe"`
	Unknown  int         `json:"unknown"`
	Reason   string      `json:"reason,omitempty"`
	// More: a stop ended the enumeration of the start states; those not
	// reached are not in States.
	More     bool    `json:"more_start_states,omitempty"`
	Expanded int     `json:"expanded"`
	Backups  int     `json:"backups,omitempty"`
	Stored   int     `json:"stored_states"`
	Seconds  float64 `json:"seconds"`
	// propu-bdd only:
	Region *regionReport   `json:"region,omitempty"`
	BDD    *bddStatsReport `json:"bdd,omitempty"`
}

func runSafe(e *env, args []string) int {
	c := commands["safe"]
	fs := newFlags(e, c)
	addProgressFlags(e, fs)
	sf := addSafetyFlags(fs, true)
	stateText := fs.String("state", "", `the state to decide: "NAME=VALUE ..." as vigil prints states (unnamed variables take their initial values)`)
	certFile := fs.String("cert", "", "write the certificate to this file (with --starts: one certificate for every decided start state, sharing one table)")
	all := fs.Bool("all", false, "propu-bdd: decide every state of the model: the numbers of safe and unsafe states, and the unsafe region as a cover of cubes")
	cubes := addCountFlag(fs, "cubes", 20, "propu-bdd --all: list at most this many cubes of the unsafe region")
	bf := addBDDFlags(fs)
	if bareStart(args) {
		fmt.Fprintln(e.stderr, "vigil safe: --start FILE names a PlaJA start-condition file, as in every command; to decide every start state give --starts")
		return exitUsage
	}
	file, ok := parseModelArg(e, c, fs, args)
	if !ok {
		return exitUsage
	}
	modes := 0
	for _, on := range []bool{*stateText != "", *sf.starts, *all} {
		if on {
			modes++
		}
	}
	if modes != 1 {
		fmt.Fprintln(e.stderr, "vigil safe: give --state \"NAME=VALUE ...\" or --starts (every start state), not both or neither (or --all alone: every state, with --algo propu-bdd)")
		return exitUsage
	}
	if sf.algo.val == "propu-bdd" {
		return runSafeBDD(e, sf, bf, file, *stateText, *all, *cubes, *certFile)
	}
	if *all {
		fmt.Fprintln(e.stderr, "vigil safe: --all decides every state at once, which only --algo propu-bdd does")
		return exitUsage
	}
	if !bf.check(e, "safe", false) {
		return exitUsage
	}
	su, ok := setupSafety(e, "safe", sf, file)
	if !ok {
		return exitError
	}
	var state symbolic.State
	if *stateText != "" {
		s, err := explicit.ParseState(su.m, *stateText)
		if err != nil {
			fmt.Fprintf(e.stderr, "vigil safe: --state: %s\n", stateMessage(err))
			return exitError
		}
		state = s
	}
	ctx, cancel := runContext(*sf.timeout)
	defer cancel()
	prog := newProgress(e, *sf.jsonOut)
	rep := &safeReport{Model: su.m.Name, Property: su.prop.Name, Policy: policyName(su.decl), Radius: sf.radius.r.String(), Algo: su.d.Name()}
	t0 := time.Now()
	code := exitOK
	fail := func(err error) {
		prog.clear()
		fmt.Fprintf(e.stderr, "vigil safe: %v\n", err)
		code = exitFor(err)
	}
	// The states to decide: the one given, or every start state, decided
	// as they are enumerated (see safety.DecideStarts).
	queued := 0
	su.d.SetProgress(func(st safety.Stats) {
		prog.printf("safe (%s): %d states decided, %d expanded, %d stored", su.d.Name(), queued, st.Expanded, su.sp.Len())
	})
	var res *safety.Starts
	if state != nil {
		id, err := su.sp.Intern(state)
		if err != nil {
			fail(err)
			return code
		}
		queued = 1
		res = &safety.Starts{States: []safety.StateDecision{{ID: id}}}
		if err := safety.DecideStates(ctx, su.d, res.States); err != nil {
			fail(err)
			return code
		}
	} else {
		var err error
		if res, err = safety.DecideStarts(ctx, su.d, func(n int) { queued = n }); err != nil {
			fail(err)
			return code
		}
	}
	decided := rep.add(su.sp, res)
	if *certFile != "" && len(decided) > 0 {
		if err := writeSafetyCert(su, sf, decided, *certFile); err != nil {
			fail(err)
			return code
		}
		for i := range rep.States {
			if rep.States[i].Verdict != "unknown" {
				rep.States[i].Cert = *certFile
			}
		}
	}
	if code != exitOK {
		return code
	}
	if state != nil && len(rep.States) == 0 {
		return code
	}
	prog.clear()
	st := su.d.Stats()
	rep.Seconds, rep.Expanded, rep.Backups, rep.Stored = time.Since(t0).Seconds(), st.Expanded, st.Backups, su.sp.Len()
	rep.Reason = stopReason(ctx)
	return rep.finish(e, *sf.jsonOut, printSafe)
}

// add adds the decisions of res to the report, counting the verdicts, and
// returns the states decided (safe or not).
func (rep *safeReport) add(sp *safety.Space, res *safety.Starts) (decided []uint32) {
	rep.More = res.More
	for _, d := range res.States {
		rep.States = append(rep.States, safeState{State: sp.Format(d.ID), Verdict: d.Verdict.String(), Expanded: d.Expanded, Seconds: d.Time.Seconds()})
		switch d.Verdict {
		case safety.Safe:
			rep.Safe++
		case safety.Unsafe:
			rep.Unsafe++
		default:
			rep.Unknown++
			continue
		}
		decided = append(decided, d.ID)
	}
	return decided
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

func radiusWords(r string) string {
	if r == "inf" {
		return "safe"
	}
	return r + "-safe"
}

// finish prints the report (JSON, or text with print) and returns the exit
// code: unknown if any state is undecided, else unsafe if any is not safe.
func (rep *safeReport) finish(e *env, asJSON bool, print func(*env, *safeReport)) int {
	switch {
	case rep.Unknown > 0 || rep.More:
		rep.Verdict = "unknown"
	case rep.Unsafe > 0:
		rep.Verdict = "unsafe"
	default:
		rep.Verdict = "safe"
	}
	if asJSON {
		b, _ := json.MarshalIndent(rep, "", "  ")
		fmt.Fprintln(e.stdout, string(b))
	} else {
		print(e, rep)
	}
	switch rep.Verdict {
	case "unknown":
		return exitUnknown
	case "unsafe":
		return exitUnsafe
	}
	return exitOK
}

func printSafe(e *env, r *safeReport) {
	w := e.stdout
	what := radiusWords(r.Radius)
	who := ""
	if r.Radius != "inf" {
		who = fmt.Sprintf(" (at most %s from policy %s along every run)", plural(atoi(r.Radius), "deviation"), r.Policy)
	}
	if len(r.States) == 1 && !r.More {
		s := r.States[0]
		switch s.Verdict {
		case "safe":
			fmt.Fprintf(w, "%s: %s%s\n", what, s.State, who)
		case "unsafe":
			fmt.Fprintf(w, "not %s: %s%s\n", what, s.State, who)
		default:
			fmt.Fprintf(w, "unknown: %s before deciding %s\n", stopped(r.Reason), s.State)
		}
		if s.Cert != "" {
			fmt.Fprintf(w, "certificate: %s (check with: vigil cert check %s)\n", s.Cert, s.Cert)
		}
	} else {
		if r.More {
			fmt.Fprintf(w, "%s of property %s reached, then the enumeration was %s: %d %s, %d not %s", plural(len(r.States), "start state"), r.Property, stopped(r.Reason), r.Safe, what, r.Unsafe, what)
		} else {
			fmt.Fprintf(w, "%d start states of property %s: %d %s, %d not %s", len(r.States), r.Property, r.Safe, what, r.Unsafe, what)
		}
		if r.Unknown > 0 {
			fmt.Fprintf(w, ", %d unknown (%s)", r.Unknown, stopped(r.Reason))
		}
		fmt.Fprintf(w, "%s\n", who)
		fmt.Fprintf(w, "  %-8s %9s %9s  %s\n", "verdict", "expanded", "ms", "state")
		for _, s := range r.States {
			fmt.Fprintf(w, "  %-8s %9d %9.1f  %s\n", s.Verdict, s.Expanded, 1000*s.Seconds, s.State)
		}
	}
	fmt.Fprintf(w, "%s: %d expanded, %d states stored, %.3fs\n", r.Algo, r.Expanded, r.Stored, r.Seconds)
}

func atoi(s string) int {
	n := 0
	fmt.Sscan(s, &n)
	return n
}

// writeSafetyCert writes one certificate for the decided states ids (one
// table for all of them), recording how to load the model again.
func writeSafetyCert(su *safetySetup, sf *safetyFlags, ids []uint32, path string) error {
	c, err := safety.CertifyStarts(su.d, ids)
	if err != nil {
		return err
	}
	c.Spec, c.Property, c.Policy = su.file, su.prop.Name, policyName(su.decl)
	if len(sf.defs) > 0 {
		c.Defines = map[string]string(sf.defs)
	}
	if su.decl != nil {
		if c.PolicySHA256, err = symbolic.PolicyFilesHash(su.decl); err != nil {
			return err
		}
	}
	if pf := sf.plaja; *pf.start != "" || *pf.unsafe != "" || *pf.policyFile != "" {
		c.Plaja = &cert.Plaja{Start: *pf.start, Unsafe: *pf.unsafe, PolicyFile: *pf.policyFile}
	}
	var pl cert.Plaja
	if c.Plaja != nil {
		pl = *c.Plaja
	}
	if c.CertDir, err = certPaths(path, &c.Spec, &pl.Start, &pl.Unsafe, &pl.PolicyFile); err != nil {
		return err
	}
	if c.Plaja != nil {
		*c.Plaja = pl
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := cert.Write(f, c); err != nil {
		f.Close()
		return err
	}
	return f.Close()
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
	rep := &safeReport{Model: lm.m.Name, Property: lm.prop.Name, Policy: policyName(lm.decl), Radius: r.String(), Algo: "propu-bdd", Scope: scope,
		States: []safeState{}, Region: &regionReport{Complete: res.Complete, Reason: res.Reason, States: num(res.Total), Unsafe: num(res.Unsafe)}}
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
	return rep.finish(e, *sf.jsonOut, printSafeBDD)
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
func (rep *safeReport) fillBDD(m *symbolic.Model, res *bdd.Safety, states []symbolic.State, all bool, cubes int) error {
	switch {
	case res.Total == nil: // stopped while encoding
		rep.Unknown = max(len(states), 1)
		for _, s := range states {
			rep.States = append(rep.States, safeState{State: m.FormatState(s), Verdict: "unknown"})
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
			rep.States = append(rep.States, safeState{State: m.FormatState(s), Verdict: ans[i].String()})
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

func printSafeBDD(e *env, r *safeReport) {
	w := e.stdout
	what := radiusWords(r.Radius)
	who := ""
	if r.Radius != "inf" {
		who = fmt.Sprintf(" (at most %s from policy %s along every run)", plural(atoi(r.Radius), "deviation"), r.Policy)
	}
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
	r.BDD.print(e, "propu-bdd", r.Seconds)
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
