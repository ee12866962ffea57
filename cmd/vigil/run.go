package main

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"vigil/fuzz/report"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

func init() {
	register(&command{
		Name:    "run",
		Summary: "simulate runs of a policy and print each step",
		Usage:   "vigil run [flags] FILE.spec",
		Help: `Each step is printed as it is made; Ctrl-C or SIGTERM ends the run
("end: interrupted", exit 4) and keeps what was printed. Without --from or
--start-index the start state is drawn at random as vigil test draws them:
uniformly, without enumerating the start states (see README: random start
states).`,
		Examples: []string{
			"vigil run specs/oneway_line.spec --policy careful --seed 3",
			`vigil run specs/oneway_line.spec --policy slow --from "pos=0 load=3 depot=0" --outcomes first`,
			"vigil run specs/transport.spec --start-index 2 --record run.json",
			"vigil run specs/transport.spec --replay run.json",
		},
		Run: runRun,
	})
}

func runRun(e *env, args []string) int {
	c := commands["run"]
	fs := newFlags(e, c)
	addProgressFlags(e, fs)
	propName := fs.String("property", "", "property whose unsafe and goal states end a run (default: the only one)")
	polName := fs.String("policy", "", "policy choosing the labels (default: the only one; none: random applicable labels)")
	plaja := addPlajaFlags(fs)
	from := fs.String("from", "", `start from this state: "NAME=VALUE ..." as vigil prints states (unnamed variables take their initial values)`)
	startIndex := addCountFlag(fs, "start-index", -1, "start from the `K`-th start state of the property (0-based; by default a random one)")
	seed := fs.Uint64("seed", 1, "random seed for the start state and outcomes")
	steps := addCountFlag(fs, "steps", 100, "stop after this many actions")
	runs := fs.Int("runs", 1, "number of runs (with --record, only the first is recorded)")
	outcomes := fs.String("outcomes", "random", "how to resolve non-determinism: random, first or weighted")
	record := fs.String("record", "", "write the (first) run to this run file (JSON)")
	replay := fs.String("replay", "", "check and print the run recorded in this run file instead of simulating")
	defs := defines{}
	fs.Var(defs, "D", "override a constant: -D `NAME=VALUE` (repeatable)")
	file, ok := parseModelArg(e, c, fs, args)
	if !ok {
		return exitUsage
	}
	mode, err := explicit.ParseOutcomeMode(*outcomes)
	if err != nil {
		fmt.Fprintf(e.stderr, "vigil run: --outcomes: %v\n", err)
		return exitUsage
	}
	if *from != "" && *startIndex >= 0 {
		fmt.Fprintln(e.stderr, "vigil run: give --from or --start-index, not both")
		return exitUsage
	}
	if *steps < 0 || *runs < 1 {
		fmt.Fprintln(e.stderr, "vigil run: --steps must be >= 0 and --runs >= 1")
		return exitUsage
	}
	m := loadModel(e, file, defs)
	if m == nil {
		return exitError
	}
	if !plaja.apply(e, m, propName, polName) {
		return exitError
	}
	if *replay != "" {
		if err := explicit.Replay(e.stdout, m, *replay); err != nil {
			fmt.Fprintf(e.stderr, "vigil run: %v\n", err)
			return exitFor(err)
		}
		return exitOK
	}
	prop, ok := selectProperty(e, "run", m, *propName, false)
	if !ok {
		return exitError
	}
	// A JANI model's own PA property runs under the network it names, as
	// in every command that loads through modelFlags (load.go).
	mf := &modelFlags{prop: propName, pol: polName, plaja: plaja, defs: defs}
	if !mf.attachModelPA(e, "run", file, &loadedModel{m: m, prop: prop}) {
		return exitError
	}
	decl, ok := selectPolicy(e, "run", m, *polName, true)
	if !ok {
		return exitError
	}
	g, err := explicit.New(m, prop)
	if err != nil {
		fmt.Fprintf(e.stderr, "vigil run: %v\n", err)
		return exitFor(err)
	}
	ctx, cancel := runContext(0)
	defer cancel()
	rng := rand.New(rand.NewPCG(*seed, 0x72756e))
	end, err := explicit.Runs(g, e.stdout, explicit.RunsOptions{Runs: *runs, From: *from, Index: *startIndex, Record: *record, Policy: decl,
		Sim: explicit.SimOptions{Steps: *steps, Outcomes: mode, Rand: rng, Ctx: ctx},
		Sampler: func() (*explicit.StartSampler, error) {
			// A start state drawn uniformly, without enumerating them all.
			ss, _, err := report.StartSampler(ctx, g, *seed, lineTo(newProgress(e, false)))
			return ss, err
		}})
	if _, ok := errors.AsType[*explicit.StartError](err); ok && ctx.Err() != nil {
		fmt.Fprintf(e.stderr, "vigil run: %s before a start state was found\n", capitalize(stopped(stopReason(ctx))))
		return exitUnknown
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "vigil run: %v\n", err)
		return exitFor(err)
	}
	if end == explicit.EndStopped {
		return exitUnknown
	}
	return exitOK
}

func writeRunFile(path string, run *explicit.Run) error { return explicit.WriteRunFile(path, run) }

// selectProperty picks the property named name, or the only one when name
// is "" (symbolic.Model.SelectProperty), printing why it cannot.
func selectProperty(e *env, cmd string, m *symbolic.Model, name string, required bool) (*symbolic.Property, bool) {
	p, err := m.SelectProperty(name, required)
	if err != nil {
		fmt.Fprintf(e.stderr, "vigil %s: %v\n", cmd, err)
	}
	return p, err == nil
}

// selectPolicy picks the policy named name, or with byDefault the only
// one (symbolic.Model.SelectPolicy), printing why it cannot.
func selectPolicy(e *env, cmd string, m *symbolic.Model, name string, byDefault bool) (*symbolic.PolicyDecl, bool) {
	d, err := m.SelectPolicy(name, byDefault)
	if err != nil {
		fmt.Fprintf(e.stderr, "vigil %s: %v\n", cmd, err)
	}
	return d, err == nil
}

func policyName(d *symbolic.PolicyDecl) string {
	if d == nil {
		return ""
	}
	return d.Name
}
