package jani

import (
	"math"
	"math/big"
	"slices"
	"sort"

	"vigil/symbolic"
)

// JANI import splits an edge whose PlaJA choice bounds read variables
// (cost_block_0 := any of cost_block_0 .. item_cost_bound) into one
// command per value of those variables (splitChoices in model.go): the
// piece for x == v has the edge's guard and x == v as its guard, and
// constant assignments. vigil export --jani wrote each piece as an edge
// of its own: 640 edges for the 128 of blocksworld_8_7. JANI has no
// choice of its own (lower-bound/upper-bound is PlaJA's extension, which
// Storm and mcsta do not read), but it can say the same thing as one edge
// with constant probabilities: mergeChoiceSplits lays the pieces'
// distributions over one another (each piece's outcomes cut [0, 1] into
// intervals of their probabilities; the cuts of all pieces cut it into
// segments) and writes one destination per segment, whose assignment
// gives each variable, in the states of each piece, the value that
// piece's outcome at that segment gives it. That is an expression of the
// split variables: a constant, x + d, max(x, d) or min(x, d) where one
// fits every piece (blocksworld: cost_block_0 := max(cost_block_0, k),
// the form the import had before it split), else an if-then-else over
// the pieces' values. In every state where a piece's guard holds, the
// merged edge gives the same successors with the same probabilities
// (summed over its segments that give the same successor, as JANI's
// semantics and vigil's engines sum them): the merge is exact by
// construction, whatever the commands came from. It merges only runs of
// consecutive commands of one source position (the pieces of one edge
// share the edge's; distinct edges, of a JANI file or a .spec, are
// written as they are), one label, one cost, constant probabilities and
// guards G && x1 == v1 && ... && xn == vn whose values (v1..vn) make up
// a box. (Pieces read back from vigil import's .spec text have a
// position each and stay separate edges.)

// choicePieces describes a run of commands that may be merged.
type choicePieces struct {
	prefix []*symbolic.Cond   // the guard's conjuncts before the pins
	vars   []symbolic.VarID   // the pinned variables, in order
	vals   [][]int            // per command, the pinned values
	probs  [][]*big.Rat       // per command, its outcomes' probabilities
	cmds   []symbolic.Command // the run
}

// pins splits c's guard into its conjuncts before its trailing pins
// x == v (distinct variables, at least one) and those pins.
func pins(c *symbolic.Cond) (prefix []*symbolic.Cond, vars []symbolic.VarID, vals []int, ok bool) {
	var conj []*symbolic.Cond
	conjuncts(c, func(a *symbolic.Cond) { conj = append(conj, a) })
	p := len(conj)
	for p > 0 {
		a := conj[p-1]
		if a.Op != symbolic.CCmp || a.Cmp != symbolic.Eq || a.L.Op != symbolic.OpVar || a.R.Op != symbolic.OpConst || slices.Contains(vars, a.L.Var) {
			break
		}
		vars = append(vars, a.L.Var)
		vals = append(vals, a.R.K)
		p--
	}
	if len(vars) == 0 {
		return nil, nil, nil, false
	}
	slices.Reverse(vars)
	slices.Reverse(vals)
	return conj[:p], vars, vals, true
}

// constProbs is c's outcomes' probabilities when they are constants, all
// positive.
func constProbs(c *symbolic.Command) ([]*big.Rat, bool) {
	for i := range c.Outcomes {
		if c.Outcomes[i].StateProb() {
			return nil, false
		}
	}
	ps, err := probabilities(c)
	if err != nil {
		return nil, false
	}
	for _, p := range ps {
		if p.Sign() <= 0 {
			return nil, false // refused with its message (zeroProbability)
		}
	}
	return ps, true
}

// mergeChoiceSplits returns cmds with each run of pieces of a split
// choice written as one command (see above).
func mergeChoiceSplits(m *symbolic.Model, cmds []symbolic.Command) []symbolic.Command {
	var out []symbolic.Command
	for i := 0; i < len(cmds); {
		if n, c, ok := mergeChoiceRun(m, cmds[i:]); ok {
			out = append(out, c)
			i += n
			continue
		}
		out = append(out, cmds[i])
		i++
	}
	return out
}

// mergeChoiceRun merges the longest run of pieces at the start of cmds
// (at least two commands) into one command, and says how many it took.
func mergeChoiceRun(m *symbolic.Model, cmds []symbolic.Command) (int, symbolic.Command, bool) {
	first := &cmds[0]
	prefix, vars, vals, ok := pins(first.Guard)
	if !ok {
		return 0, symbolic.Command{}, false
	}
	ps, ok := constProbs(first)
	if !ok || !first.Pos.IsValid() {
		return 0, symbolic.Command{}, false
	}
	prefixKey := m.CondString(symbolic.And(prefix...))
	costKey := ""
	if first.Cost != nil {
		costKey = m.ExprString(first.Cost)
	}
	r := choicePieces{prefix: prefix, vars: vars, vals: [][]int{vals}, probs: [][]*big.Rat{ps}, cmds: cmds[:1]}
	seen := map[string]bool{tupleKey(vals): true}
	for j := 1; j < len(cmds) && j < maxChoiceSplit; j++ {
		c := &cmds[j]
		if c.Label != first.Label || c.Pos != first.Pos { // not a piece of the same edge
			break
		}
		pre, vs, xs, ok := pins(c.Guard)
		if !ok || !slices.Equal(vs, vars) || seen[tupleKey(xs)] || m.CondString(symbolic.And(pre...)) != prefixKey {
			break
		}
		if (c.Cost == nil) != (first.Cost == nil) || (c.Cost != nil && m.ExprString(c.Cost) != costKey) {
			break
		}
		ps, ok := constProbs(c)
		if !ok {
			break
		}
		seen[tupleKey(xs)] = true
		r.vals = append(r.vals, xs)
		r.probs = append(r.probs, ps)
		r.cmds = cmds[:j+1]
	}
	// the longest prefix of the run whose values make up a box
	for n := len(r.cmds); n >= 2; n-- {
		box, ok := boxOf(r.vals[:n], len(vars))
		if !ok {
			continue
		}
		sub := r
		sub.vals, sub.probs, sub.cmds = r.vals[:n], r.probs[:n], r.cmds[:n]
		if c, ok := sub.merge(m, box); ok {
			return n, c, true
		}
	}
	return 0, symbolic.Command{}, false
}

func tupleKey(xs []int) string {
	b := make([]byte, 0, 8*len(xs))
	for _, x := range xs {
		b = big.NewInt(int64(x)).Append(b, 10)
		b = append(b, ',')
	}
	return string(b)
}

// boxOf returns, per variable, the least and greatest of vals, when the
// (distinct) vals are every combination of values in those ranges.
func boxOf(vals [][]int, k int) ([][2]int, bool) {
	box := make([][2]int, k)
	for i := range box {
		box[i] = [2]int{vals[0][i], vals[0][i]}
	}
	for _, xs := range vals[1:] {
		for i, x := range xs {
			box[i][0], box[i][1] = min(box[i][0], x), max(box[i][1], x)
		}
	}
	n := 1
	for _, b := range box {
		w := b[1] - b[0] + 1
		if w <= 0 || w > len(vals) || n*w > len(vals) {
			return nil, false
		}
		n *= w
	}
	return box, n == len(vals)
}

// merge writes the run as one command: its guard the prefix and the box,
// one outcome per segment of the overlaid distributions.
func (r *choicePieces) merge(m *symbolic.Model, box [][2]int) (symbolic.Command, bool) {
	// the cuts: every piece's cumulative probabilities
	var cuts []*big.Rat
	for _, ps := range r.probs {
		acc := new(big.Rat)
		for _, p := range ps[:len(ps)-1] {
			acc = new(big.Rat).Add(acc, p)
			cuts = append(cuts, acc)
		}
	}
	sort.Slice(cuts, func(i, j int) bool { return cuts[i].Cmp(cuts[j]) < 0 })
	cuts = slices.CompactFunc(cuts, func(a, b *big.Rat) bool { return a.Cmp(b) == 0 })
	cuts = append(cuts, big.NewRat(1, 1))
	// per piece, the outcome each segment falls in
	at := make([][]int, len(r.cmds))
	for t, ps := range r.probs {
		i, end := 0, new(big.Rat).Set(ps[0])
		for _, c := range cuts {
			for c.Cmp(end) > 0 {
				i++
				end = new(big.Rat).Add(end, ps[i])
			}
			at[t] = append(at[t], i)
		}
	}
	first := &r.cmds[0]
	merged := symbolic.Command{Label: first.Label, Pos: first.Pos, Cost: first.Cost}
	lo := new(big.Rat)
	for s, c := range cuts {
		w := new(big.Rat).Sub(c, lo)
		lo = c
		if !w.Num().IsInt64() || !w.Denom().IsInt64() {
			return symbolic.Command{}, false
		}
		o0 := &first.Outcomes[at[0][s]]
		o := symbolic.Outcome{Weight: symbolic.Rat{Num: w.Num().Int64(), Den: w.Denom().Int64()}, Pos: o0.Pos, Rewards: o0.Rewards}
		o.Prob, _ = w.Float64()
		var written []symbolic.VarID
		for t := range r.cmds {
			for _, a := range r.cmds[t].Outcomes[at[t][s]].Assigns {
				if !slices.Contains(written, a.Var) {
					written = append(written, a.Var)
				}
			}
		}
		slices.Sort(written)
		for _, v := range written {
			values := make([]*symbolic.Expr, len(r.cmds))
			var pos symbolic.Pos
			for t := range r.cmds {
				values[t] = symbolic.V(v) // unassigned: unchanged
				for _, a := range r.cmds[t].Outcomes[at[t][s]].Assigns {
					if a.Var == v {
						values[t], pos = a.Value, a.Pos
					}
				}
			}
			e, ok := r.valueOf(m, v, values)
			if !ok {
				return symbolic.Command{}, false
			}
			if e.Op == symbolic.OpVar && e.Var == v {
				continue // x := x
			}
			o.Assigns = append(o.Assigns, symbolic.Assign{Var: v, Value: e, Pos: pos})
		}
		merged.Outcomes = append(merged.Outcomes, o)
	}
	guard := append([]*symbolic.Cond(nil), r.prefix...)
	for i, x := range r.vars {
		if box[i][0] == box[i][1] {
			guard = append(guard, symbolic.Compare(symbolic.V(x), symbolic.Eq, symbolic.Lit(box[i][0])))
			continue
		}
		if box[i][0] > m.Vars[x].Lo {
			guard = append(guard, symbolic.Compare(symbolic.Lit(box[i][0]), symbolic.Le, symbolic.V(x)))
		}
		if box[i][1] < m.Vars[x].Hi {
			guard = append(guard, symbolic.Compare(symbolic.V(x), symbolic.Le, symbolic.Lit(box[i][1])))
		}
	}
	merged.Guard = symbolic.And(guard...)
	return merged, true
}

// valueOf is an expression that is values[t] where the pins of piece t
// hold: values[0] when all are the same, else a constant, x + d, max(x,
// d) or min(x, d) of a pinned x that fits each piece's constant, else an
// if-then-else over the pieces.
func (r *choicePieces) valueOf(m *symbolic.Model, v symbolic.VarID, values []*symbolic.Expr) (*symbolic.Expr, bool) {
	keys := make([]string, len(values))
	same := true
	for t, e := range values {
		keys[t] = m.ExprString(e)
		same = same && keys[t] == keys[0]
	}
	if same {
		return values[0], true
	}
	consts := !m.Vars[v].Bool
	for _, e := range values {
		consts = consts && e.Op == symbolic.OpConst
	}
	if consts {
		for i, x := range r.vars {
			if m.Vars[x].Bool {
				continue
			}
			fits := func(f func(p int) (int, bool)) bool {
				for t, e := range values {
					if q, ok := f(r.vals[t][i]); !ok || q != e.K {
						return false
					}
				}
				return true
			}
			// x + d only where it is exact: d = K - p and p + d must not
			// wrap (a .spec's ranges reach 2^62, and y' = 2^62 + 1 where
			// x == -2^62 was written y := x - 9223372036854775807, a
			// range error for Storm and, saturated, for vigil's engines)
			if d, ok := subExact(values[0].K, r.vals[0][i]); ok && d != math.MinInt && fits(func(p int) (int, bool) { return addExact(p, d) }) {
				if d == 0 {
					return symbolic.V(x), true
				}
				if d < 0 {
					return &symbolic.Expr{Op: symbolic.OpSub, Args: []*symbolic.Expr{symbolic.V(x), symbolic.Lit(-d)}}, true
				}
				return &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{symbolic.V(x), symbolic.Lit(d)}}, true
			}
			for _, e := range values {
				d := e.K
				if fits(func(p int) (int, bool) { return max(p, d), true }) {
					return &symbolic.Expr{Op: symbolic.OpMax, Args: []*symbolic.Expr{symbolic.V(x), symbolic.Lit(d)}}, true
				}
				if fits(func(p int) (int, bool) { return min(p, d), true }) {
					return &symbolic.Expr{Op: symbolic.OpMin, Args: []*symbolic.Expr{symbolic.V(x), symbolic.Lit(d)}}, true
				}
			}
		}
	}
	// group the pieces by value; the last group is the else branch
	var order []string
	group := map[string][]int{}
	for t, k := range keys {
		if _, ok := group[k]; !ok {
			order = append(order, k)
		}
		group[k] = append(group[k], t)
	}
	last := group[order[len(order)-1]][0]
	e := values[last]
	for g := len(order) - 2; g >= 0; g-- {
		var conds []*symbolic.Cond
		for _, t := range group[order[g]] {
			var pin []*symbolic.Cond
			for i, x := range r.vars {
				pin = append(pin, symbolic.Compare(symbolic.V(x), symbolic.Eq, symbolic.Lit(r.vals[t][i])))
			}
			conds = append(conds, symbolic.And(pin...))
		}
		e = &symbolic.Expr{Op: symbolic.OpIte, Cond: symbolic.Or(conds...), Args: []*symbolic.Expr{values[group[order[g]][0]], e}}
	}
	return e, true
}

// addExact is a + b, and whether it did not wrap.
func addExact(a, b int) (int, bool) {
	c := a + b
	return c, (c > a) == (b > 0)
}

// subExact is a - b, and whether it did not wrap.
func subExact(a, b int) (int, bool) {
	c := a - b
	return c, (c < a) == (b > 0)
}
