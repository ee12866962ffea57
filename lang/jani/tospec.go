package jani

// A JANI model on its way to .spec text (vigil import): what .spec cannot
// express, and policy paths relative to where the .spec is written.

import (
	"path/filepath"

	"vigil/symbolic"
)

// Relativize rewrites the policies' file paths relative to dir, where a
// .spec of m is written (a .spec resolves paths against its own
// directory).
func Relativize(m *symbolic.Model, dir string) {
	rel := func(p string) string {
		if p == "" {
			return p
		}
		ap, err1 := filepath.Abs(p)
		ad, err2 := filepath.Abs(dir)
		if err1 != nil || err2 != nil {
			return p
		}
		if r, err := filepath.Rel(ad, ap); err == nil {
			return filepath.ToSlash(r)
		}
		return p
	}
	for _, d := range m.Policies {
		d.File = rel(d.File)
	}
}

// NonLinear returns the position of the first product of two variables
// (symbolic.OpProd) in m's commands and predicates: what a JANI model may
// say and a .spec cannot (vigil import refuses it).
func NonLinear(m *symbolic.Model) (symbolic.Pos, bool) {
	var found *symbolic.Pos
	var expr func(x *symbolic.Expr)
	var cond func(c *symbolic.Cond)
	expr = func(x *symbolic.Expr) {
		if x == nil || found != nil {
			return
		}
		if x.Op == symbolic.OpProd {
			found = &x.Pos
			return
		}
		for _, a := range x.Args {
			expr(a)
		}
		cond(x.Cond)
	}
	cond = func(c *symbolic.Cond) {
		if c == nil || found != nil {
			return
		}
		expr(c.L)
		expr(c.R)
		for _, a := range c.Args {
			cond(a)
		}
	}
	for _, c := range m.Commands {
		cond(c.Guard)
		for _, o := range c.Outcomes {
			for _, a := range o.Assigns {
				if expr(a.Value); found != nil && found.File == "" {
					found = &a.Pos
				}
			}
		}
		if found != nil {
			if found.File == "" {
				found = &c.Pos
			}
			return *found, true
		}
	}
	for _, p := range m.Preds {
		if cond(p.Cond); found != nil {
			return p.Pos, true
		}
	}
	return symbolic.Pos{}, false
}

// StateProbability returns the position of the first destination whose
// probability depends on the state (Outcome.ProbFactors, such as x/(N-c)):
// .spec weights are constants, so the .spec text would give the outcome
// an equal share instead and lose the explicit engine's check that the
// probability lies within [0, 1] (vigil import refuses it).
//
// An outcome that stands for an edge's destinations all of probability 0
// (symbolic.ProbFactor.ZeroSum, a probability error where enabled) counts
// only when no other does: it names the edge, not a destination.
func StateProbability(m *symbolic.Model) (symbolic.Pos, bool) {
	pos, _, ok := StateProbabilityKind(m)
	return pos, ok
}

// StateProbabilityKind is StateProbability that also says whether the
// outcome found stands for an edge whose destinations are all of
// probability 0 (zeroSum) rather than for a destination.
func StateProbabilityKind(m *symbolic.Model) (pos symbolic.Pos, zeroSum, ok bool) {
	if pos, ok := stateProbability(m, false); ok {
		return pos, false, true
	}
	pos, ok = stateProbability(m, true)
	return pos, ok, ok
}

func stateProbability(m *symbolic.Model, zeroSum bool) (symbolic.Pos, bool) {
	for i := range m.Commands {
		c := &m.Commands[i]
		for _, o := range c.Outcomes {
			if o.StateProb() && o.ProbFactors[0].ZeroSum == zeroSum {
				if o.Pos.IsValid() {
					return o.Pos, true
				}
				return c.Pos, true
			}
		}
	}
	return symbolic.Pos{}, false
}
