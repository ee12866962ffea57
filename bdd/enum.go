package bdd

// Enumeration: the states of a set one by one, a set from a list of
// states, and the cover of a set by cubes (one per path to True), each
// cube given per variable as value intervals.

import (
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
type Interval struct{ Lo, Hi int }

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
// number of cubes of the whole cover (paths to True).
func (sp *space) cubes(x Node, limit int) ([]Cube, float64) {
	g := sp.m.graph(x)
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
	total := count(*x)
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
	walk(*x)
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
