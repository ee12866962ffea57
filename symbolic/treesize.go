package symbolic

import "math"

// Tree sizes. The IR shares nodes: a predicate used twice is one node
// with two parents, so a chain of predicates that each use the one before
// twice (pred p1 = (p0 || q0) && x < 3, ...) is a DAG of a few nodes per
// predicate that reads as a tree of 2^K nodes. Most passes over the IR
// (the overflow analysis, the explicit engine's compiler, the SMT and BDD
// encoders) walk it as a tree, so the loader refuses a model whose
// conditions and expressions have trees of more than MaxTreeNodes nodes
// beyond the distinct nodes of the whole model, in all (lang: E0705). An expression whose
// nodes are not shared is as large as a tree as it is in memory, so the
// limit refuses no such model however large (other limits bound those:
// E0704, E0802); it refuses what sharing blows up. TreeSizer counts a
// tree's size over the DAG, once per node, so counting is linear in the
// DAG.

// MaxTreeNodes is how many nodes more than the model's distinct nodes the
// conditions and expressions of a loaded model may have read as trees
// (every shared node counted at each of its uses), in all over those
// larger than the model. The shipped specs, the adversarial scripts' and
// the JANI corpus exceed their models by at most 286 nodes in all; a tree
// of this size takes the overflow analysis some 0.1 s to walk.
const MaxTreeNodes = 1 << 20

// TreeSizer counts the tree sizes of conditions and expressions, with a
// memo per node shared by all the roots it is asked about. Sizes saturate
// near math.MaxInt64 / 2, so they never overflow.
type TreeSizer struct {
	conds map[*Cond]int64
	exprs map[*Expr]int64
	// leaves counts the uses of leaves (constants, variables) under the
	// distinct inner nodes: a leaf is one node wherever it is, so it
	// needs no memo, and an expression without shared nodes is still no
	// larger as a tree than Nodes
	leaves int64
}

// NewTreeSizer returns an empty sizer.
func NewTreeSizer() *TreeSizer {
	return &TreeSizer{conds: map[*Cond]int64{}, exprs: map[*Expr]int64{}}
}

const sizeCap = math.MaxInt64 / 2

func addSize(a, b int64) int64 { return min(a+b, sizeCap) }

// Nodes is the number of distinct nodes the sizer has counted so far,
// those of every root it was asked about (the model's size in memory
// when it was asked about every root), each leaf once per distinct node
// that it is under.
func (t *TreeSizer) Nodes() int64 { return int64(len(t.conds)+len(t.exprs)) + t.leaves }

// Cond is the number of nodes of c read as a tree (conditions and the
// expressions under them); 0 for nil.
func (t *TreeSizer) Cond(c *Cond) int64 {
	if c == nil {
		return 0
	}
	if c.L == nil && c.R == nil && len(c.Args) == 0 {
		t.leaves++
		return 1
	}
	if n, ok := t.conds[c]; ok {
		return n
	}
	n := addSize(1, addSize(t.Expr(c.L), t.Expr(c.R)))
	for _, a := range c.Args {
		n = addSize(n, t.Cond(a))
	}
	t.conds[c] = n
	return n
}

// Expr is the number of nodes of e read as a tree; 0 for nil.
func (t *TreeSizer) Expr(e *Expr) int64 {
	if e == nil {
		return 0
	}
	if e.Cond == nil && len(e.Args) == 0 {
		t.leaves++
		return 1
	}
	if n, ok := t.exprs[e]; ok {
		return n
	}
	n := addSize(1, t.Cond(e.Cond))
	for _, a := range e.Args {
		n = addSize(n, t.Expr(a))
	}
	t.exprs[e] = n
	return n
}

// DistinctNodes is the number of distinct nodes under c and e (either may
// be nil): their size in memory.
func DistinctNodes(c *Cond, e *Expr) int64 {
	t := NewTreeSizer()
	t.Cond(c)
	t.Expr(e)
	return t.Nodes()
}

// Root is one condition or expression of a model (Roots), with what it
// is for messages and where.
type Root struct {
	What string // "pred p", "the guard of action a", ...
	Cond *Cond
	Expr *Expr
	Pos  Pos
}

// Roots calls f for every condition and expression of m that an engine
// or a check may read: the predicates', the commands' guards, costs,
// assignments, array accesses, probabilities and rewards, the
// properties', the rules', and the model's start conditions. It stops
// when f returns false.
func (m *Model) Roots(f func(Root) bool) {
	at := func(p, or Pos) Pos {
		if p.IsValid() {
			return p
		}
		return or
	}
	var roots []Root
	add := func(what string, c *Cond, e *Expr, p Pos) {
		if c != nil || e != nil {
			roots = append(roots, Root{what, c, e, p})
		}
	}
	// the list is built lazily per part, so that f may stop early
	flush := func() bool {
		for _, r := range roots {
			if !f(r) {
				return false
			}
		}
		roots = roots[:0]
		return true
	}
	add("the model's start condition", m.Start, nil, at(posOf(m.Start), Pos{}))
	add("the model's restrict-initial", m.RestrictInitial, nil, at(posOf(m.RestrictInitial), Pos{}))
	for _, p := range m.Preds {
		add("pred "+p.Name, p.Cond, nil, p.Pos)
	}
	if !flush() {
		return
	}
	for i := range m.Commands {
		cmd := &m.Commands[i]
		name := "action ?"
		if int(cmd.Label) >= 0 && int(cmd.Label) < len(m.Labels) {
			name = "action " + m.Labels[cmd.Label].Name
		}
		add("the guard of "+name, cmd.Guard, nil, cmd.Pos)
		add("the cost of "+name, nil, cmd.Cost, cmd.Pos)
		for _, o := range cmd.Outcomes {
			for _, a := range o.Assigns {
				v := "?"
				if int(a.Var) >= 0 && int(a.Var) < len(m.Vars) {
					v = m.Vars[a.Var].Name
				}
				add("the assignment to "+v+"' of "+name, nil, a.Value, at(a.Pos, cmd.Pos))
			}
			for _, a := range o.Accesses {
				add("the access "+a.Text+" of "+name, a.When, a.Index, at(a.Pos, cmd.Pos))
			}
			for _, pf := range o.ProbFactors {
				add("a probability of "+name, nil, pf.Num, at(pf.Pos, at(o.Pos, cmd.Pos)))
				add("a probability of "+name, nil, pf.Den, at(pf.Pos, at(o.Pos, cmd.Pos)))
			}
			for _, r := range o.Rewards {
				add("the reward "+r.Name+" of "+name, nil, r.Expr, at(r.Pos, cmd.Pos))
			}
		}
		if !flush() {
			return
		}
	}
	for _, p := range m.Properties {
		add("the start condition of property "+p.Name, p.Start, nil, p.Pos)
		add("the unsafe condition of property "+p.Name, p.Unsafe, nil, p.Pos)
		add("the goal of property "+p.Name, p.Goal, nil, p.Pos)
		for i, c := range p.Predicates {
			ps := p.Pos
			if i < len(p.PredicatePos) {
				ps = at(p.PredicatePos[i], p.Pos)
			}
			add("a predicate of property "+p.Name, c, nil, ps)
		}
		if q := p.Query; q != nil {
			add("the filter of property "+p.Name, q.FilterStates, nil, p.Pos)
			if q.Reward != nil {
				for _, rp := range q.Reward.Parts {
					add("the reward of property "+p.Name, rp.At, rp.Expr, at(rp.Pos, p.Pos))
				}
			}
		}
		if !flush() {
			return
		}
	}
	for _, d := range m.Policies {
		for _, r := range d.Rules {
			add("a rule of policy "+d.Name, r.Cond, nil, at(r.Pos, d.Pos))
		}
		if !flush() {
			return
		}
	}
}

func posOf(c *Cond) Pos {
	if c == nil {
		return Pos{}
	}
	return c.Pos
}
