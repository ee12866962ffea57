package prob

import (
	"context"
	"math/big"
	"math/rand/v2"
	"testing"
)

// s32qLongRing is an abstract ring of n classes (n beyond maxDiffPath, so
// that differences go through φ, the steps summed to a root) whose
// choices enter one class ahead with a weight of 1 and leave with tiny
// weights, with intervals that are not points (L, w and b a few ulps
// wide; the exact system reads their lower ends), values near 1 (b = L),
// near 0 (b = 10^-300·L) or rewards of 10^300, 10^-300.
func s32qLongRing(r *rand.Rand, n int, prob bool) [][]fchoice {
	pal := []float64{1e-9, 2e-9, 1e-9 + 1e-22, 0x1p-40, 1e-300, 1e-15}
	wide := func(x float64) ival {
		hi := x
		for range r.IntN(4) {
			hi = up(hi)
		}
		return ival{x, hi}
	}
	out := make([][]fchoice, n)
	for i := range n {
		for c := range 1 + r.IntN(3) {
			k := 1
			if c > 0 && r.IntN(2) == 0 {
				k = 1 + r.IntN(3)
			}
			fc := fchoice{to: []uint32{uint32((i + k) % n)}, w: []ival{wide(1)}}
			fc.L = wide(pal[r.IntN(len(pal))])
			if prob {
				f := []float64{1, 0, 1e-300, 0.5, 1 - 0x1p-52}[r.IntN(5)]
				fc.b = wide(fc.L.lo * f)
				if fc.b.lo > fc.L.lo {
					fc.b = wide(fc.L.lo)
				}
			} else {
				fc.b = wide([]float64{0, 1, 1e300, 1e-300, 7}[r.IntN(5)])
			}
			fc.E = iadd(fc.L, fc.w[0])
			out[i] = append(out[i], fc)
		}
	}
	return out
}

// TestS32qDiffNeedLongRings: the differences' bound of E_a·A must not be
// below the exact E_a·A for σ's exact values, on rings of 65 to 140
// classes (φ's sums over the whole path), for max and min.
func TestS32qDiffNeedLongRings(t *testing.T) {
	r := rand.New(rand.NewPCG(0x532, 0xd1f))
	checked, finite, viaPhi := 0, 0, 0
	for i := range 10 {
		prob := i%2 == 0
		n := 65 + r.IntN(76)
		ch := s32qLongRing(r, n, prob)
		sched := make([]int, n)
		for k := range sched {
			sched[k] = r.IntN(len(ch[k]))
		}
		if !properF(ch, sched) {
			continue
		}
		v, ok := solveChainFloat(context.Background(), ch, sched, prob)
		if !ok {
			continue
		}
		x := s32pChainExact(ch, sched)
		for k := range n {
			if !s31vIn(v[k], x[k]) {
				t.Fatalf("case %d: class %d: σ's interval [%v, %v] misses the exact value", i, k, v[k].lo, v[k].hi)
			}
		}
		dc := newDiffCert(ch, sched, v)
		for k := range n {
			for c := range ch[k] {
				if c == sched[k] {
					continue
				}
				fc := &ch[k][c]
				ea := s31vRat(fc.b.lo)
				ea.Sub(ea, new(big.Rat).Mul(s31vRat(fc.L.lo), x[k]))
				for t2, j := range fc.to {
					ea.Add(ea, new(big.Rat).Mul(s31vRat(fc.w[t2].lo), new(big.Rat).Sub(x[j], x[k])))
					if s32qWalk(dc, uint32(k), j) < 0 && s32qWalk(dc, j, uint32(k)) < 0 && dc.root[j] == dc.root[k] {
						viaPhi++
					}
				}
				for _, max := range []bool{true, false} {
					need := dc.need(fc, k, max)
					want := ea
					if !max {
						want = new(big.Rat).Neg(ea)
					}
					checked++
					if nr := new(big.Rat); nr.SetFloat64(need) != nil {
						finite++
						if nr.Cmp(want) < 0 {
							t.Fatalf("case %d max=%v class %d choice %d: need %v below E·A %s", i, max, k, c, need, want.FloatString(40))
						}
					}
				}
			}
		}
	}
	t.Logf("%d bounds checked (%d finite, %d targets reached through φ)", checked, finite, viaPhi)
	if finite < 400 || viaPhi == 0 {
		t.Errorf("only %d finite bounds, %d through φ", finite, viaPhi)
	}
}

// s32qWalk is the steps from i to j along σ within maxDiffPath, or -1.
func s32qWalk(d *diffCert, i, j uint32) int {
	k := int32(i)
	for s := range maxDiffPath {
		if d.next[k] < 0 {
			return -1
		}
		if k = d.next[k]; k == int32(j) {
			return s + 1
		}
	}
	return -1
}
