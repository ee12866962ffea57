package jani

// A JANI model on its way to .spec text (vigil import): what .spec cannot
// express, and policy paths relative to where the .spec is written.

import (
	"fmt"
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

// RestrictInitialPred names the predicate by which the .spec that vigil
// import writes keeps a JANI model's restrict-initial apart from the
// variables' initial values: a PlaJA start condition (--start) on that
// .spec chooses among the states it allows, as on the .jani file, where
// it replaced the initial values and the restrict-initial with them (a
// model restricted to x <= 1 started from x = 2 too).
const RestrictInitialPred = "restrict-initial"

// CarryRestrictInitial adds m's restrict-initial (Model.RestrictInitial)
// to its predicates as RestrictInitialPred, for the .spec text of m. It
// returns a note, and adds nothing, when a name of m is already
// RestrictInitialPred.
func CarryRestrictInitial(m *symbolic.Model) (note string) {
	if m.RestrictInitial == nil {
		return ""
	}
	taken := false
	for _, v := range m.Vars {
		taken = taken || v.Name == RestrictInitialPred
	}
	for _, c := range m.Consts {
		taken = taken || c.Name == RestrictInitialPred
	}
	for _, p := range m.Preds {
		taken = taken || p.Name == RestrictInitialPred
	}
	for _, l := range m.Labels {
		taken = taken || l.Name == RestrictInitialPred
	}
	if taken {
		return fmt.Sprintf("the model's restrict-initial is not written as pred %s, a name the model has: its properties' start conditions keep it, but a --start on the .spec replaces it", RestrictInitialPred)
	}
	m.Preds = append(m.Preds, symbolic.Pred{Name: RestrictInitialPred, Cond: m.RestrictInitial})
	return ""
}

// restrictInitial is m's restrict-initial (nil: none): a JANI model's
// (Model.RestrictInitial), or the predicate RestrictInitialPred of a
// .spec model, as vigil import writes a JANI model's.
func restrictInitial(m *symbolic.Model) *symbolic.Cond {
	if m.RestrictInitial != nil {
		return m.RestrictInitial
	}
	for _, p := range m.Preds {
		if p.Name == RestrictInitialPred {
			return p.Cond
		}
	}
	return nil
}

// modelStart is m's start condition where it is more than the variables'
// initial values (nil otherwise): a JANI model's (Model.Start), or the
// restrict-initial predicate of a .spec that vigil import wrote with the
// initial values.
func modelStart(m *symbolic.Model) *symbolic.Cond {
	if m.Start != nil || m.RestrictInitial != nil {
		return m.Start
	}
	if r := restrictInitial(m); r != nil {
		return startWith(m, r)
	}
	return nil
}
