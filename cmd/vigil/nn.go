package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"vigil/nn"
)

func init() {
	register(&command{
		Name:    "nn",
		Summary: "neural networks: evaluate, bound, and verify VNNLIB properties",
		Usage:   "vigil nn verify|eval|bound|corpus [flags] ARGS...",
		Help: "NET is an ONNX (.onnx), NNet (.nnet) or vigil JSON (.json) network: dense layers with\n" +
			"ReLU, LeakyReLU, Tanh or Sigmoid, optionally ending in Softmax or LogSoftmax, evaluated in\n" +
			"float64 as lang/spec.md says. tools/sb3_to_onnx.py converts Stable-Baselines3 actors.",
		Examples: []string{
			"vigil nn verify net.onnx prop.vnnlib --timeout 60s",
			`vigil nn eval specs/policies/oneway_32x32.onnx --input "1,0,3,0"`,
			`vigil nn bound specs/policies/oneway_32x32.onnx --box "0:20,0:3,0:3,0:1" --method crown`,
			"vigil nn corpus vnncomp/ --timeout 60s",
		},
		Run: func(e *env, args []string) int { return runSubcommands(e, "nn", args) },
	})
	register(&command{
		Name:    "nn verify",
		Summary: "decide a VNNLIB property: sat (exit 3, with a counterexample), unsat (0) or unknown (4)",
		Usage:   "vigil nn verify [flags] NET PROP.vnnlib",
		Help: "NET is an ONNX (.onnx), NNet (.nnet) or vigil JSON (.json) network. unsat means no input in\n" +
			"the property's box satisfies its output constraint (the property is verified); sat comes\n" +
			"with an input that does, checked by evaluating the network. A short PGD attack runs first;\n" +
			"then branch and bound splits the input box (best for few inputs, such as ACAS Xu's 5) or\n" +
			"unstable ReLU neurons (bounded with alpha- and beta-CROWN; best for many inputs): --branch\n" +
			"auto, the default, gives each half of the time, ReLU splits first above 10 inputs.",
		Examples: []string{
			"vigil nn verify net.onnx prop.vnnlib --timeout 60s",
			"vigil nn verify net.nnet prop.vnnlib --method alpha --json",
			"vigil nn verify mnist.onnx robust.vnnlib --branch relu --timeout 5m",
		},
		Run: nnVerify,
	})
	register(&command{
		Name:    "nn eval",
		Summary: "the network's outputs at one input",
		Usage:   `vigil nn eval [flags] NET --input "x1,x2,..."`,
		Examples: []string{
			`vigil nn eval specs/policies/oneway_32x32.onnx --input "1,0,3,0"`,
			`vigil nn eval specs/policies/oneway_32x32.onnx --input "1,0,3,0" --json`,
		},
		Run: nnEval,
	})
	register(&command{
		Name:    "nn bound",
		Summary: "lower and upper bounds on each output over an input box (ibp, crown, both, alpha)",
		Usage:   `vigil nn bound [flags] NET --box "LOWER:UPPER,..."`,
		Help:    "vigil nn bounds is another name for this command (its earlier name; both keep working).",
		Examples: []string{
			`vigil nn bound specs/policies/oneway_32x32.onnx --box "0:20,0:3,0:3,0:1" --method crown`,
			`vigil nn bound specs/policies/oneway_32x32.onnx --box "0:20,0:3,0:3,0:1" --json`,
		},
		Run: nnBound,
	})
	register(&command{
		Name:     "nn bounds",
		Summary:  "another name for vigil nn bound",
		Usage:    `vigil nn bounds [flags] NET --box "LOWER:UPPER,..."`,
		Examples: []string{`vigil nn bounds specs/policies/oneway_32x32.onnx --box "0:20,0:3,0:3,0:1" --method crown`},
		Run:      nnBound,
	})
	register(&command{
		Name:    "nn corpus",
		Summary: "run DIR/expected.csv (VNN-COMP layout) and count correct, wrong and unknown answers",
		Usage:   "vigil nn corpus [flags] DIR",
		Examples: []string{
			"vigil nn corpus vnncomp/ --timeout 60s",
			"vigil nn corpus vnncomp/ --timeout 10s --json",
		},
		Run: nnCorpus,
	})
}

// methodFlag is --method, a bound method checked when the flag is parsed.
type methodFlag struct {
	m   nn.Method
	val string
}

func (f *methodFlag) String() string { return f.val }
func (f *methodFlag) Set(s string) error {
	m, err := nn.ParseMethod(s)
	if err != nil {
		return err
	}
	f.m, f.val = m, s
	return nil
}

// branchFlag is --branch: what branch and bound splits.
type branchFlag struct{ b nn.Branch }

func (f *branchFlag) String() string { return f.b.String() }
func (f *branchFlag) Set(s string) error {
	b, err := nn.ParseBranch(s)
	f.b = b
	return err
}

func addBranchFlag(fs *flag.FlagSet) *branchFlag {
	f := &branchFlag{}
	fs.Var(f, "branch", "what branch and bound `splits`: input (the input box), relu (unstable ReLU neurons, BaBSR/FSB-ranked) or auto (input splits for half the time, then relu; relu first for networks of more than 10 inputs)")
	return f
}

// addMethodFlag registers --method (default both).
func addMethodFlag(fs *flag.FlagSet, usage string) *methodFlag {
	f := &methodFlag{val: "both"}
	f.m, _ = nn.ParseMethod("both")
	fs.Var(f, "method", usage)
	return f
}

func nnVerify(e *env, args []string) int {
	c := commands["nn verify"]
	fs := newFlags(e, c)
	timeout := timeoutFlagDefault(fs, 60*time.Second, "give up (unknown, exit 4) after `DURATION`; 0 for no limit")
	method := addMethodFlag(fs, "bound `method` per branch-and-bound box: ibp, crown, both or alpha (ReLU splits bound with alpha, beta-CROWN multipliers included, unless ibp or crown)")
	branch := addBranchFlag(fs)
	asJSON := fs.Bool("json", false, "print the answer as JSON")
	rest, ok := parseFlags(fs, args)
	if !ok {
		return exitUsage
	}
	if len(rest) != 2 {
		fs.Usage()
		return exitUsage
	}
	m := method.m
	net, err := nn.Load(rest[0])
	if err != nil {
		fmt.Fprintln(e.stderr, err)
		return exitFor(err)
	}
	prop, err := nn.LoadVNNLIB(rest[1])
	if err != nil {
		fmt.Fprintln(e.stderr, err)
		return exitFor(err)
	}
	res, err := net.Verify(prop, *timeout, nn.Options{Method: m, Branch: branch.b})
	if err != nil {
		fmt.Fprintln(e.stderr, err)
		return exitFor(err)
	}
	if res.Answer == nn.Sat && !prop.Check(net, res.Case, res.Input) {
		// Cannot happen: Verify checks its witnesses. Never print an
		// unchecked counterexample.
		return internalError(e, "nn verify", "the counterexample %v does not satisfy the property", res.Input)
	}
	if *asJSON {
		b, _ := json.Marshal(res.Report())
		fmt.Fprintln(e.stdout, string(b))
	} else {
		res.WriteText(e.stdout)
	}
	switch res.Answer {
	case nn.Sat:
		return exitUnsafe
	case nn.Unsat:
		return exitOK
	}
	return exitUnknown
}

func floats(xs []float64) string { return nn.FormatVector(xs) }

// parseFloats reads --input: comma-separated finite numbers.
func parseFloats(s string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number; give comma-separated numbers such as 0.5,-1,2e-3", f)
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%q is not a finite number; inputs must be finite", f)
		}
		out = append(out, v)
	}
	return out, nil
}

func nnEval(e *env, args []string) int {
	c := commands["nn eval"]
	fs := newFlags(e, c)
	input := fs.String("input", "", "comma-separated input `values`")
	asJSON := fs.Bool("json", false, "print the outputs as JSON")
	rest, ok := parseFlags(fs, args)
	if !ok {
		return exitUsage
	}
	if len(rest) != 1 || *input == "" {
		fs.Usage()
		return exitUsage
	}
	net, err := nn.Load(rest[0])
	if err != nil {
		fmt.Fprintln(e.stderr, err)
		return exitFor(err)
	}
	x, err := parseFloats(*input)
	if err != nil {
		fmt.Fprintf(e.stderr, "vigil nn eval: --input: %v\n", err)
		return exitUsage
	}
	if len(x) != net.Inputs() {
		fmt.Fprintf(e.stderr, "vigil nn eval: --input has %d values but the network has %d inputs\n", len(x), net.Inputs())
		return exitUsage
	}
	y := net.Eval(x)
	if *asJSON {
		b, _ := json.Marshal(map[string]any{"output": y})
		fmt.Fprintln(e.stdout, string(b))
	} else {
		fmt.Fprintln(e.stdout, floats(y))
	}
	return exitOK
}

func nnBound(e *env, args []string) int {
	c := commands["nn bound"]
	fs := newFlags(e, c)
	boxFlag := fs.String("box", "", "input box, one `lo:hi` per input, comma-separated")
	method := addMethodFlag(fs, "bound `method`: ibp, crown, both (CROWN intersected with IBP) or alpha (both, with optimised slopes)")
	asJSON := fs.Bool("json", false, "print the bounds as JSON")
	rest, ok := parseFlags(fs, args)
	if !ok {
		return exitUsage
	}
	if len(rest) != 1 || *boxFlag == "" {
		fs.Usage()
		return exitUsage
	}
	m := method.m
	net, err := nn.Load(rest[0])
	if err != nil {
		fmt.Fprintln(e.stderr, err)
		return exitFor(err)
	}
	box, err := nn.ParseBox(*boxFlag)
	if err != nil {
		fmt.Fprintf(e.stderr, "vigil nn bound: --box: %v\n", err)
		return exitUsage
	}
	if net.Out != nn.OutNone {
		fmt.Fprintf(e.stderr, "vigil nn bound: %s: the network ends in %s, which vigil does not bound (the policy engines bound the scores before it, with a wider margin); bound a copy without it to see those scores\n", rest[0], net.Out)
		return exitError
	}
	lo, hi, err := net.Bounds(box, nil, m)
	if err != nil {
		fmt.Fprintln(e.stderr, err)
		return exitUsage
	}
	rep := nn.BoundsReport{Method: m.String(), Lower: lo, Upper: hi}
	if *asJSON {
		b, _ := json.Marshal(rep)
		fmt.Fprintln(e.stdout, string(b))
		return exitOK
	}
	rep.WriteText(e.stdout)
	return exitOK
}

// nnCorpus runs a VNN-COMP style folder: DIR/expected.csv lists onnx,
// vnnlib, expected; networks in DIR/onnx, properties in DIR/vnnlib.
func nnCorpus(e *env, args []string) int {
	c := commands["nn corpus"]
	fs := newFlags(e, c)
	timeout := timeoutFlagDefault(fs, 60*time.Second, "per-instance limit: `DURATION`; 0 for no limit")
	method := addMethodFlag(fs, "bound `method` per branch-and-bound box: ibp, crown, both or alpha")
	branch := addBranchFlag(fs)
	asJSON := fs.Bool("json", false, "print one JSON object per instance and a summary")
	rest, ok := parseFlags(fs, args)
	if !ok {
		return exitUsage
	}
	if len(rest) != 1 {
		fs.Usage()
		return exitUsage
	}
	dir := rest[0]
	insts, err := nn.ReadCorpus(dir)
	if err != nil {
		fmt.Fprintf(e.stderr, "vigil nn corpus: %v\n", err)
		return exitFor(err)
	}
	sum := &nn.CorpusSummary{Limit: *timeout}
	for _, in := range insts {
		res, verdict, err := in.Run(dir, *timeout, nn.Options{Method: method.m, Branch: branch.b})
		if err != nil {
			fmt.Fprintln(e.stderr, err)
			return exitFor(err)
		}
		sum.Add(verdict, res.Elapsed)
		line := nn.NewCorpusLine(in, res, verdict)
		if *asJSON {
			b, _ := json.Marshal(line)
			fmt.Fprintln(e.stdout, string(b))
		} else {
			line.WriteText(e.stdout)
		}
	}
	if *asJSON {
		b, _ := json.Marshal(sum)
		fmt.Fprintln(e.stdout, string(b))
	} else {
		sum.WriteText(e.stdout)
	}
	if sum.Wrong > 0 {
		return exitError
	}
	return exitOK
}
