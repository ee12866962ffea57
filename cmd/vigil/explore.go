package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/big"
	"strings"

	"time"
	"vigil/bdd"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/verify"
)

func init() {
	register(&command{
		Name:    "explore",
		Summary: "count the reachable states of a model, with or without a policy",
		Usage:   "vigil explore [flags] FILE.spec",
		Examples: []string{
			"vigil explore specs/oneway_line.spec",
			"vigil explore specs/oneway_line.spec --policy careful --json",
			"vigil explore -D L=200 specs/twoway_line.spec --max-states 1000000",
			"vigil explore specs/flappy.spec -D W=600000 -D H=1000 --engine bdd",
		},
		Run: runExplore,
	})
}

// exploreReport is the --json form of an exploration.
type exploreReport struct {
	Model           string  `json:"model"`
	Property        string  `json:"property"`
	Policy          string  `json:"policy"`
	Complete        bool    `json:"complete"`
	Stopped         string  `json:"stopped,omitempty"`
	States          int     `json:"states"`
	StartStates     int     `json:"start_states"`
	Transitions     int     `json:"transitions"`
	Depth           int     `json:"depth"`
	Unsafe          int     `json:"unsafe"`
	Goal            int     `json:"goal"`
	Deadlocks       int     `json:"deadlocks"`
	Stuck           int     `json:"stuck"`
	Seconds         float64 `json:"seconds"`
	StatesPerSecond float64 `json:"states_per_second"`
	BytesPerState   float64 `json:"bytes_per_state"`
	WordsPerState   int     `json:"words_per_state"`
}

func runExplore(e *env, args []string) int {
	c := commands["explore"]
	fs := newFlags(e, c)
	addProgressFlags(e, fs)
	mf := addModelFlags(fs, "property giving start and terminal states (default: the only one)",
		"restrict each state to the label this policy chooses (default: all applicable labels)")
	engine := &enumFlag{what: "engine", values: []string{"bfs", "bdd"}, val: "bfs"}
	fs.Var(engine, "engine", "bfs: explicit breadth-first search; bdd: symbolic reachability with BDDs (exact counts of any size)")
	maxStates := addCountFlag(fs, "max-states", 0, "bfs: stop after storing this many states (exit code 4); 0 means no limit")
	workers := addWorkersFlag(fs)
	bf := addBDDFlags(fs)
	jsonOut := fs.Bool("json", false, "print the statistics as JSON")
	timeout := timeoutFlag(fs)
	file, ok := parseModelArg(e, c, fs, args)
	if !ok {
		return exitUsage
	}
	if !bf.check(e, "explore", engine.val == "bdd") || !checkWorkers(e, "explore", *workers, engine.val == "bfs") {
		return exitUsage
	}
	if engine.val == "bdd" && *maxStates != 0 {
		fmt.Fprintln(e.stderr, "vigil explore: --max-states bounds --engine bfs; the BDD engine is bounded by --max-nodes")
		return exitUsage
	}
	lm, ok := mf.load(e, "explore", file, false, noPolicy)
	if !ok {
		return exitError
	}
	if engine.val == "bdd" {
		return exploreBDD(e, lm, bf, *jsonOut, *timeout)
	}
	m, prop, decl, g := lm.m, lm.prop, lm.decl, lm.g
	opts := explicit.Options{MaxStates: *maxStates, Policy: lm.dec}
	lm.parallel(&opts, *workers)
	ctx, cancel := runContext(*timeout)
	defer cancel()
	prog := newProgress(e, *jsonOut)
	opts.Progress = func(s explicit.Stats) {
		prog.printf("explore: %d states, depth %d, %.0f states/s", s.States, s.Depth, s.StatesPerSecond())
	}
	res, err := explicit.Search(ctx, g, opts)
	prog.clear()
	if err != nil {
		fmt.Fprintf(e.stderr, "vigil explore: %v\n", err)
		return exitFor(err)
	}
	rep := newExploreReport(m, prop, decl, res)
	if !rep.Complete {
		rep.Stopped = stopReason(ctx)
		if rep.Stopped == "" {
			rep.Stopped = "state limit"
		}
	}
	if *jsonOut {
		b, _ := json.MarshalIndent(rep, "", "  ")
		fmt.Fprintln(e.stdout, string(b))
	} else {
		printExplore(e, rep)
	}
	if !rep.Complete {
		return exitUnknown
	}
	return exitOK
}

func newExploreReport(m *symbolic.Model, prop *symbolic.Property, decl *symbolic.PolicyDecl, res *explicit.Result) *exploreReport {
	s := res.Stats
	return &exploreReport{
		Model: m.Name, Property: propertyName(prop), Policy: policyName(decl),
		Complete: res.Verdict != explicit.Unknown,
		States:   s.States, StartStates: s.Starts, Transitions: s.Transitions, Depth: s.Depth,
		Unsafe: s.Unsafe, Goal: s.Goal, Deadlocks: s.Deadlocks, Stuck: s.Stuck,
		Seconds: s.Elapsed.Seconds(), StatesPerSecond: s.StatesPerSecond(),
		BytesPerState: s.BytesPerState(), WordsPerState: s.Words,
	}
}

// printExploreHead writes the lines that open an exploration report, for
// the explicit and the BDD engine alike.
func printExploreHead(w io.Writer, model, property, policy string, complete bool, why string) {
	pol := "all applicable labels"
	if policy != "" {
		pol = "policy " + policy
	}
	fmt.Fprintf(w, "model %s, property %s, %s\n", model, orNone(property), pol)
	if !complete {
		fmt.Fprintf(w, "incomplete: %s; the figures below are partial\n", stopped(why))
	}
}

func printExplore(e *env, r *exploreReport) {
	w := e.stdout
	printExploreHead(w, r.Model, r.Property, r.Policy, r.Complete, r.Stopped)
	fmt.Fprintf(w, "states        %d (%d start)\n", r.States, r.StartStates)
	fmt.Fprintf(w, "transitions   %d\n", r.Transitions)
	fmt.Fprintf(w, "depth         %d\n", r.Depth)
	fmt.Fprintf(w, "terminal      %d unsafe, %d goal\n", r.Unsafe, r.Goal)
	fmt.Fprintf(w, "deadlocks     %d\n", r.Deadlocks)
	if r.Policy != "" {
		fmt.Fprintf(w, "policy stuck  %d\n", r.Stuck)
	}
	fmt.Fprintf(w, "time          %.3fs (%.0f states/s)\n", r.Seconds, r.StatesPerSecond)
	fmt.Fprintf(w, "memory        %.1f bytes/state (%d-word packed states)\n", r.BytesPerState, r.WordsPerState)
}

// bddFlags are the flags of the BDD engine, shared by explore, safe and
// verify.
type bddFlags struct {
	maxNodes *int
	order    *enumFlag
	set      map[string]bool // flags given on the command line
	fs       *flag.FlagSet
}

func addBDDFlags(fs *flag.FlagSet) *bddFlags {
	bf := &bddFlags{fs: fs}
	bf.maxNodes = addCountFlag(fs, "max-nodes", bdd.DefaultMaxNodes, "bdd: stop (unknown, exit 4) when the BDD node table grows beyond this many nodes (about 100 bytes each)")
	bf.order = &enumFlag{what: "BDD variable order", values: bdd.Orders, val: bdd.Orders[0]}
	fs.Var(bf.order, "bdd-order", "bdd: variable order: "+strings.Join(bdd.Orders, ", ")+" (interleaved: per variable, current and next bits adjacent; bitwise: bits of equal weight of all variables together; blocked: all current bits, then all next bits)")
	return bf
}

// check reports flags that make no sense: a node budget that is not
// positive, or BDD flags without the BDD engine.
func (bf *bddFlags) check(e *env, cmd string, on bool) bool {
	bf.set = map[string]bool{}
	bf.fs.Visit(func(f *flag.Flag) { bf.set[f.Name] = true })
	if *bf.maxNodes <= 0 {
		fmt.Fprintf(e.stderr, "vigil %s: --max-nodes %d: give a positive number of nodes\n", cmd, *bf.maxNodes)
		return false
	}
	if !on {
		for _, name := range []string{"max-nodes", "bdd-order"} {
			if bf.set[name] {
				fmt.Fprintf(e.stderr, "vigil %s: --%s applies to the BDD engine only\n", cmd, name)
				return false
			}
		}
	}
	return true
}

// options returns the engine options, with a progress line.
func (bf *bddFlags) options(prog *progress, what string) bdd.Options {
	o, _ := bdd.ParseOrder(bf.order.val)
	return bdd.Options{MaxNodes: *bf.maxNodes, Order: o, Progress: func(p bdd.Progress) {
		prog.printf("%s: iteration %d, %d nodes in use, set of %d nodes, %s heap, %.1fs", what, p.Iteration, p.Nodes, p.SetNodes, verify.HumanBytes(p.HeapBytes), p.Elapsed.Seconds())
	}}
}

// bddStatsReport is the --json form of the BDD engine's statistics.
type bddStatsReport = verify.BDDFigures

func newBDDStats(order string, s bdd.Stats) *bddStatsReport { return verify.NewBDDFigures(order, s) }

// bddExploreReport is the --json form of vigil explore --engine bdd.
// Counts are JSON numbers of any size.
type bddExploreReport struct {
	Model       string          `json:"model"`
	Property    string          `json:"property"`
	Policy      string          `json:"policy"`
	Engine      string          `json:"engine"`
	Complete    bool            `json:"complete"`
	Stopped     string          `json:"stopped,omitempty"`
	States      json.Number     `json:"states"`
	StartStates json.Number     `json:"start_states"`
	Transitions json.Number     `json:"transitions,omitempty"`
	Depth       int             `json:"depth"`
	Unsafe      json.Number     `json:"unsafe"`
	Goal        json.Number     `json:"goal"`
	Deadlocks   json.Number     `json:"deadlocks"`
	Stuck       json.Number     `json:"stuck"`
	Seconds     float64         `json:"seconds"`
	BDD         *bddStatsReport `json:"bdd"`
}

func num(x *big.Int) json.Number { return verify.Num(x) }

func exploreBDD(e *env, lm *loadedModel, bf *bddFlags, jsonOut bool, timeout time.Duration) int {
	ctx, cancel := runContext(timeout)
	defer cancel()
	prog := newProgress(e, jsonOut)
	ex, err := bdd.Explore(ctx, lm.m, lm.prop, lm.decl, bf.options(prog, "explore (bdd)"))
	prog.clear()
	if err != nil {
		fmt.Fprintf(e.stderr, "vigil explore: %v\n", err)
		return exitFor(err)
	}
	rep := &bddExploreReport{Model: lm.m.Name, Property: propertyName(lm.prop), Policy: policyName(lm.decl), Engine: "bdd",
		Complete: ex.Complete, Stopped: ex.Reason, States: num(ex.States), StartStates: num(ex.Starts), Transitions: num(ex.Transitions),
		Depth: ex.Depth, Unsafe: num(ex.Unsafe), Goal: num(ex.Goal), Deadlocks: num(ex.Deadlocks), Stuck: num(ex.Stuck),
		Seconds: ex.Stats.Elapsed.Seconds(), BDD: newBDDStats(bf.order.val, ex.Stats)}
	if jsonOut {
		b, _ := json.MarshalIndent(rep, "", "  ")
		fmt.Fprintln(e.stdout, string(b))
	} else {
		w := e.stdout
		printExploreHead(w, rep.Model, rep.Property, rep.Policy, rep.Complete, rep.Stopped)
		fmt.Fprintf(w, "states        %s (%s start)\n", rep.States, rep.StartStates)
		if rep.Transitions != "" {
			fmt.Fprintf(w, "transitions   %s\n", rep.Transitions)
		} else if ex.TransitionsReason != "" {
			fmt.Fprintf(w, "transitions   not counted (%s)\n", ex.TransitionsReason)
		}
		fmt.Fprintf(w, "depth         %d\n", rep.Depth)
		fmt.Fprintf(w, "terminal      %s unsafe, %s goal\n", rep.Unsafe, rep.Goal)
		fmt.Fprintf(w, "deadlocks     %s\n", rep.Deadlocks)
		if rep.Policy != "" {
			fmt.Fprintf(w, "policy stuck  %s\n", rep.Stuck)
		}
		rep.BDD.WriteText(w, "engine bdd", rep.Seconds)
	}
	if !rep.Complete {
		return exitUnknown
	}
	return exitOK
}
