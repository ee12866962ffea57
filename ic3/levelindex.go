package ic3

import (
	"encoding/binary"
	"math/bits"
	"slices"

	"vigil/symbolic"
)

// The level of a concrete state (levelOf) was a scan of every clause of
// every frame, each a box tested literal by literal: on bench/polic3's
// be2_64x64_safe, 4,000-7,000 live clauses, a scan per state PolIC3
// evaluates, 24 of its 56 s of CPU.
//
// levelIndex answers the same question from bitsets. Every clause ever
// added to the frames (levelMemo.adds) gets an id, one per distinct box,
// with the highest level it was added at; the maximum of those levels
// over the boxes that hold a state is its level over the live clauses, by
// levelMemo's argument (a clause leaves a frame only when a clause added
// at a level at least as high covers it). Per indexed variable the
// variable's range is cut into at most ixBuckets buckets, and each bucket
// has a bitset of the ids whose bounds on the variable meet it. The ids
// that may hold a state are the AND of its buckets' bitsets; a candidate
// is tested against its box unless its buckets decide it exactly (every
// literal on an indexed variable of one value per bucket, none over a
// linear form).

// ixBuckets bounds the buckets of one variable; wider ranges share
// buckets among neighbouring values (the bitsets then only filter).
const ixBuckets = 64

// ixMaxVars bounds the variables indexed (those of the smallest ranges
// first): the memory is ixBuckets bits per indexed variable and id.
const ixMaxVars = 32

// levelIndex is the bitset index of the clauses added so far.
type levelIndex struct {
	vars   []ixVar
	byVar  []int // per model variable: its index in vars, or -1
	level  []int // per id: the highest level its box was added at
	boxes  []box
	exact  []bool // per id: the buckets decide whether a state is in it
	ids    map[string]int
	key    []byte
	n      int   // additions of levelMemo.adds taken in so far
	bucket []int // scratch: the state's bucket per indexed variable
}

// ixVar is one indexed variable: values lo .. lo+n*width-1 in n buckets
// of width values each, and per bucket the bitset of ids.
type ixVar struct {
	v        symbolic.VarID
	lo, hi   int
	width, n int
	bits     [][]uint64
}

// newLevelIndex indexes m's variables of the smallest ranges, up to
// ixMaxVars of them.
func newLevelIndex(m *symbolic.Model) *levelIndex {
	ix := &levelIndex{ids: map[string]int{}, byVar: make([]int, len(m.Vars))}
	order := make([]int, len(m.Vars))
	for i := range order {
		order[i] = i
		ix.byVar[i] = -1
	}
	width := func(i int) uint64 { return uint64(m.Vars[i].Hi - m.Vars[i].Lo) }
	slices.SortStableFunc(order, func(a, b int) int {
		wa, wb := width(a), width(b)
		switch {
		case wa < wb:
			return -1
		case wa > wb:
			return 1
		}
		return 0
	})
	for _, i := range order {
		if len(ix.vars) == ixMaxVars {
			break
		}
		v := &m.Vars[i]
		if v.Hi <= v.Lo {
			continue // one value: every box holds it
		}
		span := uint64(v.Hi-v.Lo) + 1
		n := uint64(ixBuckets)
		if span < n {
			n = span
		}
		w := (span + n - 1) / n
		n = (span + w - 1) / w
		ix.byVar[i] = len(ix.vars)
		ix.vars = append(ix.vars, ixVar{v: symbolic.VarID(i), lo: v.Lo, hi: v.Hi, width: int(w), n: int(n), bits: make([][]uint64, n)})
	}
	ix.bucket = make([]int, len(ix.vars))
	return ix
}

// catchUp takes in the additions of adds not taken in yet.
func (ix *levelIndex) catchUp(adds []levelAdd) {
	for _, a := range adds[ix.n:] {
		ix.add(a.b, a.k)
	}
	ix.n = len(adds)
}

// add records that box b was added at level k.
func (ix *levelIndex) add(b box, k int) {
	ix.key = ix.key[:0]
	for _, l := range b {
		ix.key = binary.AppendVarint(ix.key, int64(l.Var))
		up := int64(0)
		if l.Upper {
			up = 1
		}
		ix.key = binary.AppendVarint(ix.key, up)
		ix.key = binary.AppendVarint(ix.key, int64(l.K))
		if l.Form != nil {
			fk := l.Form.Key()
			ix.key = binary.AppendVarint(ix.key, int64(len(fk)))
			ix.key = append(ix.key, fk...)
		}
	}
	if id, ok := ix.ids[string(ix.key)]; ok {
		ix.level[id] = max(ix.level[id], k)
		return
	}
	id := len(ix.level)
	ix.ids[string(ix.key)] = id
	ix.level = append(ix.level, k)
	ix.boxes = append(ix.boxes, b)
	if id%64 == 0 {
		for vi := range ix.vars {
			for bi := range ix.vars[vi].bits {
				ix.vars[vi].bits[bi] = append(ix.vars[vi].bits[bi], 0)
			}
		}
	}
	exact := true
	for vi := range ix.vars {
		x := &ix.vars[vi]
		lo, hi := x.lo, x.hi
		for _, l := range b {
			if l.Form != nil || l.Var != x.v {
				continue
			}
			if l.Upper {
				hi = min(hi, l.K)
			} else {
				lo = max(lo, l.K)
			}
		}
		if lo > hi {
			continue // no value of the range: no state is in b
		}
		for bi := (lo - x.lo) / x.width; bi <= (hi-x.lo)/x.width; bi++ {
			x.bits[bi][id/64] |= 1 << (id % 64)
		}
		if x.width > 1 && (lo > x.lo || hi < x.hi) {
			exact = false
		}
	}
	for _, l := range b {
		if l.Form != nil || ix.byVar[l.Var] < 0 {
			exact = false
		}
	}
	ix.exact = append(ix.exact, exact)
}

// levelOf returns the highest level of the boxes that hold u (0: none
// does).
func (ix *levelIndex) levelOf(u symbolic.State) int {
	for vi := range ix.vars {
		x := &ix.vars[vi]
		val := u[x.v]
		if val < x.lo || val > x.hi {
			return ix.scan(u) // outside the range: no bucket
		}
		ix.bucket[vi] = (val - x.lo) / x.width
	}
	best := 0
	words := (len(ix.level) + 63) / 64
	for w := 0; w < words; w++ {
		m := ^uint64(0)
		if w == words-1 && len(ix.level)%64 != 0 {
			m = 1<<(len(ix.level)%64) - 1
		}
		for vi := range ix.vars {
			if m &= ix.vars[vi].bits[ix.bucket[vi]][w]; m == 0 {
				break
			}
		}
		for m != 0 {
			id := w*64 + bits.TrailingZeros64(m)
			m &= m - 1
			if ix.level[id] > best && (ix.exact[id] || ix.boxes[id].holds(u)) {
				best = ix.level[id]
			}
		}
	}
	return best
}

// scan is levelOf by testing every box.
func (ix *levelIndex) scan(u symbolic.State) int {
	best := 0
	for id, b := range ix.boxes {
		if ix.level[id] > best && b.holds(u) {
			best = ix.level[id]
		}
	}
	return best
}
