package explicit

import (
	"errors"
)

// ErrTooManyStates is returned when a store would exceed its id space.
var ErrTooManyStates = errors.New("explicit: more than 4294967294 states; use a symbolic engine or --max-states")

// Store is a set of packed states of W words each with dense uint32 ids.
// The arena and the table hold no pointers, so the garbage collector never
// scans them.
type Store struct {
	W     int
	arena []uint64
	slots []uint64 // tag<<32 | (id+1), tag = the hash's high 32 bits; 0 is empty
	mask  uint64
	n     uint32
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

// The table index of a state is taken from the same 32 hash bits that its
// slot keeps as a tag, so growing the table needs neither the arena nor
// the hash function: it walks the old slots in order and each lands at
// tag & newmask, which keeps the writes nearly sequential.

// Lookup returns the id of x if the store holds it.
func (st *Store) Lookup(x []uint64) (uint32, bool) {
	tag := Hash(x) >> 32
	for i := tag & st.mask; ; i = (i + 1) & st.mask {
		s := st.slots[i]
		if s == 0 {
			return 0, false
		}
		if s>>32 == tag {
			if id := uint32(s) - 1; st.equal(id, x) {
				return id, true
			}
		}
	}
}

// Intern returns the id of x, adding it when new.
func (st *Store) Intern(x []uint64) (id uint32, added bool, err error) {
	tag := Hash(x) >> 32
	i := tag & st.mask
	for ; ; i = (i + 1) & st.mask {
		s := st.slots[i]
		if s == 0 {
			break
		}
		if s>>32 == tag {
			if id := uint32(s) - 1; st.equal(id, x) {
				return id, false, nil
			}
		}
	}
	if st.n >= 1<<32-2 || (len(st.slots) >= 1<<32 && uint64(st.n+1)*maxLoadDen > uint64(len(st.slots))*maxLoadNum) {
		return 0, false, ErrTooManyStates
	}
	id = st.n
	st.n++
	st.arena = append(st.arena, x...)
	st.slots[i] = tag<<32 | uint64(id+1)
	if uint64(st.n)*maxLoadDen > uint64(len(st.slots))*maxLoadNum && len(st.slots) < 1<<32 {
		st.grow()
	}
	return id, true, nil
}

func (st *Store) grow() {
	old := st.slots
	st.slots = make([]uint64, 2*len(old))
	st.mask = uint64(len(st.slots) - 1)
	for _, s := range old {
		if s == 0 {
			continue
		}
		i := (s >> 32) & st.mask
		for st.slots[i] != 0 {
			i = (i + 1) & st.mask
		}
		st.slots[i] = s
	}
}
