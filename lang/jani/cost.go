package jani

import (
	"fmt"
	"math/big"

	"vigil/symbolic"
)

// Rewards read back as costs. vigil export --jani writes commands' costs
// (`action ... cost EXPR`) as a transient numeric variable that every
// destination of every edge sets to its edge's cost. A model of one
// automaton whose edges all do that with one transient variable, the
// same value on every destination of an edge, at least 1 over the
// variables' ranges (as spec.md asks of a cost), gets those values as
// its commands' costs, so that a round trip keeps them. Other rewards
// are ignored, with a note, as before.

// rewardAssign records destination d's assignment of value vn to the
// transient numeric variable vi: its value as an integer expression if
// it is one (a value that is not, such as a real, is no cost, and not an
// error: the reward is then ignored).
func (ml *modelLoader) rewardAssign(d *dest, vi *varInfo, vn *node, sc scope) {
	if d.costVar != nil {
		d.costBad = true // two rewards, or one assigned twice
		return
	}
	d.costVar = vi
	n := len(ml.errs)
	e, ok := ml.intExpr(vn, sc)
	if !ok {
		ml.errs = ml.errs[:n]
		d.costBad = true
		return
	}
	d.cost = e
}

// costs decides whether the model's rewards are its commands' costs (see
// above) and notes the rewards it ignores.
func (ml *modelLoader) costs() {
	if len(ml.rewards) == 0 {
		return
	}
	var cv *varInfo
	ok := len(ml.autos) == 1
	edges := 0
	for _, a := range ml.autos {
		for _, e := range a.edges {
			edges++
			for _, d := range e.dests {
				if d.costBad || d.costVar == nil || cv != nil && d.costVar != cv {
					ok = false
					break
				}
				cv = d.costVar
				if !sameExpr(d.cost, e.dests[0].cost) {
					ok = false
					break
				}
				if lo, _ := ml.m.Bounds(d.cost); lo < 1 {
					ok = false
					break
				}
			}
		}
	}
	if ok && cv != nil && edges > 0 {
		ml.costVar = cv // the round trip of an export: no note
	}
	for _, vi := range ml.rewards {
		if vi != ml.costVar {
			ml.note(vi.node, "transient variable %q is no cost of the model (a cost is one transient variable that every edge of a single automaton sets to the same value, at least 1, on each destination), so the engines and the .spec import leave it out; vigil prob reads it as the reward of the model's expected-reward properties (Emin, Emax)", vi.name)
		}
	}
}

// sameExpr tells whether two expressions are the same term (positions
// aside).
func sameExpr(a, b *symbolic.Expr) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Op != b.Op || a.K != b.K || a.Var != b.Var || len(a.Args) != len(b.Args) || !sameCond(a.Cond, b.Cond) {
		return false
	}
	for i := range a.Args {
		if !sameExpr(a.Args[i], b.Args[i]) {
			return false
		}
	}
	return true
}

// sameCond tells whether two conditions are the same term (positions
// aside).
func sameCond(a, b *symbolic.Cond) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Op != b.Op || a.Var != b.Var || a.Cmp != b.Cmp || len(a.Args) != len(b.Args) || !sameExpr(a.L, b.L) || !sameExpr(a.R, b.R) {
		return false
	}
	for i := range a.Args {
		if !sameCond(a.Args[i], b.Args[i]) {
			return false
		}
	}
	return true
}

// reward reads the reward of an Emin or Emax operator e (symbolic.Reward)
// for vigil prob: its "exp" must name a transient numeric variable, its
// "accumulate" be "steps" and/or "exit" (a discrete-time model has no
// time to accumulate over). The variable's values on the locations'
// transient-values are the state rewards (accumulated on exit), those on
// edges the step rewards, which the import keeps only as the commands'
// costs (ml.costVar). What it cannot read is Unsupported, not an error:
// the property still loads as reachability of its goal for the other
// commands.
func (ml *modelLoader) reward(e *node) *symbolic.Reward {
	r := &symbolic.Reward{}
	fail := func(format string, args ...any) *symbolic.Reward {
		r.Unsupported = fmt.Sprintf(format, args...)
		return r
	}
	acc := e.get("accumulate")
	if acc == nil || acc.kind != kArray || len(acc.vals) == 0 {
		return fail("it accumulates nothing (no \"accumulate\"); vigil prob computes rewards accumulated over \"steps\" (edge rewards) and on \"exit\" (location rewards)")
	}
	for _, a := range acc.vals {
		switch {
		case a.kind == kString && a.str == "steps":
			r.Steps = true
		case a.kind == kString && a.str == "exit":
			r.Exit = true
		case a.kind == kString && a.str == "time":
			return fail("it accumulates its reward over \"time\", which a discrete-time model does not have; vigil prob accumulates \"steps\" (edge rewards) and \"exit\" (location rewards)")
		default:
			return fail("its accumulation %s is not \"steps\" or \"exit\"", a.describe())
		}
	}
	en := e.get("exp")
	if en != nil && en.kind == kNumber {
		// A constant: so much per step ("exp": 1 counts the steps),
		// whether accumulated on the step or on leaving the state.
		c, ok := rewardConst(en)
		if !ok {
			return fail("its reward %s is not a number", en.str)
		}
		if r.Steps && r.Exit {
			return fail("its constant reward %s is accumulated both on \"steps\" and on \"exit\", which would count it twice a step; write one of them", en.str)
		}
		r.Name, r.Default, r.Steps, r.Exit = en.str, c, false, true
		return r
	}
	if en == nil || en.kind != kString {
		return fail("its reward expression (\"exp\") is neither a number nor the name of a transient variable; vigil prob computes expected rewards of one transient numeric variable, or of a constant per step")
	}
	r.Name = en.str
	vi := ml.globals[en.str]
	if vi == nil || !vi.transient || !vi.reward {
		return fail("its reward %q is not a global transient numeric variable; vigil prob computes expected rewards of one (set on locations' transient-values, or as the commands' costs), or of a constant per step", en.str)
	}
	if iv := vi.node.get("initial-value"); iv != nil {
		d, ok := rewardConst(iv)
		if !ok {
			return fail("the initial value of its reward %q is not a number literal", en.str)
		}
		r.Default = d
	}
	setBy := ""
	for _, a := range ml.autos {
		sc := ml.localScope(a)
		for _, tv := range a.tvals {
			if rn := tv.node.get("ref"); rn == nil || rn.kind != kString || ml.lookupVar(a, rn.str) != vi {
				continue
			}
			if setBy != "" && setBy != a.name {
				return fail("its reward %q is set on the locations of two automata (%s and %s); vigil prob reads location rewards of one automaton", en.str, setBy, a.name)
			}
			setBy = a.name
			if !r.Exit {
				return fail("its reward %q is set on locations (state rewards), which JANI accumulates on \"exit\" (or over \"time\"), and the property accumulates only on \"steps\": add \"exit\" to its \"accumulate\"", en.str)
			}
			vn := tv.node.get("value")
			if vn == nil {
				continue // the model's error
			}
			p := symbolic.RewardPart{At: symbolic.True(), Pos: ml.pos(tv.node)}
			if a.locVar >= 0 {
				p.At = symbolic.Compare(symbolic.V(a.locVar), symbolic.Eq, symbolic.Lit(tv.loc))
			}
			if c, ok := rewardConst(vn); ok {
				p.Const = c
			} else {
				sub := &lowerer{file: ml.file, data: ml.data, lines: ml.lines, noteSeen: map[string]bool{}, rejected: ml.rejected, bounds: ml.bounds}
				x, ok := sub.intExpr(vn, sc)
				if !ok || sub.errs.Err() != nil {
					return fail("the value of its reward %q at %s is neither a number literal nor an integer expression of the variables", en.str, ml.pos(vn))
				}
				p.Expr = x
			}
			r.Parts = append(r.Parts, p)
		}
	}
	if r.Steps {
		if vi == ml.costVar {
			r.Edges = true
		} else {
			for _, a := range ml.autos {
				for _, ed := range a.edges {
					for _, d := range ed.dests {
						if d.costVar == vi || d.costBad {
							return fail("edges assign its reward %q, and vigil prob reads edge rewards only as the commands' costs (one transient variable that every edge of a single automaton sets to the same integer, at least 1, on each destination, as vigil export --jani writes them)", en.str)
						}
					}
				}
			}
		}
	}
	return r
}

// rewardConst reads a number literal as a rational.
func rewardConst(n *node) (*big.Rat, bool) {
	if n.kind != kNumber {
		return nil, false
	}
	return new(big.Rat).SetString(n.str)
}
