package ic3

import (
	"encoding/binary"
	"fmt"
	"math"

	"vigil/symbolic"
)

// PolIC3 asks for the level of a concrete state (the highest level of a
// clause that excludes it: levelOf, blockedAt) for every successor of
// every state of the boxes it evaluates, about 24 times per distinct
// state on be1_16x16_safe of bench/polic3, each a scan of every clause.
// levelMemo remembers the answers. The frames change in two ways only: a
// clause is added at a level (learn, and a push in propagate), and a
// clause is removed that a clause added at a level at least as high
// covers (subsumed by learn's new clause, or moved up by the push). So a
// state's level never falls, and it rises only by the clauses added since
// it was computed: a remembered level is brought up to date by checking
// those additions, in order (the whole scan again when there are many).

// levelReplay is the number of clause additions up to which a remembered
// level is brought up to date by replaying them rather than scanning the
// frames again.
const levelReplay = 64

// levelMemoMax bounds the states remembered; the memo starts afresh
// beyond it.
const levelMemoMax = 1 << 20

// levelMemo is the memo of levelOf for one run.
type levelMemo struct {
	adds []levelAdd  // every clause added to the frames, in order
	ix   *levelIndex // the index of adds (levelindex.go)
	// packed holds the states that pack (packer), m the others, keyed
	// by key's encoding
	packed map[uint64]levelEntry
	m      map[string]levelEntry
	key    []byte
}

// packer numbers the states within the model's ranges one to one as
// uint64 (mixed radix), when the product of the ranges' sizes fits: the
// memos of levelOf and choice look these states up in maps of uint64,
// which hash and compare faster than the strings the other states need
// (be2_64x64_safe of bench/polic3: 2.1 s of map lookups in a 25 s run).
type packer struct {
	lo   []int
	size []uint64
	ok   bool
}

func newPacker(m *symbolic.Model) packer {
	p := packer{ok: true}
	total := uint64(1)
	for i := range m.Vars {
		v := &m.Vars[i]
		n := uint64(int64(v.Hi)-int64(v.Lo)) + 1
		if v.Hi < v.Lo || n == 0 || total > math.MaxUint64/n {
			return packer{}
		}
		total *= n
		p.lo = append(p.lo, v.Lo)
		p.size = append(p.size, n)
	}
	return p
}

// pack returns u's number, or false when u lies outside the ranges (or
// the ranges do not pack).
func (p *packer) pack(u symbolic.State) (uint64, bool) {
	if !p.ok || len(u) != len(p.lo) {
		return 0, false
	}
	var k uint64
	for i, v := range u {
		d := uint64(int64(v) - int64(p.lo[i]))
		if v < p.lo[i] || d >= p.size[i] {
			return 0, false
		}
		k = k*p.size[i] + d
	}
	return k, true
}

// levelAdd is a clause b added at level k.
type levelAdd struct {
	b box
	k int
}

// levelEntry is a state's level after the first seen additions.
type levelEntry struct {
	level, seen int
}

// added records that clause b was added at level k.
func (lm *levelMemo) added(b box, k int) {
	lm.adds = append(lm.adds, levelAdd{b, k})
}

// levelOf returns the highest level of a clause that excludes u (0: none
// does, u is in every frame).
func (r *run) levelOf(u symbolic.State) int {
	if r.learned == nil {
		return r.scanLevel(u)
	}
	lm := &r.levels
	pk, packed := r.pack.pack(u)
	var e levelEntry
	var ok bool
	if packed {
		e, ok = lm.packed[pk]
	} else {
		lm.key = lm.key[:0]
		for _, v := range u {
			lm.key = binary.AppendVarint(lm.key, int64(v))
		}
		e, ok = lm.m[string(lm.key)]
	}
	switch {
	case !ok:
		if len(lm.packed)+len(lm.m) >= levelMemoMax {
			lm.packed, lm.m = nil, nil
		}
		e = levelEntry{level: r.scanLevel(u)}
	case len(lm.adds)-e.seen <= levelReplay:
		for _, a := range lm.adds[e.seen:] {
			if a.k > e.level && a.b.holds(u) {
				e.level = a.k
			}
		}
	default:
		e.level = r.scanLevel(u)
	}
	e.seen = len(lm.adds)
	if packed {
		if lm.packed == nil {
			lm.packed = map[uint64]levelEntry{}
		}
		lm.packed[pk] = e
	} else {
		if lm.m == nil {
			lm.m = map[string]levelEntry{}
		}
		lm.m[string(lm.key)] = e
	}
	return e.level
}

// scanLevel is levelOf without the memo: by the index of the clauses
// added (levelindex.go).
func (r *run) scanLevel(u symbolic.State) int {
	lm := &r.levels
	if lm.ix == nil {
		lm.ix = newLevelIndex(r.m)
	}
	lm.ix.catchUp(lm.adds)
	L := lm.ix.levelOf(u)
	if checkLevelIndex {
		if want := r.frameLevel(u); want != L {
			panic(fmt.Sprintf("ic3: level index: state %v has level %d, the frames say %d", u, L, want))
		}
	}
	return L
}

// checkLevelIndex makes scanLevel compare the index with a scan of the
// frames (tests).
var checkLevelIndex = false

// frameLevel is levelOf by a scan of the frames, from the top.
func (r *run) frameLevel(u symbolic.State) int {
	for k := len(r.frames) - 1; k >= 1; k-- {
		for _, b := range r.frames[k] {
			if b.holds(u) {
				return k
			}
		}
	}
	return 0
}

// choiceMemoMax bounds the states whose policy decision is remembered.
const choiceMemoMax = 1 << 20

// choice returns the label the learned policy chooses in state s among
// its applicable labels (symbolic.NoLabel: none), remembered per
// state: the boxes PolIC3 evaluates overlap (a state's decision is asked
// about 20 times on be1_16x16_safe), and the decision is a function of
// the state alone. Errors are not remembered.
func (r *run) choice(s symbolic.State) (symbolic.LabelID, error) {
	l := r.learned
	pk, packed := r.pack.pack(s)
	if packed {
		if a, ok := l.packed[pk]; ok {
			return a, nil
		}
	} else {
		l.key = l.key[:0]
		for _, v := range s {
			l.key = binary.AppendVarint(l.key, int64(v))
		}
		if a, ok := l.choices[string(l.key)]; ok {
			return a, nil
		}
	}
	l.g.Applicable(s, &l.x)
	a, err := l.dec.Decide(s, l.x.App)
	if err != nil {
		return a, err
	}
	if len(l.packed)+len(l.choices) >= choiceMemoMax {
		l.packed, l.choices = nil, nil
	}
	if packed {
		if l.packed == nil {
			l.packed = map[uint64]symbolic.LabelID{}
		}
		l.packed[pk] = a
		return a, nil
	}
	if l.choices == nil {
		l.choices = map[string]symbolic.LabelID{}
	}
	l.choices[string(l.key)] = a
	return a, nil
}
