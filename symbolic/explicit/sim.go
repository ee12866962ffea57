package explicit

import (
	"context"
	"fmt"
	"math/rand/v2"

	"vigil/symbolic"
)

// OutcomeMode says how a simulation resolves non-determinism.
type OutcomeMode uint8

const (
	// OutcomesRandom picks uniformly among the distinct successors.
	OutcomesRandom OutcomeMode = iota
	// OutcomesFirst takes the first successor (first applicable command of
	// the label, first outcome): a deterministic run.
	OutcomesFirst
	// OutcomesWeighted picks an applicable command of the label uniformly,
	// then an outcome by its normalised weight (Outcome.Prob). In a JANI
	// dtmc (Model.Type) without a policy it picks an enabled command
	// uniformly instead, whatever its label, as vigil prob reads a dtmc.
	OutcomesWeighted
)

// ParseOutcomeMode reads random, first or weighted.
func ParseOutcomeMode(s string) (OutcomeMode, error) {
	switch s {
	case "random":
		return OutcomesRandom, nil
	case "first":
		return OutcomesFirst, nil
	case "weighted":
		return OutcomesWeighted, nil
	}
	return 0, fmt.Errorf("explicit: unknown outcome mode %q; use random, first or weighted", s)
}

// SimOptions configure Simulate.
type SimOptions struct {
	Steps    int         // at most this many actions (0: 1000)
	Outcomes OutcomeMode //
	Rand     *rand.Rand  // required for random and weighted outcomes
	Policy   Decider     // nil: a uniformly random applicable label
	// Ctx, when set, ends the run (EndStopped) when it is done; it is
	// checked every 1,024 steps.
	Ctx context.Context
	// OnStep, when set, is called with each step as the run makes it (the
	// last, a state only, too); with Discard the steps are then not kept
	// and Simulate returns the last one only.
	OnStep  func(i int, st Step)
	Discard bool
}

// Run endings.
const (
	EndUnsafe   = "unsafe"
	EndGoal     = "goal"
	EndDeadlock = "deadlock"
	EndStuck    = "stuck"
	EndSteps    = "steps"
	EndStopped  = "stopped" // SimOptions.Ctx ended first
)

// Simulate runs from start until a terminal state, a deadlock, a stuck
// policy or the step limit. It returns the steps (the last one a state
// only) and why the run ended.
func Simulate(g *Generator, start symbolic.State, opt SimOptions) ([]Step, string, error) {
	if opt.Rand == nil {
		opt.Rand = rand.New(rand.NewPCG(1, 2))
	}
	if v := g.M.InRange(start); v >= 0 {
		return nil, "", fmt.Errorf("explicit: start state %s: %s is out of range", g.M.FormatState(start), g.M.Vars[v].Name)
	}
	s := append(symbolic.State(nil), start...)
	src := make([]uint64, g.L.W)
	x := &Expansion{}
	var run []Step
	made := 0
	add := func(st Step) {
		if opt.OnStep != nil {
			opt.OnStep(made, st)
		}
		made++
		if opt.Discard && opt.OnStep != nil {
			run = run[:0]
		}
		run = append(run, st)
	}
	end := EndSteps
steps:
	for n := 0; ; n++ {
		st := Step{State: s, Label: symbolic.NoLabel, Cmd: -1, Outcome: -1}
		if status := g.Status(s); status != Open {
			end = status.String()
			add(st)
			break
		}
		if n == opt.Steps {
			add(st)
			break
		}
		if opt.Ctx != nil && n&1023 == 1023 && opt.Ctx.Err() != nil {
			end = EndStopped
			add(st)
			break
		}
		g.Applicable(s, x)
		if len(x.Labels) == 0 {
			end = EndDeadlock
			add(st)
			break
		}
		var l symbolic.LabelID
		fused := int32(-1) // the command a dtmc takes (weighted, no policy)
		switch {
		case opt.Policy == nil && opt.Outcomes == OutcomesWeighted && g.M.Type == "dtmc":
			// A JANI dtmc takes each enabled command with equal
			// probability, as Storm fuses them and vigil prob reads
			// them (prob/fuse.go): a label of two commands is not
			// twice as likely as one of one.
			fused = x.on[opt.Rand.IntN(len(x.on))]
			l = g.cmds[fused].label
		case opt.Policy == nil:
			l = x.Labels[opt.Rand.IntN(len(x.Labels))]
		default:
			var err error
			if l, err = opt.Policy.Decide(s, x.App); err != nil {
				return nil, "", err
			}
			if l == symbolic.NoLabel {
				end = EndStuck
				add(st)
				break steps
			}
		}
		st.Label = l
		g.L.Pack(s, src)
		if opt.Outcomes == OutcomesWeighted {
			// sampled by probability: an outcome of probability 0 never
			// happens, nor does its range error (lang/spec.md,
			// "Outcomes"), as in vigil prob, test --outcomes fair and env
			if err := g.weightedError(s, l, x); err != nil {
				return nil, "", err
			}
		} else if err := g.Successors(src, s, l, x); err != nil {
			return nil, "", err
		}
		switch opt.Outcomes {
		case OutcomesFirst, OutcomesRandom:
			i := 0
			if opt.Outcomes == OutcomesRandom {
				i = opt.Rand.IntN(len(x.Succs))
			}
			st.Cmd, st.Outcome = int(x.Succs[i].Cmd), int(x.Succs[i].Outcome)
		case OutcomesWeighted:
			ci := int(fused)
			if fused < 0 {
				var cmds []int32
				for _, c := range x.on {
					if g.cmds[c].label == l {
						cmds = append(cmds, c)
					}
				}
				ci = int(cmds[opt.Rand.IntN(len(cmds))])
			}
			st.Cmd, st.Outcome = ci, pickWeighted(opt.Rand, g.M.Commands[ci].Outcomes, s)
		}
		t, err := g.Apply(s, st.Cmd, st.Outcome)
		if err != nil {
			return nil, "", err
		}
		add(st)
		s = t
	}
	return run, end, nil
}

// weightedError is the error of taking label l in s where outcomes are
// sampled by their probabilities: the first outcome, of the enabled
// commands of l, whose probability is no probability, else the first of
// positive probability that leaves a range; nil when there is none.
func (g *Generator) weightedError(s symbolic.State, l symbolic.LabelID, x *Expansion) error {
	for _, ci := range x.on {
		if g.cmds[ci].label != l {
			continue
		}
		os := g.M.Commands[ci].Outcomes
		for oi := range os {
			if os[oi].StateProb() {
				if p, bad := os[oi].ProbAt(s); bad >= 0 || p.Sign() > 0 {
					if _, err := g.Apply(s, int(ci), oi); err != nil {
						return err
					}
				}
				continue
			}
			if outcomeWeight(os[oi], os, s) > 0 {
				if _, err := g.Apply(s, int(ci), oi); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func pickWeighted(r *rand.Rand, os []symbolic.Outcome, s symbolic.State) int {
	ws := make([]float64, len(os))
	total := 0.0
	for i, o := range os {
		ws[i] = outcomeWeight(o, os, s)
		total += ws[i]
	}
	if total <= 0 {
		return r.IntN(len(os))
	}
	u := r.Float64() * total
	last := 0
	for i, w := range ws {
		u -= w
		if u < 0 {
			return i
		}
		if w > 0 {
			last = i
		}
	}
	// rounding left u >= 0: the last outcome that may happen (the last
	// outcome, taken here before, may have weight 0)
	return last
}

// outcomeWeight is o's weight in state s: its state-dependent probability
// when it has one; else, beside outcomes that have one, its written weight;
// else its normalised probability.
func outcomeWeight(o symbolic.Outcome, os []symbolic.Outcome, s symbolic.State) float64 {
	if o.StateProb() {
		// the exact product of its factors (Successors has checked each)
		if p, bad := o.ProbAt(s); bad < 0 {
			f, _ := p.Float64()
			return f
		}
		return 0
	}
	for _, x := range os {
		if x.StateProb() && o.Weight.Den != 0 {
			return float64(o.Weight.Num) / float64(o.Weight.Den)
		}
	}
	return o.Prob
}

// StartAt returns the k-th start state (0-based, in the order of Starts).
func (g *Generator) StartAt(k int) (symbolic.State, error) {
	return g.StartAtContext(context.Background(), k)
}

// StartAtContext is StartAt that stops with ctx's error when ctx ends.
func (g *Generator) StartAtContext(ctx context.Context, k int) (symbolic.State, error) {
	var got symbolic.State
	i := 0
	err := g.StartsContext(ctx, func(s symbolic.State) bool {
		if i == k {
			got = append(symbolic.State(nil), s...)
			return false
		}
		i++
		return true
	})
	if err != nil {
		return nil, err
	}
	if got == nil {
		return nil, fmt.Errorf("explicit: start index %d out of range: there are %d start states", k, i)
	}
	return got, nil
}

// SampleStart picks a start state uniformly among the first limit start
// states (reservoir sampling; limit <= 0 means all).
func (g *Generator) SampleStart(r *rand.Rand, limit int) (symbolic.State, error) {
	var got symbolic.State
	n := 0
	err := g.Starts(func(s symbolic.State) bool {
		n++
		if r.IntN(n) == 0 {
			got = append(got[:0], s...)
		}
		return limit <= 0 || n < limit
	})
	return got, err
}
