package safety

import (
	"context"
)

func growU32(a []uint32, n int) []uint32 {
	if len(a) >= n {
		return a
	}
	m := max(n, len(a)+len(a)/2)
	return append(a, make([]uint32, m-len(a))...)
}

// orders builds a state's action order (available groups only) for iPI and
// nPI.
type orders struct {
	order Order
	seed  uint64
}

func (o orders) build(d *base, s uint32, b int32, dst []uint32) []uint32 {
	first, end := d.sp.Groups(s)
	start := len(dst)
	if o.order == OrderLearn {
		if pg := d.sp.PolicyGroup(s); pg >= 0 {
			dst = append(dst, uint32(pg))
		}
	}
	for k := first; k < end; k++ {
		if b-d.cost(s, k) < 0 {
			continue
		}
		if o.order == OrderLearn && int32(k) == d.sp.PolicyGroup(s) {
			continue
		}
		dst = append(dst, k)
	}
	if o.order == OrderRand {
		// A fixed permutation per state (splitmix64 of seed and state), so
		// that every iteration and call sees the same order.
		x := o.seed ^ (uint64(s)+1)*0x9e3779b97f4a7c15
		seg := dst[start:]
		for i := len(seg) - 1; i > 0; i-- {
			x += 0x9e3779b97f4a7c15
			z := x
			z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
			z = (z ^ (z >> 27)) * 0x94d049bb133111eb
			z ^= z >> 31
			j := int(z % uint64(i+1))
			seg[i], seg[j] = seg[j], seg[i]
		}
	}
	return dst
}

// IPI is improved policy iteration (paper 002, Algorithm 4) over (state,
// budget) pairs: a depth-first construction of a policy in the action
// order that marks a pair unsafe when every action has an unsafe outcome,
// repeated until an iteration marks nothing new (then the policy it built
// is safe) or the root is marked.
//
// The paper's line 12 also raises saw-unsafe when the search merely meets a
// known-unsafe pair; read literally the outer loop then never ends on a
// safe state whose first action is unsafe (every iteration meets the same
// pair). As the text and Appendix B intend, an iteration is repeated only
// when it marked a new pair unsafe: without new marks, every pair it
// visited chose an action whose outcomes all returned maybe-safe, a policy
// closed under outcomes that avoids unsafe states.
//
// Paper 002 defines iPI and nPI for r = infinity; for finite r they run on
// the pairs (state, remaining budget), where an action that deviates from
// the tested policy costs one unit and is unavailable at budget 0.
type IPI struct {
	base
	pt      pairTable[ipiRec]
	ord     orders
	epoch   uint32
	visited []uint64 // pairs seen this iteration (state<<32 | budget)
	frames  []iFrame
	obuf    []uint32
	newMark bool
	// revisits counts the pairs an iteration of this call enters that an
	// earlier iteration entered: an iteration that marks one pair may walk
	// many again, and the bound counts them (see NPI), so the work of a
	// call stays within it.
	revisits int64
}

// ipiRec is iPI's record of a pair.
type ipiRec struct {
	seen   uint32 // iteration stamp
	chosen uint32 // the group that returned maybe-safe
}

type iFrame struct {
	s      uint32
	b      int32
	o0, oi int // order in obuf[o0:o1]; current position
	o1     int
	j      int
}

// NewIPI returns iPI with opt.Order for radius r over sp.
func NewIPI(sp *Space, r Radius, opt Options) *IPI {
	d := &IPI{base: newBase(sp, r, "ipi("+opt.Order.String()+")"), ord: orders{opt.Order, opt.Seed}}
	d.pt = newPairTable[ipiRec](d.r)
	d.held = d.pt.size
	d.again = func() int64 { return d.revisits }
	d.heldWhat = "holds or revisits"
	return d
}

// Decide reports whether id is r-safe.
func (d *IPI) Decide(ctx context.Context, id uint32) (bool, error) {
	if ans, ok, err := d.query(ctx, id); err != nil || ok {
		return ans, err
	}
	b := d.budget()
	d.revisits = 0 // the bound is on one question's work
	for {
		d.stats.Iters++
		d.epoch++
		d.newMark = false
		d.visited = d.visited[:0]
		ok, err := d.rec(ctx, id, b)
		if err != nil {
			d.frames, d.obuf = d.frames[:0], d.obuf[:0]
			return false, err
		}
		if !ok {
			return false, nil
		}
		if !d.newMark {
			for _, v := range d.visited {
				s, vb := uint32(v>>32), int32(uint32(v))
				d.f.markSafe(s, vb, d.pt.rec[d.pt.find(s, vb)].chosen)
			}
			return true, nil
		}
	}
}

// enter is the head of rec-iPI: it answers unsafe/maybe-safe at once, or
// pushes a frame.
func (d *IPI) enter(ctx context.Context, s uint32, b int32) (safe, pushed bool, err error) {
	if d.knownUnsafe(s, b) {
		return false, false, nil
	}
	if p := d.pt.find(s, b); p >= 0 && d.pt.rec[p].seen == d.epoch {
		return true, false, nil
	}
	if safe, done, err := d.settle(ctx, s, b); done {
		return safe, false, err
	}
	d.pt.sync(d.sp.Len())
	p := d.pt.at(s, b) // before indexing rec: at may grow it
	if d.pt.rec[p].seen != 0 {
		d.revisits++
	}
	d.pt.rec[p].seen = d.epoch
	d.visited = append(d.visited, uint64(s)<<32|uint64(uint32(b)))
	o0 := len(d.obuf)
	d.obuf = d.ord.build(&d.base, s, b, d.obuf)
	d.frames = append(d.frames, iFrame{s: s, b: b, o0: o0, oi: o0, o1: len(d.obuf)})
	return false, true, nil
}

// rec runs rec-iPI(s) with an explicit stack; it returns false for unsafe.
func (d *IPI) rec(ctx context.Context, s0 uint32, b0 int32) (bool, error) {
	safe, pushed, err := d.enter(ctx, s0, b0)
	if err != nil || !pushed {
		return safe, err
	}
	var ret, haveRet bool
frames:
	for len(d.frames) > 0 {
		f := &d.frames[len(d.frames)-1]
		if haveRet {
			haveRet = false
			if ret {
				f.j++
			} else {
				f.oi++
				f.j = 0
			}
		}
		for f.oi < f.o1 {
			k := d.obuf[f.oi]
			bp := f.b - d.cost(f.s, k)
			succ := d.sp.Succ(k)
			for f.j < len(succ) {
				safe, pushed, err := d.enter(ctx, succ[f.j], bp)
				if err != nil {
					return false, err
				}
				if pushed {
					continue frames
				}
				if !safe {
					break
				}
				f.j++
			}
			if f.j == len(succ) {
				d.pt.rec[d.pt.find(f.s, f.b)].chosen = k
				d.obuf = d.obuf[:f.o0]
				d.frames = d.frames[:len(d.frames)-1]
				ret, haveRet = true, true
				continue frames
			}
			f.oi++
			f.j = 0
		}
		// Every action has an unsafe outcome: the pair is unsafe.
		d.f.markUnsafe(f.s, f.b)
		d.newMark = true
		d.obuf = d.obuf[:f.o0]
		d.frames = d.frames[:len(d.frames)-1]
		ret, haveRet = false, true
	}
	return ret, nil
}

// NPI is naive policy iteration (paper 002, Algorithm 3) over (state,
// budget) pairs: evaluate the current policy by one post-order pass over its
// envelope that marks pairs whose every action has a known-unsafe outcome,
// stop when the envelope holds no unsafe pair or the root is marked, else
// make the policy greedy (an action without known-unsafe outcomes where
// there is one) over the pairs it reaches and repeat. The initial policy
// takes the first action of the action order (learn: the tested policy).
//
// An iteration may mark a single pair while it walks many: on a model
// where every pair is unsafe and each walk marks one more, nPI's work grows
// with the pairs times the walks' length while its records stay far below
// the bound (radius 2^20 on 101 states iterated for minutes, a billion
// expansions, never refused). So the bound counts, beside the records,
// every visit in this call of a pair an earlier walk visited: a call's
// work is its visits, the first ones are new records, so it answers or is
// refused after at most about MaxPairs visits. (Counted over the
// decider's life, a long batch of cheap questions would be refused.)
type NPI struct {
	base
	pt       pairTable[npiRec]
	ord      orders
	epoch    uint32
	obuf     []uint32
	stack    []nFrame
	post     []uint64
	revisits int64 // this call's visits of pairs an earlier walk visited
}

// npiRec is nPI's record of a pair.
type npiRec struct {
	pol   uint32 // group+1 of the current policy, 0 none
	stamp uint32
}

type nFrame struct {
	s uint32
	b int32
	j int
}

// NewNPI returns nPI for radius r over sp.
func NewNPI(sp *Space, r Radius, opt Options) *NPI {
	d := &NPI{base: newBase(sp, r, "npi("+opt.Order.String()+")"), ord: orders{opt.Order, opt.Seed}}
	d.pt = newPairTable[npiRec](d.r)
	d.held = d.pt.size
	d.again = func() int64 { return d.revisits }
	d.heldWhat = "holds or revisits"
	return d
}

// qSafe reports whether group k of s has no known-unsafe outcome with the
// remaining budget (Q(s,a) = 0).
func (d *NPI) qSafe(s uint32, b int32, k uint32) bool {
	bp := b - d.cost(s, k)
	if bp < 0 {
		return false
	}
	for _, t := range d.sp.Succ(k) {
		if d.knownUnsafe(t, bp) {
			return false
		}
	}
	return true
}

// walk visits the policy graph from (s0, b0) depth first and returns the
// visited pairs in post order; choose picks (and stores) a node's group
// when greedy is set, else the stored policy is followed (and initialised
// from the action order where undefined).
func (d *NPI) walk(ctx context.Context, s0 uint32, b0 int32, greedy bool) ([]uint64, error) {
	d.epoch++
	d.post = d.post[:0]
	visit := func(s uint32, b int32) (bool, error) {
		d.pt.sync(d.sp.Len())
		p := d.pt.at(s, b)
		switch d.pt.rec[p].stamp {
		case d.epoch:
			return false, nil
		case 0:
		default:
			d.revisits++
		}
		d.pt.rec[p].stamp = d.epoch
		if d.knownUnsafe(s, b) || d.knownSafe(s, b) {
			d.post = append(d.post, uint64(s)<<32|uint64(uint32(b)))
			return false, nil
		}
		if err := d.expand(ctx, s); err != nil {
			return false, err
		}
		d.pt.sync(d.sp.Len())
		if d.sp.Deadlock(s) {
			return false, nil
		}
		cur := d.pt.rec[p].pol
		if greedy || cur == 0 {
			d.obuf = d.ord.build(&d.base, s, b, d.obuf[:0])
			pick := uint32(0)
			if greedy && cur != 0 && d.qSafe(s, b, cur-1) {
				pick = cur
			}
			for _, k := range d.obuf {
				if pick != 0 {
					break
				}
				if !greedy || d.qSafe(s, b, k) {
					pick = k + 1
				}
			}
			if pick == 0 && len(d.obuf) > 0 {
				pick = d.obuf[0] + 1
			}
			d.pt.rec[p].pol = pick
		}
		d.stack = append(d.stack, nFrame{s: s, b: b})
		return true, nil
	}
	if _, err := visit(s0, b0); err != nil {
		return nil, err
	}
	for len(d.stack) > 0 {
		f := &d.stack[len(d.stack)-1]
		g := d.pt.rec[d.pt.find(f.s, f.b)].pol
		if g != 0 {
			k := g - 1
			succ := d.sp.Succ(k)
			if f.j < len(succ) {
				t, bp := succ[f.j], f.b-d.cost(f.s, k)
				f.j++
				if _, err := visit(t, bp); err != nil {
					d.stack = d.stack[:0]
					return nil, err
				}
				continue
			}
		}
		d.post = append(d.post, uint64(f.s)<<32|uint64(uint32(f.b)))
		d.stack = d.stack[:len(d.stack)-1]
	}
	return d.post, nil
}

// Decide reports whether id is r-safe.
func (d *NPI) Decide(ctx context.Context, id uint32) (bool, error) {
	if ans, ok, err := d.query(ctx, id); err != nil || ok {
		return ans, err
	}
	b0 := d.budget()
	d.revisits = 0 // the bound is on one question's work
	for {
		d.stats.Iters++
		env, err := d.walk(ctx, id, b0, false)
		if err != nil {
			return false, err
		}
		sawUnsafe := false
		for _, v := range env {
			s, b := uint32(v>>32), int32(uint32(v))
			if !d.knownUnsafe(s, b) && !d.knownSafe(s, b) {
				d.obuf = d.ord.build(&d.base, s, b, d.obuf[:0])
				all := true
				for _, k := range d.obuf {
					if d.qSafe(s, b, k) {
						all = false
						break
					}
				}
				if all {
					d.f.markUnsafe(s, b)
				}
			}
			if d.knownUnsafe(s, b) {
				sawUnsafe = true
			}
		}
		if d.knownUnsafe(id, b0) {
			return false, nil
		}
		if !sawUnsafe {
			for _, v := range env {
				s, b := uint32(v>>32), int32(uint32(v))
				if d.sp.Status(s) == 0 && !d.sp.Deadlock(s) && d.f.yes[s] > b {
					d.f.markSafe(s, b, d.pt.rec[d.pt.find(s, b)].pol-1)
				}
			}
			return true, nil
		}
		if _, err := d.walk(ctx, id, b0, true); err != nil {
			return false, err
		}
	}
}
