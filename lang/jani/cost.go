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
	// A lowerer of its own: this one's errors are dropped, and on the
	// model's lowerer they were dropped but stayed "reported" (unsupported
	// reports a message once, a function's body error once), so that the
	// same error in a guard later was silenced and its edge dropped
	// without a word: vigil verify said safe (s25x_jani_error_once).
	sub := ml.quietLowerer()
	e, ok := sub.intExpr(vn, sc)
	if !ok || sub.errs.Err() != nil {
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
// edges' destinations the step rewards: the commands' costs (ml.costVar),
// else what each outcome carries (symbolic.Outcome.Rewards, put there by
// syncRewards). What it cannot read is Unsupported, not an error:
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
		if d.Sign() > 0 {
			// Storm reads a transient variable's initial value in
			// every state where no location sets it and again on every
			// destination that does not assign it (twice a step), and
			// refuses "exit" or "steps" alone: no reading to agree on.
			// (A negative one is refused where it is read, with the
			// state.)
			return fail("the initial value of its reward %q is %s, not 0 (Storm counts it both in the states and on the steps); vigil prob computes rewards of initial value 0", en.str, d.RatString())
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
			c, x, den, ok := ml.rewardValue(vn, sc)
			if !ok {
				return fail("the value of its reward %q at %s is not a numeric expression of the constants and variables that vigil reads", en.str, ml.pos(vn))
			}
			p.Const, p.Expr, p.Den = c, x, den
			r.Parts = append(r.Parts, p)
		}
	}
	if !r.Steps && ml.edgesAssign(vi) {
		// JANI's "exit" reads the locations' values only: the edges'
		// would be lost without a word (Storm refuses it too).
		return fail("edges assign its reward %q, and the property accumulates only on \"exit\" (the locations' values), which leaves them out: add \"steps\" to its \"accumulate\"", en.str)
	}
	if r.Steps {
		if vi == ml.costVar {
			r.Edges = true
		} else if ml.edgesAssign(vi) {
			// The destinations' rewards, carried on the outcomes
			// (syncRewards): the same as the costs where both apply.
			for ci := range ml.m.Commands {
				for oi := range ml.m.Commands[ci].Outcomes {
					if or := symbolic.OutcomeRewardOf(&ml.m.Commands[ci].Outcomes[oi], vi.name); or != nil && or.Bad != "" {
						return fail("%s", or.Bad)
					}
				}
			}
			if r.Default != nil && r.Default.Sign() != 0 {
				return fail("the initial value of its reward %q is %s, not 0, which Storm counts on every step whose destination does not assign it; vigil prob computes rewards of initial value 0", en.str, r.Default.RatString())
			}
			r.Outcomes = true
		}
	}
	return r
}

// edgesAssign says whether a destination of some edge assigns vi.
func (ml *modelLoader) edgesAssign(vi *varInfo) bool {
	for _, a := range ml.autos {
		for _, ed := range a.edges {
			for _, d := range ed.dests {
				if d.costVar == vi {
					return true
				}
				if d.node == nil {
					continue
				}
				as := d.node.get("assignments")
				if as == nil || as.kind != kArray {
					continue
				}
				for _, an := range as.vals {
					if rn := an.get("ref"); rn != nil && rn.kind == kString && ml.lookupVar(a, rn.str) == vi {
						return true
					}
				}
			}
		}
	}
	return false
}

// rewardValue reads the value vn of a reward (on a location or a
// destination) in scope sc: a constant (any rational: a real constant,
// 1/3), or an expression of the variables over a denominator (x/2 + c
// with c = 0.5 is (x + 1)/2), as JANI's rewards are real. It used to read
// only number literals and integer expressions, and refused a reward of
// a real constant (Storm computes it).
func (ml *modelLoader) rewardValue(vn *node, sc scope) (c *big.Rat, x *symbolic.Expr, den int64, ok bool) {
	sub := ml.quietLowerer()
	v, ok := sub.expr(vn, sc)
	if !ok || sub.errs.Err() != nil || !v.numeric() {
		return nil, nil, 0, false
	}
	if v.isConst() {
		return new(big.Rat).Set(v.k), nil, 0, true
	}
	return nil, v.e, v.den, true
}

// rewardConst reads a number literal as a rational.
func rewardConst(n *node) (*big.Rat, bool) {
	if n.kind != kNumber {
		return nil, false
	}
	return new(big.Rat).SetString(n.str)
}

// destRewards reads what destination d of an edge of automaton a assigns
// to the transient numeric variables (JANI's rewards on destinations),
// for vigil prob (symbolic.Outcome.Rewards): each value a number literal
// or a numeric expression of the variables (rewardValue), evaluated in the state the
// step leaves. What vigil cannot read is kept with its reason (Bad), not
// an error: only a property that accumulates that variable is refused.
func (ml *modelLoader) destRewards(a *automaton, d *dest) []symbolic.OutcomeReward {
	if d.node == nil {
		return nil
	}
	as := d.node.get("assignments")
	if as == nil || as.kind != kArray {
		return nil
	}
	var out []symbolic.OutcomeReward
	sc := ml.localScope(a)
	for _, an := range as.vals {
		rn := an.get("ref")
		if rn == nil || rn.kind != kString {
			continue
		}
		vi := ml.lookupVar(a, rn.str)
		if vi == nil || !vi.reward || ml.globals[vi.name] != vi {
			continue // a local one is no property's reward
		}
		r := symbolic.OutcomeReward{Name: vi.name, Pos: ml.pos(an)}
		seen := false
		for i := range out {
			if out[i].Name == vi.name {
				out[i].Bad = fmt.Sprintf("a destination at %s assigns its reward %q twice", ml.pos(d.node), vi.name)
				seen = true
			}
		}
		if seen {
			continue
		}
		vn := an.get("value")
		switch {
		case vn == nil:
			r.Bad = fmt.Sprintf("the assignment of its reward %q at %s has no single value (vigil prob reads a numeric expression)", vi.name, r.Pos)
		default:
			if c, ok := rewardConst(vn); ok {
				r.Const = c
				break
			}
			if ix := an.get("index"); ix != nil && !(ix.kind == kNumber && ix.str == "0") {
				r.Bad = fmt.Sprintf("its reward %q is assigned at %s with an \"index\" (a later assignment level, reading values the earlier levels set), which vigil prob does not read for rewards", vi.name, r.Pos)
				break
			}
			c, x, den, ok := ml.rewardValue(vn, sc)
			if !ok {
				r.Bad = fmt.Sprintf("the value of its reward %q at %s is not a numeric expression of the constants and variables that vigil reads", vi.name, ml.pos(vn))
				break
			}
			r.Const, r.Expr, r.Den = c, x, den
		}
		out = append(out, r)
	}
	return out
}

// syncRewards adds to o the rewards the destinations dests (one of each
// synchronising edge, of automata autos) assign. Two that assign one
// variable are kept as Bad: JANI forbids two synchronising edges to
// assign one variable, and Storm keeps the value of the one it applies
// last, so there is no sum to agree on.
func (ml *modelLoader) syncRewards(o *symbolic.Outcome, autos []*automaton, dests []*dest, cache map[*dest][]symbolic.OutcomeReward) {
	if len(ml.rewards) == 0 {
		return
	}
	var who map[string]string // the automaton that assigned each reward (made when needed)
	for i, d := range dests {
		rs, ok := cache[d]
		if !ok {
			rs = ml.destRewards(autos[i], d)
			cache[d] = rs
		}
		if len(rs) > 0 && who == nil {
			who = map[string]string{}
		}
		for _, r := range rs {
			if prev, dup := who[r.Name]; dup {
				for j := range o.Rewards {
					if o.Rewards[j].Name == r.Name {
						o.Rewards[j].Bad = fmt.Sprintf("synchronising edges of automata %q and %q both assign its reward %q (at %s): JANI forbids two synchronising edges to assign one variable, and Storm keeps one of the values; assign it on one of them", prev, autos[i].name, r.Name, r.Pos)
					}
				}
				continue
			}
			who[r.Name] = autos[i].name
			o.Rewards = append(o.Rewards, r)
		}
	}
}

// quietLowerer is a lowerer that shares ml's file, names and bounds (a
// copy of every field, so that what later sessions add, such as the
// functions' state, comes along) but collects its errors and notes apart:
// for an expression whose failure is a reason to refuse a property, not
// an error of the model.
func (ml *modelLoader) quietLowerer() *lowerer {
	sub := *ml.lowerer
	sub.errs, sub.notes, sub.noteSeen = nil, nil, map[string]bool{}
	sub.bodyErrSeen = nil // indices into sub.errs, not ml's
	return &sub
}
