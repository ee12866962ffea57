package explicit

import (
	"vigil/symbolic"
)

// Dispatch on a variable. A JANI network composed by location (see
// lang/jani/compose_merge.go) has guards "loc = 0 and g0, or loc = 1 and
// g1, or ..." and assignments "if loc = 0 then e0 else if loc = 1 then e1
// else ...", one branch per location of an automaton (62 in echoring).
// Evaluated in order they cost time linear in the locations in every
// state; here such a disjunction or if-then-else chain, when its branches
// pin one variable to constants (pinOf), becomes a table indexed by the
// variable's value, so a state evaluates only the branches of its value.

// minDispatch is the fewest branches worth a table.
const minDispatch = 4

// dispatchOr compiles c, a disjunction, as a table on one variable when at
// least minDispatch of its disjuncts pin that variable (the first of
// their conjuncts that pins a variable, that of the first disjunct); ok
// is false otherwise.
func (cp *compiler) dispatchOr(c *symbolic.Cond) (condFn, bool) {
	if len(c.Args) < minDispatch {
		return nil, false
	}
	type branch struct {
		k     int
		resid *symbolic.Cond // nil: the pin alone
	}
	var v symbolic.VarID
	found := false
	var pinnedBr []branch
	var others []*symbolic.Cond
	for _, d := range c.Args {
		conj := []*symbolic.Cond{d}
		if d.Op == symbolic.CAnd {
			conj = d.Args
		}
		at := -1
		for i, x := range conj {
			if w, k, ok := pinOf(cp.m, x); ok && (!found || w == v) {
				v, found, at = w, true, i
				pinnedBr = append(pinnedBr, branch{k: k})
				break
			}
		}
		if at < 0 {
			others = append(others, d)
			continue
		}
		rest := make([]*symbolic.Cond, 0, len(conj)-1)
		rest = append(rest, conj[:at]...)
		rest = append(rest, conj[at+1:]...)
		if len(rest) > 0 {
			pinnedBr[len(pinnedBr)-1].resid = symbolic.And(rest...)
		}
	}
	if len(pinnedBr) < minDispatch {
		return nil, false
	}
	lo, hi := pinnedBr[0].k, pinnedBr[0].k
	for _, b := range pinnedBr {
		lo, hi = min(lo, b.k), max(hi, b.k)
	}
	if !denseSpan(lo, hi, len(pinnedBr)) {
		return nil, false
	}
	always := func(symbolic.State) bool { return true }
	table := make([][]condFn, hi-lo+1)
	for _, b := range pinnedBr {
		f := always
		if b.resid != nil {
			f = cp.cond(b.resid)
		}
		table[b.k-lo] = append(table[b.k-lo], f)
	}
	var rest condFn
	if len(others) > 0 {
		rest = cp.cond(symbolic.Or(others...))
	}
	return func(s symbolic.State) bool {
		if x := s[v] - lo; x >= 0 && x < len(table) {
			for _, f := range table[x] {
				if f(s) {
					return true
				}
			}
		}
		return rest != nil && rest(s)
	}, true
}

// dispatchIte compiles e, an if-then-else, as a table on one variable when
// it begins a chain of at least minDispatch if-then-elses whose conditions
// each pin that variable; ok is false otherwise. The first branch of a
// value wins, as in the chain.
func (cp *compiler) dispatchIte(e *symbolic.Expr) (intFn, bool) {
	type branch struct {
		k int
		a *symbolic.Expr
	}
	var brs []branch
	var v symbolic.VarID
	x := e
	for x.Op == symbolic.OpIte {
		w, k, ok := pinOf(cp.m, x.Cond)
		if !ok || len(brs) > 0 && w != v {
			break
		}
		v = w
		brs = append(brs, branch{k, x.Args[0]})
		x = x.Args[1]
	}
	if len(brs) < minDispatch {
		return nil, false
	}
	lo, hi := brs[0].k, brs[0].k
	for _, b := range brs {
		lo, hi = min(lo, b.k), max(hi, b.k)
	}
	if !denseSpan(lo, hi, len(brs)) {
		return nil, false
	}
	table := make([]intFn, hi-lo+1)
	for _, b := range brs {
		if table[b.k-lo] == nil {
			table[b.k-lo] = cp.tree(b.a)
		}
	}
	def := cp.tree(x)
	return func(s symbolic.State) int {
		if i := s[v] - lo; i >= 0 && i < len(table) && table[i] != nil {
			return table[i](s)
		}
		return def(s)
	}, true
}

// denseSpan reports whether a table over lo..hi (lo <= hi) for n
// branches is worth it: fewer than maxSwitchSpan values, and not many
// more than the branches. hi-lo is taken as unsigned: pins at both ends
// of the 64-bit integers (x == 2^63-1 or x == -(2^63-1)) made it wrap to
// a negative span, and make() of the table panicked. Sparse pins (x == 0
// || x == 4095 || x == 1 || x == 2000) made a table of 4,096 entries for
// four branches: 20,000 such guards took 813 MB instead of 269 MB.
func denseSpan(lo, hi, n int) bool {
	span := uint64(hi) - uint64(lo)
	return span < maxSwitchSpan && span < 8*uint64(n)+64
}
