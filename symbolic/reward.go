package symbolic

import "math/big"

// Reward is the reward of a JANI expected-reward property (Query.Reward,
// Emin or Emax of a transient variable accumulated until Goal), as JANI
// import reads it; vigil prob computes it. JANI's accumulations on a
// discrete-time model: Exit adds the variable's value in a state when a
// step leaves it (the locations' transient-values; Default where no
// location sets it), Steps adds what the step's edge assigns to it (the
// commands' costs, Command.Cost, when Edges; else, when Outcomes, what
// the outcomes taken assign to it, Outcome.Rewards of this Name, 0 on an
// outcome that does not assign it).
type Reward struct {
	Name        string // the transient variable
	Steps, Exit bool
	Parts       []RewardPart
	Default     *big.Rat
	Edges       bool
	Outcomes    bool
	// Unsupported, when not "", says why vigil prob cannot compute the
	// reward (and what it does compute).
	Unsupported string
}

// RewardPart is the value a location gives the reward variable: Value in
// the states where At holds (Expr when not nil, else Const).
type RewardPart struct {
	At    *Cond
	Expr  *Expr
	Den   int64 // Expr's denominator (0 or 1: none); Expr/Den is the value
	Const *big.Rat
	Pos   Pos
}

// StateValue is the reward of being in state s (the first part whose At
// holds, else Default), and the part it came from (-1: Default).
func (r *Reward) StateValue(s State) (*big.Rat, int) {
	for i, p := range r.Parts {
		if p.At.Holds(s) {
			if p.Expr != nil {
				return exprValue(p.Expr, p.Den, s), i
			}
			return p.Const, i
		}
	}
	if r.Default == nil {
		return new(big.Rat), -1
	}
	return r.Default, -1
}

// OutcomeReward is what taking an outcome assigns to the transient
// numeric variable Name (a JANI destination's reward; on synchronised
// edges, the one destination that assigns it): Const (nil: 0) plus the
// value of Expr (when not nil) in the state the step leaves, as JANI
// evaluates every assignment in the old state. Bad, when not "", says why
// vigil prob cannot read it (the property that accumulates Name is then
// refused with it).
type OutcomeReward struct {
	Name  string
	Const *big.Rat
	Expr  *Expr
	Den   int64 // Expr's denominator (0 or 1: none)
	Pos   Pos
	Bad   string
}

// Value is the reward in state s.
func (r *OutcomeReward) Value(s State) *big.Rat {
	v := new(big.Rat)
	if r.Const != nil {
		v.Set(r.Const)
	}
	if r.Expr != nil {
		v.Add(v, exprValue(r.Expr, r.Den, s))
	}
	return v
}

// exprValue is e/den in state s (den 0 or 1: e), exactly: a JANI reward
// is real, and vigil's lowered expressions are integers over a common
// denominator (x/2 + 1 is (x + 2)/2).
func exprValue(e *Expr, den int64, s State) *big.Rat {
	var v *big.Rat
	if x, ok := e.EvalInt(s); ok {
		v = big.NewRat(int64(x), 1)
	} else {
		v = new(big.Rat).SetInt(e.EvalBig(s))
	}
	if den > 1 {
		v.Quo(v, big.NewRat(den, 1))
	}
	return v
}

// OutcomeRewardOf returns o's reward for the variable name (nil: o does
// not assign it).
func OutcomeRewardOf(o *Outcome, name string) *OutcomeReward {
	for i := range o.Rewards {
		if o.Rewards[i].Name == name {
			return &o.Rewards[i]
		}
	}
	return nil
}
