package explicit

import (
	"errors"
	"slices"
)

// ErrTooManyStates is returned when a store would exceed its id space.
var ErrTooManyStates = errors.New("explicit: more than 4294967294 states; use a symbolic engine or --max-states")

// Store is a set of packed states of W words each with dense uint32 ids.
// The states lie in pages of pageStates states (the first page starts
// smaller and doubles until it is full), so adding states never copies
// the ones stored: copying a growing arena took a fifth of the time of
// large searches (mostly page faults on the fresh copies), and in the
// parallel search it was a phase one goroutine ran alone. The pages and
// the tables hold no pointers, so the garbage collector never scans them.
// A store has one hash table, or several shards (a parallel search,
// par.go): a state's hash picks its shard, and each shard is an
// independent table that one worker fills while the others read none.
type Store struct {
	W     int
	pages [][]uint64 // page k: the states of ids k<<pageShift ..
	tabs  []table    // len a power of two
	n     uint32
	// compact: a state is one word of at most 32 bits and is its own tag,
	// so a probe decides equality without touching the arena.
	compact bool
	sink    uint64 // keeps prefetch's reads alive
}

// table is open addressing with linear probing over a power-of-two slice.
type table struct {
	slots []uint64 // tag<<32 | (id+1); 0 is empty
	mask  uint64
	n     int // entries
}

const maxLoadNum, maxLoadDen = 3, 4 // grow beyond 75% load

// NewStore returns an empty store for states of w words sized for about
// hint states.
func NewStore(w int, hint int) *Store { return newStore(w, hint, 1) }

// pageShift: a page of a store's arena holds pageStates states.
const pageShift = 16
const pageStates = 1 << pageShift

func newStore(w, hint, shards int) *Store {
	st := &Store{W: w, tabs: make([]table, shards)}
	st.pages = [][]uint64{make([]uint64, min(max(hint, 64), pageStates)*w)}
	for k := range st.tabs {
		size := 1024
		for size*maxLoadNum/maxLoadDen < hint/shards {
			size *= 2
		}
		st.tabs[k] = table{slots: make([]uint64, size), mask: uint64(size - 1)}
	}
	return st
}

// NewStoreFor returns a store for the states of layout l: compact (the
// state kept in the table slot beside its id) when a state needs at most
// 32 bits.
func NewStoreFor(l *Layout, hint int) *Store { return newStoreFor(l, hint, 1) }

func newStoreFor(l *Layout, hint, shards int) *Store {
	st := newStore(l.W, hint, shards)
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
	p := st.pages[id>>pageShift]
	i := int(id&(pageStates-1)) * st.W
	return p[i : i+st.W : i+st.W]
}

// reserve makes room in the pages for the ids up to n-1 (n <= 1<<32-1).
func (st *Store) reserve(n uint32) {
	if n == 0 {
		return
	}
	w, last := st.W, (n-1)>>pageShift
	if p := st.pages[0]; last > 0 && len(p) < pageStates*w || len(p) < int(n)*w {
		size := len(p)
		for size < min(int(n), pageStates)*w || last > 0 && size < pageStates*w {
			size = min(2*size, pageStates*w)
		}
		q := make([]uint64, size)
		copy(q, p)
		st.pages[0] = q
	}
	for uint32(len(st.pages)) <= last {
		st.pages = append(st.pages, make([]uint64, pageStates*w))
	}
}

// add stores x under the id st.n (the caller then increments st.n).
func (st *Store) add(x []uint64) {
	id := st.n
	if p := id >> pageShift; int(p) >= len(st.pages) || int(id&(pageStates-1)+1)*st.W > len(st.pages[p]) {
		st.reserve(id + 1)
	}
	copy(st.Get(id), x)
}

// Bytes returns the memory the store holds (arena pages and tables).
func (st *Store) Bytes() int {
	b := 0
	for _, p := range st.pages {
		b += 8 * len(p)
	}
	for k := range st.tabs {
		b += 8 * len(st.tabs[k].slots)
	}
	return b
}

func (st *Store) equal(id uint32, x []uint64) bool {
	y := st.Get(id)
	for k, w := range x {
		if y[k] != w {
			return false
		}
	}
	return true
}

// In the default mode the tag of a slot is the hash's high 32 bits and the
// table index is taken from the same bits, so growing a table needs
// neither the arena nor the hash function: it walks the old slots in order
// and each lands at tag & newmask, which keeps the writes nearly
// sequential; the shard comes from the hash's low bits. In compact mode
// the tag is the state itself, the index comes from its hash's low bits
// and the shard from its high ones.

// locate returns the table of x (whose hash is h), the tag of x and the
// first slot index to try.
func (st *Store) locate(x []uint64, h uint64) (t *table, tag, i uint64) {
	t = &st.tabs[st.shard(h)]
	if st.compact {
		return t, x[0], h & t.mask
	}
	tag = h >> 32
	return t, tag, tag & t.mask
}

// shard returns the shard of a state whose hash is h.
func (st *Store) shard(h uint64) int {
	if st.compact {
		h >>= 32
	}
	return int(h & uint64(len(st.tabs)-1))
}

// Lookup returns the id of x if the store holds it.
func (st *Store) Lookup(x []uint64) (uint32, bool) { return st.lookup(x, Hash(x)) }

func (st *Store) lookup(x []uint64, h uint64) (uint32, bool) {
	t, tag, i := st.locate(x, h)
	for ; ; i = (i + 1) & t.mask {
		s := t.slots[i]
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
	var sink uint64
	hs, sink = st.prefetch(xs, hs)
	st.sink += sink
	w := st.W
	for k, h := range hs {
		if _, _, err := st.intern(xs[k*w:(k+1)*w], h); err != nil {
			return hs, err
		}
	}
	return hs, nil
}

// prefetch returns the hashes of the states packed in xs (in hs, grown as
// needed) after reading the first slot of each and, where its tag
// matches, the state it points to: independent reads whose cache misses
// overlap, so that the probes that follow find their lines cached. The
// caller keeps sink, the sum of what was read, so that the reads stay.
func (st *Store) prefetch(xs []uint64, hs []uint64) (_ []uint64, sink uint64) {
	w := st.W
	n := len(xs) / w
	hs = slices.Grow(hs[:0], n)[:n]
	for k := range n {
		x := xs[k*w : (k+1)*w]
		h := Hash(x)
		hs[k] = h
		t, _, i := st.locate(x, h)
		sink += t.slots[i]
	}
	if !st.compact {
		for k, h := range hs {
			t, tag, i := st.locate(xs[k*w:(k+1)*w], h)
			if s := t.slots[i]; s != 0 && s>>32 == tag {
				sink += st.Get(uint32(s) - 1)[0]
			}
		}
	}
	return hs, sink
}

func (st *Store) intern(x []uint64, h uint64) (id uint32, added bool, err error) {
	t, tag, i := st.locate(x, h)
	for ; ; i = (i + 1) & t.mask {
		s := t.slots[i]
		if s == 0 {
			break
		}
		if s>>32 == tag {
			if id := uint32(s) - 1; st.compact || st.equal(id, x) {
				return id, false, nil
			}
		}
	}
	full := t.full()
	if st.n >= 1<<32-2 || (len(t.slots) >= 1<<32 && full) {
		return 0, false, ErrTooManyStates
	}
	id = st.n
	st.add(x)
	st.n++
	t.slots[i] = tag<<32 | uint64(id+1)
	t.n++
	if full && len(t.slots) < 1<<32 {
		st.grow(t, 0, nil)
	}
	return id, true, nil
}

// full reports whether one more entry takes t beyond its load limit.
func (t *table) full() bool { return uint64(t.n+1)*maxLoadDen > uint64(len(t.slots))*maxLoadNum }

// grow doubles t. In the parallel search's dedupe phase, the slots of
// provisional ids above base move too: at[id-base-1] follows each
// (at is nil otherwise).
func (st *Store) grow(t *table, base uint64, at []uint64) {
	old := t.slots
	t.slots = make([]uint64, 2*len(old))
	adviseHuge(t.slots)
	t.mask = uint64(len(t.slots) - 1)
	var one [1]uint64
	for _, s := range old {
		if s == 0 {
			continue
		}
		i := (s >> 32) & t.mask
		if st.compact {
			one[0] = s >> 32
			i = Hash(one[:]) & t.mask
		}
		for t.slots[i] != 0 {
			i = (i + 1) & t.mask
		}
		t.slots[i] = s
		if v := uint64(uint32(s)); at != nil && v > base { // v: id+1
			at[v-base-1] = i
		}
	}
}
