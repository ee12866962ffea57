package ppa

// Refinement by separation, where the cubes of a spurious path are small
// enough to enumerate: the replay knows exactly which states of the cube
// where it stopped were reached (R), and enumeration knows which states of
// that cube make the abstract step that the path takes next (B: the policy
// chooses the path's next label and an outcome leads into the next cube;
// at the path's end, the bad states). R and B are disjoint (a state of R
// in B would have been followed), so thresholds on single variables
// separate them: a small decision tree, learned greedily, whose splits
// become predicates. Each split is new (a predicate has one value on a
// whole cube, so none of the old ones separates two of its states), and in
// the refined abstraction the pieces of the cube that hold R lose the
// spurious step. This is the explicit counterpart of an interpolant; where
// the weakest preconditions of every predicate of the cube would add
// hundreds of predicates per iteration (a learned policy's choice, which
// no predicate expresses, made the path spurious), it adds a few.

import (
	"sort"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// maxSplits bounds the predicates one separation adds.
const maxSplits = 64

// separate adds threshold predicates that separate the frontier front of
// the replay (at step div of the path) from the states of that step's
// cube that take the path's next step (or, at the path's end, are bad).
// It returns the number of predicates added.
func (r *engine) separate(ab *abstraction, path []int, div int, front []symbolic.State) int {
	k := len(path) - 1
	sts, ok := r.states(ab.nodes[path[div]].vals)
	if !ok || len(front) == 0 {
		return 0
	}
	reached := map[string]bool{}
	for _, s := range front {
		reached[r.m.FormatState(s)] = true
	}
	var b []symbolic.State
	for _, s := range sts {
		if reached[r.m.FormatState(s)] {
			continue
		}
		var takes bool
		if div == k {
			takes = r.isBad(s)
		} else {
			next := ab.nodes[path[div+1]]
			takes = r.stepsInto(s, next.label, next.vals)
		}
		if takes {
			b = append(b, s)
		}
	}
	if len(b) == 0 {
		return 0
	}
	added, budget := 0, maxSplits
	r.tree(front, b, &added, &budget)
	return added
}

// isBad reports whether s is unsafe, or not terminal with a policy choice
// that has an outcome leaving a variable's range (expandStates's test).
func (r *engine) isBad(s symbolic.State) bool {
	g, m := r.g, r.m
	switch g.Status(s) {
	case explicit.Unsafe:
		return true
	case explicit.Open:
	default:
		return false
	}
	x := &explicit.Expansion{}
	g.Applicable(s, x)
	l := symbolic.NoLabel
	if r.dec != nil {
		var err error
		if l, err = r.dec.Decide(s, x.App); err != nil || l == symbolic.NoLabel {
			return err != nil
		}
	}
	for ci := range m.Commands {
		c := &m.Commands[ci]
		if (r.dec != nil && c.Label != l) || !g.Guard(s, ci) {
			continue
		}
		for oi := range c.Outcomes {
			if _, err := g.Apply(s, ci, oi); err != nil {
				return true
			}
		}
	}
	return false
}

// stepsInto reports whether, in s (not terminal), the policy chooses a (any
// label without a policy) and an outcome of a leads into the cube vals.
func (r *engine) stepsInto(s symbolic.State, a symbolic.LabelID, vals []bool) bool {
	g, m := r.g, r.m
	if g.Status(s) != explicit.Open {
		return false
	}
	if r.dec != nil {
		x := &explicit.Expansion{}
		g.Applicable(s, x)
		if l, err := r.dec.Decide(s, x.App); err != nil || l != a {
			return false
		}
	}
	for ci := range m.Commands {
		c := &m.Commands[ci]
		if c.Label != a || !g.Guard(s, ci) {
			continue
		}
		for oi := range c.Outcomes {
			if t, err := g.Apply(s, ci, oi); err == nil && r.inCube(t, vals) {
				return true
			}
		}
	}
	return false
}

// tree splits the sets a and b (disjoint, both not empty) by the threshold
// v <= t of least Gini impurity, adds it as a predicate, and recurses on
// the impure sides, within budget.
func (r *engine) tree(a, b []symbolic.State, added, budget *int) {
	if len(a) == 0 || len(b) == 0 || *budget <= 0 {
		return
	}
	v, t, ok := bestSplit(len(r.m.Vars), a, b)
	if !ok {
		return
	}
	*budget--
	*added += r.preds.add(symbolic.Compare(symbolic.V(symbolic.VarID(v)), symbolic.Le, symbolic.Lit(t)))
	var al, ar, bl, br []symbolic.State
	for _, s := range a {
		if s[v] <= t {
			al = append(al, s)
		} else {
			ar = append(ar, s)
		}
	}
	for _, s := range b {
		if s[v] <= t {
			bl = append(bl, s)
		} else {
			br = append(br, s)
		}
	}
	r.tree(al, bl, added, budget)
	r.tree(ar, br, added, budget)
}

// bestSplit returns the variable and threshold t whose split v <= t of a
// and b has the least weighted Gini impurity; ok is false when no
// threshold splits them (a and b share a state).
func bestSplit(nvars int, a, b []symbolic.State) (v, t int, ok bool) {
	best := 2.0
	n := float64(len(a) + len(b))
	for u := 0; u < nvars; u++ {
		// Counts of a and b per value of u.
		ca, cb := map[int]int{}, map[int]int{}
		for _, s := range a {
			ca[s[u]]++
		}
		for _, s := range b {
			cb[s[u]]++
		}
		vals := make([]int, 0, len(ca)+len(cb))
		for x := range ca {
			vals = append(vals, x)
		}
		for x := range cb {
			if _, dup := ca[x]; !dup {
				vals = append(vals, x)
			}
		}
		sort.Ints(vals)
		la, lb := 0, 0
		for i := 0; i+1 < len(vals); i++ {
			la += ca[vals[i]]
			lb += cb[vals[i]]
			ra, rb := len(a)-la, len(b)-lb
			g := (gini(la, lb)*float64(la+lb) + gini(ra, rb)*float64(ra+rb)) / n
			if g < best {
				best, v, t, ok = g, u, vals[i], true
			}
		}
	}
	return v, t, ok
}

func gini(a, b int) float64 {
	n := float64(a + b)
	if n == 0 {
		return 0
	}
	pa, pb := float64(a)/n, float64(b)/n
	return 1 - pa*pa - pb*pb
}
