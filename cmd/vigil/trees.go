package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"time"

	"vigil/internal/cli"
	"vigil/internal/untildone"
	"vigil/trees"
)

func init() {
	cli.Register(&cli.Command{
		Name:    "trees",
		Summary: "tree ensembles: evaluate, bound outputs over a box, decide whether a class can win",
		Usage:   "vigil trees bound|eval|decide|info [flags] MODEL",
		Help:    treesModelHelp,
		Examples: []string{
			`vigil trees bound specs/policies/oneway_trees.json --box "0:0..20,1:0..3" --max 0`,
			`vigil trees eval specs/policies/oneway_trees.json --input "1,0,3,0"`,
			`vigil trees decide specs/policies/oneway_trees.json --box "0:0..20,1:0..3" --class 1 --sure 0,2`,
			"vigil trees info specs/policies/oneway_trees.json",
		},
		Run: func(e *cli.Env, args []string) int { return e.RunSubcommands("trees", args) },
	})
	cli.Register(&cli.Command{
		Name:    "trees bound",
		Summary: "the exact optimum of a class score or margin over a box, or anytime lower and upper bounds",
		Usage:   `vigil trees bound [flags] MODEL (--max CLASS | --min CLASS | --margin CLASS)`,
		Help: "The exact optimum over the box with a witness input (exit 0), or anytime bounds\n" +
			"when the budget runs out (exit 4); --margin C maximises f_C - max_{c != C} f_c.\n" +
			"vigil trees bounds is another name for this command.\n\n" + treesModelHelp,
		Examples: []string{
			`vigil trees bound specs/policies/oneway_trees.json --box "0:0..20,1:0..3" --max 0`,
			`vigil trees bound specs/policies/oneway_trees.json --margin 2 --timeout 10s --json`,
		},
		Run:       treesBound,
		JSONLines: true,
	})
	cli.Register(&cli.Command{
		Name:      "trees bounds",
		Summary:   "another name for vigil trees bound",
		Usage:     `vigil trees bounds [flags] MODEL (--max CLASS | --min CLASS | --margin CLASS)`,
		Examples:  []string{`vigil trees bounds specs/policies/oneway_trees.json --box "0:0..20" --min 1`},
		Run:       treesBound,
		JSONLines: true,
	})
	cli.Register(&cli.Command{
		Name:    "trees eval",
		Summary: "the class scores at one input",
		Usage:   `vigil trees eval [flags] MODEL --input "x0,x1,..."`,
		Help:    treesModelHelp,
		Examples: []string{
			`vigil trees eval specs/policies/oneway_trees.json --input "1,0,3,0"`,
			`vigil trees eval specs/policies/oneway_trees.json --input "1,0,3,0" --json`,
		},
		Run:       treesEval,
		JSONLines: true,
	})
	cli.Register(&cli.Command{
		Name:    "trees decide",
		Summary: "decide whether class A can win anywhere in a box: excluded (exit 0), possible (3) or unknown (4)",
		Usage:   `vigil trees decide [flags] MODEL --class A --sure S1,S2,...`,
		Help: "excluded: some sure class beats A everywhere in the box (ties go to the lower\n" +
			"class), so A is never chosen; possible: A wins at the witness input printed\n" +
			"(exit 3, like a counterexample); unknown: the budget ran out (exit 4).\n\n" + treesModelHelp,
		Examples: []string{
			`vigil trees decide specs/policies/oneway_trees.json --box "0:0..20,1:0..3" --class 1 --sure 0,2`,
			`vigil trees decide specs/policies/oneway_trees.json --class 0 --sure 1 --nodes 100000 --json`,
		},
		Run:       treesDecide,
		JSONLines: true,
	})
	cli.Register(&cli.Command{
		Name:    "trees info",
		Summary: "format, classes, features, trees and leaves of an ensemble",
		Usage:   `vigil trees info [flags] MODEL`,
		Help:    treesModelHelp,
		Examples: []string{
			"vigil trees info specs/policies/oneway_trees.json",
			"vigil trees info specs/policies/oneway_trees.json --json",
		},
		Run:       treesInfo,
		JSONLines: true,
	})
}

const treesModelHelp = `MODEL is XGBoost save_model JSON, LightGBM text, or Veritas JSON. A box B lists
FEATURE:LO..HI (closed) or FEATURE:LO..<HI (half-open), comma-separated; LO or
HI may be empty for no bound; features not listed are unbounded.`

// treesLoad loads the ensemble at path; the exit code is nonzero when it
// cannot.
func treesLoad(e *cli.Env, path string) (*trees.Ensemble, int) {
	m, err := trees.Load(path)
	if err != nil {
		fmt.Fprintln(e.Stderr, err)
		return nil, cli.ExitError
	}
	return m, cli.ExitOK
}

// treesLoadStoppable loads the ensemble at path for command cmd as
// treesLoad does, but stops waiting for trees.Load (which does not poll a
// context: a 48 MB XGBoost JSON takes seconds) as soon as sig is done (the
// first Ctrl-C or SIGTERM) or, when timeout > 0, it has run
// max(timeout, 1s) (the command's --timeout counts the load, as vigil
// verify's does). A stop prints "interrupted while loading" or "--timeout
// ran out while loading" and returns ExitError, which the command's exit
// turns into 4 (unknown). left is what the --timeout leaves the search
// (at least 1ns when the load ate it all; 0 when there is no timeout).
func treesLoadStoppable(e *cli.Env, cmd string, sig context.Context, timeout time.Duration, path string) (m *trees.Ensemble, left time.Duration, code int) {
	start := time.Now()
	ctx, cancel := sig, context.CancelFunc(func() {})
	if timeout > 0 {
		ctx, cancel = context.WithTimeout(sig, max(timeout, time.Second))
	}
	defer cancel()
	m, err := untildone.Run(ctx, func() (*trees.Ensemble, error) { return trees.Load(path) })
	repanic(err)
	if _, ok := errors.AsType[*untildone.Stopped](err); ok {
		reportStop(e, cmd, path, ctx.Err(), timeout)
		return nil, 0, cli.ExitError
	}
	if err != nil {
		fmt.Fprintln(e.Stderr, err)
		return nil, 0, cli.ExitError
	}
	if timeout > 0 {
		left = max(timeout-time.Since(start), time.Nanosecond)
	}
	return m, left, cli.ExitOK
}

// budget is --timeout, --nodes and --max-memory of a box search.
type budget struct {
	timeout *time.Duration
	nodes   *int
	mem     cli.ByteSize
}

// addSearchFlags registers the flags of a box search: --box, and the
// budget of a search that does what stop says when the budget runs out.
func addSearchFlags(fs *flag.FlagSet, stop string) (*budget, *string) {
	b := &budget{mem: cli.ByteSize(trees.DefaultMaxMemory)}
	b.timeout = cli.TimeoutFlagDefault(fs, 60*time.Second, stop+" after `DURATION`, counted from the start of the ensemble's loading (a load that outlasts it, given at least 1s, ends with no result, exit 4); 0 for no limit")
	b.nodes = cli.AddCountFlag(fs, "nodes", 0, stop+" after `N` expanded states (0: the default, 262144)")
	fs.Var(&b.mem, "max-memory", "stop with anytime bounds when the search's open queue would use more than `SIZE` (512MiB, 2GiB, ...)")
	return b, fs.String("box", "", "input box: `FEATURE:LO..HI`, comma-separated (default unbounded)")
}

// options is the budget as trees.Options, with left of --timeout (what
// the load left: treesLoadStoppable); the search also stops (with anytime
// bounds) when ctx ends: Ctrl-C or SIGTERM.
func (b *budget) options(ctx context.Context, left time.Duration) trees.Options {
	return trees.Options{MaxNodes: *b.nodes, Timeout: left, MaxMemory: int64(b.mem), Stop: ctx.Done()}
}

// why says which budget ended a search early, and what to raise.
func (b *budget) why(st trees.Stats) string {
	switch st.Stopped {
	case trees.StopNodes:
		return fmt.Sprintf("the node budget ran out after %d expanded states; raise --nodes", st.Nodes)
	case trees.StopMemory:
		return fmt.Sprintf("the open queue reached the memory limit (%d states, --max-memory %s); raise --max-memory", st.MaxOpen, b.mem.String())
	case trees.StopTimeout:
		return "the time limit passed; raise --timeout"
	case trees.StopInterrupted:
		return "interrupted"
	}
	return ""
}

// treesBox loads the ensemble at path (treesLoadStoppable, under sig and
// bud's --timeout) and reads box, the value of --box, for it: the
// arguments of trees bound and trees decide, and what the load left of
// the --timeout.
func treesBox(e *cli.Env, c *cli.Command, sig context.Context, bud *budget, path, box string) (*trees.Ensemble, trees.Box, time.Duration, int) {
	m, left, code := treesLoadStoppable(e, c.Name, sig, *bud.timeout, path)
	if m == nil {
		return nil, nil, 0, code
	}
	b, err := trees.ParseBox(box, m.NumFeatures)
	if err != nil {
		fmt.Fprintf(e.Stderr, "vigil %s: --box: %v\n", c.Name, err)
		return nil, nil, 0, cli.ExitUsage
	}
	return m, b, left, cli.ExitOK
}

func treesBound(e *cli.Env, args []string) int {
	fs, c := e.Flags("trees bound")
	maxC := fs.Int("max", -1, "maximise the score of class `C` (-1: not this objective)")
	minC := fs.Int("min", -1, "minimise the score of class `C` (-1: not this objective)")
	marginC := fs.Int("margin", -1, "maximise f_C - max over c != C of f_c for class `C` (-1: not this objective)")
	bud, boxFlag := addSearchFlags(fs, "stop with anytime bounds")
	asJSON := fs.Bool("json", false, "print the answer as JSON")
	rest, ok := cli.ParseFlags(fs, args)
	if !ok {
		return cli.ExitUsage
	}
	kind, class, chosen := "", 0, 0
	for k, v := range map[string]int{"max": *maxC, "min": *minC, "margin": *marginC} {
		if v >= 0 {
			kind, class, chosen = k, v, chosen+1
		}
	}
	if len(rest) != 1 || chosen != 1 {
		if chosen != 1 {
			fmt.Fprintln(e.Stderr, "vigil trees bound: give exactly one of --max, --min, --margin")
		}
		fs.Usage()
		return cli.ExitUsage
	}
	// the first signal stops the load too (exit 4); the --timeout counts it
	ctx, cancel := cli.RunContext(0)
	defer cancel()
	m, box, left, code := treesBox(e, c, ctx, bud, rest[0], *boxFlag)
	if m == nil {
		return code
	}
	optimize := map[string]func(trees.Box, int, trees.Options) (trees.Result, error){"max": m.Max, "min": m.Min, "margin": m.Margin}[kind]
	r, err := optimize(box, class, bud.options(ctx, left))
	if err != nil {
		return e.Fail(cli.ExitUsage, "%v", err)
	}
	rep := trees.NewBoundReport(kind, class, r)
	rep.Why = bud.why(r.Stats)
	code = cli.ExitOK
	if !r.Exact {
		code = cli.ExitUnknown
	}
	return e.WriteReport("trees bound", *asJSON, rep, code)
}

func treesEval(e *cli.Env, args []string) int {
	return runEval(e, cli.Commands["trees eval"], args, "scores", "scores", nil, func(e *cli.Env, path string) (*evalModel, int) {
		m, code := treesLoad(e, path)
		if m == nil {
			return nil, code
		}
		return &evalModel{inputs: m.NumFeatures, has: fmt.Sprintf("model has %d features", m.NumFeatures),
			eval: func(x []float64) ([]float64, error) {
				sc := make([]float64, m.NumClasses)
				return sc, m.Scores(x, sc)
			}}, cli.ExitOK
	})
}

func treesDecide(e *cli.Env, args []string) int {
	fs, c := e.Flags("trees decide")
	class := fs.Int("class", -1, "the class `A` that should be excluded")
	sureFlag := fs.String("sure", "", "comma-separated `classes` known to be applicable throughout the box")
	bud, boxFlag := addSearchFlags(fs, "answer unknown (exit 4)")
	asJSON := fs.Bool("json", false, "print the answer as JSON")
	rest, ok := cli.ParseFlags(fs, args)
	if !ok {
		return cli.ExitUsage
	}
	if len(rest) != 1 || *class < 0 {
		fs.Usage()
		return cli.ExitUsage
	}
	sure, err := trees.ParseClasses(*sureFlag)
	if err != nil {
		return e.Fail(cli.ExitUsage, "vigil trees decide: --sure: %v", err)
	}
	// the first signal stops the load too (exit 4); the --timeout counts it
	ctx, cancel := cli.RunContext(0)
	defer cancel()
	m, box, left, code := treesBox(e, c, ctx, bud, rest[0], *boxFlag)
	if m == nil {
		return code
	}
	d, err := m.Excludes(box, *class, sure, bud.options(ctx, left))
	if err != nil {
		return e.Fail(cli.ExitUsage, "%v", err)
	}
	rep := trees.NewDecideReport(d)
	rep.Why = bud.why(d.Stats)
	code = cli.ExitOK
	switch d.Verdict {
	case trees.Unknown:
		code = cli.ExitUnknown
	case trees.Refuted:
		code = cli.ExitUnsafe // like a counterexample: A can be chosen
	}
	return e.WriteReport("trees decide", *asJSON, rep, code)
}

func treesInfo(e *cli.Env, args []string) int {
	fs, _ := e.Flags("trees info")
	asJSON := fs.Bool("json", false, "print as JSON")
	rest, ok := cli.ParseFlags(fs, args)
	if !ok {
		return cli.ExitUsage
	}
	if len(rest) != 1 {
		fs.Usage()
		return cli.ExitUsage
	}
	m, code := treesLoad(e, rest[0])
	if m == nil {
		return code
	}
	return e.WriteReport("trees info", *asJSON, m.Info(), cli.ExitOK)
}
