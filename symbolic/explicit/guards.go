package explicit

import (
	"math"
	"slices"

	"vigil/symbolic"
)

// Guard index. Evaluating every guard in every state costs time linear in
// the number of commands, and models built from synchronised automata
// (JANI networks, where each command is one combination of edges) have
// thousands of commands of which a handful are enabled in any state. Most
// guards are conjunctions that pin variables to constants (the location of
// each automaton, a Boolean flag), so the index is Fast Downward's
// successor generator: a decision tree that switches on one variable,
// with a child per value for the commands pinning it to that value and a
// "rest" child for the commands that do not mention it. A state walks only
// the branches its values select and evaluates, at the leaves, the
// residual guard: the conjuncts that were not pins. A command whose pins
// contradict its variable's range sits in no branch: no state enables it.

// maxSwitchSpan bounds the values of a switch variable (the children are a
// slice indexed by value).
const maxSwitchSpan = 1 << 12

type guardNode struct {
	cmds []int32 // commands with no pins left: check their residual guard
	v    symbolic.VarID
	lo   int
	kids []*guardNode // by s[v]-lo; nil when this node does not switch
	rest *guardNode   // commands that do not pin v
}

type pin struct {
	v symbolic.VarID
	k int
}

type pinned struct {
	cmd  int32
	pins []pin
}

// splitGuard separates the conjuncts of c that pin a variable of small
// range to a constant from the others (returned as one condition, nil
// when there are none). Only the first pin of each variable is taken, so
// contradictory pins stay in the residual and keep their meaning.
func splitGuard(m *symbolic.Model, c *symbolic.Cond) (pins []pin, resid *symbolic.Cond) {
	var rest []*symbolic.Cond
	has := func(v symbolic.VarID) bool {
		for _, p := range pins {
			if p.v == v {
				return true
			}
		}
		return false
	}
	var walk func(c *symbolic.Cond)
	walk = func(c *symbolic.Cond) {
		if c.Op == symbolic.CAnd {
			for _, a := range c.Args {
				walk(a)
			}
			return
		}
		if c.Op == symbolic.CTrue {
			return
		}
		if v, k, ok := pinOf(m, c); ok && !has(v) {
			pins = append(pins, pin{v, k})
			return
		}
		rest = append(rest, c)
	}
	walk(c)
	switch len(rest) {
	case 0:
	case 1:
		resid = rest[0]
	default:
		resid = symbolic.And(rest...)
	}
	return pins, resid
}

// pinOf recognises x == k, !x and (for a 0..1 variable) x.
func pinOf(m *symbolic.Model, c *symbolic.Cond) (symbolic.VarID, int, bool) {
	small := func(v symbolic.VarID) bool {
		x := &m.Vars[v]
		return x.Hi-x.Lo < maxSwitchSpan
	}
	switch c.Op {
	case symbolic.CVar:
		if x := &m.Vars[c.Var]; x.Lo == 0 && x.Hi == 1 {
			return c.Var, 1, true
		}
	case symbolic.CNot:
		if a := c.Args[0]; a.Op == symbolic.CVar && small(a.Var) {
			return a.Var, 0, true
		}
	case symbolic.CCmp:
		if c.Cmp != symbolic.Eq {
			break
		}
		d, ok := diffLinear(c.L, c.R)
		if !ok || len(d.Terms) != 1 || !small(d.Terms[0].Var) {
			break
		}
		switch d.Terms[0].Coef {
		case 1: // x + c == 0
			if d.Const == math.MinInt64 {
				break // x == 2^63: never, left to the residual
			}
			return d.Terms[0].Var, -d.Const, true
		case -1: // -x + c == 0
			return d.Terms[0].Var, d.Const, true
		}
	}
	return 0, 0, false
}

// buildGuardIndex compiles the guards of m into the index and the
// residual guards (nil: none).
func buildGuardIndex(m *symbolic.Model) (*guardNode, []condFn) {
	resid := make([]condFn, len(m.Commands))
	items := make([]pinned, 0, len(m.Commands))
	for i := range m.Commands {
		pins, r := splitGuard(m, m.Commands[i].Guard)
		if r != nil {
			resid[i] = compileCond(m, r)
		}
		items = append(items, pinned{cmd: int32(i), pins: pins})
	}
	return buildNode(m, items), resid
}

func buildNode(m *symbolic.Model, items []pinned) *guardNode {
	if len(items) == 0 {
		return nil
	}
	n := &guardNode{}
	count := map[symbolic.VarID]int{}
	var open []pinned
	for _, it := range items {
		if len(it.pins) == 0 {
			n.cmds = append(n.cmds, it.cmd)
			continue
		}
		open = append(open, it)
		for _, p := range it.pins {
			count[p.v]++
		}
	}
	if len(open) == 0 {
		return n
	}
	// Switch on the variable most commands pin (ties: the lowest id), so
	// the tree stays shallow.
	best, bestN := symbolic.VarID(-1), 0
	for v, c := range count {
		if c > bestN || c == bestN && v < best {
			best, bestN = v, c
		}
	}
	x := &m.Vars[best]
	n.v, n.lo = best, x.Lo
	n.kids = make([]*guardNode, x.Hi-x.Lo+1)
	groups := make([][]pinned, len(n.kids))
	var rest []pinned
	for _, it := range open {
		j := slices.IndexFunc(it.pins, func(p pin) bool { return p.v == best })
		if j < 0 {
			rest = append(rest, it)
			continue
		}
		k := it.pins[j].k
		if k < x.Lo || k > x.Hi {
			continue // never enabled
		}
		pins := append(append([]pin(nil), it.pins[:j]...), it.pins[j+1:]...)
		groups[k-x.Lo] = append(groups[k-x.Lo], pinned{cmd: it.cmd, pins: pins})
	}
	for i, gr := range groups {
		n.kids[i] = buildNode(m, gr)
	}
	n.rest = buildNode(m, rest)
	return n
}

// enabled appends to on the commands whose guard holds in s, in no
// particular order.
func (g *Generator) enabled(n *guardNode, s symbolic.State, on []int32) []int32 {
	for n != nil {
		for _, ci := range n.cmds {
			if r := g.resid[ci]; r == nil || r(s) {
				on = append(on, ci)
			}
		}
		if n.kids == nil {
			break
		}
		if i := s[n.v] - n.lo; uint(i) < uint(len(n.kids)) {
			if k := n.kids[i]; k != nil {
				on = g.enabled(k, s, on)
			}
		}
		n = n.rest
	}
	return on
}
