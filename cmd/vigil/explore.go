package main

import (
	"flag"
	"fmt"
	"strings"

	"vigil/bdd"
	"vigil/internal/cli"
	"vigil/load"
	"vigil/symbolic/explicit"
	"vigil/verify"
)

func init() {
	cli.Register(&cli.Command{
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

func runExplore(e *cli.Env, args []string) int {
	fs, c := e.Flags("explore")
	e.AddProgressFlags(fs)
	mf := addModelFlags(fs, "property giving start and terminal states (default: the only one)",
		"restrict each state to the label this policy chooses (default: all applicable labels)")
	engine := &cli.EnumFlag{What: "engine", Values: []string{"bfs", "bdd"}, Val: "bfs"}
	fs.Var(engine, "engine", "bfs: explicit breadth-first search; bdd: symbolic reachability with BDDs (exact counts of any size)")
	maxStates := cli.AddCountFlag(fs, "max-states", 0, "bfs: stop after storing this many states (exit code 4); 0 means no limit")
	workers := addWorkersFlag(fs)
	bf := addBDDFlags(fs)
	jsonOut := fs.Bool("json", false, "print the statistics as JSON")
	cli.TimeoutFlag(fs)
	file, ok := e.ParseModelArg(c, fs, args)
	if !ok {
		return cli.ExitUsage
	}
	if !bf.check(e, "explore", engine.Val == "bdd") || !checkWorkers(e, "explore", *workers, engine.Val == "bfs") {
		return cli.ExitUsage
	}
	if engine.Val == "bdd" && *maxStates != 0 {
		return e.Fail(cli.ExitUsage, "vigil explore: --max-states bounds --engine bfs; the BDD engine is bounded by --max-nodes")
	}
	lm, ok := mf.load(e, "explore", file, false, load.NoPolicy)
	if !ok {
		return cli.ExitError
	}
	ctx, cancel := mf.runContext()
	defer cancel()
	prog := e.NewProgress(*jsonOut)
	q := verify.ExploreQuestion{Gen: lm.g, Policy: lm.decl, BDD: engine.Val == "bdd", BDDOptions: bf.options(prog, "explore (bdd)"), Order: bf.order.Val,
		Search: explicit.Options{MaxStates: *maxStates, Policy: lm.dec, Workers: *workers, Progress: func(s explicit.Stats) {
			prog.Printf("explore: %d states, depth %d, %.0f states/s", s.States, s.Depth, s.StatesPerSecond())
		}}}
	rep, complete, err := verify.Explore(ctx, q)
	prog.Clear()
	if err != nil {
		return e.Fail(cli.ExitFor(err), "vigil explore: %v", err)
	}
	code := cli.ExitOK
	if !complete {
		code = cli.ExitUnknown
	}
	return e.WriteReport("explore", *jsonOut, rep, code)
}

// bddFlags are the flags of the BDD engine, shared by explore, safe and
// verify.
type bddFlags struct {
	maxNodes *int
	order    *cli.EnumFlag
	set      map[string]bool // flags given on the command line
	fs       *flag.FlagSet
}

func addBDDFlags(fs *flag.FlagSet) *bddFlags {
	bf := &bddFlags{fs: fs}
	bf.maxNodes = cli.AddCountFlag(fs, "max-nodes", bdd.DefaultMaxNodes, "bdd: stop (unknown, exit 4) when the BDD node table grows beyond this many nodes (about 100 bytes each)")
	bf.order = &cli.EnumFlag{What: "BDD variable order", Values: bdd.Orders, Val: bdd.OrderAuto.String()}
	fs.Var(bf.order, "bdd-order", "bdd: variable order: "+strings.Join(bdd.Orders, ", ")+" (interleaved: per variable, current and next bits adjacent; bitwise: bits of equal weight of all variables together; blocked: all current bits, then all next bits; auto: interleaved, or bitwise where encoding the model under interleaved needs more nodes)")
	return bf
}

// check reports flags that make no sense: a node budget that is not
// positive, or BDD flags without the BDD engine.
func (bf *bddFlags) check(e *cli.Env, cmd string, on bool) bool {
	bf.set = map[string]bool{}
	bf.fs.Visit(func(f *flag.Flag) { bf.set[f.Name] = true })
	if *bf.maxNodes <= 0 {
		fmt.Fprintf(e.Stderr, "vigil %s: --max-nodes %d: give a positive number of nodes\n", cmd, *bf.maxNodes)
		return false
	}
	if !on {
		for _, name := range []string{"max-nodes", "bdd-order"} {
			if bf.set[name] {
				fmt.Fprintf(e.Stderr, "vigil %s: --%s applies to the BDD engine only\n", cmd, name)
				return false
			}
		}
	}
	return true
}

// options returns the engine options, with a progress line.
func (bf *bddFlags) options(prog *cli.Progress, what string) bdd.Options {
	o, _ := bdd.ParseOrder(bf.order.Val)
	return bdd.Options{MaxNodes: *bf.maxNodes, Order: o, Progress: func(p bdd.Progress) {
		prog.Printf("%s: iteration %d, %d nodes in use, set of %d nodes, %s heap, %.1fs", what, p.Iteration, p.Nodes, p.SetNodes, verify.HumanBytes(p.HeapBytes), p.Elapsed.Seconds())
	}}
}
