package explicit

import (
	"errors"
	"slices"
)

// ErrTooManyStates is returned when a store would exceed its id space.
var ErrTooManyStates = errors.New("explicit: more than 4294967294 states; use a symbolic engine or --max-states")

// Store is a set of packed states of W words each with dense uint32 ids.
// The arena and the table hold no pointers, so the garbage collector never
// scans them.
type Store struct {
	W     int
	arena []uint64
	slots []uint64 // tag<<32 | (id+1); 0 is empty
	mask  uint64
	n     uint32
	// compact: a state is one word of at most 32 bits and is its own tag,
	// so a probe decides equality without touching the arena.
	compact bool
	sink    uint64 // keeps InternAll's early reads alive
}

const maxLoadNum, maxLoadDen = 3, 4 // grow beyond 75% load

// NewStore returns an empty store for states of w words sized for about
// hint states.
func NewStore(w int, hint int) *Store {
	size := 1024
	for size*maxLoadNum/maxLoadDen < hint {
		size *= 2
	}
	return &Store{
		W:     w,
		arena: make([]uint64, 0, hint*w),
		slots: make([]uint64, size),
		mask:  uint64(size - 1),
	}
}

// NewStoreFor returns a store for the states of layout l: compact (the
// state kept in the table slot beside its id) when a state needs at most
// 32 bits.
func NewStoreFor(l *Layout, hint int) *Store {
	st := NewStore(l.W, hint)
	st.compact = l.W == 1 && l.Bits <= 32
	return st
}

// Hash mixes the words of a packed state.
func Hash(x []uint64) uint64 {
	h := uint64(0x9e3779b97f4a7c15)
	for _, w := range x {
		h ^= w
		h *= 0xbf58476d1ce4e5b9
		h ^= h >> 31
	}
	h *= 0x94d049bb133111eb
	h ^= h >> 29
	return h
}

// Len returns the number of states.
func (st *Store) Len() int { return int(st.n) }

// Get returns the packed state of id (a view into the arena; do not keep it
// across Intern calls, which may move the arena).
func (st *Store) Get(id uint32) []uint64 {
	i := int(id) * st.W
	return st.arena[i : i+st.W : i+st.W]
}

// Bytes returns the memory the store holds (arena capacity and table).
func (st *Store) Bytes() int { return 8*cap(st.arena) + 8*len(st.slots) }

func (st *Store) equal(id uint32, x []uint64) bool {
	i := int(id) * st.W
	for k, w := range x {
		if st.arena[i+k] != w {
			return false
		}
	}
	return true
}

// In the default mode the tag of a slot is the hash's high 32 bits and the
// table index is taken from the same bits, so growing the table needs
// neither the arena nor the hash function: it walks the old slots in order
// and each lands at tag & newmask, which keeps the writes nearly
// sequential. In compact mode the tag is the state itself and the index
// comes from its hash.

// probe returns the tag of x and the first slot index to try.
func (st *Store) probe(x []uint64) (tag, i uint64) { return st.probeHash(x, Hash(x)) }

// probeHash is probe with h == Hash(x) given.
func (st *Store) probeHash(x []uint64, h uint64) (tag, i uint64) {
	if st.compact {
		return x[0], h & st.mask
	}
	tag = h >> 32
	return tag, tag & st.mask
}

// Lookup returns the id of x if the store holds it.
func (st *Store) Lookup(x []uint64) (uint32, bool) {
	tag, i := st.probe(x)
	for ; ; i = (i + 1) & st.mask {
		s := st.slots[i]
		if s == 0 {
			return 0, false
		}
		if s>>32 == tag {
			if id := uint32(s) - 1; st.compact || st.equal(id, x) {
				return id, true
			}
		}
	}
}

// Intern returns the id of x, adding it when new.
func (st *Store) Intern(x []uint64) (id uint32, added bool, err error) {
	return st.intern(x, Hash(x))
}

// InternAll interns the states packed one after the other in xs, in order,
// as Intern would. It first computes every hash and reads every first
// slot (and the state a matching tag points to) without depending on the
// previous state's result, so the processor overlaps the cache misses
// that a one-by-one Intern takes in turn. hs is scratch space (grown as
// needed and returned).
func (st *Store) InternAll(xs []uint64, hs []uint64) ([]uint64, error) {
	w := st.W
	n := len(xs) / w
	hs = slices.Grow(hs[:0], n)[:n]
	var sink uint64
	for k := range n {
		h := Hash(xs[k*w : (k+1)*w])
		hs[k] = h
		_, i := st.probeHash(xs[k*w:(k+1)*w], h)
		sink += st.slots[i]
	}
	if !st.compact {
		for _, h := range hs {
			tag, i := st.probeHash(nil, h)
			if s := st.slots[i]; s != 0 && s>>32 == tag {
				sink += st.arena[int(uint32(s)-1)*w]
			}
		}
	}
	st.sink += sink
	for k, h := range hs {
		if _, _, err := st.intern(xs[k*w:(k+1)*w], h); err != nil {
			return hs, err
		}
	}
	return hs, nil
}

func (st *Store) intern(x []uint64, h uint64) (id uint32, added bool, err error) {
	tag, i := st.probeHash(x, h)
	for ; ; i = (i + 1) & st.mask {
		s := st.slots[i]
		if s == 0 {
			break
		}
		if s>>32 == tag {
			if id := uint32(s) - 1; st.compact || st.equal(id, x) {
				return id, false, nil
			}
		}
	}
	full := uint64(st.n+1)*maxLoadDen > uint64(len(st.slots))*maxLoadNum
	if st.n >= 1<<32-2 || (len(st.slots) >= 1<<32 && full) {
		return 0, false, ErrTooManyStates
	}
	id = st.n
	st.n++
	st.arena = append(st.arena, x...)
	st.slots[i] = tag<<32 | uint64(id+1)
	if full && len(st.slots) < 1<<32 {
		st.grow()
	}
	return id, true, nil
}

func (st *Store) grow() {
	old := st.slots
	st.slots = make([]uint64, 2*len(old))
	st.mask = uint64(len(st.slots) - 1)
	var one [1]uint64
	for _, s := range old {
		if s == 0 {
			continue
		}
		i := (s >> 32) & st.mask
		if st.compact {
			one[0] = s >> 32
			i = Hash(one[:]) & st.mask
		}
		for st.slots[i] != 0 {
			i = (i + 1) & st.mask
		}
		st.slots[i] = s
	}
}
