package safety

// pairTable holds the per-pair records of a search-based decider (tarjan,
// ipi, npi, propu) for the (state, remaining budget) pairs it touches, so
// that its memory follows those pairs rather than states times (r+1):
// a radius of 30 on two million reachable states indexed 62 million pairs
// densely, and the deciders refused it, though a search from one state
// reaches most states with one or two budgets.
//
// With at most two budgets (radius inf, 0 or 1) the records are dense,
// state*layers+budget, as they were. Otherwise a state starts with a chain
// of (budget, slot) links, newest first; when a state is reached with more
// budgets than chainMax, it gets a row: the slot numbers of a window of
// budgets lo..lo+n-1 (4 bytes a budget) that grows, doubling, to take the
// budgets met, so that a lookup never walks more than chainMax links and a
// state reached with budgets 10^6 down to 10^6-40 indexes 64 of them, not
// 10^6. A record, once made, keeps its slot: callers may keep slot
// numbers across other lookups and additions (TarjanSafe's frames do).
type pairTable[T any] struct {
	layers   int32
	dense    bool
	chainMax int32
	rec      []T
	states   int     // synced
	head     []int32 // per state: -1 none, >= 0 first link, <= -2 row -head-2
	links    []pairLink
	rowm     []pairRow
	rows     []int32 // slot+1 per budget of a window, 0: none
}

// pairRow is a state's window of budgets lo..lo+n-1 at rows[start:].
type pairRow struct {
	start, lo, n int32
}

type pairLink struct {
	b, slot, next int32
}

func newPairTable[T any](r Radius) pairTable[T] {
	layers := int32(1)
	if r >= 0 {
		layers = int32(r) + 1
	}
	return pairTable[T]{layers: layers, dense: layers <= 2, chainMax: min(8, max(2, layers/3))}
}

// sync sizes the table for n states.
func (t *pairTable[T]) sync(n int) {
	t.states = max(t.states, n)
	if t.dense {
		m := n * int(t.layers)
		if len(t.rec) < m {
			t.rec = append(t.rec, make([]T, max(m, len(t.rec)+len(t.rec)/2)-len(t.rec))...)
		}
		return
	}
	for len(t.head) < n {
		t.head = append(t.head, -1)
	}
}

// find returns the slot of (s, b), or -1 when the pair has no record.
func (t *pairTable[T]) find(s uint32, b int32) int {
	if t.dense {
		p := int(s)*int(t.layers) + int(b)
		if p >= len(t.rec) {
			return -1
		}
		return p
	}
	if int(s) >= len(t.head) {
		return -1
	}
	h := t.head[s]
	if h < -1 {
		r := &t.rowm[-h-2]
		if b < r.lo || b >= r.lo+r.n {
			return -1
		}
		return int(t.rows[r.start+b-r.lo]) - 1
	}
	for h >= 0 {
		l := &t.links[h]
		if l.b == b {
			return int(l.slot)
		}
		h = l.next
	}
	return -1
}

// at returns the slot of (s, b), making a zero record when there is none.
// The state must be synced.
func (t *pairTable[T]) at(s uint32, b int32) int {
	if t.dense {
		return int(s)*int(t.layers) + int(b)
	}
	h := t.head[s]
	if h < -1 {
		ri := int(-h - 2)
		r := t.rowm[ri]
		if b < r.lo || b >= r.lo+r.n {
			r = t.regrow(r, b, r.lo, r.lo+r.n-1)
			t.rowm[ri] = r
		}
		i := r.start + b - r.lo
		if q := t.rows[i]; q != 0 {
			return int(q) - 1
		}
		p := t.add()
		t.rows[i] = int32(p) + 1
		return p
	}
	n := int32(0)
	lo, hi := b, b
	for i := h; i >= 0; i = t.links[i].next {
		l := t.links[i]
		if l.b == b {
			return int(l.slot)
		}
		lo, hi = min(lo, l.b), max(hi, l.b)
		n++
	}
	p := t.add()
	if n < t.chainMax {
		t.links = append(t.links, pairLink{b: b, slot: int32(p), next: h})
		t.head[s] = int32(len(t.links) - 1)
		return p
	}
	// The state's budgets outgrow a chain: give it a row. Its links stay
	// behind, unused (at most chainMax of them).
	r := t.regrow(pairRow{lo: b, n: 0}, b, lo, hi)
	for i := h; i >= 0; i = t.links[i].next {
		t.rows[r.start+t.links[i].b-r.lo] = t.links[i].slot + 1
	}
	t.rows[r.start+b-r.lo] = int32(p) + 1
	t.rowm = append(t.rowm, r)
	t.head[s] = int32(-len(t.rowm) - 1)
	return p
}

// regrow returns a new window for row r (n 0: a new row) that covers
// lo..hi and b and is at least twice as wide (within 0..layers-1), growing
// first towards b; the old window's slots are copied, its space left
// unused.
func (t *pairTable[T]) regrow(r pairRow, b, lo, hi int32) pairRow {
	lo, hi = min(lo, b), max(hi, b)
	want := min(t.layers, max(hi-lo+1, 2*r.n, 8*t.chainMax)) // radius below 64: all budgets at once
	for extra := want - (hi - lo + 1); extra > 0; extra = want - (hi - lo + 1) {
		if b <= lo || hi == t.layers-1 {
			lo = max(0, lo-extra)
		} else {
			hi = min(t.layers-1, hi+extra)
		}
		if b <= lo && lo == 0 {
			hi = min(t.layers-1, hi+want-(hi-lo+1))
		}
	}
	nr := pairRow{start: int32(len(t.rows)), lo: lo, n: hi - lo + 1}
	t.rows = append(t.rows, make([]int32, nr.n)...)
	if r.n > 0 {
		copy(t.rows[nr.start+r.lo-lo:], t.rows[r.start:r.start+r.n])
	}
	return nr
}

func (t *pairTable[T]) add() int {
	var zero T
	t.rec = append(t.rec, zero)
	return len(t.rec) - 1
}

// size is the number of (state, budget) pairs the table holds, as the
// bound counts them: its records plus half the budgets of its rows'
// windows (4 bytes each, old windows included: their space is not
// reused); dense, the states synced times the layers.
func (t *pairTable[T]) size() int64 {
	if t.dense {
		return int64(t.states) * int64(t.layers)
	}
	return int64(len(t.rec)) + int64(len(t.rows))/2
}
