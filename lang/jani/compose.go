package jani

// Parallel composition. Every transition of the composed system becomes one
// IR command:
//
//   - a silent edge (no "action") of any automaton moves alone; its label is
//     SilentLabel;
//   - a synchronisation vector {"synchronise": [a1, null, a3], "result": r}
//     combines one edge with action a_i from every participating automaton i;
//     one command per combination of edges, labelled r (silent when r is
//     absent), guarded by the conjunction of the edges' locations and guards,
//     with one outcome per combination of destinations (probabilities
//     multiply);
//   - a model with a single automaton and no "syncs" takes every edge on its
//     own with the edge's action as label. Otherwise an action that appears in
//     no synchronisation vector at an automaton's position is never taken
//     (noted), as in Storm and mcsta.
//
// Assignments of one destination are executed by "index" (level), lower
// levels first; assignments of one level read the values left by the
// previous level (all levels of all synchronising edges together). The IR
// reads the old state in every right-hand side, so later levels are lowered
// by substituting the values of earlier ones.

import (
	"math/big"
	"slices"
	"sort"

	"vigil/symbolic"
)

// maxOutcomes bounds the outcomes of one composed command.
const maxOutcomes = 1 << 16

// maxComposed bounds the commands the synchronisation vectors of a model
// combine in all, and maxTotalOutcomes the outcomes of all its commands:
// a few automata of a few edges on one action make a product of edges
// that would take the importer's memory (8 automata of 10 edges: 10^8
// commands from 11 KB of JSON).
const (
	maxComposed      = 250_000
	maxTotalOutcomes = 1 << 20
)

func (ml *modelLoader) compose(root *node) {
	sys := root.get("system")
	syncs, ok := ml.arr(sys, "syncs", false)
	if !ok {
		return
	}
	rc := map[*dest][]symbolic.OutcomeReward{} // the destinations' rewards, read once
	if len(syncs) == 0 && len(ml.autos) == 1 {
		for i, e := range ml.autos[0].edges {
			if i%16 == 0 && ml.interrupted() {
				return
			}
			l := ml.label(e.action)
			if e.action == "" {
				l = ml.silentLabel()
			}
			ml.command(l, []*edge{e}, e.node, rc)
		}
		return
	}
	for _, a := range ml.autos {
		for _, e := range a.edges {
			if e.action == "" {
				ml.command(ml.silentLabel(), []*edge{e}, e.node, rc)
			}
		}
	}
	covered := make([]map[string]bool, len(ml.autos))
	for i := range covered {
		covered[i] = map[string]bool{}
	}
	for k, sn := range syncs {
		if k%16 == 0 && ml.interrupted() {
			return
		}
		if !ml.obj(sn, "a synchronisation vector") {
			continue
		}
		ml.members(sn, "a synchronisation vector", "synchronise", "result")
		vec, ok := ml.arr(sn, "synchronise", true)
		if !ok {
			continue
		}
		if len(vec) != len(ml.autos) {
			ml.errorf(sn.get("synchronise"), "synchronisation vector has %d entries for %d system elements", len(vec), len(ml.autos))
			continue
		}
		var lists [][]*edge
		var autos []*automaton
		good := true
		for i, x := range vec {
			switch {
			case x.kind == kNull:
				continue
			case x.kind != kString:
				ml.errorf(x, "expected an action name or null, got %s", x.describe())
				good = false
				continue
			case ml.label(x.str) == symbolic.NoLabel:
				ml.errorf(x, "undeclared action %q", x.str)
				good = false
				continue
			}
			covered[i][x.str] = true
			lists = append(lists, byAction(ml.autos[i])[x.str])
			autos = append(autos, ml.autos[i])
		}
		if !good {
			continue
		}
		if len(lists) == 0 {
			ml.errorf(sn, "synchronisation vector names no action")
			continue
		}
		label := symbolic.NoLabel
		if r := sn.get("result"); r != nil && r.kind != kNull {
			if r.kind != kString || ml.label(r.str) == symbolic.NoLabel {
				ml.errorf(r, "result must be a declared action, got %s", r.describe())
				continue
			}
			label = ml.label(r.str)
		} else {
			label = ml.silentLabel()
		}
		// One command per combination of edges; a large product is
		// composed by location where the edges allow (compose_merge.go).
		n := combinations(lists)
		if n > mergeAbove && len(lists) >= 2 {
			lists = ml.mergeLists(autos, lists, rc)
			n = combinations(lists)
		}
		if ml.composed += n; ml.composed > maxComposed {
			ml.unsupported(sn, "the synchronisation vectors combine more than %d commands in all (products of the edges of each action, where an automaton's edges at different locations could not be merged into one); vigil composes no more: use fewer automata or fewer edges on the action", maxComposed)
			return
		}
		if ml.outcomes+outcomeBound(lists) > maxTotalOutcomes {
			// refused before any is built: building a million outcomes
			// took herman.13 a minute and 4 GB
			ml.unsupported(sn, "the composed transitions would have more than %d outcomes in all (a vector has the product over its automata of their edges' destinations on the action); vigil builds every combination of synchronising edges as a command and composes no more: use fewer automata or fewer edges and destinations on the action", maxTotalOutcomes)
			return
		}
		idx := make([]int, len(lists))
		combo := make([]*edge, len(lists))
		for {
			empty := false
			for i, es := range lists {
				if len(es) == 0 {
					empty = true
					break
				}
				combo[i] = es[idx[i]]
			}
			if empty {
				break
			}
			ml.command(label, append([]*edge(nil), combo...), sn, rc)
			if len(ml.errs) >= maxErrors {
				return
			}
			if !odometer(idx, func(i int) int { return len(lists[i]) }) {
				break
			}
		}
	}
	for i, a := range ml.autos {
		for _, e := range a.edges {
			if e.action != "" && !covered[i][e.action] {
				ml.note(e.node, "action %q of automaton %q appears in no synchronisation vector at its position: its edges are never taken", e.action, a.name)
			}
		}
	}
}

// command lowers one combination of synchronising edges into an IR command.
// at is the JSON node errors about the combination point to; rc caches
// the destinations' rewards (destRewards).
func (ml *modelLoader) command(label symbolic.LabelID, edges []*edge, at *node, rc map[*dest][]symbolic.OutcomeReward) {
	if ml.writeConflict(edges, at) {
		return
	}
	guard, ok := ml.syncGuard(edges, at)
	if !ok {
		return
	}
	cmd := symbolic.Command{Label: label, Guard: guard, Pos: ml.pos(takenEdge(edges, at))}
	if ml.costVar != nil && len(edges) == 1 && len(edges[0].dests) > 0 {
		if c := edges[0].dests[0].cost; c.Op != symbolic.OpConst || c.K != 1 {
			cmd.Cost = c
		}
	}
	if cmd.Guard.Op == symbolic.CFalse {
		return // never enabled
	}
	s := &syncOutcomes{ml: ml, edges: edges, at: at, exact: true, rc: rc}
	idx := make([]int, len(edges)) // a destination of each edge
	for {
		if !s.add(idx) {
			return
		}
		if !odometer(idx, func(i int) int { return len(edges[i].dests) }) {
			break
		}
	}
	if len(s.outcomes) == 0 {
		// every destination has the constant probability 0: a
		// probability error wherever the transition is enabled
		ml.addZeroSum(cmd, cmd.Guard)
		return
	}
	for _, w := range s.weights {
		// The IR keeps a constant probability as a 64-bit rational
		// (Outcome.Weight); one beyond it would be left unset, and vigil
		// prob and vigil env would read the outcome as unweighted.
		if w != nil && s.written && !(w.Num().IsInt64() && w.Denom().IsInt64()) {
			ml.unsupported(at, "the probability %s of a destination (over the synchronising edges, their product) has a numerator or denominator beyond 64 bits, where vigil keeps probabilities as 64-bit rationals: write it with fewer digits", w.RatString())
			return
		}
	}
	if sum := s.probabilities(); sum != nil && sum.Cmp(big.NewRat(1, 1)) != 0 {
		// JANI requires a distribution. Storm uses such probabilities as
		// they are (and refuses them with --explchecks); vigil normalises
		// them as weights, so its probabilities differ from Storm's.
		ml.note(at, "the probabilities of this transition sum to %s, not 1: vigil prob reads them as weights (divided by their sum), where Storm takes them as they are", sum.RatString())
	}
	cmd.Outcomes = s.outcomes
	ml.splitLive(cmd, s.live, at)
}

// takenEdge is the node a command of the synchronising edges is reported
// at: the first of them that is one edge of the file. An edge composed by
// location (compose_merge.go, loc -1) stands for an edge at each of its
// locations and has the node of the first; a range error at another
// location named that edge, which the state did not take (the edge at l0
// for a state at l11). When every edge is composed by location, at (the
// synchronisation vector).
func takenEdge(edges []*edge, at *node) *node {
	for _, e := range edges {
		if e.loc >= 0 {
			return e.node
		}
	}
	return at
}

// combinations is the number of combinations of one edge of each list
// (capped just above maxComposed).
func combinations(lists [][]*edge) int {
	n := 1
	for _, es := range lists {
		if n *= len(es); n > maxComposed {
			return maxComposed + 1
		}
	}
	return n
}

// outcomeBound is the number of outcomes the combinations of lists have
// before those of probability 0 are dropped, the count syncGuard keeps:
// the product over the lists of their edges' destinations (capped just
// above maxTotalOutcomes).
func outcomeBound(lists [][]*edge) int {
	n := 1
	for _, es := range lists {
		d := 0
		for _, e := range es {
			d += len(e.dests)
		}
		if n *= d; n > maxTotalOutcomes {
			return maxTotalOutcomes + 1
		}
	}
	return n
}

// odometer advances idx to the next combination of indices, idx[i] in
// 0 .. size(i)-1, the last index fastest; it reports false, with idx all
// zero, after the last combination.
func odometer(idx []int, size func(i int) int) bool {
	for i := len(idx) - 1; i >= 0; i-- {
		idx[i]++
		if idx[i] < size(i) {
			return true
		}
		idx[i] = 0
	}
	return false
}

// writeConflict reports (and says) whether two of the synchronising edges
// may assign one variable.
func (ml *modelLoader) writeConflict(edges []*edge, at *node) bool {
	for i := range edges {
		for j := i + 1; j < len(edges); j++ {
			for v := range edges[i].writes {
				if edges[j].writes[v] {
					ml.errorf(at, "variable %q is assigned by synchronising edges of both %q and %q", ml.m.Vars[v].Name, edges[i].auto.name, edges[j].auto.name)
					return true
				}
			}
		}
	}
	return false
}

// syncGuard is the conjunction of the edges' guards and locations; it
// fails when the combination has more than maxOutcomes outcomes.
func (ml *modelLoader) syncGuard(edges []*edge, at *node) (*symbolic.Cond, bool) {
	var guards []*symbolic.Cond
	total := 1
	for _, e := range edges {
		if e.auto.locVar >= 0 && e.loc >= 0 { // a merged edge's guard reads the location (compose_merge.go)
			guards = append(guards, symbolic.Compare(symbolic.V(e.auto.locVar), symbolic.Eq, symbolic.Lit(e.loc)))
		}
		guards = append(guards, e.guard)
		total *= len(e.dests)
		if total > maxOutcomes {
			ml.unsupported(at, "more than %d outcomes in one synchronised transition", maxOutcomes)
			return nil, false
		}
	}
	if ml.outcomes += total; ml.outcomes > maxTotalOutcomes {
		ml.unsupported(at, "the composed transitions have more than %d outcomes in all; vigil composes no more", maxTotalOutcomes)
		return nil, false
	}
	return symbolic.And(guards...), true
}

// syncOutcomes collects the outcomes of a synchronised command, one per
// combination of the edges' destinations with a positive probability.
type syncOutcomes struct {
	ml       *modelLoader
	edges    []*edge
	at       *node
	outcomes []symbolic.Outcome
	weights  []*big.Rat       // per outcome: its constant weight, nil if not constant
	mults    []int64          // per outcome: the product of its destinations' mult (expandChoices)
	live     []*symbolic.Cond // per outcome: nil, or where its probability is positive
	written  bool             // some destination states its probability
	exact    bool             // every weight is constant
	rc       map[*dest][]symbolic.OutcomeReward
}

// add adds the outcome of taking destination idx[i] of each edge i,
// unless its probability is 0; it reports false after an error.
func (s *syncOutcomes) add(idx []int) bool {
	ml := s.ml
	prob := big.NewRat(1, 1)
	mult := int64(1)
	var asgs []asg
	var factors []*dest // state-dependent probabilities
	var locs []symbolic.Assign
	autos := make([]*automaton, len(s.edges))
	dests := make([]*dest, len(s.edges))
	for i, e := range s.edges {
		d := e.dests[idx[i]]
		autos[i], dests[i] = e.auto, d
		if d.hasProb {
			s.written = true
		}
		if d.mult > 1 {
			mult *= d.mult // at most maxChoices each, and few edges synchronise
		}
		if d.prob.isConst() {
			prob.Mul(prob, d.prob.k)
		} else {
			factors = append(factors, d)
			if d.share != nil {
				prob.Mul(prob, d.share) // its share of a choice (expandChoices)
			}
		}
		asgs = append(asgs, d.assigns...)
		if e.auto.locVar >= 0 && d.loc != e.loc {
			locs = append(locs, symbolic.Assign{Var: e.auto.locVar, Value: symbolic.Lit(d.loc), Pos: ml.pos(d.node.get("location"))})
		}
	}
	if prob.Sign() == 0 {
		return true
	}
	assigns, ok := ml.resolve(asgs)
	if !ok {
		return false
	}
	assigns = append(assigns, locs...)
	sort.Slice(assigns, func(i, j int) bool { return assigns[i].Var < assigns[j].Var })
	o := symbolic.Outcome{Assigns: assigns, Pos: ml.pos(s.at)}
	for i, e := range s.edges {
		if e.loc >= 0 { // see takenEdge
			o.Pos = ml.pos(e.dests[idx[i]].node)
			break
		}
	}
	ml.syncRewards(&o, autos, dests, s.rc)
	if len(factors) > 0 {
		// The probability is the product of the state-dependent factors
		// and the constant one: each factor a probability of its own
		// (Outcome.ProbFactors), which the engines check against [0, 1].
		for _, d := range factors {
			o.ProbFactors = append(o.ProbFactors, symbolic.ProbFactor{Num: d.pnum, Den: d.pden, Pos: ml.pos(d.node)})
		}
		if prob.Cmp(big.NewRat(1, 1)) != 0 {
			if !prob.Num().IsInt64() || !prob.Denom().IsInt64() {
				ml.unsupported(s.at, "the product %s of the constant probabilities of synchronising destinations has a numerator or denominator beyond 64 bits, where vigil keeps probabilities as 64-bit rationals: write them with fewer digits", prob.RatString())
				return false
			}
			o.ProbFactors = append(o.ProbFactors, symbolic.ProbFactor{Num: symbolic.Lit(int(prob.Num().Int64())), Den: symbolic.Lit(int(prob.Denom().Int64())), Pos: o.Pos})
		}
		s.live = append(s.live, liveProb(&o))
		s.weights, s.exact = append(s.weights, nil), false
	} else {
		s.live = append(s.live, nil)
		s.weights = append(s.weights, prob)
	}
	s.outcomes = append(s.outcomes, o)
	s.mults = append(s.mults, mult)
	return true
}

// probabilities sets the outcomes' weights and probabilities: the stated
// ones normalised when all are constant, else uniform. It returns the sum
// of the stated constant probabilities (nil when some is not constant or
// none is stated: PlaJA's non-deterministic assignments give outcomes
// without one).
func (s *syncOutcomes) probabilities() *big.Rat {
	n := len(s.outcomes)
	sum := new(big.Rat)
	if s.exact && s.written {
		for _, w := range s.weights {
			sum.Add(sum, w)
		}
	}
	if !s.written && slices.ContainsFunc(s.mults, func(k int64) bool { return k > 1 }) {
		// no probability stated: each combination of the destinations
		// (and of the values of their PlaJA choices) is equally likely,
		// and an outcome that stands for k of them weighs k
		var total int64
		for _, k := range s.mults {
			total += k
		}
		for i := range s.outcomes {
			s.outcomes[i].Weight = symbolic.Rat{Num: s.mults[i], Den: 1}
			s.outcomes[i].Prob = float64(s.mults[i]) / float64(total)
		}
		return nil
	}
	for i := range s.outcomes {
		o := &s.outcomes[i]
		w := s.weights[i]
		if s.written && w != nil {
			if num, den := w.Num(), w.Denom(); num.IsInt64() && den.IsInt64() {
				o.Weight = symbolic.Rat{Num: num.Int64(), Den: den.Int64()}
			}
		}
		if !s.exact || !s.written {
			o.Prob = 1 / float64(n)
			continue
		}
		o.Prob, _ = new(big.Rat).Quo(w, sum).Float64()
	}
	if s.written && s.exact {
		return sum
	}
	return nil
}

// resolve turns leveled assignments into simultaneous ones: level by level,
// each right-hand side has the values of earlier levels substituted.
func (ml *modelLoader) resolve(asgs []asg) ([]symbolic.Assign, bool) {
	sort.SliceStable(asgs, func(i, j int) bool { return asgs[i].level < asgs[j].level })
	cur := map[symbolic.VarID]*symbolic.Expr{}
	pos := map[symbolic.VarID]*node{}
	for i := 0; i < len(asgs); {
		j := i
		next := map[symbolic.VarID]*symbolic.Expr{}
		for ; j < len(asgs) && asgs[j].level == asgs[i].level; j++ {
			a := asgs[j]
			if _, dup := next[a.v.id]; dup {
				if base, _, ok := symbolic.ArrayElem(a.v.name); ok {
					ml.unsupported(a.node, "two assignments that may write the same element of array %q at index %d (JANI leaves their outcome undefined)", base, a.level)
					return nil, false
				}
				ml.errorf(a.node, "variable %q is assigned twice at index %d", a.v.name, a.level)
				return nil, false
			}
			next[a.v.id] = substExpr(a.value, cur)
			pos[a.v.id] = a.node
		}
		for v, e := range next {
			cur[v] = e
		}
		i = j
	}
	out := make([]symbolic.Assign, 0, len(cur))
	for v, e := range cur {
		out = append(out, symbolic.Assign{Var: v, Value: e, Pos: ml.pos(pos[v])})
	}
	return out, true
}

// substExpr replaces variables by the expressions cur gives them. It returns
// e itself when nothing changes.
func substExpr(e *symbolic.Expr, cur map[symbolic.VarID]*symbolic.Expr) *symbolic.Expr {
	if len(cur) == 0 {
		return e
	}
	switch e.Op {
	case symbolic.OpConst:
		return e
	case symbolic.OpVar:
		if r, ok := cur[e.Var]; ok {
			return r
		}
		return e
	}
	changed := false
	args := make([]*symbolic.Expr, len(e.Args))
	for i, a := range e.Args {
		args[i] = substExpr(a, cur)
		changed = changed || args[i] != a
	}
	var c *symbolic.Cond
	if e.Cond != nil {
		c = substCond(e.Cond, cur)
		changed = changed || c != e.Cond
	}
	if !changed {
		return e
	}
	return &symbolic.Expr{Op: e.Op, K: e.K, Var: e.Var, Args: args, Cond: c, Pos: e.Pos}
}

func substCond(c *symbolic.Cond, cur map[symbolic.VarID]*symbolic.Expr) *symbolic.Cond {
	switch c.Op {
	case symbolic.CTrue, symbolic.CFalse:
		return c
	case symbolic.CVar:
		r, ok := cur[c.Var]
		if !ok {
			return c
		}
		switch r.Op {
		case symbolic.OpConst:
			if r.K != 0 {
				return symbolic.True()
			}
			return symbolic.False()
		case symbolic.OpBool:
			return r.Cond
		}
		return symbolic.Compare(r, symbolic.Ne, symbolic.Lit(0))
	case symbolic.CCmp:
		l, r := substExpr(c.L, cur), substExpr(c.R, cur)
		if l == c.L && r == c.R {
			return c
		}
		return &symbolic.Cond{Op: c.Op, Cmp: c.Cmp, L: l, R: r, Pos: c.Pos}
	}
	changed := false
	args := make([]*symbolic.Cond, len(c.Args))
	for i, a := range c.Args {
		args[i] = substCond(a, cur)
		changed = changed || args[i] != a
	}
	if !changed {
		return c
	}
	return &symbolic.Cond{Op: c.Op, Args: args, Pos: c.Pos}
}

// byAction returns a's edges by action name, in order (built once: a scan
// of the edges per synchronisation vector made models with many actions
// quadratic to load).
func byAction(a *automaton) map[string][]*edge {
	if a.byAction == nil {
		a.byAction = map[string][]*edge{}
		for _, e := range a.edges {
			a.byAction[e.action] = append(a.byAction[e.action], e)
		}
	}
	return a.byAction
}
