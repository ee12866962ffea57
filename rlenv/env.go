// Package rlenv serves a vigil model as a reinforcement-learning
// environment, as jani_env does for JANI models: observations are the
// variable values in declaration order (Booleans as 0/1), actions are label
// indices with a mask of the applicable ones, and a step samples one
// applicable command of the label uniformly (as vigil run --outcomes
// weighted does) and one of its outcomes by the weights (package prob's
// normalisation, state-dependent JANI probabilities included).
//
// Serve speaks JSON lines (one request, one response per line; see
// Request): reset, step, step_many and close. A malformed request gets an
// error object and the session goes on.
package rlenv

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"path/filepath"
	"strings"

	"vigil/prob"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// Options configure an environment.
type Options struct {
	StepReward    float64 // reward of every step (vigil env: -1), times the cost of the command taken
	GoalReward    float64 // added when a step reaches a goal state
	UnsafePenalty float64 // subtracted when a step reaches an unsafe state
	MaxSteps      int     // an episode is truncated after this many steps (0: never)
	Seed          uint64  // the generator's seed until a reset names one
	// StartTries bounds the rejection sampling of start states in the
	// start condition's box before Reset falls back to Sampler (0:
	// 100000).
	StartTries int
	// Sampler makes the start-state sampler of the fallback (vigil env:
	// the one vigil test and vigil run use, with Z3 for sparse start
	// conditions, prepared with SamplerSeed); nil: explicit.NewStartSampler
	// without a solver. It is made once, on the first fallback, and must
	// stop when ctx ends.
	Sampler func(ctx context.Context) (*explicit.StartSampler, error)
}

// SamplerSeed seeds the preparation of the start-state sampler (its
// trial draws and the solver's choices), which Reset falls back to where
// rejection sampling misses. It is fixed, not Options.Seed, so that a
// reset that names a seed draws the same start state whatever seed the
// environment was made with; the draws themselves come from the reset's
// generator.
const SamplerSeed = 1

// Env is one environment: a model, a property (its start, unsafe and goal
// conditions) and the current state.
type Env struct {
	g       *explicit.Generator
	w       *prob.Weights
	opt     Options
	rng     *rand.Rand
	x       explicit.Expansion
	s       symbolic.State
	started bool
	over    bool
	steps   int
	ws      []float64
	cmds    []int32
	lo, hi  []int
	boxOK   bool
	sampler *explicit.StartSampler
	// ctx ends a long reset (the sampler's preparation): Serve's context.
	ctx context.Context
}

// New makes an environment for g's model and property.
func New(g *explicit.Generator, opt Options) (*Env, error) {
	w, err := prob.NewWeights(g.M)
	if err != nil {
		return nil, err
	}
	if opt.StartTries == 0 {
		opt.StartTries = 100000
	}
	e := &Env{g: g, w: w, opt: opt, rng: rand.New(rand.NewPCG(opt.Seed, 0x656e76)), ctx: context.Background()}
	e.lo, e.hi, e.boxOK = g.StartBounds()
	return e, nil
}

// Labels returns the action names, indexed by action.
func (e *Env) Labels() []string {
	out := make([]string, len(e.g.M.Labels))
	for i, l := range e.g.M.Labels {
		out[i] = l.Name
	}
	return out
}

// Vars returns the variable names, indexed like an observation.
func (e *Env) Vars() []string {
	out := make([]string, len(e.g.M.Vars))
	for i, v := range e.g.M.Vars {
		out[i] = v.Name
	}
	return out
}

// Bounds returns the least and greatest value of each observation entry:
// the variables' ranges (0 and 1 for a Boolean).
func (e *Env) Bounds() (low, high []int) {
	for _, v := range e.g.M.Vars {
		low, high = append(low, v.Lo), append(high, v.Hi)
	}
	return low, high
}

// Observation is what a reset or a step returns.
type Observation struct {
	Obs        []int   `json:"obs"`
	Mask       []int   `json:"mask"`
	Reward     float64 `json:"reward"`
	Terminated bool    `json:"terminated"`
	Truncated  bool    `json:"truncated"`
	Info       Info    `json:"info"`
}

// Info says why an episode ended, and where a step went.
type Info struct {
	Unsafe   bool `json:"unsafe"`
	Goal     bool `json:"goal"`
	Deadlock bool `json:"deadlock"`
	Steps    int  `json:"steps"`
	// A step's command and outcome, as a run file names them
	// (explicit.Run: the command's position with the file's base name,
	// its index in the model, the outcome's index), so that an episode
	// can be written as a run file and checked by vigil run --replay.
	// Absent from a reset's answer.
	Command      string `json:"command,omitempty"`
	CommandIndex *int   `json:"command_index,omitempty"`
	Outcome      *int   `json:"outcome,omitempty"`
}

// Reset starts an episode: in state s when s is not nil, else in a start
// state drawn uniformly (rejection sampling in the start condition's
// bounding box, which enumerates nothing; after StartTries misses, by
// Options.Sampler, which stops when Serve's context ends). reseed makes
// the generator restart from seed.
func (e *Env) Reset(seed uint64, reseed bool, s symbolic.State) (Observation, error) {
	if reseed {
		e.rng = rand.New(rand.NewPCG(seed, 0x656e76))
	}
	m := e.g.M
	switch {
	case s != nil:
		if v := m.InRange(s); v >= 0 {
			return Observation{}, fmt.Errorf("rlenv: %s = %d is outside its range %d..%d", m.Vars[v].Name, s[v], m.Vars[v].Lo, m.Vars[v].Hi)
		}
		e.s = append(e.s[:0], s...)
	case e.g.Prop == nil || e.g.Prop.Start == nil:
		init, err := m.InitialState()
		if err != nil {
			return Observation{}, err
		}
		e.s = init
	default:
		if err := e.sampleStart(); err != nil {
			return Observation{}, err
		}
	}
	e.started, e.steps = true, 0
	o := e.observe(0)
	e.over = o.Terminated
	return o, nil
}

func (e *Env) sampleStart() error {
	m := e.g.M
	if !e.boxOK {
		return fmt.Errorf("rlenv: %s: no state satisfies the start condition of property %s", e.g.Prop.Pos, e.g.Prop.Name)
	}
	s := make(symbolic.State, len(m.Vars))
	for try := 0; try < e.opt.StartTries; try++ {
		for i := range s {
			s[i] = e.lo[i] + e.rng.IntN(e.hi[i]-e.lo[i]+1)
		}
		if e.g.Prop.Start.Holds(s) {
			e.s = s
			return nil
		}
	}
	// Enumerating every start state (as this did) may take hours on a
	// sparse start condition, deaf to SIGTERM; the sampler draws without
	// enumerating them and stops with ctx.
	if e.sampler == nil {
		var err error
		if e.opt.Sampler != nil {
			e.sampler, err = e.opt.Sampler(e.ctx)
		} else {
			e.sampler, err = e.g.NewStartSampler(e.ctx, explicit.SamplerOptions{Seed: SamplerSeed})
		}
		if err != nil {
			e.sampler = nil
			return err
		}
	}
	got, err := e.sampler.Sample(e.ctx, e.rng)
	if err != nil {
		return err
	}
	e.s = got
	return nil
}

// observe describes the current state after a step of the given reward.
func (e *Env) observe(reward float64) Observation {
	o := Observation{Obs: append([]int(nil), e.s...), Mask: make([]int, len(e.g.M.Labels)), Reward: reward}
	o.Info.Steps = e.steps
	switch e.g.Status(e.s) {
	case explicit.Unsafe:
		o.Info.Unsafe, o.Terminated = true, true
		return o
	case explicit.Goal:
		o.Info.Goal, o.Terminated = true, true
		return o
	}
	e.g.Applicable(e.s, &e.x)
	for _, l := range e.x.Labels {
		o.Mask[l] = 1
	}
	if len(e.x.Labels) == 0 {
		o.Info.Deadlock, o.Terminated = true, true
	}
	if !o.Terminated && e.opt.MaxSteps > 0 && e.steps >= e.opt.MaxSteps {
		o.Truncated = true
	}
	return o
}

// Step takes action a (a label index) and returns the next observation.
// An inapplicable action, a step before Reset or after the episode ended
// is an error, and the state does not change.
func (e *Env) Step(a int) (Observation, error) {
	m := e.g.M
	switch {
	case !e.started:
		return Observation{}, fmt.Errorf("rlenv: step before reset")
	case e.over:
		return Observation{}, fmt.Errorf("rlenv: the episode is over (terminated or truncated): reset")
	case a < 0 || a >= len(m.Labels):
		return Observation{}, fmt.Errorf("rlenv: action %d out of range: there are %d actions (0..%d)", a, len(m.Labels), len(m.Labels)-1)
	}
	e.g.Applicable(e.s, &e.x)
	e.cmds = e.cmds[:0]
	for _, ci := range e.x.Enabled() {
		if m.Commands[ci].Label == symbolic.LabelID(a) {
			e.cmds = append(e.cmds, ci)
		}
	}
	if len(e.cmds) == 0 {
		var app []string
		for _, l := range e.x.Labels {
			app = append(app, fmt.Sprintf("%d (%s)", l, m.Labels[l].Name))
		}
		return Observation{}, fmt.Errorf("rlenv: action %d (%s) is not applicable in state %s; applicable: %s", a, m.Labels[a].Name, m.FormatState(e.s), strings.Join(app, ", "))
	}
	// Taking the label is a range error in s when an outcome that may
	// happen, of any of its applicable commands, leaves a range (or has
	// a probability that is not one), whatever outcome the step would
	// take: checking the sampled outcome alone went on, half the time,
	// from a state where bfs stops with the error. An outcome of
	// probability 0 (weight 0, or a JANI probability 0 in s) never
	// happens where outcomes are sampled by their probabilities, as in
	// vigil prob and vigil test --outcomes fair (lang/spec.md,
	// "Outcomes"): its range error is none of the step's. (The step was
	// refused for it, where vigil prob answered P=1.)
	if err := e.labelError(); err != nil {
		return Observation{}, err
	}
	ci := int(e.cmds[e.rng.IntN(len(e.cmds))])
	ws, err := e.w.At(ci, e.s, e.ws[:0])
	if err != nil {
		return Observation{}, err
	}
	e.ws = ws
	u := e.rng.Float64()
	oi := len(ws) - 1
	for i, p := range ws {
		if u < p {
			oi = i
			break
		}
		u -= p
	}
	for ws[oi] == 0 && oi > 0 { // rounding fell on a zero-weight outcome
		oi--
	}
	t, err := e.g.Apply(e.s, ci, oi)
	if err != nil {
		return Observation{}, err
	}
	// A command's cost scales the step's reward. Costs are mathematical
	// integers: one beyond int64 (CostIn saturates) is read exactly.
	cost := big.NewInt(1)
	if c := m.Commands[ci].Cost; c != nil {
		cost = c.EvalBig(e.s)
	}
	costF, _ := new(big.Float).SetInt(cost).Float64()
	step := e.opt.StepReward * costF
	old := e.s
	e.s = t
	e.steps++
	o := e.observe(0)
	switch {
	case o.Info.Goal:
		step += e.opt.GoalReward
	case o.Info.Unsafe:
		step -= e.opt.UnsafePenalty
	}
	if math.IsInf(step, 0) || math.IsNaN(step) {
		// JSON has no infinity: the step is refused rather than
		// answered with a reward the agent cannot read.
		e.s, e.steps = old, e.steps-1
		return Observation{}, fmt.Errorf("rlenv: the reward of action %d (%s) in state %s, the step reward %g times the cost %s (%s), is beyond the float64 range: give a smaller --step-reward", a, m.Labels[a].Name, m.FormatState(old), e.opt.StepReward, cost, m.Commands[ci].Pos)
	}
	o.Reward = step
	pos := m.Commands[ci].Pos
	if pos.File = filepath.Base(pos.File); pos.File == "." {
		pos.File = ""
	}
	o.Info.Command, o.Info.CommandIndex, o.Info.Outcome = pos.String(), &ci, &oi
	e.over = o.Terminated || o.Truncated
	return o, nil
}

// labelError is the error of taking the label of e.cmds (its applicable
// commands) in e.s: the first outcome, in command and outcome order, that
// has a probability error (a factor outside [0, 1], or probabilities
// that sum to 0), else the first outcome of positive probability that
// leaves a range; nil when there is none. The errors are the explicit
// engine's (Apply), as bfs and vigil run word them.
func (e *Env) labelError() error {
	m := e.g.M
	for _, c := range e.cmds {
		ci := int(c)
		os := m.Commands[ci].Outcomes
		for oi := range os {
			if !os[oi].StateProb() {
				continue
			}
			if _, bad := os[oi].ProbAt(e.s); bad >= 0 {
				_, err := e.g.Apply(e.s, ci, oi) // checks the factors first
				if err == nil {
					err = fmt.Errorf("rlenv: %s: outcome %d of action %s has no probability in state %s", os[oi].Pos, oi+1, m.Labels[m.Commands[ci].Label].Name, m.FormatState(e.s))
				}
				return err
			}
		}
		ws, err := e.w.At(ci, e.s, e.ws[:0])
		if err != nil {
			return err
		}
		e.ws = ws
		for oi, p := range ws {
			if !positive(&os[oi], p, e.s) {
				continue
			}
			if _, err := e.g.Apply(e.s, ci, oi); err != nil {
				return err
			}
		}
	}
	return nil
}

// positive reports whether outcome o, whose probability in s is p as a
// float64, may happen there: p > 0, or, for a probability that reads the
// state, its exact value (a product of factors) is above 0 where the
// float64 underflows.
func positive(o *symbolic.Outcome, p float64, s symbolic.State) bool {
	if p > 0 {
		return true
	}
	if !o.StateProb() {
		return false
	}
	q, bad := o.ProbAt(s)
	return bad < 0 && q != nil && q.Sign() > 0
}
