package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"vigil/trees"
)

func init() {
	register(&command{
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
		Run: func(e *env, args []string) int { return runSubcommands(e, "trees", args) },
	})
	register(&command{
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
	register(&command{
		Name:      "trees bounds",
		Summary:   "another name for vigil trees bound",
		Usage:     `vigil trees bounds [flags] MODEL (--max CLASS | --min CLASS | --margin CLASS)`,
		Examples:  []string{`vigil trees bounds specs/policies/oneway_trees.json --box "0:0..20" --min 1`},
		Run:       treesBound,
		JSONLines: true,
	})
	register(&command{
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
	register(&command{
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
	register(&command{
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
func treesLoad(e *env, path string) (*trees.Ensemble, int) {
	m, err := trees.Load(path)
	if err != nil {
		fmt.Fprintln(e.stderr, err)
		return nil, exitError
	}
	return m, exitOK
}

// budget is --timeout, --nodes and --max-memory of a box search.
type budget struct {
	timeout *time.Duration
	nodes   *int
	mem     byteSize
}

// addSearchFlags registers the flags of a box search: --box, and the
// budget of a search that does what stop says when the budget runs out.
func addSearchFlags(fs *flag.FlagSet, stop string) (*budget, *string) {
	b := &budget{mem: byteSize(trees.DefaultMaxMemory)}
	b.timeout = timeoutFlagDefault(fs, 60*time.Second, stop+" after `DURATION`; 0 for no limit")
	b.nodes = addCountFlag(fs, "nodes", 0, stop+" after `N` expanded states (0: the default, 262144)")
	fs.Var(&b.mem, "max-memory", "stop with anytime bounds when the search's open queue would use more than `SIZE` (512MiB, 2GiB, ...)")
	return b, fs.String("box", "", "input box: `FEATURE:LO..HI`, comma-separated (default unbounded)")
}

func (b *budget) options() trees.Options {
	return trees.Options{MaxNodes: *b.nodes, Timeout: *b.timeout, MaxMemory: int64(b.mem)}
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
	}
	return ""
}

// byteSize is a --max-memory value: 512MiB, 2GiB, 100MB, or a bare number
// of MiB.
type byteSize int64

func (b *byteSize) String() string {
	v := int64(*b)
	for _, u := range []struct {
		name string
		size int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if v >= u.size && v%u.size == 0 {
			return fmt.Sprintf("%d%s", v/u.size, u.name)
		}
	}
	return fmt.Sprintf("%dB", v)
}

func (b *byteSize) Set(s string) error {
	units := []struct {
		suffix string
		mult   float64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"B", 1}, {"", 1 << 20}}
	t := strings.TrimSpace(s)
	for _, u := range units {
		if num, ok := strings.CutSuffix(t, u.suffix); ok {
			v, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
			if err != nil || v <= 0 || v*u.mult > 1<<50 || v != v {
				break
			}
			*b = byteSize(v * u.mult)
			return nil
		}
	}
	return fmt.Errorf("%q: want a positive size such as 512MiB, 2GiB or 100MB (a bare number is MiB)", s)
}

// treesBox loads the ensemble at path and reads box, the value of --box,
// for it: the arguments of trees bound and trees decide.
func treesBox(e *env, c *command, path, box string) (*trees.Ensemble, trees.Box, int) {
	m, code := treesLoad(e, path)
	if m == nil {
		return nil, nil, code
	}
	b, err := trees.ParseBox(box, m.NumFeatures)
	if err != nil {
		fmt.Fprintf(e.stderr, "vigil %s: --box: %v\n", c.Name, err)
		return nil, nil, exitUsage
	}
	return m, b, exitOK
}

func treesBound(e *env, args []string) int {
	c := commands["trees bound"]
	fs := newFlags(e, c)
	maxC := fs.Int("max", -1, "maximise the score of class `C` (-1: not this objective)")
	minC := fs.Int("min", -1, "minimise the score of class `C` (-1: not this objective)")
	marginC := fs.Int("margin", -1, "maximise f_C - max over c != C of f_c for class `C` (-1: not this objective)")
	bud, boxFlag := addSearchFlags(fs, "stop with anytime bounds")
	asJSON := fs.Bool("json", false, "print the answer as JSON")
	rest, ok := parseFlags(fs, args)
	if !ok {
		return exitUsage
	}
	kind, class, chosen := "", 0, 0
	for k, v := range map[string]int{"max": *maxC, "min": *minC, "margin": *marginC} {
		if v >= 0 {
			kind, class, chosen = k, v, chosen+1
		}
	}
	if len(rest) != 1 || chosen != 1 {
		if chosen != 1 {
			fmt.Fprintln(e.stderr, "vigil trees bound: give exactly one of --max, --min, --margin")
		}
		fs.Usage()
		return exitUsage
	}
	m, box, code := treesBox(e, c, rest[0], *boxFlag)
	if m == nil {
		return code
	}
	optimize := map[string]func(trees.Box, int, trees.Options) (trees.Result, error){"max": m.Max, "min": m.Min, "margin": m.Margin}[kind]
	r, err := optimize(box, class, bud.options())
	if err != nil {
		return fail(e, exitUsage, "%v", err)
	}
	rep := trees.NewBoundReport(kind, class, r)
	rep.Why = bud.why(r.Stats)
	code = exitOK
	if !r.Exact {
		code = exitUnknown
	}
	return writeReport(e, "trees bound", *asJSON, rep, code)
}

func treesEval(e *env, args []string) int {
	return runEval(e, commands["trees eval"], args, "scores", "scores", func(e *env, path string) (*evalModel, int) {
		m, code := treesLoad(e, path)
		if m == nil {
			return nil, code
		}
		return &evalModel{inputs: m.NumFeatures, has: fmt.Sprintf("model has %d features", m.NumFeatures),
			eval: func(x []float64) ([]float64, error) {
				sc := make([]float64, m.NumClasses)
				return sc, m.Scores(x, sc)
			}}, exitOK
	})
}

func treesDecide(e *env, args []string) int {
	c := commands["trees decide"]
	fs := newFlags(e, c)
	class := fs.Int("class", -1, "the class `A` that should be excluded")
	sureFlag := fs.String("sure", "", "comma-separated `classes` known to be applicable throughout the box")
	bud, boxFlag := addSearchFlags(fs, "answer unknown (exit 4)")
	asJSON := fs.Bool("json", false, "print the answer as JSON")
	rest, ok := parseFlags(fs, args)
	if !ok {
		return exitUsage
	}
	if len(rest) != 1 || *class < 0 {
		fs.Usage()
		return exitUsage
	}
	sure, err := trees.ParseClasses(*sureFlag)
	if err != nil {
		return fail(e, exitUsage, "vigil trees decide: --sure: %v", err)
	}
	m, box, code := treesBox(e, c, rest[0], *boxFlag)
	if m == nil {
		return code
	}
	d, err := m.Excludes(box, *class, sure, bud.options())
	if err != nil {
		return fail(e, exitUsage, "%v", err)
	}
	rep := trees.NewDecideReport(d)
	rep.Why = bud.why(d.Stats)
	code = exitOK
	switch d.Verdict {
	case trees.Unknown:
		code = exitUnknown
	case trees.Refuted:
		code = exitUnsafe // like a counterexample: A can be chosen
	}
	return writeReport(e, "trees decide", *asJSON, rep, code)
}

func treesInfo(e *env, args []string) int {
	c := commands["trees info"]
	fs := newFlags(e, c)
	asJSON := fs.Bool("json", false, "print as JSON")
	rest, ok := parseFlags(fs, args)
	if !ok {
		return exitUsage
	}
	if len(rest) != 1 {
		fs.Usage()
		return exitUsage
	}
	m, code := treesLoad(e, rest[0])
	if m == nil {
		return code
	}
	return writeReport(e, "trees info", *asJSON, m.Info(), exitOK)
}
