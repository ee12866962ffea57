package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"

	"vigil/fuzz/report"
	"vigil/internal/cli"
	"vigil/internal/phrase"
	"vigil/load"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

func init() {
	cli.Register(&cli.Command{
		Name:    "run",
		Summary: "simulate runs of a policy and print each step",
		Usage:   "vigil run [flags] FILE.spec",
		Help: `Each step is printed as it is made; Ctrl-C or SIGTERM ends the run
("end: interrupted", exit 4) and keeps what was printed. Without --from or
--start-index the start state is drawn at random as vigil test draws them:
uniformly, without enumerating the start states (see README: random start
states).

A run that ends stuck (the policy chooses no label) says why on a line of
its own: under argmax all, "why: policy p chose left (score 3), which is
not applicable here (argmax all: the run ends)"; under argmax applicable,
that no output label is applicable. --argmax all or applicable overrides
how a network or tree-ensemble policy reads its arg-max. --json prints
the runs as run files hold them ({"runs": [...]}, each with "end" and,
when stuck, "why").`,
		Examples: []string{
			"vigil run specs/oneway_line.spec --policy careful --seed 3",
			`vigil run specs/oneway_line.spec --policy slow --from "pos=0 load=3 depot=0" --outcomes first`,
			"vigil run specs/transport.spec --start-index 2 --record run.json",
			"vigil run specs/transport.spec --replay run.json",
			"vigil run specs/plaja/counter.jani -D N=3 --start specs/plaja/pa.jani --unsafe specs/plaja/pa.jani --policy-file specs/plaja/pa.jani --argmax applicable --json",
		},
		Run: runRun,
	})
}

func runRun(e *cli.Env, args []string) int {
	fs, c := e.Flags("run")
	e.AddProgressFlags(fs)
	mf := addModelFlags(fs, "property whose unsafe and goal states end a run (default: the only one)", "policy choosing the labels (default: the only one; none: random applicable labels)")
	from := fs.String("from", "", `start from this state: "NAME=VALUE ..." as vigil prints states (unnamed variables take their initial values)`)
	startIndex := cli.AddCountFlag(fs, "start-index", -1, "start from the `K`-th start state of the property (0-based; by default a random one)")
	seed := fs.Uint64("seed", 1, "random seed for the start state and outcomes")
	steps := cli.AddCountFlag(fs, "steps", 100, "stop after this many actions")
	runs := fs.Int("runs", 1, "number of runs (with --record, only the first is recorded)")
	outcomes := fs.String("outcomes", "random", "how to resolve non-determinism: random, first or weighted")
	record := fs.String("record", "", "write the (first) run to this run file (JSON)")
	mf.writes("record", record)
	replay := fs.String("replay", "", "check and print the run recorded in this run file instead of simulating (the flags that shape a simulation, --from, --start-index, --seed, --steps, --runs, --outcomes and --record, are refused with it)")
	jsonOut := fs.Bool("json", false, "print the runs as JSON, {\"runs\": [...]}, each as a run file holds it (with \"why\" when it ended stuck), instead of step by step")
	file, ok := e.ParseModelArg(c, fs, args)
	if !ok {
		return cli.ExitUsage
	}
	mode, err := explicit.ParseOutcomeMode(*outcomes)
	if err != nil {
		return e.Fail(cli.ExitUsage, "vigil run: --outcomes: %v", err)
	}
	if *from != "" && *startIndex >= 0 {
		return e.Fail(cli.ExitUsage, "vigil run: give --from or --start-index, not both")
	}
	if *steps < 0 || *runs < 1 {
		return e.Fail(cli.ExitUsage, "vigil run: --steps must be >= 0 and --runs >= 1")
	}
	if *replay != "" {
		// The flags that shape a simulation were accepted with --replay and
		// ignored: --record out.json wrote nothing, --steps 1 printed the
		// whole run, exit 0 either way.
		var sim []string
		fs.Visit(func(f *flag.Flag) {
			if slices.Contains([]string{"from", "start-index", "seed", "steps", "runs", "outcomes", "record"}, f.Name) {
				sim = append(sim, "--"+f.Name)
			}
		})
		if len(sim) > 0 {
			return e.Fail(cli.ExitUsage, "vigil run: --replay checks and prints the run file as it is; %s only shape%s a simulation: drop %s", strings.Join(sim, ", "), map[bool]string{true: "s"}[len(sim) == 1], map[bool]string{true: "it", false: "them"}[len(sim) == 1])
		}
		// The run file names its property and policy: nothing to select.
		// The policy, when the model declares it, is evaluated (with
		// --argmax, as the run was recorded) on every step.
		m := loadModel(e, file, mf.defs)
		if m == nil || !mf.plaja.apply(e, m, mf.prop, mf.pol, false) {
			return cli.ExitError
		}
		run, steps, err := explicit.ReadRunFile(*replay, m)
		if err != nil {
			return e.Fail(cli.ExitFor(err), "vigil run: %v", err)
		}
		// --policy and --property do not select anything here: one that
		// names another than the file was silently ignored, so that a
		// replay "under" another policy printed the file's and exit 0
		for _, f := range []struct{ flag, val, rec, what string }{{"--policy", *mf.pol, run.Policy, "policy"}, {"--property", *mf.prop, run.Property, "property"}} {
			if val := f.val; val != "" && val != f.rec && !(f.flag == "--policy" && val == "none" && f.rec == "") {
				rec := fmt.Sprintf("%s %q", f.what, f.rec)
				if f.rec == "" {
					rec = "no " + f.what
				}
				return e.Fail(cli.ExitUsage, "vigil run: --replay %s: the run file names %s, not %s %s (a replay checks the run under the file's own property and policy; vigil faults --run analyses a run under others)", *replay, rec, f.flag, val)
			}
		}
		if err := checkReplayWhy(*replay, run); err != nil {
			return e.Fail(cli.ExitFor(err), "vigil run: %v", err)
		}
		if err := checkReplayPolicy(e, m, mf.plaja.reading(), *replay, run, steps); err != nil {
			return e.Fail(cli.ExitFor(err), "vigil run: %v", err)
		}
		if *jsonOut {
			return e.WriteJSON("run", runsJSON{Runs: []*explicit.Run{run}}, cli.ExitOK)
		}
		if err := explicit.Replay(e.Stdout, m, *replay); err != nil {
			return e.Fail(cli.ExitFor(err), "vigil run: %v", err)
		}
		return cli.ExitOK
	}
	lm, ok := mf.load(e, "run", file, false, load.ThePolicy)
	if !ok {
		return cli.ExitError
	}
	g := lm.g
	ctx, cancel := cli.RunContext(0)
	defer cancel()
	rng := rand.New(rand.NewPCG(*seed, 0x72756e))
	out, onRun, all := io.Writer(e.Stdout), func(*explicit.Run) {}, runsJSON{Runs: []*explicit.Run{}}
	if *jsonOut {
		out, onRun = io.Discard, func(r *explicit.Run) { all.Runs = append(all.Runs, r) }
	}
	end, err := explicit.Runs(g, out, explicit.RunsOptions{Runs: *runs, From: *from, Index: *startIndex, Record: *record, Policy: lm.decl, OnRun: onRun,
		Sim: explicit.SimOptions{Steps: *steps, Outcomes: mode, Rand: rng, Ctx: ctx},
		Sampler: func() (*explicit.StartSampler, error) {
			// A start state drawn uniformly, without enumerating them all.
			ss, _, err := report.StartSampler(ctx, g, *seed, cli.LineTo(e.NewProgress(false)))
			return ss, err
		}})
	if _, ok := errors.AsType[*explicit.StartError](err); ok && ctx.Err() != nil {
		return e.Fail(cli.ExitUnknown, "vigil run: %s before a start state was found", phrase.Capitalize(phrase.Stopped(phrase.StopReason(ctx))))
	}
	if err != nil {
		return e.Fail(cli.ExitFor(err), "vigil run: %v", err)
	}
	code := cli.ExitOK
	if end == explicit.EndStopped {
		code = cli.ExitUnknown
	}
	if *jsonOut {
		return e.WriteJSON("run", all, code)
	}
	return code
}

// runsJSON is vigil run --json: the runs as run files hold them.
type runsJSON struct {
	Runs []*explicit.Run `json:"runs"`
}

func policyName(d *symbolic.PolicyDecl) string {
	if d == nil {
		return ""
	}
	return d.Name
}

// checkReplayPolicy checks that a replayed run is a run of the policy its
// file names (explicit.CheckPolicyRun), read with the --argmax reading;
// a policy the model does not declare (a goal test's patched plan) gets a
// note that its choices are not checked.
func checkReplayPolicy(e *cli.Env, m *symbolic.Model, reading load.ArgMax, path string, run *explicit.Run, steps []explicit.Step) error {
	if run.Policy == "" {
		return nil
	}
	d := m.Policy(run.Policy)
	if d == nil {
		e.Notice(fmt.Sprintf("vigil run: note: %s names policy %q, which model %s does not declare: the labels it takes are not checked against a policy", path, run.Policy, m.Name))
		return nil
	}
	if _, err := load.ApplyArgMax(d, reading, nil); err != nil {
		return err
	}
	dec, err := explicit.NewDecider(m, d)
	if err != nil {
		return err
	}
	g, err := explicit.New(m, nil)
	if err != nil {
		return err
	}
	if err := explicit.CheckPolicyRun(g, dec, d.Name, steps, run.End); err != nil {
		if re, ok := errors.AsType[*explicit.RunFileError](err); ok {
			return fmt.Errorf("%s: %s", path, re.Detail())
		}
		return fmt.Errorf("%s: %w", path, err)
	}
	if run.End == explicit.EndStuck && run.Why != "" {
		// the reason the replay prints is the policy's own, as vigil run
		// gave it when it recorded the run
		why, err := explicit.StuckReason(g, dec, d.Name, steps[len(steps)-1].State)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if why != run.Why {
			return fmt.Errorf("%s: the run says why it ended stuck: %q, but policy %s says %q; was it recorded with another policy file or --argmax?", path, run.Why, d.Name, why)
		}
	}
	return nil
}

// checkReplayWhy checks a run file's "why", which the replay prints as a
// line of its own: only a run that ends stuck has one, and it is one line
// of text. A forged one printed any line after the run, such as a second
// "end: unsafe after 7 steps" under a run that ended at its step limit.
func checkReplayWhy(path string, run *explicit.Run) error {
	if run.Why == "" {
		return nil
	}
	if run.End != explicit.EndStuck {
		return fmt.Errorf("%s: the run ends %s but says why it ended stuck (%q); only a run that ends stuck has a why", path, run.End, run.Why)
	}
	for _, r := range run.Why {
		if r < 0x20 || r == 0x7f || r == 0x85 || r == 0x2028 || r == 0x2029 {
			return fmt.Errorf("%s: the run's why %q holds the control character %q; it is one line of text", path, run.Why, r)
		}
	}
	return nil
}
