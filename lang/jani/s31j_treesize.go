package jani

import (
	"fmt"
	"strings"

	"vigil/symbolic"
)

// checkTreeSizes applies the tree-size limit of a .spec model (lang/spec.md,
// error E0705; symbolic.TreeSizer and symbolic.MaxTreeNodes) to a JANI model
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
	ts := symbolic.NewTreeSizer()
	type sized struct {
		r symbolic.Root
		n int64
	}
	var all []sized
	ml.m.Roots(func(r symbolic.Root) bool {
		all = append(all, sized{r, ts.Cond(r.Cond) + ts.Expr(r.Expr)})
		return true
	})
	g := ts.Nodes()
	var sum int64
	var alone, most *sized
	for i := range all {
		b := &all[i]
		if b.n <= g {
			continue
		}
		sum = min(sum+b.n-g, 1<<62)
		if b.n-g > symbolic.MaxTreeNodes && (alone == nil || b.n < alone.n) {
			alone = b
		}
		if most == nil || b.n > most.n {
			most = b
		}
	}
	if sum <= symbolic.MaxTreeNodes {
		return
	}
	w := most
	if alone != nil {
		w = alone
	}
	size := fmt.Sprint(w.n)
	if w.n >= 1<<62 {
		size = "more than 4*10^18"
	}
	which := fmt.Sprintf("more than 2^20 (%d) beyond the model's %d distinct nodes", symbolic.MaxTreeNodes, g)
	if alone == nil {
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
