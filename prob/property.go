package prob

// Solving a property as vigil prob does: build the model (under the
// policy, if any), answer each of the property's queries, rank the
// policy's costliest decisions, and keep the result whose scheduler is
// worth writing.

import (
	"context"
	"fmt"
	"math/big"
	"time"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// Build phases of SolveProperty, for its callbacks.
const (
	PhaseModel = "model" // the model under the policy (the MDP without one)
	PhaseBlame = "blame" // the MDP over all labels that Blame needs
)

// PropertyOptions configure SolveProperty.
type PropertyOptions struct {
	Policy     explicit.Decider // nil: the MDP over all labels
	PolicyName string           // for the figures ("" without a policy)
	Method     Method           // II or Exact
	Epsilon    float64
	Absolute   bool
	MaxStates  int // Options.MaxStates of every build
	MaxExact   int
	Blame      int // rank the policy's N costliest decisions (0: none)
	// Steps, when not nil, asks a .spec property's probabilities within
	// so many steps (vigil prob --steps): every query bounded by it.
	Steps *big.Int

	// BeforeBuild is called before each build (phase PhaseModel or
	// PhaseBlame) with its generator and options, so that a caller can warn about its
	// size (EstimateMemory); Build and Solve report progress; Done marks
	// the end of a build or a solve. All may be nil.
	BeforeBuild func(g *explicit.Generator, phase string, opt Options)
	Build       func(phase string, expanded, stored, bytes int)
	Solve       func(q Query, it int, gap float64)
	Done        func()
}

// PropertyResult is SolveProperty's answer.
type PropertyResult struct {
	Report *Report
	Model  *Model
	// Scheduler is the result whose scheduler (WriteScheduler) is worth
	// writing: Pmin(F unsafe), the safest, when it was asked, else the
	// first query's; nil when no query was asked.
	Scheduler *Result
}

// SolveProperty computes the probabilities of prop on g's model: every
// query of Queries(prop) (on a Markov chain only one of Pmax and Pmin,
// which agree), and with Blame the costliest decisions of the policy,
// which go to the first query's figures. The report's text is vigil
// prob's.
func SolveProperty(ctx context.Context, g *explicit.Generator, prop *symbolic.Property, opt PropertyOptions) (*PropertyResult, error) {
	queries, err := Queries(prop)
	if err != nil {
		return nil, err
	}
	if opt.Blame > 0 && prop.Query != nil && prop.Query.Reward != nil {
		return nil, fmt.Errorf("prob: --blame ranks a policy's decisions by Pr(reach unsafe), and property %s is an expected reward (%s); drop --blame, or ask it of a probability property", prop.Name, prop.Query.Op)
	}
	if opt.Steps != nil {
		if prop.Query != nil {
			return nil, fmt.Errorf("prob: --steps bounds a .spec property's probabilities, and property %s comes from the JANI model (%s): write its bound in the file (\"step-bounds\"), or drop --steps", prop.Name, prop.Pos)
		}
		if opt.Steps.Sign() < 0 {
			return nil, fmt.Errorf("prob: --steps %s: want a number of steps of at least 0", opt.Steps)
		}
		for i := range queries {
			queries[i].Bounds = &symbolic.PathBounds{Steps: true, Upper: new(big.Rat).SetInt(opt.Steps), Text: fmt.Sprintf("within %s steps", opt.Steps)}
		}
	}
	bounded, through := false, false
	for _, q := range queries {
		bounded = bounded || q.Bounds != nil
		through = through || q.NeedsThrough()
	}
	if opt.Blame > 0 && bounded {
		return nil, fmt.Errorf("prob: --blame ranks a policy's decisions by the unbounded Pr(reach unsafe), and property %s is bounded; drop --blame", prop.Name)
	}
	if IsDTMC(g.M) && opt.Policy != nil {
		return nil, dtmcPolicyError(g.M, opt.PolicyName)
	}
	t0 := time.Now()
	full := false // a filter over a state formula reduces over Storm's reachable states (Options.Full)
	for _, q := range queries {
		full = full || q.FilterStates != nil
	}
	pm, err := buildPhase(ctx, g, PhaseModel, Options{Policy: opt.Policy, MaxStates: opt.MaxStates, Exact: opt.Method == Exact, Full: full, Through: through}, opt)
	if err != nil {
		return nil, err
	}
	chain := pm.IsChain()
	res := &PropertyResult{Model: pm}
	var figs []Figures
	var last *Answer
	for _, q := range queries {
		if chain && !q.Max && prop.Query == nil {
			continue // a chain: Pmin = Pmax
		}
		sopt := SolveOptions{Method: opt.Method, Epsilon: opt.Epsilon, Absolute: opt.Absolute, MaxExact: opt.MaxExact, maxStates: opt.MaxStates}
		if opt.Solve != nil {
			sopt.Progress = func(it int, gap float64) { opt.Solve(q, it, gap) }
		}
		a, err := Ask(ctx, pm, q, sopt)
		if opt.Done != nil {
			opt.Done()
		}
		if err != nil {
			return nil, err
		}
		if last == nil || q.Target == explicit.Unsafe && !q.Max {
			last = a
		}
		figs = append(figs, NewFigures(pm, a, opt.PolicyName, chain, string(opt.Method)))
	}
	if last != nil {
		res.Scheduler = last.Result
	}
	if opt.Blame > 0 {
		mdp, err := buildPhase(ctx, g, PhaseBlame, Options{MaxStates: opt.MaxStates}, opt)
		if err != nil {
			return nil, err
		}
		ds, err := Blame(ctx, mdp, opt.Policy, BlameOptions{Top: opt.Blame, Solve: SolveOptions{Epsilon: opt.Epsilon, Absolute: opt.Absolute}})
		if err != nil {
			return nil, err
		}
		figs[0].Blame = NewBlamed(mdp, ds)
	}
	res.Report = &Report{Model: g.M.Name, Property: prop.Name, Policy: opt.PolicyName, Chain: chain, DTMC: IsDTMC(g.M), Method: string(opt.Method),
		States: pm.NumStates(), Choices: pm.NumChoices(), Build: pm.Elapsed, Total: time.Since(t0), Figures: figs, Blame: opt.Blame > 0}
	if pm.Uneven > 0 {
		res.Report.Uneven, res.Report.FirstUneven = pm.Uneven, pm.FirstUneven
		for i := range figs {
			figs[i].Uneven = pm.Uneven
		}
	}
	if pm.Stuck > 0 {
		res.Report.Stuck, res.Report.FirstStuck = pm.Stuck, g.M.FormatState(pm.StateOf(pm.FirstStuck))
		for i := range figs {
			figs[i].Stuck = pm.Stuck
		}
	}
	return res, nil
}

// buildPhase builds the model of one phase with opt's callbacks.
func buildPhase(ctx context.Context, g *explicit.Generator, phase string, bopt Options, opt PropertyOptions) (*Model, error) {
	if opt.BeforeBuild != nil {
		opt.BeforeBuild(g, phase, bopt)
	}
	if opt.Build != nil {
		bopt.Progress = func(expanded, stored, bytes int) { opt.Build(phase, expanded, stored, bytes) }
	}
	pm, err := Build(ctx, g, bopt)
	if opt.Done != nil {
		opt.Done()
	}
	return pm, err
}
