package safety

import (
	"context"
	"errors"

	"vigil/symbolic/explicit"
)

// Tarjan is TarjanSafe (paper 000, Algorithm 2): a depth-first search for a
// safe policy over (state, budget) pairs that assumes the pairs on its
// stack safe and confirms a pair only at the root of its strongly
// connected component, with the yes/no budget caches. It is iterative
// (an explicit stack of frames), so deep models cannot overflow Go's stack.
//
// Where the pseudo-code is silent, this implementation keeps Tarjan's
// invariants sound: a child that returns "maybe safe" passes its lowlink
// up; when an action fails, every pair pushed while trying it is popped
// and forgotten (its tentative safety assumed an action that failed) and
// the lowlink is restored; a pair that fails is cached as not safe with
// its budget (failures are sound under any assumption of on-stack pairs,
// since assuming safety only helps); at an SCC root every pair of the SCC
// is cached safe with the action it chose. Pairs forgotten after a failed
// action are searched again when met again: on paper 002's Fig. 1 family
// no action fails and this TarjanSafe is linear (the exponential variant
// is NewTarjanPath), but on Flappy Bird it is exponential in the width
// (safety/FIGURES.md).
//
// Before it searches a pair, it looks one step ahead (decidedGroup): a
// group whose successors are all decided safe, or a free self-loop,
// settles the pair at once, where the pseudo-code would first search the
// groups listed before it (an always-applicable self-loop after a label
// that walks a range of 10^7 states).
type Tarjan struct {
	base
	path   bool // paper 002's Algorithm 1: only the DFS path counts as "on the stack"
	noLook bool // no decidedGroup look-ahead (for the figures' baseline)
	// per pair (tRec): its DFS index and lowlink while on the stack, and
	// looked: 1 + facts.safeTime when its look-ahead last failed (0:
	// never tried). It is tried again only when a state was proven safe
	// since; a successor that turned out a deadlock meanwhile is missed,
	// which costs time (the search decides), never an answer.
	pt      pairTable[tRec]
	stack   []tEntry
	frames  []tFrame
	counter int32
	// tarjan-path: the pairs pushed, and at the start of this question
	// the pushes and the records; the pushes of this question beyond its
	// new records are its revisits, which the bound counts (see MaxPairs)
	pushes, pushes0, size0 int64
}

// tRec is TarjanSafe's record of a pair (12 bytes).
type tRec struct {
	idx int32 // DFS index while on the stack, 0 otherwise
	low int32
	// TarjanSafe: looked (see Tarjan); tarjan-path, which never looks
	// ahead: 1 while the pair has a frame (is on the DFS path), else 0.
	aux uint32
}

type tEntry struct {
	s uint32
	b int32
	i int32  // its DFS index
	k uint32 // the group chosen (valid once the pair returned)
}

type tFrame struct {
	s        uint32
	b        int32
	k, end   uint32 // the group being tried, and the end of the groups
	j        int    // next successor of group k; -1: group k not started
	h        int    // stack height before trying group k
	lowSaved int32
	pos      int // the pair's position on the stack
	p        int // the pair's record
}

// NewTarjan returns TarjanSafe for radius r over sp.
func NewTarjan(sp *Space, r Radius) *Tarjan {
	return newTarjan(sp, r, "tarjan", false)
}

func newTarjan(sp *Space, r Radius, name string, path bool) *Tarjan {
	d := &Tarjan{base: newBase(sp, r, name), path: path}
	d.pt = newPairTable[tRec](d.r)
	d.held = d.pt.size
	if path {
		// Algorithm 1 searches a pair again each time it meets it off
		// the path: on the Fig. 1 family at a finite radius its work
		// grew as 2^D past the bound while its records stayed few. Its
		// revisits count as iPI's and nPI's do.
		d.again = func() int64 { return d.pushes - d.pushes0 - (d.pt.size() - d.size0) }
		d.heldWhat = "holds or revisits"
	}
	return d
}

// NewTarjanPath returns TarjanSafe as paper 002's Algorithm 1 runs it
// (JEA's implementation): a pair that returns "maybe safe" leaves the
// stack, so meeting it again searches it again, and only SCC roots are
// cached safe. This is the variant with the exponential worst case on the
// Fig. 1 family; it is here to measure that. Its safe answers are sound,
// but it does not keep what a safe certificate needs (the choices below
// the root), so Certify refuses them.
func NewTarjanPath(sp *Space, r Radius) *Tarjan {
	return newTarjan(sp, r, "tarjan-path", true)
}

// Decide reports whether id is r-safe.
func (d *Tarjan) Decide(ctx context.Context, id uint32) (bool, error) {
	if ans, ok, err := d.query(ctx, id); err != nil || ok {
		return ans, err
	}
	d.counter = 0
	d.pushes0, d.size0 = d.pushes, d.pt.size()
	ans, err := d.find(ctx, id, d.budget())
	if err != nil {
		d.popTo(0)
		d.frames = d.frames[:0]
		return false, err
	}
	return ans, nil
}

var errTooDeep = errors.New("safety: TarjanSafe: more than 2^31 expansions in one call")

// enter starts FindSafePolicy(s, b): it answers at once from the terminal
// status and the caches, or pushes a frame (pushed true).
func (d *Tarjan) enter(ctx context.Context, s uint32, b int32) (res, pushed bool, err error) {
	if safe, done, err := d.settle(ctx, s, b); done {
		return safe, false, err
	}
	d.pt.sync(d.sp.Len())
	p := d.pt.at(s, b)
	if !d.path && !d.noLook && d.pt.rec[p].aux != d.f.safeTime+1 {
		if k, y, ok := d.decidedGroup(s, b); ok {
			d.f.markSafe(s, y, k)
			return true, false, nil
		}
		d.pt.rec[p].aux = d.f.safeTime + 1
	}
	if d.counter == 1<<31-2 {
		return false, false, errTooDeep
	}
	d.counter++
	d.pushes++
	rp := &d.pt.rec[p]
	rp.idx, rp.low = d.counter, d.counter
	if d.path {
		rp.aux = 1 // on the path
	}
	d.stack = append(d.stack, tEntry{s: s, b: b, i: d.counter})
	first, end := d.sp.Groups(s)
	d.frames = append(d.frames, tFrame{s: s, b: b, k: first, end: end, j: -1, pos: len(d.stack) - 1, p: p})
	return false, true, nil
}

// decidedGroup looks one step ahead before s is searched: it returns a
// group k affordable with budget b whose every successor is already known
// safe with the budget left after k (a goal, an expanded deadlock, or a
// state proven safe with that budget), or is s itself when k costs nothing
// (a self-loop of the tested policy, or of any label when the radius is
// infinite: taking k forever never reaches an unsafe state, since s is not
// one). Then s is b-safe by k, whatever the other groups do, and searching
// them (the search tries groups in the model's order) would be wasted; y
// is the smallest budget with which k keeps s safe, so that the facts'
// invariant holds (a successor t needs yes[t] <= y - cost).
func (d *Tarjan) decidedGroup(s uint32, b int32) (k uint32, y int32, ok bool) {
	first, end := d.sp.Groups(s)
groups:
	for k := first; k < end; k++ {
		c := d.cost(s, k)
		if b-c < 0 {
			continue
		}
		y := c
		for _, t := range d.sp.Succ(k) {
			switch {
			case t == s && c == 0:
			case !d.knownSafe(t, b-c):
				continue groups
			case d.sp.status[t] == explicit.Goal || d.sp.IsExpanded(t) && d.sp.Deadlock(t):
			default:
				y = max(y, d.f.yes[t]+c)
			}
		}
		return k, y, true
	}
	return 0, 0, false
}

// popTo pops the stack down to height h, forgetting the popped pairs.
func (d *Tarjan) popTo(h int) {
	for _, e := range d.stack[h:] {
		if q := d.pt.find(e.s, e.b); d.pt.rec[q].idx == e.i {
			d.pt.rec[q].idx = 0
		}
	}
	d.stack = d.stack[:h]
}

func (d *Tarjan) find(ctx context.Context, s0 uint32, b0 int32) (bool, error) {
	res, pushed, err := d.enter(ctx, s0, b0)
	if err != nil || !pushed {
		return res, err
	}
	var ret, haveRet, retPending bool // retPending: the child stays on the stack
	var retLow int32
frames:
	for len(d.frames) > 0 {
		f := &d.frames[len(d.frames)-1]
		p := f.p
		if haveRet {
			haveRet = false
			if !ret {
				d.popTo(f.h)
				d.pt.rec[p].low = f.lowSaved
				f.k++
				f.j = -1
			} else {
				if retPending {
					d.pt.rec[p].low = min(d.pt.rec[p].low, retLow)
				}
				f.j++
			}
		}
	groups:
		for {
			if f.j < 0 {
				if f.k == f.end {
					// No action is safe within the budget.
					d.f.markUnsafe(f.s, f.b)
					d.popTo(f.pos)
					d.leave(p)
					d.frames = d.frames[:len(d.frames)-1]
					ret, haveRet = false, true
					continue frames
				}
				if f.b-d.cost(f.s, f.k) < 0 {
					f.k++
					continue
				}
				f.h, f.lowSaved, f.j = len(d.stack), d.pt.rec[p].low, 0
			}
			bp := f.b - d.cost(f.s, f.k)
			succ := d.sp.Succ(f.k)
			for f.j < len(succ) {
				t := succ[f.j]
				if tp := d.pt.find(t, bp); tp >= 0 && d.pt.rec[tp].idx != 0 && (!d.path || d.pt.rec[tp].aux != 0) {
					d.pt.rec[p].low = min(d.pt.rec[p].low, d.pt.rec[tp].idx)
					f.j++
					continue
				}
				r, pushed, err := d.enter(ctx, t, bp)
				if err != nil {
					return false, err
				}
				if pushed {
					continue frames
				}
				if !r {
					d.popTo(f.h)
					d.pt.rec[p].low = f.lowSaved
					f.k++
					f.j = -1
					continue groups
				}
				f.j++
			}
			break
		}
		// Group f.k is safe as far as this search can tell.
		d.stack[f.pos].k = f.k
		retPending, retLow = d.pt.rec[p].low != d.stack[f.pos].i, d.pt.rec[p].low
		switch {
		case !retPending:
			for _, e := range d.stack[f.pos:] {
				d.f.markSafe(e.s, e.b, e.k)
			}
			d.popTo(f.pos)
		case d.path:
			d.popTo(f.pos) // forgotten: only roots are confirmed
		}
		d.leave(p)
		d.frames = d.frames[:len(d.frames)-1]
		ret, haveRet = true, true
	}
	return ret, nil
}

// leave marks that pair p's frame is gone (for tarjan-path).
func (d *Tarjan) leave(p int) {
	if d.path {
		d.pt.rec[p].aux = 0
	}
}

func (d *Tarjan) certifiable() bool { return !d.path }
