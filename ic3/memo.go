package ic3

import (
	"encoding/binary"
	"fmt"

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
	m    map[string]*levelEntry
	key  []byte
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
	lm.key = lm.key[:0]
	for _, v := range u {
		lm.key = binary.AppendVarint(lm.key, int64(v))
	}
	if e, ok := lm.m[string(lm.key)]; ok {
		if len(lm.adds)-e.seen <= levelReplay {
			for _, a := range lm.adds[e.seen:] {
				if a.k > e.level && a.b.holds(u) {
					e.level = a.k
				}
			}
		} else {
			e.level = r.scanLevel(u)
		}
		e.seen = len(lm.adds)
		return e.level
	}
	if lm.m == nil || len(lm.m) >= levelMemoMax {
		lm.m = map[string]*levelEntry{}
	}
	L := r.scanLevel(u)
	lm.m[string(lm.key)] = &levelEntry{level: L, seen: len(lm.adds)}
	return L
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
	l.key = l.key[:0]
	for _, v := range s {
		l.key = binary.AppendVarint(l.key, int64(v))
	}
	if a, ok := l.choices[string(l.key)]; ok {
		return a, nil
	}
	l.g.Applicable(s, &l.x)
	a, err := l.dec.Decide(s, l.x.App)
	if err != nil {
		return a, err
	}
	if l.choices == nil || len(l.choices) >= choiceMemoMax {
		l.choices = map[string]symbolic.LabelID{}
	}
	l.choices[string(l.key)] = a
	return a, nil
}
