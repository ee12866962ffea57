package jani

import (
	"fmt"
	"math"
	"strings"

	"vigil/symbolic"
)

// checkTreeSizes applies the tree-size limit of a .spec model (lang/spec.md,
// error E0705; symbolic.MaxTreeNodes, counted as symbolic.TreeSizer counts
// but for nodes of leaves: see treeSizer) to a JANI model
// loaded on its own. The import shares nodes as lang does: a function's
// argument is lowered once and each use of its parameter in the body is
// that one node, and each read of a JANI label is the label's one
// condition. Every engine reads the conditions and expressions as trees, so
// calls nested in calls, each using its parameter more than once, make a
// tree that doubles at each level out of a few nodes. maxExpansion bounds
// one call; this bounds the model: the conditions and expressions with more
// nodes (read as trees) than the model has distinct nodes may exceed that
// by symbolic.MaxTreeNodes in all, as in lang. A model with 12 guards of
// 15 nested calls, each under the bound of one call, was loaded and took 2.4
// s and 160 MB to explore its 4 states; 100 such guards, 20 s.
//
// One error, at the smallest tree over the limit by itself, else at the
// largest of those over it together; it names the JSON place (the edge, the
// label, the property) and the limit. A model that a .spec file imports
// (DecodeDynamics) is not checked here: lang checks the whole program,
// .spec and model together (E0705).
func (ml *modelLoader) checkTreeSizes() {
	ts := newTreeSizer()
	// pass 1 sizes every root and counts the model's nodes; pass 2 sums
	// the excess (the memo answers again; the nodes without one are
	// recomputed, not counted again). Nothing is kept per root: a
	// composed model has millions of roots, and symbolic.Model.Roots
	// builds a description of each (Root.What), which took the load of
	// one (65,536 outcomes) from 157 MB to 350 MB
	eachRoot(ml.m, func(c *symbolic.Cond, e *symbolic.Expr) { ts.cond(c); ts.expr(e) })
	g := ts.nodes()
	ts.counting = false
	var sum int64
	type best struct {
		c *symbolic.Cond
		e *symbolic.Expr
		n int64
	}
	var alone, most best
	eachRoot(ml.m, func(c *symbolic.Cond, e *symbolic.Expr) {
		n := addSize(ts.cond(c), ts.expr(e))
		if n <= g {
			return
		}
		sum = min(sum+n-g, 1<<62)
		if n-g > symbolic.MaxTreeNodes && (alone.n == 0 || n < alone.n) {
			alone = best{c, e, n}
		}
		if n > most.n {
			most = best{c, e, n}
		}
	})
	if sum <= symbolic.MaxTreeNodes {
		return
	}
	b := most
	if alone.n > 0 {
		b = alone
	}
	type sized struct {
		r symbolic.Root
		n int64
	}
	w := sized{symbolic.Root{What: "an expression", Cond: b.c, Expr: b.e}, b.n}
	ml.m.Roots(func(r symbolic.Root) bool {
		if r.Cond == b.c && r.Expr == b.e {
			w.r = r
			return false
		}
		return true
	})
	size := fmt.Sprint(w.n)
	if w.n >= 1<<62 {
		size = "more than 4*10^18"
	}
	which := fmt.Sprintf("more than 2^20 (%d) beyond the model's %d distinct nodes", symbolic.MaxTreeNodes, g)
	if alone.n == 0 {
		which = fmt.Sprintf("with the other trees larger than the model's %d distinct nodes, more than 2^20 (%d) beyond them in all", g, symbolic.MaxTreeNodes)
	}
	msg := fmt.Sprintf("%s is too large: read as a tree, with every function call expanded and every read of a label copied where it is made (as the engines read it), it has %s nodes, built of %d distinct ones: %s (the limit of a .spec model, error E0705 of lang/spec.md). A function that uses its parameter more than once, called with a call of itself (or of another such function) as its argument, doubles at every level of the nesting: write the model so that each level uses the one below once, or keep the shared value in a variable that the edges update",
		jsonWhat(w.r.What), size, symbolic.DistinctNodes(w.r.Cond, w.r.Expr), which)
	ml.errs = append(ml.errs, ml.errAtPos(w.r.Pos, msg))
}

// jsonWhat words an IR root's description (symbolic.Root.What) for a JANI
// model, whose predicates are its labels and its locations.
func jsonWhat(what string) string {
	if name, ok := strings.CutPrefix(what, "pred "); ok {
		return "the predicate " + name
	}
	return what
}

// errAtPos is an error at the IR position p of this file (FILE#PATH:LINE:COL,
// as pos makes them).
func (l *lowerer) errAtPos(p symbolic.Pos, msg string) *Error {
	e := &Error{File: l.file, Line: p.Line, Col: p.Col, Msg: msg}
	if path, ok := strings.CutPrefix(p.File, l.file+"#"); ok {
		e.Path = path
	}
	return e
}

// treeSizer is symbolic.TreeSizer (the tree sizes of E0705 over the shared
// DAG) that keeps no memo for a node whose operands are all leaves: its
// size is 1 plus theirs, computed again at each use, and each use counts
// as a node of its own (so such a node used in two places counts twice
// among the model's nodes, as if it were not shared). A composed JANI
// model has millions of such nodes (x + 1 in each of 65,536 outcomes):
// symbolic.TreeSizer's memo of every inner node took the load of one from
// 157 MB to 350 MB. Sharing that doubles at every level needs nodes with
// inner operands, which are memoized as in symbolic.TreeSizer.
type treeSizer struct {
	conds map[*symbolic.Cond]int64
	exprs map[*symbolic.Expr]int64
	other int64 // leaves and nodes of leaves, at each use under a node counted once
	// counting: other counts (the first pass over the roots)
	counting bool
}

func newTreeSizer() *treeSizer {
	return &treeSizer{conds: map[*symbolic.Cond]int64{}, exprs: map[*symbolic.Expr]int64{}, counting: true}
}

// eachRoot calls f with every condition and expression of m that
// symbolic.Model.Roots gives (a pair where Roots gives one root of two
// parts), without describing them.
func eachRoot(m *symbolic.Model, f func(*symbolic.Cond, *symbolic.Expr)) {
	put := func(c *symbolic.Cond, e *symbolic.Expr) {
		if c != nil || e != nil {
			f(c, e)
		}
	}
	put(m.Start, nil)
	put(m.RestrictInitial, nil)
	for _, p := range m.Preds {
		put(p.Cond, nil)
	}
	for i := range m.Commands {
		cmd := &m.Commands[i]
		put(cmd.Guard, nil)
		put(nil, cmd.Cost)
		for _, o := range cmd.Outcomes {
			for _, a := range o.Assigns {
				put(nil, a.Value)
			}
			for _, a := range o.Accesses {
				put(a.When, a.Index)
			}
			for _, pf := range o.ProbFactors {
				put(nil, pf.Num)
				put(nil, pf.Den)
			}
			for _, r := range o.Rewards {
				put(nil, r.Expr)
			}
		}
	}
	for _, p := range m.Properties {
		put(p.Start, nil)
		put(p.Unsafe, nil)
		put(p.Goal, nil)
		for _, c := range p.Predicates {
			put(c, nil)
		}
		if q := p.Query; q != nil {
			put(q.FilterStates, nil)
			if q.Reward != nil {
				for _, rp := range q.Reward.Parts {
					put(rp.At, rp.Expr)
				}
			}
		}
	}
	for _, d := range m.Policies {
		for _, r := range d.Rules {
			put(r.Cond, nil)
		}
	}
}

const maxSize = math.MaxInt64 / 2

func addSize(a, b int64) int64 { return min(a+b, maxSize) }

func (t *treeSizer) count() {
	if t.counting {
		t.other++
	}
}

func (t *treeSizer) nodes() int64 { return addSize(int64(len(t.conds)+len(t.exprs)), t.other) }

func condLeaf(c *symbolic.Cond) bool { return c == nil || c.L == nil && c.R == nil && len(c.Args) == 0 }
func exprLeaf(e *symbolic.Expr) bool { return e == nil || e.Cond == nil && len(e.Args) == 0 }

// flatCond and flatExpr: an inner node whose operands are leaves (no memo)
func flatCond(c *symbolic.Cond) bool {
	if !exprLeaf(c.L) || !exprLeaf(c.R) {
		return false
	}
	for _, a := range c.Args {
		if !condLeaf(a) {
			return false
		}
	}
	return true
}

func flatExpr(e *symbolic.Expr) bool {
	if !condLeaf(e.Cond) {
		return false
	}
	for _, a := range e.Args {
		if !exprLeaf(a) {
			return false
		}
	}
	return true
}

func (t *treeSizer) cond(c *symbolic.Cond) int64 {
	if c == nil {
		return 0
	}
	if condLeaf(c) {
		t.count()
		return 1
	}
	if n, ok := t.conds[c]; ok {
		return n
	}
	flat := flatCond(c)
	if flat {
		t.count()
	}
	n := addSize(1, addSize(t.expr(c.L), t.expr(c.R)))
	for _, a := range c.Args {
		n = addSize(n, t.cond(a))
	}
	if !flat {
		t.conds[c] = n
	}
	return n
}

func (t *treeSizer) expr(e *symbolic.Expr) int64 {
	if e == nil {
		return 0
	}
	if exprLeaf(e) {
		t.count()
		return 1
	}
	if n, ok := t.exprs[e]; ok {
		return n
	}
	flat := flatExpr(e)
	if flat {
		t.count()
	}
	n := addSize(1, t.cond(e.Cond))
	for _, a := range e.Args {
		n = addSize(n, t.expr(a))
	}
	if !flat {
		t.exprs[e] = n
	}
	return n
}
