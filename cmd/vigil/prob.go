package main

import (
	"errors"
	"fmt"
	"io"
	"math/big"

	"vigil/internal/cli"
	"vigil/internal/phrase"
	"vigil/load"
	"vigil/prob"
	"vigil/symbolic"
)

func init() {
	cli.Register(&cli.Command{
		Name:    "prob",
		Summary: "reachability probabilities and expected rewards as Storm computes them: Pr(reach unsafe), Pr(reach goal), Pmax/Pmin/Emin/Emax of a JANI property",
		Usage:   "vigil prob [flags] FILE",
		Help: "Outcomes are random, with the command's weights normalised (lang/spec.md). Under a policy\n" +
			"(--policy, --policy-file) the model is a Markov chain (where the chosen label has several\n" +
			"commands enabled, the choice among them stays open: Pmax and Pmin bound it); without one it\n" +
			"is an MDP, and Pmax/Pmin range over every choice of labels, with the scheduler that attains\n" +
			"them (--scheduler). For a .spec property vigil prob computes Pr(reach unsafe) and, when the\n" +
			"property has a goal, Pr(reach goal), from every start state: the largest, the smallest (each\n" +
			"with its start state) and the average over the start states. For a JANI property\n" +
			"(P=?, Pmax=?, Pmin=? of F, U or G, possibly compared with a bound) it computes that value,\n" +
			"reduced over the initial states by the property's filter function as Storm does (min, max, sum,\n" +
			"avg or values of a probability; ∀, ∃, count or values of a comparison). In a JANI dtmc the edges\n" +
			"enabled in a state are taken with equal probability (Storm's reading), not chosen.\n" +
			"An expected reward (Emin=?, Emax=? with \"reach\") is the reward accumulated until the goal:\n" +
			"a transient variable's location values on \"exit\" and, on \"steps\", the commands' costs; it is\n" +
			"inf where the goal is missed with positive probability (Emin: under every scheduler, Emax: under\n" +
			"some), as Storm reads it; Emin ranges over the schedulers that reach the goal almost surely.\n" +
			"A step-bounded F or U (\"step-bounds\", [l, u] steps) is computed by u rounds of backward\n" +
			"iteration, a reward-bounded one (\"reward-bounds\" of an integer reward) on the model unfolded\n" +
			"with the reward accumulated so far, an expected reward with \"step-instant\" k and\n" +
			"\"accumulate\" as the reward of the first k steps (Storm's C<=k), all exact with --method exact;\n" +
			"--steps K asks a .spec property within K steps. Rewards over \"time\", time bounds, reward\n" +
			"instants and steady-state properties are refused.\n" +
			"A deadlock, or a state where the policy is stuck, ends the run: it reaches nothing more.\n" +
			"An outcome of weight 0 has probability 0 here (verify still counts it as possible).\n\n" +
			"Methods: ii, interval iteration after prob0/prob1 precomputation (and, for Pmax, collapsed\n" +
			"end components): lower and upper bounds within --epsilon (relative, or --absolute), as\n" +
			"Storm's --sound; exact, policy iteration in rational arithmetic (models up to --max-exact\n" +
			"states), whose values satisfy the Bellman equations exactly. For expected rewards ii is value\n" +
			"iteration from below with an upper bound checked inductive (optimistic value iteration; end\n" +
			"components of zero reward collapsed for Emin), component by component (strongly connected,\n" +
			"sinks first; a Markov chain's component that iteration would take very long on is solved\n" +
			"directly, bounds widened by the float64 probabilities' error), exact is policy iteration in\n" +
			"rationals.",
		Examples: []string{
			"vigil prob specs/oneway.spec --policy careful",
			"vigil prob specs/oneway.spec --method exact",
			"vigil prob specs/plaja/counter.jani -D N=3 --start specs/plaja/pa.jani --unsafe specs/plaja/pa.jani --policy-file specs/plaja/pa.jani",
			"vigil prob specs/lang_grid.spec --method exact --scheduler safest.csv",
			"vigil prob specs/lang_grid.spec --policy eager --json",
			"vigil prob specs/twoway_line.spec -D L=300 --policy shuttle --blame 5",
			"vigil prob specs/oneway.spec --steps 10 --method exact",
		},
		Run: runProb,
	})
}

func runProb(e *cli.Env, args []string) int {
	fs, c := e.Flags("prob")
	e.AddProgressFlags(fs)
	mf := addModelFlags(fs, "property: a .spec property (Pr(reach unsafe) and Pr(reach goal)) or a JANI property P=?, Pmax=?, Pmin=?, Emin=?, Emax=? (default: the only one, or a JANI model's only such property); all: every probability and expected-reward property of a JANI model, one after the other",
		"policy whose Markov chain to solve (default: none, the MDP over all labels)")
	method := &cli.EnumFlag{What: "method", Values: []string{"ii", "exact"}, Val: "ii"}
	fs.Var(method, "method", "ii (interval iteration, sound bounds within --epsilon) or exact (rational policy iteration, up to --max-exact states)")
	eps := fs.Float64("epsilon", prob.DefaultEpsilon, "ii: stop when upper - lower <= epsilon * lower in every state (epsilon itself with --absolute)")
	absolute := fs.Bool("absolute", false, "ii: epsilon is an absolute error bound")
	maxStates := cli.AddCountFlag(fs, "max-states", 0, "give up (exit 4) when the model has more reachable states; 0 means no limit")
	maxExact := cli.AddCountFlag(fs, "max-exact", prob.DefaultMaxExact, "exact: the largest model (states) it solves")
	schedFile := fs.String("scheduler", "", "write a scheduler as a table-policy CSV to this `FILE`, one row per reachable state with a choice (declare it with policy NAME table \"FILE\"): for a JANI property the one attaining it, for a .spec property the one attaining Pmin(F unsafe), the safest")
	mf.writesTable("scheduler", schedFile)
	blame := cli.AddCountFlag(fs, "blame", 0, "with a policy: the N costliest decisions, the visited states where taking the label that looks best one step ahead lowers Pr(reach unsafe) from the start states most (each re-solved exactly)")
	steps := fs.String("steps", "", "a .spec property: Pr(reach unsafe) and Pr(reach goal) within `K` steps (Pmax and Pmin over the schedulers, which may count steps); a JANI property writes its bound in the file (\"step-bounds\")")
	jsonOut := fs.Bool("json", false, "print one JSON object per query: value, lower, upper, method, states, iterations, seconds")
	cli.TimeoutFlag(fs)
	file, ok := e.ParseModelArg(c, fs, args)
	if !ok {
		return cli.ExitUsage
	}
	if !(*eps > 0 && *eps < 1) {
		return e.Fail(cli.ExitUsage, "vigil prob: --epsilon %g: want a number between 0 and 1 (exclusive), such as 1e-6", *eps)
	}
	var stepBound *big.Int
	if *steps != "" {
		k, ok := new(big.Int).SetString(*steps, 10)
		if !ok || k.Sign() < 0 {
			return e.Fail(cli.ExitUsage, "vigil prob: --steps %q: want a whole number of steps of at least 0, such as 10", *steps)
		}
		stepBound = k
	}
	all := *mf.prop == "all"
	if all {
		*mf.prop, mf.allProperties = "", true
		if *schedFile != "" || *blame > 0 {
			return e.Fail(cli.ExitUsage, "vigil prob: --property all takes neither --scheduler nor --blame; name one property")
		}
	}
	if !all {
		mf.defaultProperty = onlyProbProperty
	}
	lm, ok := mf.load(e, "prob", file, !all, load.NoPolicy)
	if !ok {
		return cli.ExitError
	}
	if prob.IsDTMC(lm.m) && *schedFile != "" {
		return e.Fail(cli.ExitUsage, "vigil prob: --scheduler: model %s is a JANI dtmc, which has no choices to schedule (the edges enabled in a state are taken with equal probability, as Storm reads it)", lm.m.Name)
	}
	if *schedFile != "" && (stepBound != nil || lm.prop != nil && lm.prop.Query != nil && lm.prop.Query.Bounds != nil) {
		// the optimum within k steps counts the steps: no table of one
		// label per state attains it
		return e.Fail(cli.ExitUsage, "vigil prob: --scheduler writes one label per state, and a bounded question's optimum may depend on the steps taken so far (or the reward accumulated); drop --scheduler")
	}
	if *blame > 0 && lm.dec == nil {
		return e.Fail(cli.ExitUsage, "vigil prob: --blame ranks a policy's decisions: name one with --policy or --policy-file")
	}
	props := []*symbolic.Property{lm.prop}
	if all {
		var skipped []error
		props, skipped = prob.Properties(lm.m)
		for _, err := range skipped {
			fmt.Fprintf(e.Stderr, "vigil prob: skipped: %v\n", err)
		}
		if len(props) == 0 {
			return e.Fail(cli.ExitError, "vigil prob: --property all: model %s has no P=?, Pmax=?, Pmin=?, Emin=? or Emax=? property of its own", lm.m.Name)
		}
	}
	ctx, cancel := mf.runContext()
	defer cancel()
	prog := e.NewProgress(*jsonOut)
	opt := prob.PropertyOptions{Policy: lm.dec, PolicyName: policyName(lm.decl), Method: prob.Method(method.Val), Epsilon: *eps, Absolute: *absolute,
		MaxStates: *maxStates, MaxExact: *maxExact, Blame: *blame, Steps: stepBound}
	opt.ShowProgress(cli.LineTo(prog), func(note string) { e.Notice("vigil prob: note: " + note) })
	out := []prob.Figures{} // [] in --json, not null, when nothing was answered
	each := func(res *prob.PropertyResult) error {
		if *schedFile != "" && res.Scheduler != nil {
			if err := writeFile(*schedFile, func(w io.Writer) error { return prob.WriteScheduler(w, res.Model, res.Scheduler) }); err != nil {
				return err
			}
			if open := prob.OpenChoices(res.Model, res.Scheduler); len(open) > 0 {
				pm := res.Model
				s := open[0]
				c := res.Scheduler.Sched[s]
				fmt.Fprintf(e.Stderr, "vigil prob: warning: --scheduler %s: in %d state(s) (first %s) the scheduler takes one command of a label with several applicable there (%s, %s); the table names labels, so as a policy it leaves that choice open and need not attain the value: vigil prob --policy gives its Pmax and Pmin\n",
					*schedFile, len(open), pm.G.M.FormatState(pm.StateOf(s)), pm.G.M.Labels[pm.Label[c]].Name, pm.G.M.Commands[pm.Cmd[c]].Pos)
			}
		}
		if !*jsonOut {
			res.Report.WriteText(e.Stdout)
		}
		out = append(out, res.Report.Figures...)
		return nil
	}
	var err error
	if all {
		// One property at a time: one whose filter function the start
		// states make meaningless is skipped, like those Properties skips.
		for _, p := range props {
			err = prob.SolveProperties(ctx, lm.g, []*symbolic.Property{p}, opt, each)
			if _, skip := errors.AsType[*prob.FilterError](err); skip {
				fmt.Fprintf(e.Stderr, "vigil prob: skipped: %v\n", err)
				err = nil
			}
			if err != nil {
				break
			}
		}
		if err == nil && len(out) == 0 {
			return e.Fail(cli.ExitError, "vigil prob: --property all: model %s has no property vigil prob can answer (each was skipped)", lm.m.Name)
		}
	} else {
		err = prob.SolveProperties(ctx, lm.g, props, opt, each)
	}
	if err != nil {
		if ctx.Err() != nil {
			// Stopped by --timeout or a signal: the properties answered so
			// far are kept (in --json, the figures written so far).
			msg := fmt.Sprintf("unknown: %s before an answer", phrase.Stopped(phrase.StopReason(ctx)))
			if *jsonOut {
				fmt.Fprintf(e.Stderr, "vigil prob: %s\n", msg)
				return e.WriteJSON("prob", out, cli.ExitUnknown)
			}
			return e.Fail(cli.ExitUnknown, "%s", msg)
		}
		fmt.Fprintf(e.Stderr, "vigil prob: %v\n", err)
		if _, limit := errors.AsType[*prob.LimitError](err); limit {
			if *jsonOut {
				// As at a timeout: the figures answered so far, [] when
				// none, so that stdout is JSON whatever the exit code.
				fmt.Fprintf(e.Stderr, "vigil prob: unknown: stopped before an answer\n")
				return e.WriteJSON("prob", out, cli.ExitUnknown)
			}
			return e.Fail(cli.ExitUnknown, "unknown: stopped before an answer")
		}
		return cli.ExitFor(err)
	}
	if *jsonOut {
		return e.WriteJSON("prob", out, cli.ExitOK)
	}
	return cli.ExitOK
}

// onlyProbProperty names the property vigil prob answers without
// --property on a model whose properties all come from its JANI file:
// its only P=?, Pmax=? or Pmin=? property when it has no other property
// with a query (prob.Properties). The NAME_avoid twin that JANI import
// adds beside such a property is no property of the model's own, and
// `vigil prob cdrive.2.jani` was refused as having "several properties
// (goal_, goal_avoid)" for a file with one. "" leaves the usual choice.
func onlyProbProperty(m *symbolic.Model) string {
	for _, p := range m.Properties {
		if !p.FromModel {
			return ""
		}
	}
	props, skipped := prob.Properties(m)
	if len(props) != 1 || len(skipped) > 0 {
		return ""
	}
	return props[0].Name
}
