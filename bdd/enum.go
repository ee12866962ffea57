package bdd

// Enumeration: the states of a set one by one, a set from a list of
// states, and the cover of a set by cubes (one per path to True), each
// cube given per variable as value intervals.

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"vigil/symbolic"
)

// levelOrder returns the current-state levels sorted, with for each level
// its variable and bit.
func (sp *space) levelOrder() (levels []int, varOf, bitOf map[int]int) {
	varOf, bitOf = map[int]int{}, map[int]int{}
	for v, ve := range sp.vars {
		for i, l := range ve.cur {
			levels = append(levels, l)
			varOf[l], bitOf[l] = v, i
		}
	}
	sort.Ints(levels)
	return levels, varOf, bitOf
}

// forEach calls f with every state of x (⊆ dom) until f returns false.
// The state passed to f is reused.
func (sp *space) forEach(x Node, f func(symbolic.State) bool) {
	g := sp.m.graph(x)
	levels, varOf, bitOf := sp.levelOrder()
	s := make(symbolic.State, len(sp.vars))
	u := make([]int, len(sp.vars))
	var walk func(n, i int) bool
	walk = func(n, i int) bool {
		if n == 0 {
			return true
		}
		if i == len(levels) {
			for v := range s {
				s[v] = sp.vars[v].lo + u[v]
			}
			return f(s)
		}
		l := levels[i]
		v, b := varOf[l], bitOf[l]
		lo, hi := n, n
		if n > 1 && int(g.level[n]) == l {
			lo, hi = g.low[n], g.high[n]
		}
		u[v] &^= 1 << uint(b)
		if !walk(lo, i+1) {
			return false
		}
		u[v] |= 1 << uint(b)
		ok := walk(hi, i+1)
		u[v] &^= 1 << uint(b)
		return ok
	}
	walk(*x, 0)
}

// states returns the set of the given states (in range), built as a trie
// over the current levels so that each call adds one node.
func (sp *space) states(ss []symbolic.State) Node {
	levels, varOf, bitOf := sp.levelOrder()
	m := sp.m
	bit := func(s symbolic.State, l int) bool {
		v := varOf[l]
		return uint64(s[v]-sp.vars[v].lo)>>uint(bitOf[l])&1 == 1
	}
	var build func(ss []symbolic.State, i int) Node
	build = func(ss []symbolic.State, i int) Node {
		if len(ss) == 0 {
			return m.fls()
		}
		if i == len(levels) {
			return m.tru()
		}
		l := levels[i]
		// Partition: zeros first.
		j := 0
		for k := range ss {
			if !bit(ss[k], l) {
				ss[j], ss[k] = ss[k], ss[j]
				j++
			}
		}
		lo := build(ss[:j], i+1)
		hi := build(ss[j:], i+1)
		return m.ite(m.ithvar(l), hi, lo)
	}
	return build(ss, 0)
}

// Interval is lo..hi inclusive.
type Interval struct {
	Lo int `json:"lower"`
	Hi int `json:"upper"`
}

// VarSet constrains one variable of a cube: its value lies in one of
// Ranges, or, when the pattern has too many intervals to list, the bits of
// value-Offset under Mask equal Bits.
type VarSet struct {
	Var    string     `json:"var"`
	Ranges []Interval `json:"ranges,omitempty"`
	Mask   uint64     `json:"mask,omitempty"`
	Bits   uint64     `json:"bits,omitempty"`
	Offset int        `json:"offset,omitempty"`
}

// Cube is a conjunction of variable constraints; variables it does not
// name range over their whole range.
type Cube []VarSet

// MarshalJSON writes the cube that constrains nothing (the whole space,
// "true" in text) as [], not null: vigil safe --all --json listed the
// cover of an unsafe region that is every state as "cubes": [null], which
// a reader iterating over each cube's constraints fails on (s33b).
func (c Cube) MarshalJSON() ([]byte, error) {
	if c == nil {
		return []byte("[]"), nil
	}
	return json.Marshal([]VarSet(c))
}

const maxRanges = 8

func (c Cube) String() string {
	if len(c) == 0 {
		return "true"
	}
	var parts []string
	for _, vs := range c {
		switch {
		case vs.Ranges == nil:
			parts = append(parts, fmt.Sprintf("(%s-%d)&%#x==%#x", vs.Var, vs.Offset, vs.Mask, vs.Bits))
		case len(vs.Ranges) == 1 && vs.Ranges[0].Lo == vs.Ranges[0].Hi:
			parts = append(parts, fmt.Sprintf("%s=%d", vs.Var, vs.Ranges[0].Lo))
		default:
			var rs []string
			for _, r := range vs.Ranges {
				if r.Lo == r.Hi {
					rs = append(rs, fmt.Sprint(r.Lo))
				} else {
					rs = append(rs, fmt.Sprintf("%d..%d", r.Lo, r.Hi))
				}
			}
			if len(rs) == 1 {
				parts = append(parts, vs.Var+"="+rs[0])
			} else {
				parts = append(parts, vs.Var+"∈{"+strings.Join(rs, ",")+"}")
			}
		}
	}
	return strings.Join(parts, " ")
}

// cubes returns up to limit cubes of a disjoint cover of x (⊆ dom), and the
// number of cubes of the whole cover. When every variable's bits are
// adjacent in the order (interleaved, blocked), the cover is that of the
// multi-valued diagram: per variable, the values are grouped into maximal
// intervals that lead to the same rest of the diagram, so that a region
// like "layer in 0..10^6, crashed" is one cube. Otherwise (or when a
// variable's values break into too many intervals) the cubes are the BDD's
// paths, each variable's fixed bits written as intervals.
func (sp *space) cubes(x Node, limit int) ([]Cube, float64) {
	g := sp.m.graph(x)
	if vs, ok := sp.contiguousVars(); ok {
		if cs, total, ok := sp.mddCubes(g, *x, vs, limit); ok {
			return cs, total
		}
	}
	return sp.pathCubes(g, *x, limit)
}

// contiguousVars returns the variables (with bits) in level order when each
// one's current bits are adjacent among the current levels.
func (sp *space) contiguousVars() ([]int, bool) {
	levels, varOf, _ := sp.levelOrder()
	var order []int
	for i, l := range levels {
		v := varOf[l]
		if i > 0 && varOf[levels[i-1]] == v {
			continue
		}
		for _, w := range order {
			if w == v {
				return nil, false // v's bits are split
			}
		}
		order = append(order, v)
	}
	return order, true
}

// run is a maximal interval lo..hi of a variable's unsigned values whose
// paths lead to the same node after the variable's bits.
type run struct {
	lo, hi uint64
	child  int
}

const maxRuns = 1 << 16

// runs returns the runs of variable v below node n (values 0..2^bits-1).
func (sp *space) runs(g *graph, n, v int, memo map[[2]int][]run) ([]run, bool) {
	ve := &sp.vars[v]
	// rec covers the low i+1 bits (values 0..2^(i+1)-1).
	var rec func(n, i int) ([]run, bool)
	rec = func(n, i int) ([]run, bool) {
		if i < 0 {
			return []run{{0, 0, n}}, true
		}
		key := [2]int{n, i}
		if r, ok := memo[key]; ok {
			return r, r != nil || n == 0
		}
		var lo, hi []run
		var ok bool
		if n > 1 && int(g.level[n]) == ve.cur[i] {
			if lo, ok = rec(g.low[n], i-1); !ok {
				return nil, false
			}
			if hi, ok = rec(g.high[n], i-1); !ok {
				return nil, false
			}
		} else {
			if lo, ok = rec(n, i-1); !ok {
				return nil, false
			}
			hi = lo
		}
		half := uint64(1) << uint(i)
		out := append([]run(nil), lo...)
		for _, r := range hi {
			r.lo, r.hi = r.lo+half, r.hi+half
			if k := len(out) - 1; k >= 0 && out[k].child == r.child && out[k].hi+1 == r.lo {
				out[k].hi = r.hi
				continue
			}
			out = append(out, r)
		}
		if len(out) > maxRuns {
			return nil, false
		}
		memo[key] = out
		return out, true
	}
	return rec(n, ve.n-1)
}

// mddCubes enumerates the cubes of the multi-valued diagram of x.
func (sp *space) mddCubes(g *graph, root int, vars []int, limit int) ([]Cube, float64, bool) {
	memos := make([]map[[2]int][]run, len(vars))
	for i := range memos {
		memos[i] = map[[2]int][]run{}
	}
	runsAt := func(n, k int) ([]run, bool) {
		v := vars[k]
		rs, ok := sp.runs(g, n, v, memos[k])
		if !ok {
			return nil, false
		}
		span := uint64(sp.vars[v].hi - sp.vars[v].lo)
		var out []run
		for _, r := range rs {
			if r.child == 0 || r.lo > span {
				continue
			}
			r.hi = min(r.hi, span)
			out = append(out, r)
		}
		return out, true
	}
	// Count the cubes: paths through the runs.
	counts := map[[2]int]float64{}
	var count func(n, k int) (float64, bool)
	count = func(n, k int) (float64, bool) {
		if n == 0 {
			return 0, true
		}
		if k == len(vars) {
			return 1, true
		}
		if c, ok := counts[[2]int{n, k}]; ok {
			return c, true
		}
		rs, ok := runsAt(n, k)
		if !ok {
			return 0, false
		}
		total := 0.0
		for _, r := range rs {
			c, ok := count(r.child, k+1)
			if !ok {
				return 0, false
			}
			total += c
		}
		counts[[2]int{n, k}] = total
		return total, true
	}
	total, ok := count(root, 0)
	if !ok {
		return nil, 0, false
	}
	var out []Cube
	var cur Cube
	var walk func(n, k int)
	walk = func(n, k int) {
		if len(out) >= limit || n == 0 {
			return
		}
		if k == len(vars) {
			out = append(out, append(Cube(nil), cur...))
			return
		}
		rs, _ := runsAt(n, k)
		v := vars[k]
		ve := &sp.vars[v]
		for _, r := range rs {
			full := r.lo == 0 && r.hi == uint64(ve.hi-ve.lo)
			if !full {
				cur = append(cur, VarSet{Var: sp.M.Vars[v].Name, Ranges: []Interval{{ve.lo + int(r.lo), ve.lo + int(r.hi)}}})
			}
			walk(r.child, k+1)
			if !full {
				cur = cur[:len(cur)-1]
			}
		}
	}
	walk(root, 0)
	return out, total, true
}

// pathCubes returns up to limit cubes of the BDD paths of x.
func (sp *space) pathCubes(g *graph, root int, limit int) ([]Cube, float64) {
	paths := map[int]float64{0: 0, 1: 1}
	var count func(n int) float64
	count = func(n int) float64 {
		if p, ok := paths[n]; ok {
			return p
		}
		p := count(g.low[n]) + count(g.high[n])
		paths[n] = p
		return p
	}
	total := count(root)
	var out []Cube
	_, varOf, bitOf := sp.levelOrder()
	fixed := make([]uint64, len(sp.vars)) // mask of fixed bits per variable
	val := make([]uint64, len(sp.vars))
	var walk func(n int)
	walk = func(n int) {
		if len(out) >= limit || n == 0 {
			return
		}
		if n == 1 {
			out = append(out, sp.cube1(fixed, val))
			return
		}
		l := int(g.level[n])
		v, b := varOf[l], uint(bitOf[l])
		fixed[v] |= 1 << b
		val[v] &^= 1 << b
		walk(g.low[n])
		val[v] |= 1 << b
		walk(g.high[n])
		fixed[v] &^= 1 << b
		val[v] &^= 1 << b
	}
	walk(root)
	return out, total
}

// cube1 turns per-variable fixed bits into a cube.
func (sp *space) cube1(fixed, val []uint64) Cube {
	var c Cube
	for v, ve := range sp.vars {
		if fixed[v] == 0 {
			continue
		}
		span := uint64(ve.hi - ve.lo)
		vs := VarSet{Var: sp.M.Vars[v].Name}
		// The free bits below the lowest fixed bit make one block; the
		// free bits above it multiply the blocks.
		low := fixed[v] & -fixed[v]
		block := low // size of a block of consecutive values
		var upperFree []uint
		for i := uint(0); i < uint(ve.n); i++ {
			if 1<<i > low && fixed[v]>>i&1 == 0 {
				upperFree = append(upperFree, i)
			}
		}
		if 1<<len(upperFree) > maxRanges { // too many blocks: give the pattern
			vs.Mask, vs.Bits, vs.Offset = fixed[v], val[v], ve.lo
			c = append(c, vs)
			continue
		}
		for k := 0; k < 1<<len(upperFree); k++ {
			start := val[v]
			for j, i := range upperFree {
				if k>>j&1 == 1 {
					start |= 1 << i
				}
			}
			if start > span {
				continue
			}
			end := min(start+block-1, span)
			vs.Ranges = append(vs.Ranges, Interval{ve.lo + int(start), ve.lo + int(end)})
		}
		sort.Slice(vs.Ranges, func(i, j int) bool { return vs.Ranges[i].Lo < vs.Ranges[j].Lo })
		// Merge adjacent ranges.
		merged := vs.Ranges[:0]
		for _, r := range vs.Ranges {
			if k := len(merged); k > 0 && merged[k-1].Hi+1 == r.Lo {
				merged[k-1].Hi = r.Hi
				continue
			}
			merged = append(merged, r)
		}
		vs.Ranges = merged
		if len(vs.Ranges) == 1 && vs.Ranges[0].Lo == ve.lo && vs.Ranges[0].Hi == ve.hi {
			continue // the whole range
		}
		c = append(c, vs)
	}
	return c
}
