package jani

// The properties section of a JANI model. Storm builds the model for a
// property with the property's target states terminal; vigil imports each
// property whose shape it knows as a property of the IR:
//
//   - reachability, P or E (min or max) of "F φ" or "true U φ", possibly
//     compared with a bound and under a filter over the initial states
//     or over a state formula (Query.FilterStates: vigil prob reduces the
//     values of the reachable states where it holds, as Storm does; the
//     other commands check from the initial states): goal φ (terminal),
//     no unsafe states;
//   - constrained reachability "ψ U φ" (and weak until "ψ W φ"): goal φ,
//     unsafe ¬ψ ∧ ¬φ (leaving ψ before reaching φ);
//   - safety, P of "G ψ" (or ∀ G ψ): unsafe ¬ψ;
//   - every P property of "F φ" also gives NAME_avoid with unsafe φ: the
//     reading of P=? [F bad] as "avoid bad";
//   - a PlaJA policy property (op "PA", as jani_env models carry): start,
//     reach as unsafe, objective as goal, and its predicates (see paInline).
//   - an expected reward (Emin, Emax with "reach"): goal φ as above, and
//     its reward for vigil prob (Query.Reward, read in cost.go: location
//     values on "exit", the commands' costs on "steps", a constant per
//     step), or why vigil prob cannot compute it.
//
//   - a step-bounded F or U (JANI "step-bounds": an upper bound, and a
//     lower one), a reward-bounded one ("reward-bounds" of one reward
//     accumulated on "steps" or "exit"), and an expected reward over the
//     first k steps ("step-instant" k with "accumulate", Storm's C<=k):
//     Query.Bounds (symbolic/bounds.go), which only vigil prob computes.
//
// Time bounds and time instants (a discrete-time model has no time),
// reward instants, instantaneous rewards (a step instant without
// "accumulate"), bounded G and W, several bounds at once, reward-only
// expectations, steady-state operators and nested probabilities are not
// imported: each such property gets one note naming it, and the model
// loads.

import (
	"fmt"
	"math/big"
	"path/filepath"
	"strconv"
	"strings"

	"vigil/symbolic"
)

func (ml *modelLoader) properties(root *node) {
	ps, ok := ml.arr(root, "properties", false)
	if !ok {
		return
	}
	taken := namer{}
	sc := ml.propertyScope()
	for i, p := range ps {
		if !ml.obj(p, "a property") {
			continue
		}
		before := len(ml.errs)
		ml.members(p, "a property", "name", "expression")
		ml.propertyMembers(p.get("expression"))
		if len(ml.errs) > before {
			continue // the model's error; not also a note
		}
		name := fmt.Sprintf("property%d", i+1)
		if n := p.get("name"); n != nil && n.kind == kString {
			name = n.str
		}
		shape, why := propertyShape(p.get("expression"))
		if shape == nil {
			ml.dropProperty(p, "property", name, why)
			continue
		}
		// Lower the state formulas with a lowerer of their own, so that a
		// formula vigil cannot read is a note, not an error of the model.
		sub := ml.quietLowerer()
		lower := func(n *node) *symbolic.Cond {
			if n == nil {
				return nil
			}
			c, ok := sub.cond(n, sc)
			if !ok {
				return nil
			}
			return c
		}
		if shape.pa != nil {
			ml.paInline(p, shape.pa, name, taken, sc)
			continue
		}
		goal, left, safe := lower(shape.goal), lower(shape.left), lower(shape.safe)
		filterStates := lower(shape.filterStates)
		if err := sub.errs.Err(); err != nil {
			ml.dropProperty(p, "property", name, err.Error())
			continue
		}
		base := taken.unique(ident(name))
		pos := ml.pos(p)
		q := shape.query
		if base != name {
			q.Written = name
		}
		if shape.reward != nil {
			q.Reward = ml.reward(shape.reward)
		}
		if shape.bounds != nil {
			b, why := ml.pathBounds(shape, sc, left)
			if why != "" {
				ml.dropProperty(p, "property", name, why)
				continue
			}
			q.Bounds = b
		}
		if filterStates != nil {
			q.FilterStates, q.FilterText = filterStates, ml.m.CondString(filterStates)
		}
		switch {
		case safe != nil:
			ml.m.Properties = append(ml.m.Properties, &symbolic.Property{Name: base, Unsafe: symbolic.Not(safe), Pos: pos, FromModel: true, Query: &q})
		default:
			unsafe := symbolic.False()
			switch {
			case left != nil && hasConjunct(ml.m, goal, left):
				// ¬left ∧ ¬(… ∧ left) is ¬left: vigil export's own
				// ¬unsafe U (goal ∧ ¬unsafe) comes back with its unsafe
				// states as written, not as a longer formula each round
				unsafe = symbolic.Not(left)
			case left != nil:
				// ¬goal once: the export of ψ W φ writes its left as
				// ¬(¬ψ ∧ ¬φ), and read back with ¬φ added again the
				// unsafe states grew by a conjunct every round
				unsafe = andOnce(ml.m, symbolic.Not(left), symbolic.Not(goal))
			}
			ml.m.Properties = append(ml.m.Properties, &symbolic.Property{Name: base, Unsafe: unsafe, Goal: goal, Pos: pos, FromModel: true, Query: &q})
			if shape.avoid {
				qa := q // the probability of reaching goal, read as reaching unsafe
				qa.Weak = false
				qa.Written = "" // vigil's own property: its name is vigil's
				ml.m.Properties = append(ml.m.Properties, &symbolic.Property{Name: taken.unique(ident(name + "_avoid")), Unsafe: goal, Pos: pos, FromModel: true, Query: &qa})
			}
		}
	}
}

// propertyMembers refuses a member JANI does not define for a property
// operator of e or of the expressions under it: a misspelt "step-bound" on
// F φ made a bounded property unbounded, a filter's "state" was a filter
// over the initial states. The members of bounds, reward instants and
// accumulations are checked too (propertyBounds), though such properties
// are not imported, so that a misspelling is reported the same way
// everywhere; so are those of a PlaJA PA property (paMembers). The state
// expressions are checked again when lowered (expr).
func (l *lowerer) propertyMembers(e *node) {
	if e == nil || e.kind != kObject {
		return
	}
	op := ""
	if o := e.get("op"); o != nil && o.kind == kString {
		op = o.str
	}
	var allowed []string
	switch op {
	case "filter":
		allowed = []string{"op", "fun", "values", "states"}
		l.filterFun(e)
	case "Pmin", "Pmax", "∀", "∃":
		allowed = []string{"op", "exp"}
	case "Emin", "Emax":
		allowed = []string{"op", "exp", "accumulate", "reach", "step-instant", "time-instant", "reward-instants"}
	case "Smin", "Smax":
		allowed = []string{"op", "exp", "accumulate"}
	case "U", "W":
		allowed = append([]string{"op", "left", "right"}, boundKeys...)
	case "F", "G": // derived-operators
		allowed = append([]string{"op", "exp"}, boundKeys...)
	case "initial", "deadlock", "timelock":
		allowed = []string{"op"}
	case "PA":
		l.paMembers(e) // PlaJA's own object (paCondition reads it)
		return
	case "state-condition": // PlaJA's, in a PA property
		l.conditionMembers(e)
		l.propertyMembers(e.get("exp"))
		return
	case "states-values":
		l.conditionMembers(e)
		return
	case "":
		return // no operator: lowering says so
	default:
		var ok bool
		if allowed, ok = exprMembers(e, op); !ok {
			return // lowering refuses the operator
		}
	}
	l.members(e, fmt.Sprintf("operator %q", op), allowed...)
	for i, k := range e.keys {
		if !l.propertyBounds(k, e.vals[i]) {
			l.propertyMembers(e.vals[i])
		}
	}
}

// filterAlias are the names of JANI's ∀ and ∃ that vigil reads too.
var filterAlias = map[string]string{"forall": "∀", "exists": "∃"}

// filterFuns are the filter functions JANI defines (and Storm reads).
var filterFuns = map[string]bool{"min": true, "max": true, "sum": true, "avg": true, "count": true,
	"∀": true, "∃": true, "argmin": true, "argmax": true, "values": true}

// filterFun refuses a filter function JANI does not define, as Storm does
// (the whole model): read as another, or ignored, it would change the
// answer. "forall" and "exists" (which Storm refuses) are read as "∀" and
// "∃", with a note: they cannot mean anything else.
func (l *lowerer) filterFun(e *node) {
	n := e.get("fun")
	switch {
	case n == nil:
		l.errorf(e, "a filter needs \"fun\", its function (\"min\", \"max\", \"sum\", \"avg\", \"count\", \"∀\", \"∃\", \"argmin\", \"argmax\" or \"values\")")
	case n.kind != kString:
		l.errorf(n, "a filter's \"fun\" must be a string such as \"min\", got %s", n.describe())
	case filterAlias[n.str] != "":
		sym := filterAlias[n.str]
		l.note(n, "filter function %q read as %q, as JANI writes it (Storm refuses %q): write \"fun\": %q", n.str, sym, n.str, sym)
	case !filterFuns[n.str]:
		l.errorf(n, "unknown filter function %q (JANI defines \"min\", \"max\", \"sum\", \"avg\", \"count\", \"∀\", \"∃\", \"argmin\", \"argmax\", \"values\"): check its spelling", n.str)
	}
}

// propertyBounds checks member k of a property operator, with value n,
// when k is one of the bounds, reward instants or accumulations JANI
// defines (and says so): a property with any of them is not imported
// (it gets a note), but a misspelt member inside one is refused like
// every other.
func (l *lowerer) propertyBounds(k string, n *node) bool {
	switch k {
	case "step-bounds", "time-bounds":
		l.interval(n, k)
	case "reward-bounds":
		l.rewardList(n, k, "bounds")
	case "reward-instants":
		l.rewardList(n, k, "instant")
	case "accumulate":
		l.accumulate(n)
	default:
		return false
	}
	return true
}

// interval checks a property interval (JANI's PropertyInterval).
func (l *lowerer) interval(n *node, what string) {
	if n == nil || n.kind != kObject {
		return // not imported: the property's note says so
	}
	l.members(n, fmt.Sprintf("the property interval %q", what), "lower", "lower-exclusive", "upper", "upper-exclusive")
	l.propertyMembers(n.get("lower"))
	l.propertyMembers(n.get("upper"))
}

// rewardList checks "reward-bounds" or "reward-instants": a list of
// {"exp", "accumulate", and "bounds" (an interval) or "instant"}.
func (l *lowerer) rewardList(n *node, what, last string) {
	if n == nil || n.kind != kArray {
		return
	}
	for _, r := range n.vals {
		if r.kind != kObject {
			continue
		}
		l.members(r, fmt.Sprintf("an element of %q", what), "exp", "accumulate", last)
		l.propertyMembers(r.get("exp"))
		if a := r.get("accumulate"); a != nil {
			l.accumulate(a)
		}
		if last == "bounds" {
			l.interval(r.get("bounds"), "bounds")
		} else {
			l.propertyMembers(r.get("instant"))
		}
	}
}

// accumulate checks a reward accumulation: a list of "steps", "time" and
// "exit" (JANI's RewardAccumulation); a misspelt one is refused like a
// misspelt member.
func (l *lowerer) accumulate(n *node) {
	if n.kind != kArray {
		l.errorf(n, "\"accumulate\" must be a list of \"steps\", \"time\" and \"exit\", got %s", n.describe())
		return
	}
	for _, a := range n.vals {
		if a.kind != kString || (a.str != "steps" && a.str != "time" && a.str != "exit") {
			l.errorf(a, "unknown reward accumulation %s (JANI defines \"steps\", \"time\", \"exit\"): check its spelling", a.describe())
		}
	}
}

// paInline imports a PlaJA PA property written in the model (as jani_env
// models carry one): start, reach (unsafe; none when absent), objective
// (goal) and predicates, each in place or in a file named relative to the
// model. Like every property read from the model, it is chosen with
// --property NAME. A part vigil cannot read is a note naming the property.
func (ml *modelLoader) paInline(p, e *node, name string, taken namer, sc scope) {
	sub := ml.quietLowerer()
	dir := filepath.Dir(ml.file)
	prop := &symbolic.Property{Pos: ml.pos(p), FromModel: true}
	var ok bool
	prop.Start, ok = sub.paCondition(e, "start", dir, ml.m, sc)
	if ok {
		prop.Unsafe, ok = sub.paCondition(e, "reach", dir, ml.m, sc)
	}
	if ok {
		prop.Goal, ok = sub.paCondition(e, "objective", dir, ml.m, sc)
	}
	if ok {
		prop.Predicates, prop.PredicatePos, ok = sub.paPredicates(e, dir, sc)
	}
	if err := sub.errs.Err(); err != nil || !ok {
		ml.dropProperty(p, "PA property", name, err.Error())
		return
	}
	if prop.Unsafe == nil && prop.Goal == nil {
		ml.dropProperty(p, "PA property", name, "it has neither \"reach\" (unsafe states) nor \"objective\" (goal states)")
		return
	}
	if prop.Unsafe == nil {
		prop.Unsafe = symbolic.False()
	}
	prop.Name = taken.unique(ident(name))
	ml.m.Properties = append(ml.m.Properties, prop)
}

// propertyScope resolves global variables, labels and constants, then the
// variables of the automata (by their JANI name when only one automaton
// declares it).
func (ml *modelLoader) propertyScope() scope {
	return func(name string) (ref, bool) {
		if r, ok := ml.globalScope(name); ok {
			return r, true
		}
		var found *varInfo
		for _, a := range ml.autos {
			if vi, ok := a.locals[name]; ok {
				if found != nil {
					return ref{}, false
				}
				found = vi
			}
		}
		if found == nil {
			return ref{}, false
		}
		return found.ref(), true
	}
}

// shape is what vigil reads of a property: goal (with the constraint left
// of an until), or the invariant safe.
type shape struct {
	goal, left, safe *node
	pa               *node // a PlaJA PA property: start, reach, objective, predicates
	avoid            bool  // a probability of reaching goal: also offered as "avoid goal"
	query            symbolic.Query
	filterStates     *node // a filter's "states" other than {"op": "initial"}
	reward           *node // an Emin or Emax operator: its reward (cost.go)
	// bounds is the path formula with "step-bounds" or "reward-bounds",
	// or the E operator with "step-instant" (instant): pathBounds reads it.
	bounds  *node
	instant bool
}

// flipCmp is the comparison c with its sides exchanged (1 ≤ P as P ≥ 1).
var flipCmp = map[string]string{"=": "=", "≠": "≠", "<": ">", "≤": "≥", ">": "<", "≥": "≤"}

// boundKeys are the bounds of a path formula (U, W, F, G).
var boundKeys = []string{"time-bounds", "step-bounds", "reward-bounds"}

// propertyShape unwraps filters and comparisons with a bound, and returns
// the shape of the property, or nil and why not.
func propertyShape(e *node) (*shape, string) {
	sh, why := unwrapShape(e)
	return sh, why
}

// unwrapShape is propertyShape; it also records the operator and the
// comparison in the shape's query.
func unwrapShape(e *node) (*shape, string) {
	var q symbolic.Query
	var filterStates *node
	for e != nil {
		switch {
		case opIs(e, "filter"):
			// vigil checks a property from the model's initial states:
			// a filter over other states (a state formula, or all of
			// them) asks about those, and read from the initial ones it
			// could say safe where one of them is not.
			if q.Filter != "" {
				return nil, "it has a filter inside a filter; vigil reads one filter over the initial states or a state formula"
			}
			if st := e.get("states"); !opIs(st, "initial") {
				// a state formula: the reachable states where it
				// holds, as Storm reads it (vigil prob only)
				if st == nil {
					return nil, "its filter has no \"states\""
				}
				filterStates = st
			}
			if f := e.get("fun"); f != nil && f.kind == kString {
				q.Filter = f.str
				if a := filterAlias[f.str]; a != "" {
					q.Filter = a
				}
			}
			e = e.get("values")
			continue
		case opIsAny(e, "=", "≠", "<", "≤", ">", "≥"):
			l, r := e.get("left"), e.get("right")
			cmp := e.get("op").str
			switch {
			case isQuantity(l) && (r == nil || r.kind == kNumber):
				if r != nil {
					q.Cmp, q.Bound, q.BoundText = cmp, number(r), r.str
				}
				e = l
				continue
			case isQuantity(r) && (l == nil || l.kind == kNumber):
				if l != nil {
					q.Cmp, q.Bound, q.BoundText = flipCmp[cmp], number(l), l.str
				}
				e = r
				continue
			}
		}
		break
	}
	if e != nil {
		if o := e.get("op"); o != nil && o.kind == kString {
			q.Op = o.str
			if opIsAny(e, "F", "G", "U", "W") {
				q.Op = "∃"
			}
		}
	}
	sh, why := bareShape(e)
	if sh != nil {
		sh.filterStates = filterStates
		sh.query = q
		sh.query.Always = sh.safe != nil
		sh.query.Weak = opIs(e.get("exp"), "W") || opIs(e, "W")
	}
	return sh, why
}

// number is the value of a number literal (0 when it does not parse).
func number(n *node) float64 {
	v, _ := strconv.ParseFloat(n.str, 64)
	return v
}

// bareShape reads the operator e once filters and comparisons are gone.
func bareShape(e *node) (*shape, string) {
	if opIsAny(e, "F", "G", "U", "W") { // filter(∃, F φ): a path formula under the filter
		e = &node{kind: kObject, keys: []string{"op", "exp"}, vals: []*node{{kind: kString, str: "∃"}, e}}
	}
	switch {
	case e == nil:
		return nil, "it has no expression"
	case opIs(e, "PA"):
		return &shape{pa: e}, ""
	case opIsAny(e, "Emin", "Emax"):
		switch {
		case e.get("time-instant") != nil || e.get("time-bounded") != nil:
			return nil, "a reward at a time instant: a discrete-time model has no time (vigil prob computes \"step-instant\" with \"accumulate\", the reward of the first k steps)"
		case e.get("reward-instants") != nil:
			return nil, "rewards at reward instants (\"reward-instants\") are not supported; vigil prob computes \"step-instant\" with \"accumulate\", the reward of the first k steps"
		case e.get("step-instant") != nil && e.get("reach") != nil:
			return nil, "a reward at a step instant with \"reach\" as well is not supported"
		case e.get("step-instant") != nil && e.get("accumulate") == nil:
			return nil, "an instantaneous reward (\"step-instant\" without \"accumulate\": the reward in the state at step k) is not supported; vigil prob computes it with \"accumulate\" (the reward of the first k steps, Storm's C<=k)"
		case e.get("step-instant") != nil:
			return &shape{reward: e, bounds: e, instant: true}, ""
		}
		if e.get("reach") == nil {
			return nil, "an expected reward without \"reach\" (rewards are not supported)"
		}
		return &shape{goal: e.get("reach"), reward: e}, ""
	case opIsAny(e, "Pmin", "Pmax", "∀", "∃"):
		path := e.get("exp")
		var bounded *node
		if path != nil {
			n := 0
			for _, k := range boundKeys {
				if path.get(k) != nil {
					n++
					bounded = path
				}
			}
			switch {
			case path.get("time-bounds") != nil:
				return nil, "a time bound: a discrete-time model has no time (vigil prob computes \"step-bounds\" and \"reward-bounds\")"
			case n > 1:
				return nil, "both step and reward bounds (several dimensions) are not supported; vigil prob computes one bound"
			case bounded != nil && !opIsAny(e, "Pmin", "Pmax"):
				return nil, "a bounded qualitative path formula (∀, ∃) is not supported; vigil prob computes bounded Pmin and Pmax"
			case bounded != nil && !opIsAny(path, "F", "U"):
				return nil, "a bounded G or W is not supported; vigil prob computes bounded F and U"
			}
			if rb := path.get("reward-bounds"); rb != nil && (rb.kind != kArray || len(rb.vals) != 1) {
				return nil, "\"reward-bounds\" must be a list of one bound (several dimensions are not supported)"
			}
		}
		if nested(path) {
			return nil, "nested probability or expectation operators are not supported"
		}
		prob := !opIsAny(e, "∀", "∃") && bounded == nil
		switch {
		case opIs(path, "F"):
			return &shape{goal: path.get("exp"), avoid: prob, bounds: bounded}, ""
		case opIs(path, "G"):
			return &shape{safe: path.get("exp")}, ""
		case opIsAny(path, "U", "W"):
			left := path.get("left")
			if left != nil && left.kind == kBool && left.b {
				left = nil
			}
			return &shape{goal: path.get("right"), left: left, avoid: prob && left == nil, bounds: bounded}, ""
		}
		return nil, "its path formula is not F, G, U or W"
	case opIsAny(e, "Smin", "Smax"):
		return nil, "steady-state probabilities are not supported"
	}
	return nil, "it is not a reachability or safety property"
}

// isQuantity says whether n is a P, E or S operator (the left side of
// P>=1 [...]).
func isQuantity(n *node) bool {
	return opIsAny(n, "Pmin", "Pmax", "Emin", "Emax", "Smin", "Smax")
}

// nested says whether a path formula contains a quantitative operator.
func nested(n *node) bool {
	if n == nil {
		return false
	}
	if n.kind == kObject && n != nil && (isQuantity(n) || opIsAny(n, "filter")) {
		return true
	}
	for _, c := range n.vals {
		if nested(c) {
			return true
		}
	}
	return false
}

func opIs(n *node, op string) bool {
	if n == nil {
		return false
	}
	o := n.get("op")
	return o != nil && o.kind == kString && o.str == op
}

func opIsAny(n *node, ops ...string) bool {
	for _, op := range ops {
		if opIs(n, op) {
			return true
		}
	}
	return false
}

// GoalProperties returns the reachability properties the model read from
// its JANI file: goal = target, no unsafe states. m must come from Load or
// Decode.
func GoalProperties(m *symbolic.Model) []*symbolic.Property {
	var out []*symbolic.Property
	for _, p := range m.Properties {
		if p.FromModel && p.Goal != nil && p.Unsafe.Op == symbolic.CFalse {
			out = append(out, p)
		}
	}
	return out
}

// dropProperty notes that the property name (what: "property" or "PA
// property") is not imported, and why, and records it on the model
// (Model.Dropped) for the commands that ask for it by name.
func (ml *modelLoader) dropProperty(p *node, what, name, why string) {
	ml.note(p, "%s %q not imported: %s", what, name, why)
	if ml.m.Dropped == nil {
		ml.m.Dropped = map[string]string{}
	}
	ml.m.Dropped[name] = why
}

// pathBounds reads the bounds of sh (sh.bounds: a path formula with
// "step-bounds" or one "reward-bounds", or an E operator with
// "step-instant") as Storm reads them: constant expressions of the model,
// a step bound an integer of at least 0, an exclusive upper bound one step
// less (an exclusive upper bound 0 is refused, as Storm refuses it), an
// exclusive lower bound one more; left is ψ of ψ U φ (nil: true). It
// returns why not when vigil prob cannot compute them.
func (ml *modelLoader) pathBounds(sh *shape, sc scope, left *symbolic.Cond) (*symbolic.PathBounds, string) {
	sub := ml.quietLowerer()
	b := &symbolic.PathBounds{Left: left}
	value := func(n *node, what string) (*big.Rat, string) {
		v, ok := sub.constant(n, sc, what)
		if err := sub.errs.Err(); !ok || err != nil {
			if err != nil {
				return nil, err.Error()
			}
			return nil, what + " must be a constant expression"
		}
		if !v.numeric() {
			return nil, fmt.Sprintf("%s is a Boolean, not a number", what)
		}
		if v.k.Sign() < 0 {
			return nil, fmt.Sprintf("%s is %s, below 0 (Storm refuses a negative bound)", what, v.k.RatString())
		}
		return v.k, ""
	}
	flag := func(iv *node, k string) (bool, string) {
		f := iv.get(k)
		if f == nil {
			return false, ""
		}
		if f.kind != kBool {
			return false, fmt.Sprintf("%q must be true or false, got %s", k, f.describe())
		}
		return f.b, ""
	}
	interval := func(iv *node, what string) string {
		if iv == nil || iv.kind != kObject {
			return fmt.Sprintf("its %s must be an interval object (\"lower\", \"upper\", \"lower-exclusive\", \"upper-exclusive\")", what)
		}
		var why string
		if n := iv.get("lower"); n != nil {
			if b.Lower, why = value(n, "the lower "+what); why != "" {
				return why
			}
		}
		if n := iv.get("upper"); n != nil {
			if b.Upper, why = value(n, "the upper "+what); why != "" {
				return why
			}
		}
		if b.LowerStrict, why = flag(iv, "lower-exclusive"); why != "" {
			return why
		}
		if b.UpperStrict, why = flag(iv, "upper-exclusive"); why != "" {
			return why
		}
		if b.Lower == nil && b.Upper == nil {
			return fmt.Sprintf("its %s has neither \"lower\" nor \"upper\"", what)
		}
		return ""
	}
	e := sh.bounds
	switch {
	case sh.instant:
		b.Steps, b.Instant = true, true
		var why string
		if b.Upper, why = value(e.get("step-instant"), "the step instant"); why != "" {
			return nil, why
		}
		if !b.Upper.IsInt() {
			return nil, fmt.Sprintf("the step instant is %s, not an integer (Storm reads a whole number of steps)", b.Upper.RatString())
		}
		b.Text = "the reward of the first " + b.Upper.RatString() + " steps"
		return b, ""
	case e.get("step-bounds") != nil:
		b.Steps = true
		if why := interval(e.get("step-bounds"), "step bound"); why != "" {
			return nil, why
		}
		if b.Upper == nil {
			return nil, "its step bound has no upper bound; Storm computes a step-bounded until with an upper step bound (write \"upper\")"
		}
		for _, x := range []*big.Rat{b.Lower, b.Upper} {
			if x != nil && !x.IsInt() {
				return nil, fmt.Sprintf("its step bound %s is not an integer (Storm reads whole numbers of steps)", x.RatString())
			}
		}
		if b.UpperStrict && b.Upper.Sign() == 0 {
			return nil, "its step bound is < 0 (an exclusive upper bound 0), which no step count meets; Storm refuses it"
		}
		lo, hi := b.StepRange()
		if lo.Cmp(hi) > 0 {
			return nil, fmt.Sprintf("its step bound is empty (from %s to %s steps)", lo, hi)
		}
		b.Text = fmt.Sprintf("within [%s, %s] steps", lo, hi)
		return b, ""
	default:
		rb := e.get("reward-bounds").vals[0]
		if rb.kind != kObject {
			return nil, fmt.Sprintf("its reward bound must be an object (\"exp\", \"accumulate\", \"bounds\"), got %s", rb.describe())
		}
		b.Reward = ml.reward(&node{kind: kObject, keys: []string{"exp", "accumulate"}, vals: []*node{rb.get("exp"), rb.get("accumulate")}})
		if b.Reward.Unsupported != "" {
			return nil, "its reward bound: " + b.Reward.Unsupported
		}
		if why := interval(rb.get("bounds"), "reward bound"); why != "" {
			return nil, why
		}
		text := []string{}
		if b.Lower != nil {
			op := "≥"
			if b.LowerStrict {
				op = ">"
			}
			text = append(text, op+" "+b.Lower.RatString())
		}
		if b.Upper != nil {
			op := "≤"
			if b.UpperStrict {
				op = "<"
			}
			text = append(text, op+" "+b.Upper.RatString())
		}
		b.Text = fmt.Sprintf("reward %s %s", b.Reward.Name, strings.Join(text, " and "))
		return b, ""
	}
}
