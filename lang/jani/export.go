package jani

// Export writes a model of the IR as JANI (jani-version 1): one automaton
// with one location, one edge per command (the commands that JANI import
// split one edge into by its positive state-dependent destinations are
// that edge again: mergeSplits; so are the pieces of an edge split by
// the values its PlaJA choices' bounds read: mergeChoiceSplits), one
// destination per outcome
// with its probability (the weights normalised exactly, as spec.md says),
// bounded integer and Boolean variables, the constants (already folded
// into the expressions, kept for the reader), the property's start
// condition as restrict-initial (the model's restrict-initial and initial
// values where the property starts where the model does: startOf), and
// the property as a reachability
// query (none for a property that asks nothing, AsksNothing). A rules or table policy is inlined into the guards: an edge of
// label a may fire only where the policy chooses a. The model is typed
// "mdp": outcomes are probabilistic, and the choice among enabled edges
// is non-deterministic. Commands' costs (`action ... cost EXPR`) become
// a reward: a transient variable "cost" that each destination sets to the
// cost of its edge, and, for a property with a goal, a second property
// NAME_cost, Emin of that reward until the goal.
//
// Arrays (.spec `var on : [LO .. HI] of T`, elements on[LO] ... on[HI] in
// the IR) are JANI arrays (the "arrays" extension) where JANI can say
// what the model means: the index range starts at 0 (JANI indices do)
// and every element has one initial value, because the property's start
// condition fixes it (a conjunct on[k] == c) or, without a start
// condition, the declaration gives it. JANI takes an array's length from
// its initial value, and an array variable without one may start with
// any array, of any length; so an array that may start with several
// values cannot be a JANI array. Its elements, and those of an array
// whose indices start elsewhere, are written as one variable each, named
// on[1], on[2], ... as in the IR, which `vigil import` reads back as the
// same array (see nameVars in model.go).

import (
	"encoding/json"
	"fmt"
	"io"
	"math/big"

	"vigil/symbolic"
)

// Export writes m with property prop (nil: none) and policy pol (nil:
// every label) as a JANI model. Only rules and table policies can be
// written as guards; Export refuses others. It decides the bounds of a
// product's factors by interval evaluation alone (ExportWith can decide
// them exactly).
func Export(w io.Writer, m *symbolic.Model, prop *symbolic.Property, pol *symbolic.PolicyDecl) error {
	return ExportWith(w, m, prop, pol, ExportOptions{})
}

// ExportOptions complete Export.
type ExportOptions struct {
	// Satisfiable, when set, decides exactly whether some in-range state
	// of m satisfies c: a witness when one does, none when none does,
	// else neither, with err saying why (vigil export passes Z3's answer;
	// lang stays free of the solver). Without it, what interval
	// evaluation cannot rule out counts as possible.
	Satisfiable func(m *symbolic.Model, c *symbolic.Cond) (witness symbolic.State, none bool, err error)
}

// ExportWith is Export with options.
func ExportWith(w io.Writer, m *symbolic.Model, prop *symbolic.Property, pol *symbolic.PolicyDecl, opts ExportOptions) error {
	x := &exporter{m: m, sat: opts.Satisfiable}
	restrict, inits := startOf(m, prop)
	x.arrays(restrict, inits)
	if pol != nil {
		var err error
		if x.chosen, err = x.policyGuards(pol); err != nil {
			return err
		}
	}
	x.cost = x.costVar()
	root := obj{
		"jani-version": 1,
		"name":         m.Name,
		"type":         exportType(m),
		"features":     x.features(),
	}
	var consts []any
	for _, c := range m.Consts {
		consts = append(consts, obj{"name": c.Name, "type": "int", "value": c.Value})
	}
	root["constants"] = list(consts)
	var actions []any
	for _, l := range m.Labels {
		actions = append(actions, obj{"name": l.Name})
	}
	root["actions"] = list(actions)
	root["variables"] = list(x.variables(inits))
	if restrict != nil {
		root["restrict-initial"] = obj{"exp": x.cond(restrict)}
	}
	var edges []any
	cmds := mergeChoiceSplits(m, mergeSplits(m))
	for i := range cmds {
		e, err := x.edge(&cmds[i])
		if err != nil {
			return err
		}
		edges = append(edges, e)
	}
	root["automata"] = []any{obj{
		"name":              "main",
		"locations":         []any{obj{"name": "l"}},
		"initial-locations": []string{"l"},
		"edges":             list(edges),
	}}
	root["system"] = obj{"elements": []any{obj{"automaton": "main"}}}
	var props []any
	if prop != nil && !AsksNothing(prop) {
		props = append(props, x.property(prop))
		if x.cost != "" && prop.Goal != nil {
			props = append(props, x.costProperty(prop, x.cost))
		}
	}
	root["properties"] = list(props)
	b, err := json.MarshalIndent(root, "", "  ")
	if err != nil {
		return fmt.Errorf("jani: %v", err)
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// ExportRenames reports whether the export writes p under another name,
// NAME_reach: an expected reward (Emin, Emax), which the export writes as
// the Pmax of reaching its goal (it writes no rewards but the commands'
// costs).
func ExportRenames(p *symbolic.Property) bool {
	return p.Query != nil && (p.Query.Op == "Emin" || p.Query.Op == "Emax")
}

// AsksNothing reports whether p asks no question: no goal, no unsafe
// states and no JANI query, such as the property "initial" that vigil
// import gives a JANI model without properties to carry its start states
// (restrict-initial). Export writes its start condition as
// restrict-initial and no JANI property for it: written as Pmax [F
// false], Storm computed a property that is 0 in every model, and vigil
// import read it back as two properties, initial and initial_avoid, so
// that vigil explore on the export asked for --property where the
// original needed none. Read back, the file without properties gets the
// property initial again, with the same start states.
func AsksNothing(p *symbolic.Property) bool {
	return p.Goal == nil && p.Query == nil && p.Unsafe != nil && p.Unsafe.Op == symbolic.CFalse
}

// startOf is what the export writes for prop's start states: the
// restrict-initial (nil: none) and whether the declarations give their
// initial values. A property that starts where the model does (a JANI
// model's restrict-initial and initial values, m.Start) keeps the two
// apart, as the model has them: a PlaJA start condition (--start)
// replaces the initial values but not restrict-initial, and the export
// that wrote them as one restrict-initial started ri.jani restricted to
// x <= 1 from no state with --start x >= 1 where the model starts from
// x = 1 (s25r_jani_export_restrict_start). Any other start condition is
// the restrict-initial, without initial values.
func startOf(m *symbolic.Model, prop *symbolic.Property) (restrict *symbolic.Cond, inits bool) {
	if prop == nil || prop.Start == nil {
		return nil, true
	}
	if st := modelStart(m); st != nil && (prop.Start == st || m.CondString(prop.Start) == m.CondString(st)) {
		return restrictInitial(m), true
	}
	return prop.Start, false
}

// variables declares the model's variables, its JANI arrays and the
// transient cost variable; inits says the declarations give the
// variables' initial values (else the restrict-initial alone gives the
// initial states).
func (x *exporter) variables(inits bool) []any {
	var vars []any
	for i, v := range x.m.Vars {
		if a := x.elem[i]; a != nil {
			if a.run.First == i {
				vars = append(vars, x.arrayDecl(a))
			}
			continue
		}
		d := obj{"name": v.Name}
		if v.Bool {
			d["type"] = "bool"
		} else {
			d["type"] = obj{"kind": "bounded", "base": "int", "lower-bound": v.Lo, "upper-bound": v.Hi}
		}
		if v.HasInit && inits {
			if v.Bool {
				d["initial-value"] = v.Init != 0
			} else {
				d["initial-value"] = v.Init
			}
		}
		vars = append(vars, d)
	}
	if x.cost != "" {
		vars = append(vars, obj{"name": x.cost, "type": "int", "transient": true, "initial-value": 0})
	}
	return vars
}

// edge writes command c as an edge of the one location, its guard
// restricted to where the policy chooses its label, one destination per
// outcome.
func (x *exporter) edge(c *symbolic.Command) (obj, error) {
	guard := c.Guard
	if x.chosen != nil {
		guard = symbolic.And(guard, x.chosen[c.Label])
	}
	probs, err := probabilities(c)
	if err != nil {
		return nil, err
	}
	if err := x.zeroProbability(c, probs); err != nil {
		return nil, err
	}
	var dests []any
	for oi, o := range c.Outcomes {
		d := obj{"location": "l"}
		switch {
		case o.StateProb():
			p, err := x.stateProb(c, oi)
			if err != nil {
				return nil, err
			}
			d["probability"] = obj{"exp": p}
		case len(c.Outcomes) > 1:
			d["probability"] = obj{"exp": rat(probs[oi])}
		}
		var as []any
		for _, a := range o.Assigns {
			as = append(as, obj{"ref": x.ref(a.Var), "value": x.value(a)})
		}
		if x.cost != "" {
			cost := any(1)
			if c.Cost != nil {
				cost = x.expr(c.Cost)
			}
			as = append(as, obj{"ref": x.cost, "value": cost})
		}
		d["assignments"] = list(as)
		dests = append(dests, d)
	}
	return obj{
		"location":     "l",
		"action":       x.m.Labels[c.Label].Name,
		"guard":        obj{"exp": x.cond(guard)},
		"destinations": dests,
	}, nil
}

type obj = map[string]any

// list makes a nil slice marshal as [].
func list(xs []any) []any {
	if xs == nil {
		return []any{}
	}
	return xs
}

type exporter struct {
	m *symbolic.Model
	// elem: per variable, the JANI array it is an element of (nil: a
	// variable of its own)
	elem []*janiArray
	// chosen: per label, where the policy chooses it (nil: no policy)
	chosen []*symbolic.Cond
	// cost: the name of the transient cost variable ("": none)
	cost string
	// sat decides exactly whether a condition can hold (nil: not asked)
	sat func(m *symbolic.Model, c *symbolic.Cond) (symbolic.State, bool, error)
	// factors: oneFactor's answers, by the product's JSON (Num nil: none)
	factors map[string]symbolic.ProbFactor
}

// janiArray is an array of the model written as a JANI array: its run of
// variables and their initial values.
type janiArray struct {
	run  symbolic.VarRun
	init []int
}

// arrays decides which arrays of the model become JANI arrays: those
// indexed from 0 whose every element has one initial value, fixed by the
// restrict-initial (a conjunct elem == c) or, where the declarations give
// the initial values (inits), by the declaration.
func (x *exporter) arrays(restrict *symbolic.Cond, inits bool) {
	m := x.m
	x.elem = make([]*janiArray, len(m.Vars))
	fixed := map[symbolic.VarID]int{}
	clash := map[symbolic.VarID]bool{} // fixed to two values: no start state
	fix := func(v symbolic.VarID, k int) {
		if old, dup := fixed[v]; dup && old != k {
			clash[v] = true
		}
		fixed[v] = k
	}
	if !inits {
		conjuncts(restrict, func(c *symbolic.Cond) {
			switch {
			case c.Op == symbolic.CVar:
				fix(c.Var, 1)
			case c.Op == symbolic.CNot && c.Args[0].Op == symbolic.CVar:
				fix(c.Args[0].Var, 0)
			case c.Op == symbolic.CCmp && c.Cmp == symbolic.Eq:
				l, r := c.L, c.R
				if l.Op == symbolic.OpConst {
					l, r = r, l
				}
				if l.Op == symbolic.OpVar && r.Op == symbolic.OpConst {
					fix(l.Var, r.K)
				}
			}
		})
	}
	for _, run := range m.VarRuns() {
		if !run.Array || run.Lo != 0 {
			continue
		}
		a := &janiArray{run: run}
		for i := run.First; i < run.First+run.N; i++ {
			v := &m.Vars[i]
			k, ok := fixed[symbolic.VarID(i)]
			if inits {
				k, ok = v.Init, v.HasInit
			}
			if !ok || clash[symbolic.VarID(i)] || k < v.Lo || k > v.Hi {
				a = nil
				break
			}
			a.init = append(a.init, k)
		}
		if a == nil {
			continue
		}
		for i := run.First; i < run.First+run.N; i++ {
			x.elem[i] = a
		}
	}
}

// conjuncts calls f on each conjunct of c (c itself if it is no
// conjunction).
func conjuncts(c *symbolic.Cond, f func(*symbolic.Cond)) {
	if c.Op == symbolic.CAnd {
		for _, a := range c.Args {
			conjuncts(a, f)
		}
		return
	}
	f(c)
}

// features lists the JANI extensions the export uses.
func (x *exporter) features() []string {
	fs := []string{"derived-operators"}
	for _, a := range x.elem {
		if a != nil {
			return append(fs, "arrays")
		}
	}
	return fs
}

// arrayDecl declares a JANI array with its initial value.
func (x *exporter) arrayDecl(a *janiArray) obj {
	v := &x.m.Vars[a.run.First]
	var base any = "bool"
	if !v.Bool {
		base = obj{"kind": "bounded", "base": "int", "lower-bound": v.Lo, "upper-bound": v.Hi}
	}
	els := make([]any, len(a.init))
	for i, k := range a.init {
		if v.Bool {
			els[i] = k != 0
		} else {
			els[i] = k
		}
	}
	return obj{"name": a.run.Name, "type": obj{"kind": "array", "base": base},
		"initial-value": obj{"op": "av", "elements": els}}
}

// ref names variable v in JANI: its name, or the access to its element of
// a JANI array.
func (x *exporter) ref(v symbolic.VarID) any {
	if a := x.elem[v]; a != nil {
		return obj{"op": "aa", "exp": a.run.Name, "index": int(v) - a.run.First}
	}
	return x.m.Vars[v].Name
}

// property writes prop as Storm reads a safety question: without a goal
// Pmax of reaching the unsafe states (imported back as NAME with goal
// unsafe and as NAME_avoid with unsafe unsafe); with one, Pmax of
// reaching goal while avoiding unsafe, ¬unsafe U (goal ∧ ¬unsafe)
// (imported back with the same unsafe and goal states). A property read
// from a JANI model (Query set) keeps its operator, path formula,
// comparison and filter: written as Pmax under its own name, consensus's
// c2 (Pmin = 49/128) answered 5/9 in Storm, and a Pmin of G ψ answered
// Pmax of F ¬ψ.
func (x *exporter) property(p *symbolic.Property) obj {
	q := p.Query
	name := p.Name
	if ExportRenames(p) {
		// an expected reward (Emin, Emax) is written as the Pmax of
		// reaching its goal, which is another question: under its own
		// name Storm would print that probability as the reward's value
		name += "_reach"
	}
	if q != nil && q.Op != "Pmin" && q.Op != "Pmax" {
		q = nil // ∀, ∃ (qualitative): the safety question
	}
	var path obj
	safe := symbolic.Not(p.Unsafe)
	switch {
	case q != nil && q.Always:
		path = obj{"op": "G", "exp": x.cond(safe)}
	case q != nil && q.Weak && p.Goal != nil:
		// Unsafe is ¬ψ ∧ ¬φ: (ψ ∨ φ) W φ is ψ W φ
		path = obj{"op": "W", "left": x.cond(safe), "right": x.cond(p.Goal)}
	case p.Goal == nil:
		path = obj{"op": "F", "exp": x.cond(p.Unsafe)}
	case p.Unsafe.Op == symbolic.CFalse:
		// F goal, as read (true U goal came back the same, but
		// NAME_avoid's F unsafe came back as NAME_avoid with a goal,
		// written true U goal: a second round to the fixed point; and
		// so did a property without a P query, such as consensus's
		// Emin steps_max, read back as Pmax [true U goal])
		path = obj{"op": "F", "exp": x.cond(p.Goal)}
	default:
		path = obj{"op": "U", "left": x.cond(safe), "right": x.cond(andOnce(x.m, p.Goal, safe))}
	}
	if q == nil {
		return obj{"name": name, "expression": obj{
			"op": "filter", "fun": "max", "states": obj{"op": "initial"},
			"values": obj{"op": "Pmax", "exp": path},
		}}
	}
	values := any(obj{"op": q.Op, "exp": path})
	if q.Cmp != "" {
		bound := any(q.Bound)
		if q.BoundText != "" && json.Valid([]byte(q.BoundText)) {
			bound = json.Number(q.BoundText)
		}
		values = obj{"op": q.Cmp, "left": values, "right": bound}
	}
	fun := q.Filter
	if fun == "" {
		fun = unfiltered(q)
	}
	if fun == "" {
		// a comparison = or ≠ of the extreme value has no filter
		// function: written without one, as it was read
		return obj{"name": name, "expression": values}
	}
	states := any(obj{"op": "initial"})
	if q.FilterStates != nil {
		states = x.cond(q.FilterStates)
	}
	return obj{"name": name, "expression": obj{"op": "filter", "fun": fun, "states": states, "values": values}}
}

// unfiltered is the filter function that answers a property q read
// without one as vigil prob reads it: the largest value over the start
// states for Pmax, the smallest for Pmin (prob.Ask), compared with the
// bound. The largest is ≥ (>) the bound where some start state's value
// is (∃) and ≤ (<) it where every one is (∀); the smallest the other way
// round. "" for = and ≠, which no filter function of the comparisons
// answers. Written as
// "∀" whatever the comparison, Pmax≥0.25 [F goal] that vigil prob
// answered true (one start state reaches goal surely) came back false
// from the exported file (another start state never does).
func unfiltered(q *symbolic.Query) string {
	largest := q.Op == "Pmax"
	switch q.Cmp {
	case "":
		if largest {
			return "max"
		}
		return "min"
	case "≥", ">":
		if largest {
			return "∃"
		}
		return "∀"
	case "≤", "<":
		if largest {
			return "∀"
		}
		return "∃"
	}
	return ""
}

// andOnce returns goal ∧ safe, or goal itself when safe is already one of
// its conjuncts (the same text): a goal that vigil import read back from
// this export's own ¬unsafe U (goal ∧ ¬unsafe) has the conjunct ¬unsafe,
// and adding it again on every export ∘ import round made the property
// twice as long each round.
func andOnce(m *symbolic.Model, goal, safe *symbolic.Cond) *symbolic.Cond {
	if hasConjunct(m, goal, safe) {
		return goal
	}
	return symbolic.And(goal, safe)
}

// hasConjunct reports whether c is a conjunct of and (the same .spec text).
func hasConjunct(m *symbolic.Model, and, c *symbolic.Cond) bool {
	want, found := m.CondString(c), false
	conjuncts(and, func(a *symbolic.Cond) {
		found = found || m.CondString(a) == want
	})
	return found
}

// costVar names the transient reward variable that holds the cost of the
// edge taken, "" when every command costs 1 (no reward is written).
func (x *exporter) costVar() string {
	any := false
	for i := range x.m.Commands {
		any = any || x.m.Commands[i].Cost != nil
	}
	if !any {
		return ""
	}
	name := "cost"
	taken := func(name string) bool {
		for _, r := range x.m.VarRuns() {
			if r.Name == name {
				return true
			}
		}
		// JANI's constants and variables share one namespace: a
		// constant named cost made the variable an assignment to it,
		// which vigil import refused
		for _, c := range x.m.Consts {
			if c.Name == name {
				return true
			}
		}
		return x.m.LabelIndex(name) != symbolic.NoLabel
	}
	for taken(name) {
		name += "_"
	}
	return name
}

// costProperty writes NAME_cost: the minimal expected cost of reaching the
// property's goal (Emin of the reward costVar, accumulated over steps).
func (x *exporter) costProperty(p *symbolic.Property, cost string) obj {
	return obj{"name": p.Name + "_cost", "expression": obj{
		"op": "filter", "fun": "min", "states": obj{"op": "initial"},
		"values": obj{"op": "Emin", "exp": cost, "accumulate": []string{"steps"},
			"reach": x.cond(symbolic.And(p.Goal, symbolic.Not(p.Unsafe)))},
	}}
}

// policyGuards returns, per label, the condition under which pol chooses
// it: rules, the first rule whose condition holds and whose label is
// applicable; a table, the label of the state's last row, if applicable.
func (x *exporter) policyGuards(pol *symbolic.PolicyDecl) ([]*symbolic.Cond, error) {
	m := x.m
	app := make([]*symbolic.Cond, len(m.Labels))
	for i := range app {
		app[i] = symbolic.False()
	}
	for i := range m.Commands {
		c := &m.Commands[i]
		app[c.Label] = symbolic.Or(app[c.Label], c.Guard)
	}
	chosen := make([]*symbolic.Cond, len(m.Labels))
	for i := range chosen {
		chosen[i] = symbolic.False()
	}
	switch pol.Kind {
	case symbolic.KindRules:
		earlier := symbolic.True() // no earlier rule fired
		for _, r := range pol.Rules {
			fires := symbolic.And(r.Cond, app[r.Label])
			chosen[r.Label] = symbolic.Or(chosen[r.Label], symbolic.And(earlier, fires))
			earlier = symbolic.And(earlier, symbolic.Not(fires))
		}
	case symbolic.KindTable:
		if pol.Table == nil {
			return nil, fmt.Errorf("jani: table policy %s has no table loaded", pol.Name)
		}
		last := map[string]int{} // state -> its last row
		var order []string
		for i, s := range pol.Table.Rows {
			k := fmt.Sprint(s)
			if _, ok := last[k]; !ok {
				order = append(order, k)
			}
			last[k] = i
		}
		for _, k := range order {
			i := last[k]
			s, l := pol.Table.Rows[i], pol.Table.Labels[i]
			var eqs []*symbolic.Cond
			for v, val := range s {
				eqs = append(eqs, symbolic.Compare(symbolic.V(symbolic.VarID(v)), symbolic.Eq, symbolic.Lit(val)))
			}
			chosen[l] = symbolic.Or(chosen[l], symbolic.And(eqs...))
		}
		for l := range chosen {
			chosen[l] = symbolic.And(chosen[l], app[l])
		}
	default:
		return nil, fmt.Errorf("jani: policy %s is a %s policy, which JANI guards cannot express (only rules and table policies are inlined); export the environment alone (no policy) and give the policy file to the tool that reads it", pol.Name, pol.Kind)
	}
	return chosen, nil
}

// stateProb writes the state-dependent probability of outcome oi of c:
// its one factor as num/den, or the product of its factors (an outcome of
// synchronised JANI edges). The product is one probability of one
// destination in the export, which the JANI reader (vigil's, Storm's)
// checks against [0, 1] as a whole, where vigil checks each factor: a
// product of two factors -1/2 is 1/4, and 3/2 * 1/2 is 3/4. So the
// product is written only where no factor can leave [0, 1] or divide by
// zero in an in-range state where c's guard holds (so both checks pass
// everywhere): shown by interval evaluation, else decided exactly by
// ExportOptions.Satisfiable (Z3 in vigil export); elsewhere the export
// refuses the outcome, with the witness state when there is one.
func (x *exporter) stateProb(c *symbolic.Command, oi int) (any, error) {
	o := &c.Outcomes[oi]
	fr := func(f symbolic.ProbFactor) any {
		if f.Den.Op == symbolic.OpConst && f.Den.K == 1 {
			return x.expr(f.Num)
		}
		return obj{"op": "/", "left": x.expr(f.Num), "right": x.expr(f.Den)}
	}
	if len(o.ProbFactors) == 1 {
		f := o.ProbFactors[0]
		if f.ZeroSum {
			// an edge whose destinations all have probability 0 here
			// (a probability error where enabled): written as one
			// destination of probability 0, which a JANI reader takes
			// the same way
			return 0, nil
		}
		return obj{"op": "/", "left": x.expr(f.Num), "right": x.expr(f.Den)}, nil
	}
	lo, hi := make([]int, len(x.m.Vars)), make([]int, len(x.m.Vars))
	for v := range x.m.Vars {
		lo[v], hi[v] = x.m.Vars[v].Lo, x.m.Vars[v].Hi
	}
	for fi, f := range o.ProbFactors {
		bad := symbolic.And(c.Guard, f.Bad())
		if symbolic.CondBox(bad, lo, hi) == symbolic.BoxFalse {
			continue // interval evaluation proves the factor a probability
		}
		// decided exactly: is there an in-range state where the
		// command is enabled and the factor is no probability?
		var st symbolic.State
		none, err := false, error(nil)
		if x.sat != nil {
			st, none, err = x.sat(x.m, bad)
			if st == nil && none {
				continue
			}
		}
		pos := f.Pos
		if !pos.IsValid() {
			pos = o.Pos
		}
		why := "may lie outside [0, 1] or divide by zero ("
		switch {
		case st != nil:
			val := symbolic.ProbString(f.At(st))
			why = fmt.Sprintf("is %s, outside [0, 1], in state %s, where the command is enabled", val, x.m.FormatState(st))
		case x.sat == nil:
			why += "interval evaluation cannot rule it out)"
		case err != nil:
			why += "Z3 could not decide it: " + err.Error() + ")"
		default:
			why += "Z3 could not decide it)"
		}
		return nil, fmt.Errorf("jani: %s: outcome %d of action %s has a probability that is a product of %d factors (of synchronised JANI edges), and factor %d (%s), (%s)/(%s), %s; vigil checks each factor, but the exported JANI has one destination whose probability, the product, would be checked as a whole (a product of two negative factors is positive), so the export would lose that probability error; give the variables ranges in which each factor stays within [0, 1], or use the original JANI model",
			o.Pos, oi+1, x.m.Labels[c.Label].Name, len(o.ProbFactors), fi+1, pos, x.m.ExprString(f.Num), x.m.ExprString(f.Den), why)
	}
	out := fr(o.ProbFactors[0])
	for _, f := range o.ProbFactors[1:] {
		out = obj{"op": "*", "left": out, "right": fr(f)}
	}
	if f, ok := x.oneFactor(out); ok {
		return obj{"op": "/", "left": x.expr(f.Num), "right": x.expr(f.Den)}, nil
	}
	return out, nil
}

// oneFactor is the product p of an outcome's factors as vigil import
// reads it back: one factor num/den (the factors each lie in [0, 1]
// where the outcome's command is enabled, so the product is that
// probability). It is written in that form, so that exporting the
// import of this export writes the same text: written as the product,
// the import split its edge by "the product is not 0", not by "every
// factor is not 0", and wrote the one factor, a second round to the
// fixed point. It is found by reading p as vigil import does, in a model
// of the same variables and one edge; false where that does not give one
// factor over the same variables (p is then written as it is).
func (x *exporter) oneFactor(p any) (symbolic.ProbFactor, bool) {
	key, err := json.Marshal(p)
	if err != nil {
		return symbolic.ProbFactor{}, false
	}
	if f, ok := x.factors[string(key)]; ok {
		return f, f.Num != nil
	}
	if x.factors == nil {
		x.factors = map[string]symbolic.ProbFactor{}
	}
	var f symbolic.ProbFactor
	defer func() { x.factors[string(key)] = f }()
	doc := obj{
		"jani-version": 1, "name": "factor", "type": "mdp",
		"features":  x.features(),
		"actions":   []any{obj{"name": "a"}},
		"variables": list(x.variables(false)),
		"automata": []any{obj{
			"name": "main", "locations": []any{obj{"name": "l"}}, "initial-locations": []string{"l"},
			"edges": []any{obj{"location": "l", "action": "a", "destinations": []any{
				obj{"location": "l", "probability": obj{"exp": p}, "assignments": []any{}},
			}}},
		}},
		"system":     obj{"elements": []any{obj{"automaton": "main"}}},
		"properties": []any{},
	}
	b, err := json.Marshal(doc)
	if err != nil {
		return f, false
	}
	m, _, err := Decode("factor.jani", b, nil)
	if err != nil || len(m.Vars) != len(x.m.Vars) {
		return f, false
	}
	for i := range m.Vars {
		if m.Vars[i].Name != x.m.Vars[i].Name {
			return f, false
		}
	}
	for _, c := range m.Commands {
		if len(c.Outcomes) != 1 || len(c.Outcomes[0].ProbFactors) != 1 {
			return f, false
		}
		if g := c.Outcomes[0].ProbFactors[0]; !g.ZeroSum {
			if f.Num != nil {
				return symbolic.ProbFactor{}, false
			}
			f = g
		}
	}
	return f, f.Num != nil
}

// zeroProbability refuses an outcome of c whose constant probability is
// 0 (weight 0, or no weight where the given ones sum to 1). JANI has no
// such destination: Storm, mcsta and vigil's JANI reader drop it, as vigil
// prob does, but vigil verify, explore and the safety deciders take every
// outcome of a .spec command as possible (lang/spec.md: weights never
// matter there). Written out, the outcome would vanish on the way: a
// model unsafe only through it would come back safe from vigil import,
// and vigil explore on the .jani would count fewer states than on the
// .spec.
func (x *exporter) zeroProbability(c *symbolic.Command, probs []*big.Rat) error {
	if len(c.Outcomes) < 2 {
		return nil
	}
	for oi, o := range c.Outcomes {
		if o.StateProb() || probs[oi].Sign() != 0 {
			continue
		}
		pos := o.Pos
		if !pos.IsValid() {
			pos = c.Pos
		}
		why := "its weight is 0"
		if !o.Weight.IsSet() {
			why = "it has no weight and the given weights sum to 1, which leaves it nothing"
		}
		return fmt.Errorf("jani: %s: outcome %d of action %s has probability 0 (%s); a JANI destination of probability 0 is no transition (Storm, mcsta and vigil's JANI reader drop it), but vigil verify takes every outcome as possible, so the exported model would not have it; give the outcome a positive weight, or delete it",
			pos, oi+1, x.m.Labels[c.Label].Name, why)
	}
	return nil
}

// probabilities returns the outcomes' probabilities as spec.md defines
// them from the weights, exactly: equal shares without weights,
// proportional with all, and with some the given ones as probabilities
// and the rest shared equally.
func probabilities(c *symbolic.Command) ([]*big.Rat, error) {
	n := len(c.Outcomes)
	sum, missing := new(big.Rat), 0
	for _, o := range c.Outcomes {
		if o.Weight.IsSet() {
			sum.Add(sum, big.NewRat(int64(o.Weight.Num), int64(o.Weight.Den)))
		} else {
			missing++
		}
	}
	ps := make([]*big.Rat, n)
	for i, o := range c.Outcomes {
		switch {
		case missing == n:
			ps[i] = big.NewRat(1, int64(n))
		case missing == 0:
			if sum.Sign() == 0 {
				return nil, fmt.Errorf("jani: command at %s: its weights sum to 0", c.Pos)
			}
			ps[i] = new(big.Rat).Quo(big.NewRat(int64(o.Weight.Num), int64(o.Weight.Den)), sum)
		case o.Weight.IsSet():
			ps[i] = big.NewRat(int64(o.Weight.Num), int64(o.Weight.Den))
		default:
			rest := new(big.Rat).Sub(big.NewRat(1, 1), sum)
			if rest.Sign() < 0 {
				rest.SetInt64(0)
			}
			ps[i] = rest.Quo(rest, big.NewRat(int64(missing), 1))
		}
	}
	return ps, nil
}

// rat writes a rational as a JANI expression: an integer, or num/den.
func rat(r *big.Rat) any {
	if r.IsInt() {
		return r.Num()
	}
	return obj{"op": "/", "left": r.Num(), "right": r.Denom()}
}

var janiCmp = map[symbolic.CmpOp]string{symbolic.Eq: "=", symbolic.Ne: "≠", symbolic.Lt: "<", symbolic.Le: "≤", symbolic.Gt: ">", symbolic.Ge: "≥"}

// value writes an assignment's right-hand side: a Boolean for a Boolean
// variable, else an integer expression.
func (x *exporter) value(a symbolic.Assign) any {
	if !x.m.Vars[a.Var].Bool {
		return x.expr(a.Value)
	}
	switch a.Value.Op {
	case symbolic.OpBool:
		return x.cond(a.Value.Cond)
	case symbolic.OpConst:
		return a.Value.K != 0
	}
	return obj{"op": "=", "left": x.expr(a.Value), "right": 1}
}

// expr writes an integer expression; a Boolean variable reads as 0 or 1.
func (x *exporter) expr(e *symbolic.Expr) any {
	bin := func(op string) any { return chain(op, e.Args, x.expr) }
	switch e.Op {
	case symbolic.OpConst:
		return e.K
	case symbolic.OpVar:
		v := &x.m.Vars[e.Var]
		if v.Bool {
			return obj{"op": "ite", "if": x.ref(e.Var), "then": 1, "else": 0}
		}
		return x.ref(e.Var)
	case symbolic.OpAdd:
		return bin("+")
	case symbolic.OpSub:
		return bin("-")
	case symbolic.OpProd:
		return bin("*")
	case symbolic.OpMin:
		return bin("min")
	case symbolic.OpMax:
		return bin("max")
	case symbolic.OpNeg:
		return obj{"op": "-", "left": 0, "right": x.expr(e.Args[0])}
	case symbolic.OpMul:
		return obj{"op": "*", "left": e.K, "right": x.expr(e.Args[0])}
	case symbolic.OpDiv:
		return obj{"op": "floor", "exp": obj{"op": "/", "left": x.expr(e.Args[0]), "right": e.K}}
	case symbolic.OpAbs:
		return obj{"op": "abs", "exp": x.expr(e.Args[0])}
	case symbolic.OpIte:
		return obj{"op": "ite", "if": x.cond(e.Cond), "then": x.expr(e.Args[0]), "else": x.expr(e.Args[1])}
	case symbolic.OpBool:
		return obj{"op": "ite", "if": x.cond(e.Cond), "then": 1, "else": 0}
	}
	panic(fmt.Sprintf("jani: export: unknown expression op %v", e.Op))
}

// chain writes args (at least one) joined by the binary operator op,
// associated to the left.
func chain[T any](op string, args []T, write func(T) any) any {
	out := write(args[0])
	for _, a := range args[1:] {
		out = obj{"op": op, "left": out, "right": write(a)}
	}
	return out
}

// cond writes a condition.
func (x *exporter) cond(c *symbolic.Cond) any {
	bin := func(op string) any { return chain(op, c.Args, x.cond) }
	switch c.Op {
	case symbolic.CTrue:
		return true
	case symbolic.CFalse:
		return false
	case symbolic.CVar:
		v := &x.m.Vars[c.Var]
		if v.Bool {
			return x.ref(c.Var)
		}
		return obj{"op": "≠", "left": x.ref(c.Var), "right": 0}
	case symbolic.CCmp:
		return obj{"op": janiCmp[c.Cmp], "left": x.expr(c.L), "right": x.expr(c.R)}
	case symbolic.CNot:
		return obj{"op": "¬", "exp": x.cond(c.Args[0])}
	case symbolic.CAnd:
		return bin("∧")
	case symbolic.COr:
		return bin("∨")
	case symbolic.CImplies:
		return obj{"op": "⇒", "left": x.cond(c.Args[0]), "right": x.cond(c.Args[1])}
	}
	panic(fmt.Sprintf("jani: export: unknown condition op %v", c.Op))
}
