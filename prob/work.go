package prob

import (
	"context"
	"errors"
)

// The direct solution of a component (scc.go, sccf64.go, rewardf64.go,
// rewardii.go's directReward) runs within a budget, so that a component
// whose elimination fills in (rationals of thousands of digits) does not
// cost far more than the sweeps it saves. The budget was a time, a share
// of the time the sweeps took so far: which path answered (float64,
// rationals, or iteration on), and so the bounds reported, depended on
// the machine's load (a CI run at load 2 once answered in rationals where
// the test expected float64). It is now a count of work units, from the
// entries the sweeps visited, and the solvers spend units as they go:
// the answer depends on the model and the options alone, and only the
// caller's own deadline (--timeout) depends on time.

// workCtx is a context whose Err also reports its budget spent (spend).
// Done is the parent's: the solvers poll Err.
type workCtx struct {
	context.Context
	left int64 // units left; negative: spent
}

// errBudget is workCtx's Err once its budget is spent.
var errBudget = errors.New("prob: the direct solution's work budget is spent")

// Work units per entry visited by a sweep (two Bellman updates, lower and
// upper bound), per entry of an elimination step in float64 intervals (a
// map update and four outward-rounded operations; the rows' set-up and
// each round's pass over the choices are counted alike), and per product
// of a rational elimination step, besides its size (ratBits >> 8 per
// operand, as eliminate counts it). Only the ratio of the solvers' cost to
// the sweeps' matters (the budget is a share of the sweeps' predicted
// work). Calibrated 2026-11-28 on MDP rings of 30 to 400 classes (ringSpec,
// reward rings), at load 14 on the 2 shared cores: a unit took about 13 ns
// in sweeps, 1 to 30 ns in the float64 solution, 6 to 44 ns in the
// rational one (the small rings' per-round costs the most).
const (
	unitsSweepEntry = 6
	unitsFloatEntry = 60
	unitsRatEntry   = 4000
)

// unitsLeast and unitsHour: the least budget (about 10 ms), and the one
// beyond which there is none (about an hour).
const (
	unitsLeast = 1e7
	unitsHour  = 3.6e12
)

// withWork returns a context whose Err also reports units spent: at
// least unitsLeast; none at or beyond unitsHour (ctx itself).
func withWork(ctx context.Context, units float64) context.Context {
	if !(units < unitsHour) {
		return ctx
	}
	units = max(units, unitsLeast)
	if workScaleTest > 0 {
		units *= workScaleTest
	}
	return &workCtx{Context: ctx, left: int64(units)}
}

// workScaleTest (tests only), when positive, scales every budget, and
// workHookTest, when set, runs at every spend (a test slows the solvers
// down with it: the answer must not change).
var (
	workScaleTest float64
	workHookTest  func()
)

func (w *workCtx) Err() error {
	if w.left < 0 {
		return errBudget
	}
	return w.Context.Err()
}

// spend takes n units from ctx's budget, if it has one.
func spend(ctx context.Context, n int) {
	if w, ok := ctx.(*workCtx); ok {
		w.left -= int64(n)
		if workHookTest != nil {
			workHookTest()
		}
	}
}
