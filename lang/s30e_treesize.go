package lang

import (
	"fmt"
	"strings"

	"vigil/symbolic"
)

// checkTreeSizes reports error E0705 when the conditions and expressions
// of m, read as trees (every use of a predicate copied in place, as the
// later passes and every engine read them), are too large: those with more
// nodes than the model has distinct nodes (symbolic.TreeSizer.Nodes) may
// exceed that by symbolic.MaxTreeNodes in all. Uses of a predicate share
// its lowered node, and a predicate used twice in each of a chain of
// predicates makes a tree of 2^K nodes out of a few per predicate, which
// would be walked (or encoded) node by node; an expression without shared
// nodes is no larger as a tree than the model, and never counts. One
// error, at the smallest tree that exceeds the limit by itself (where a
// chain's blow-up first passes it: the larger ones use it), else at the
// largest of those that exceed it together.
func (c *checker) checkTreeSizes(m *symbolic.Model) bool {
	ts := symbolic.NewTreeSizer()
	type sized struct {
		r symbolic.Root
		n int64
	}
	var all []sized
	m.Roots(func(r symbolic.Root) bool {
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
		return true
	}
	w := most
	if alone != nil {
		w = alone
	}
	r := w.r
	end := r.Pos
	if name, ok := strings.CutPrefix(r.What, "pred "); ok {
		end.Col += len(name)
	}
	size := fmt.Sprint(w.n)
	if w.n >= 1<<62 {
		size = "more than 4*10^18"
	}
	which := fmt.Sprintf("more than 2^20 (%d) beyond the model's %d distinct nodes", symbolic.MaxTreeNodes, g)
	if alone == nil {
		which = fmt.Sprintf("with the other trees larger than the model's %d distinct nodes, more than 2^20 (%d) beyond them in all", g, symbolic.MaxTreeNodes)
	}
	c.errorf(r.Pos, end, "E0705", "%s is too large: read as a tree, with every use of a predicate copied where it is used (as the engines read it), it has %s nodes, built of %d distinct ones: %s. A predicate that uses another twice doubles at every level of a chain (pred p2 = (p1 || q1) && x < 3, with p1 using p0 and q0 so too): restructure the predicates so that each uses the one before once, or introduce a variable that the actions keep equal to the shared condition",
		r.What, size, symbolic.DistinctNodes(r.Cond, r.Expr), which)
	return false
}
