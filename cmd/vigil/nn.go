package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"sync/atomic"
	"time"

	"vigil/internal/cli"
	"vigil/internal/untildone"
	"vigil/internal/vigilerr"
	"vigil/nn"
)

func init() {
	cli.Register(&cli.Command{
		Name:    "nn",
		Summary: "neural networks: evaluate, bound, and verify VNNLIB properties",
		Usage:   "vigil nn verify|eval|bound|corpus [flags] ARGS...",
		Help: "NET is an ONNX (.onnx), NNet (.nnet) or vigil JSON (.json) network: dense layers with\n" +
			"ReLU, LeakyReLU, Clip (ReLU6, Hardtanh), Tanh or Sigmoid, optionally ending in Softmax or\n" +
			"LogSoftmax, evaluated in float64 as lang/spec.md says; an ONNX output computed by ArgMax is\n" +
			"read as the scores it ranges over, and --output NAME picks one output of a graph with several\n" +
			"(an actor-critic). tools/sb3_to_onnx.py converts Stable-Baselines3 actors.\n" +
			"--json writes a value that overflows float64 as the string \"inf\" or \"-inf\" and a NaN as\n" +
			"\"nan\" (JSON has no number for them), as vigil prob --json writes an infinite reward.",
		Examples: []string{
			"vigil nn verify net.onnx prop.vnnlib --timeout 60s",
			`vigil nn eval specs/policies/oneway_32x32.onnx --input "1,0,3,0"`,
			`vigil nn bound specs/policies/oneway_32x32.onnx --box "0:20,0:3,0:3,0:1" --method crown`,
			"vigil nn corpus vnncomp/ --timeout 60s",
		},
		Run: func(e *cli.Env, args []string) int { return e.RunSubcommands("nn", args) },
	})
	cli.Register(&cli.Command{
		Name:    "nn verify",
		Summary: "decide a VNNLIB property: sat (exit 3, with a counterexample), unsat (0) or unknown (4)",
		Usage:   "vigil nn verify [flags] NET PROP.vnnlib",
		Help: "NET is an ONNX (.onnx), NNet (.nnet) or vigil JSON (.json) network. unsat means no input in\n" +
			"the property's box satisfies its output constraint (the property is verified); sat comes\n" +
			"with an input that does, checked by evaluating the network in float64 and the property's\n" +
			"numbers exactly: a float64 input strictly inside a strict bound such as (< X_0 1), outputs\n" +
			"that satisfy (>= (* 3 Y_0) 1) as real numbers, not only after rounding. A short PGD attack\n" +
			"runs first; then branch and bound splits the input box (best for few inputs, such as ACAS\n" +
			"Xu's 5) or unstable ReLU neurons (bounded with alpha- and beta-CROWN; best for many inputs):\n" +
			"--branch auto, the default, gives each half of the time, ReLU splits first above 10 inputs.\n" +
			`--json writes a counterexample's output that overflows float64 as "inf" or "-inf", a NaN as "nan".`,
		Examples: []string{
			"vigil nn verify net.onnx prop.vnnlib --timeout 60s",
			"vigil nn verify net.nnet prop.vnnlib --method alpha --json",
			"vigil nn verify mnist.onnx robust.vnnlib --branch relu --timeout 5m",
		},
		Run:       nnVerify,
		JSONLines: true,
	})
	cli.Register(&cli.Command{
		Name:    "nn eval",
		Summary: "the network's outputs at one input",
		Usage:   `vigil nn eval [flags] NET --input "x1,x2,..."`,
		Help:    `--json writes an output that overflows float64 as "inf" or "-inf", a NaN as "nan".`,
		Examples: []string{
			`vigil nn eval specs/policies/oneway_32x32.onnx --input "1,0,3,0"`,
			`vigil nn eval specs/policies/oneway_32x32.onnx --input "1,0,3,0" --json`,
		},
		Run:       nnEval,
		JSONLines: true,
	})
	cli.Register(&cli.Command{
		Name:    "nn bound",
		Summary: "lower and upper bounds on each output over an input box (ibp, crown, both, alpha)",
		Usage:   `vigil nn bound [flags] NET --box "LOWER:UPPER,..."`,
		Help: "vigil nn bounds is another name for this command (its earlier name; both keep working).\n" +
			"The bounds hold for the network as vigil nn eval computes it, in float64 (lang/spec.md,\n" +
			"\"How a learned policy computes its scores\"), at every input of the box: each method's bound\n" +
			"is widened by the rounding error of float64 evaluation over the box (and of the bound\n" +
			"computation itself), the slack with which vigil's certifiers close a row; where evaluation\n" +
			"might overflow on the box, the bounds are -Inf and +Inf. The text output writes each bound\n" +
			"with 8 significant digits rounded outward (a lower bound down, an upper one up; in full\n" +
			"where 8 digits cannot), --json writes them whole.\n" +
			`--json writes an infinite bound (none is known, or the output overflows) as "inf" or "-inf".`,
		Examples: []string{
			`vigil nn bound specs/policies/oneway_32x32.onnx --box "0:20,0:3,0:3,0:1" --method crown`,
			`vigil nn bound specs/policies/oneway_32x32.onnx --box "0:20,0:3,0:3,0:1" --json`,
		},
		Run:       nnBound,
		JSONLines: true,
	})
	cli.Register(&cli.Command{
		Name:      "nn bounds",
		Summary:   "another name for vigil nn bound",
		Usage:     `vigil nn bounds [flags] NET --box "LOWER:UPPER,..."`,
		Examples:  []string{`vigil nn bounds specs/policies/oneway_32x32.onnx --box "0:20,0:3,0:3,0:1" --method crown`},
		Run:       nnBound,
		JSONLines: true,
	})
	cli.Register(&cli.Command{
		Name:    "nn corpus",
		Summary: "run DIR/expected.csv (VNN-COMP layout) and count correct, wrong and unknown answers",
		Usage:   "vigil nn corpus [flags] DIR",
		Help: "DIR/expected.csv lists one instance per row: network (in DIR/onnx), property (in DIR/vnnlib),\n" +
			"expected answer (sat or unsat), then any other columns, after an optional header row\n" +
			"(onnx,vnnlib,expected). An answer that contradicts the expected one, or a counterexample that\n" +
			"does not check, is WRONG (exit 1).",
		Examples: []string{
			"vigil nn corpus vnncomp/ --timeout 60s",
			"vigil nn corpus vnncomp/ --timeout 10s --json",
		},
		Run:       nnCorpus,
		JSONLines: true,
	})
}

// addNNFlags registers --method (default both) and, for branch and
// bound, --branch.
func addNNFlags(fs *flag.FlagSet, methodUsage string, branch bool) *nn.Options {
	o := &nn.Options{}
	fs.TextVar(&o.Method, "method", nn.Both, methodUsage)
	if branch {
		fs.TextVar(&o.Branch, "branch", nn.BranchAuto, "what branch and bound `splits`: input (the input box), relu (unstable ReLU neurons, BaBSR/FSB-ranked) or auto (input splits for half the time, then relu; relu first for networks of more than 10 inputs)")
	}
	return o
}

// outputFlag registers --output, the ONNX graph output holding the scores.
func outputFlag(fs *flag.FlagSet) *string {
	return fs.String("output", "", "the ONNX graph output that holds the scores (or their ArgMax), by `name`, for a graph with several outputs (an actor-critic: actions, values, ...)")
}

func nnVerify(e *cli.Env, args []string) int {
	fs, _ := e.Flags("nn verify")
	output := outputFlag(fs)
	timeout := cli.TimeoutFlagDefault(fs, 60*time.Second, "give up (unknown, exit 4) after `DURATION`, counted from the start of the network's loading; 0 for no limit")
	opt := addNNFlags(fs, "bound `method` per branch-and-bound box: ibp, crown, both or alpha (ReLU splits bound with alpha, beta-CROWN multipliers included, unless ibp or crown)", true)
	asJSON := fs.Bool("json", false, "print the answer as JSON")
	rest, ok := cli.ParseFlags(fs, args)
	if !ok {
		return cli.ExitUsage
	}
	if len(rest) != 2 {
		fs.Usage()
		return cli.ExitUsage
	}
	ctx, cancel := cli.RunContext(0) // the load and the search end, unknown, on Ctrl-C
	defer cancel()
	// The network's reader does not poll a context (a 168 MB ONNX file
	// takes seconds): stop waiting for it at the first signal or when
	// --timeout (given at least a second) runs out; the timeout counts
	// the load, as vigil verify's does, and the search has what is left.
	start := time.Now()
	lctx, lcancel := ctx, context.CancelFunc(func() {})
	if *timeout > 0 {
		lctx, lcancel = context.WithTimeout(ctx, max(*timeout, time.Second))
	}
	defer lcancel()
	type loaded struct {
		net  *nn.Network
		prop *nn.Property
	}
	// loading is the file the loader reads, for the report of a stop:
	// the property's (a FIFO no one writes, say) was reported as the
	// network's
	var loading atomic.Pointer[string]
	loading.Store(&rest[0])
	l, err := untildone.Run(lctx, func() (loaded, error) {
		net, err := nn.LoadOutput(rest[0], *output)
		if err != nil {
			return loaded{}, err
		}
		loading.Store(&rest[1])
		prop, err := nn.LoadVNNLIB(rest[1])
		return loaded{net, prop}, err
	})
	repanic(err)
	if _, ok := errors.AsType[*untildone.Stopped](err); ok {
		reportStop(e, "nn verify", *loading.Load(), lctx.Err(), *timeout)
		return cli.ExitError
	}
	if err != nil {
		return e.Fail(cli.ExitFor(err), "%v", err)
	}
	net, prop := l.net, l.prop
	left := *timeout
	if left > 0 {
		left = max(left-time.Since(start), time.Nanosecond)
	}
	opt.Stop = ctx.Done()
	res, err := net.Verify(prop, left, *opt) // a sat answer's input is checked
	if ie, ok := errors.AsType[*vigilerr.Internal](err); ok {
		return e.InternalError("nn verify", "%s", ie.Msg)
	}
	if err != nil {
		return e.Fail(cli.ExitFor(err), "%v", err)
	}
	code := cli.ExitUnknown
	switch res.Answer {
	case nn.Sat:
		code = cli.ExitUnsafe
	case nn.Unsat:
		code = cli.ExitOK
	}
	rep := res.Report()
	if res.Answer != nn.Sat && res.Answer != nn.Unsat && ctx.Err() != nil {
		rep.Stopped = "interrupted"
	}
	return e.WriteReport("nn verify", *asJSON, rep, code)
}

// evalModel is a model vigil nn eval and vigil trees eval evaluate.
type evalModel struct {
	inputs int    // the number of inputs
	has    string // "network has 4 inputs", for a mismatched --input
	eval   func(x []float64) ([]float64, error)
}

// runEval is vigil nn eval and vigil trees eval: the outputs of the model
// load reads at the point --input gives.
// --json prints the outputs, called what, as a JSON object's key.
func runEval(e *cli.Env, c *cli.Command, args []string, what, key string, flags func(*flag.FlagSet), load func(e *cli.Env, path string) (*evalModel, int)) int {
	fs := e.NewFlags(c)
	if flags != nil {
		flags(fs)
	}
	input := fs.String("input", "", "comma-separated input `values`")
	asJSON := fs.Bool("json", false, "print the "+what+" as JSON")
	rest, ok := cli.ParseFlags(fs, args)
	if !ok {
		return cli.ExitUsage
	}
	if len(rest) != 1 || *input == "" {
		fs.Usage()
		return cli.ExitUsage
	}
	m, code := load(e, rest[0])
	if m == nil {
		return code
	}
	x, err := nn.ParseVector(*input)
	if err != nil {
		return e.Fail(cli.ExitUsage, "vigil %s: --input: %v", c.Name, err)
	}
	if len(x) != m.inputs {
		return e.Fail(cli.ExitUsage, "vigil %s: --input has %d values but the %s", c.Name, len(x), m.has)
	}
	y, err := m.eval(x)
	if err != nil {
		return e.Fail(cli.ExitFor(err), "%v", err)
	}
	if *asJSON {
		return e.WriteJSON(c.Name, map[string]any{key: nn.JSONNumbers(y)}, cli.ExitOK)
	}
	fmt.Fprintln(e.Stdout, nn.FormatVector(y))
	return cli.ExitOK
}

func nnEval(e *cli.Env, args []string) int {
	var output *string
	return runEval(e, cli.Commands["nn eval"], args, "outputs", "output", func(fs *flag.FlagSet) { output = outputFlag(fs) }, func(e *cli.Env, path string) (*evalModel, int) {
		net, err := nn.LoadOutput(path, *output)
		if err != nil {
			fmt.Fprintln(e.Stderr, err)
			return nil, cli.ExitFor(err)
		}
		return &evalModel{inputs: net.Inputs(), has: fmt.Sprintf("network has %d inputs", net.Inputs()),
			eval: func(x []float64) ([]float64, error) { return net.Eval(x), nil }}, cli.ExitOK
	})
}

func nnBound(e *cli.Env, args []string) int {
	fs, _ := e.Flags("nn bound")
	output := outputFlag(fs)
	boxFlag := fs.String("box", "", "input box, one `lo:hi` per input, comma-separated")
	opt := addNNFlags(fs, "bound `method`: ibp, crown, both (CROWN intersected with IBP) or alpha (both, with optimised slopes)", false)
	asJSON := fs.Bool("json", false, "print the bounds as JSON")
	rest, ok := cli.ParseFlags(fs, args)
	if !ok {
		return cli.ExitUsage
	}
	if len(rest) != 1 || *boxFlag == "" {
		fs.Usage()
		return cli.ExitUsage
	}
	net, err := nn.LoadOutput(rest[0], *output)
	if err != nil {
		return e.Fail(cli.ExitFor(err), "%v", err)
	}
	box, err := nn.ParseBox(*boxFlag)
	if err != nil {
		return e.Fail(cli.ExitUsage, "vigil nn bound: --box: %v", err)
	}
	if net.Out != nn.OutNone {
		return e.Fail(cli.ExitError, "vigil nn bound: %s: the network ends in %s, which vigil does not bound (the policy engines bound the scores before it, with a wider margin); bound a copy without it to see those scores", rest[0], net.Out)
	}
	lo, hi, err := net.EvalBounds(box, opt.Method)
	if err != nil {
		return e.Fail(cli.ExitUsage, "%v", err)
	}
	return e.WriteReport("nn bound", *asJSON, nn.BoundsReport{Method: opt.Method.String(), Lower: lo, Upper: hi}, cli.ExitOK)
}

// nnCorpus runs a VNN-COMP style folder: DIR/expected.csv lists onnx,
// vnnlib, expected; networks in DIR/onnx, properties in DIR/vnnlib.
func nnCorpus(e *cli.Env, args []string) int {
	fs, _ := e.Flags("nn corpus")
	timeout := cli.TimeoutFlagDefault(fs, 60*time.Second, "per-instance limit: `DURATION`; 0 for no limit")
	opt := addNNFlags(fs, "bound `method` per branch-and-bound box: ibp, crown, both or alpha", true)
	asJSON := fs.Bool("json", false, "print one JSON object per instance and a summary")
	rest, ok := cli.ParseFlags(fs, args)
	if !ok {
		return cli.ExitUsage
	}
	if len(rest) != 1 {
		fs.Usage()
		return cli.ExitUsage
	}
	dir := rest[0]
	insts, err := nn.ReadCorpus(dir)
	if err != nil {
		return e.Fail(cli.ExitFor(err), "vigil nn corpus: %v", err)
	}
	sum := &nn.CorpusSummary{Limit: *timeout}
	ctx, cancel := cli.RunContext(0) // Ctrl-C ends the instance running and the corpus
	defer cancel()
	opt.Stop = ctx.Done()
	for i, in := range insts {
		if ctx.Err() != nil {
			fmt.Fprintf(e.Stderr, "vigil nn corpus: interrupted after %d of %d instances; the summary below is partial\n", i, len(insts))
			e.WriteReport("nn corpus", *asJSON, sum, cli.ExitUnknown)
			return cli.ExitUnknown
		}
		res, verdict, err := in.Run(dir, *timeout, *opt)
		if err != nil {
			return e.Fail(cli.ExitFor(err), "vigil nn corpus: %v", err)
		}
		sum.Add(verdict, res.Elapsed)
		if code := e.WriteReport("nn corpus", *asJSON, nn.NewCorpusLine(in, res, verdict), cli.ExitOK); code != cli.ExitOK {
			return code
		}
	}
	code := cli.ExitOK
	if sum.Wrong > 0 {
		code = cli.ExitError
	}
	return e.WriteReport("nn corpus", *asJSON, sum, code)
}
