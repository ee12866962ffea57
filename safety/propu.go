package safety

import (
	"context"
)

// PropU is Prop-U (paper 002, Algorithm 2): it explores every pair
// reachable from the query under every available action, then propagates
// unsafety backwards from the unsafe pairs in linear time: per (pair,
// action) a flag "some outcome is unsafe", per pair a count of actions
// not yet flagged; a pair whose count reaches zero is unsafe and joins the
// queue (anchors: "Prop-U in linear time"). It stops as soon as the query
// is unsafe; otherwise every unflagged pair of the region is safe, with
// an unflagged action as its policy. Pairs already decided by earlier
// calls are leaves of the region. For finite r it runs on (state,
// remaining budget) pairs like iPI.
type PropU struct {
	base
	pt    pairTable[propuRec]
	epoch uint32

	// the region, rebuilt per call
	ns    []uint32 // node -> state
	nb    []int32  // node -> budget
	gFrom []uint32 // node -> first local group, plus sentinel
	gK    []uint32 // local group -> space group
	gSucc []uint32 // local group -> first entry in succ, plus sentinel
	succ  []uint32 // successor nodes
	cnt   []int32  // node -> actions not yet flagged
	flag  []bool   // local group -> flagged
	bad   []bool   // node -> known unsafe
}

// propuRec is Prop-U's record of a pair.
type propuRec struct {
	stamp uint32 // the call that put it in the region
	loc   uint32 // region index (valid when stamped)
}

// NewPropU returns Prop-U for radius r over sp.
func NewPropU(sp *Space, r Radius) *PropU {
	d := &PropU{base: newBase(sp, r, "propu")}
	d.pt = newPairTable[propuRec](d.r)
	// The region's transitions count too, one pair each (8 bytes in succ
	// and pred, 13 a group): with the nodes alone, 16 self-loop labels at
	// radius 2^20 on 100 states grew the region past 9 GB, "fatal error:
	// out of memory", before 2^26 nodes (session 20 refused it at once).
	d.held = func() int64 { return d.pt.size() + int64(len(d.succ)) }
	return d
}

func (d *PropU) node(s uint32, b int32) uint32 {
	d.pt.sync(d.sp.Len())
	q := d.pt.at(s, b) // before taking rec: at may grow it
	p := &d.pt.rec[q]
	if p.stamp == d.epoch {
		return p.loc
	}
	p.stamp = d.epoch
	p.loc = uint32(len(d.ns))
	d.ns = append(d.ns, s)
	d.nb = append(d.nb, b)
	return p.loc
}

// Decide reports whether id is r-safe.
func (d *PropU) Decide(ctx context.Context, id uint32) (bool, error) {
	if ans, ok, err := d.query(ctx, id); err != nil || ok {
		return ans, err
	}
	d.stats.Iters++
	d.epoch++
	d.ns, d.nb, d.gFrom, d.gK, d.gSucc, d.succ = d.ns[:0], d.nb[:0], d.gFrom[:0], d.gK[:0], d.gSucc[:0], d.succ[:0]
	d.gSucc = append(d.gSucc, 0)
	d.cnt, d.bad = d.cnt[:0], d.bad[:0]
	d.node(id, d.budget())
	var queue []uint32
	// Forward: the region, breadth first (node order is discovery order).
	for n := uint32(0); n < uint32(len(d.ns)); n++ {
		s, b := d.ns[n], d.nb[n]
		d.gFrom = append(d.gFrom, uint32(len(d.gK)))
		d.bad = append(d.bad, false)
		d.cnt = append(d.cnt, 0)
		if d.knownUnsafe(s, b) {
			d.bad[n] = true
			queue = append(queue, n)
			continue
		}
		if d.knownSafe(s, b) {
			continue
		}
		if err := d.expand(ctx, s); err != nil {
			return false, err
		}
		if d.sp.Deadlock(s) {
			continue
		}
		first, end := d.sp.Groups(s)
		for k := first; k < end; k++ {
			bp := b - d.cost(s, k)
			if bp < 0 {
				continue
			}
			d.gK = append(d.gK, k)
			for _, t := range d.sp.Succ(k) {
				d.succ = append(d.succ, d.node(t, bp))
			}
			d.gSucc = append(d.gSucc, uint32(len(d.succ)))
			d.cnt[n]++
		}
		if d.cnt[n] == 0 {
			// Applicable labels, but none within the budget.
			d.f.markUnsafe(s, b)
			d.bad[n] = true
			queue = append(queue, n)
		}
	}
	nn := uint32(len(d.ns))
	d.gFrom = append(d.gFrom, uint32(len(d.gK)))
	// The backward transitions of the region: per node, its (node, local
	// group) predecessors.
	pstart := make([]uint32, nn+1)
	for _, t := range d.succ {
		pstart[t+1]++
	}
	for i := uint32(0); i < nn; i++ {
		pstart[i+1] += pstart[i]
	}
	pred := make([]uint32, len(d.succ)) // local group indices
	fill := append([]uint32(nil), pstart[:nn]...)
	owner := make([]uint32, len(d.gK))
	for n := uint32(0); n < nn; n++ {
		for g := d.gFrom[n]; g < d.gFrom[n+1]; g++ {
			owner[g] = n
			for _, t := range d.succ[d.gSucc[g]:d.gSucc[g+1]] {
				pred[fill[t]] = g
				fill[t]++
			}
		}
	}
	d.flag = append(d.flag[:0], make([]bool, len(d.gK))...)
	// Backward: propagate.
	for qi := 0; qi < len(queue); qi++ {
		if qi&4095 == 4095 && ctx.Err() != nil {
			return false, context.Cause(ctx)
		}
		t := queue[qi]
		if t == 0 {
			return false, nil // the query is unsafe
		}
		for _, g := range pred[pstart[t]:pstart[t+1]] {
			if d.flag[g] {
				continue
			}
			d.flag[g] = true
			d.stats.Backups++
			n := owner[g]
			d.cnt[n]--
			if d.cnt[n] == 0 && !d.bad[n] {
				d.bad[n] = true
				d.f.markUnsafe(d.ns[n], d.nb[n])
				queue = append(queue, n)
			}
		}
	}
	// No unsafety reaches the query: every unflagged node is safe.
	for n := uint32(0); n < nn; n++ {
		if d.bad[n] || d.gFrom[n] == d.gFrom[n+1] {
			continue
		}
		for g := d.gFrom[n]; g < d.gFrom[n+1]; g++ {
			if !d.flag[g] {
				d.f.markSafe(d.ns[n], d.nb[n], d.gK[g])
				break
			}
		}
	}
	return true, nil
}
