package main

import (
	"context"
	"fmt"
	"math"

	"vigil/fuzz/report"
	"vigil/internal/cli"
	"vigil/load"
	"vigil/rlenv"
	"vigil/symbolic/explicit"
)

func init() {
	cli.Register(&cli.Command{
		Name:    "env",
		Summary: "serve the model as a reinforcement-learning environment: JSON lines on stdin and stdout (python/vigil_env.py wraps it)",
		Usage:   "vigil env [flags] FILE",
		Help: "Requests, one JSON object per line; one answer per line:\n" +
			"  {\"op\": \"reset\", \"seed\": 7}          -> {\"obs\", \"mask\", \"labels\", \"vars\", \"low\", \"high\", ...}: a start\n" +
			"                                       state drawn uniformly (rejection sampling in the start condition's box);\n" +
			"                                       low and high are each variable's range\n" +
			"  {\"op\": \"reset\", \"state\": {\"x\": 1}}  -> the same, in the given state\n" +
			"                                       (every variable; Booleans true/false, enum values by name or number)\n" +
			"  {\"op\": \"step\", \"action\": K}         -> {\"obs\", \"mask\", \"reward\", \"terminated\", \"truncated\",\n" +
			"                                       \"info\": {\"unsafe\", \"goal\", \"deadlock\", \"steps\"}}\n" +
			"  {\"op\": \"step_many\", \"actions\": [..]} -> {\"steps\": [...]}, until the episode ends\n" +
			"  {\"op\": \"close\"}                     -> {\"closed\": true}, and vigil env exits\n" +
			"obs is the variable values in declaration order (Booleans 0/1); mask[K] is 1 where label K is\n" +
			"applicable. A step takes one applicable command of the label uniformly and samples its outcome\n" +
			"by the weights; where an outcome of positive probability, of an applicable command of the label,\n" +
			"leaves its range (a range error, as verify reports it), the step is that error and the state\n" +
			"stays. An outcome of probability 0 (weight 0) never happens, nor does its range error, as in\n" +
			"vigil prob and vigil test --outcomes fair.\n" +
			"An episode ends (terminated) at unsafe, goal and deadlock states, or is\n" +
			"truncated after --max-steps. The reward is --step-reward per step (times the command's cost,\n" +
			"1 unless the model gives costs), plus --goal-reward at the goal, minus --unsafe-penalty at an\n" +
			"unsafe state. A reset into an unsafe, goal or deadlock state answers terminated: the episode\n" +
			"is over before a step. A malformed request (a field its op does not take, a key given twice,\n" +
			"true for a variable that is not Boolean included) or an inapplicable action gets\n" +
			"{\"error\": ..., \"line\": N} and the session goes on.",
		Examples: []string{
			"vigil env specs/lang_grid.spec --max-steps 200 < session.jsonl",
			"printf '{\"op\":\"reset\",\"seed\":1}\\n{\"op\":\"step\",\"action\":0}\\n' | vigil env specs/lang_grid.spec",
			"python3 python/vigil_env.py specs/lang_grid.spec",
			"/usr/bin/python3 python/train_torch.py cliff.onnx   # PyTorch: train, export ONNX, verify, vigil prob",
		},
		Run: runEnv,
	})
}

func runEnv(e *cli.Env, args []string) int {
	fs, c := e.Flags("env")
	mf := addModelFlags(fs, "property whose start, unsafe and goal conditions the environment uses (default: the only one)", "unused: the agent chooses the actions")
	stepReward := fs.Float64("step-reward", -1, "reward of every step, times the cost of the command taken (1 unless the model gives costs)")
	goalReward := fs.Float64("goal-reward", 100, "added to the reward of a step that reaches a goal state")
	unsafePenalty := fs.Float64("unsafe-penalty", 100, "subtracted from the reward of a step that reaches an unsafe state")
	maxSteps := cli.AddCountFlag(fs, "max-steps", 1000, "truncate an episode after this many steps; 0 means never")
	seed := cli.AddCountFlag(fs, "seed", 1, "the random seed until a reset names one")
	file, ok := e.ParseModelArg(c, fs, args)
	if !ok {
		return cli.ExitUsage
	}
	for _, r := range []struct {
		flag string
		x    float64
	}{{"--step-reward", *stepReward}, {"--goal-reward", *goalReward}, {"--unsafe-penalty", *unsafePenalty}} {
		// A step's reward adds them: each within ±1e300 keeps it finite,
		// as JSON needs.
		if !(math.Abs(r.x) <= 1e300) {
			return e.Fail(cli.ExitUsage, "vigil env: %s %v: give a finite number of at most 1e300 in size (a reward JSON can hold)", r.flag, r.x)
		}
	}
	if *mf.pol != "" || mf.plaja.argmax.Val != "" {
		return e.Fail(cli.ExitUsage, "vigil env: the agent chooses the actions: --policy and --argmax are not used (vigil prob --policy computes a policy's probabilities)")
	}
	lm, ok := mf.load(e, "env", file, false, load.NoPolicy)
	if !ok {
		return cli.ExitError
	}
	if lm.m.Type == "dtmc" {
		// As every command refuses a policy on a dtmc: an agent's choice
		// of an action would train on another model.
		return e.Fail(cli.ExitError, "vigil env: model %s is a JANI dtmc: it has no choices for an agent to make (its enabled edges are taken together, each with an equal share); vigil run --outcomes weighted samples it, vigil prob computes its probabilities", lm.m.Name)
	}
	en, err := rlenv.New(lm.g, rlenv.Options{StepReward: *stepReward, GoalReward: *goalReward, UnsafePenalty: *unsafePenalty, MaxSteps: *maxSteps, Seed: uint64(*seed),
		Sampler: func(ctx context.Context) (*explicit.StartSampler, error) {
			// As vigil test and vigil run draw start states: without
			// enumerating them, Z3 for sparse start conditions. Its
			// preparation has a seed of its own, not --seed: a reset
			// that names a seed draws the same state under any --seed.
			ss, _, err := report.StartSampler(ctx, lm.g, rlenv.SamplerSeed, nil)
			return ss, err
		}})
	if err != nil {
		return e.Fail(cli.ExitFor(err), "vigil env: %v", err)
	}
	ctx, cancel := cli.RunContext(0)
	defer cancel()
	if err := en.Serve(ctx, e.Stdin, e.Stdout); err != nil {
		fmt.Fprintf(e.Stderr, "vigil env: %v\n", err)
		if ctx.Err() != nil {
			return cli.ExitUnknown
		}
		return cli.ExitError
	}
	return cli.ExitOK
}
