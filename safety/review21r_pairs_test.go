package safety

import (
	"math/rand/v2"
	"testing"
)

// TestReview21rPairTableOrders drives the pair table with the orders a
// search meets: one state's budgets descending from the top, ascending
// from 0, alternating around the middle, both edges first, and random
// jumps, at radii around the chain and window sizes, against a map.
func TestReview21rPairTableOrders(t *testing.T) {
	radii := []Radius{2, 3, 4, 5, 8, 9, 23, 24, 25, 62, 63, 64, 65, 66, 127, 128, 129, 1000, 1 << 16, MaxRadius}
	for _, r := range radii {
		L := int32(r) + 1
		orders := map[string][]int32{}
		var desc, asc, mid, edges, rnd, stride []int32
		for i := int32(0); i < min(L, 3000); i++ {
			desc = append(desc, L-1-i)
			asc = append(asc, i)
			m := L / 2
			if i%2 == 0 {
				mid = append(mid, min(L-1, m+i/2))
			} else {
				mid = append(mid, max(0, m-i/2-1))
			}
		}
		edges = []int32{0, L - 1, 1, L - 2, L / 2, 0, L - 1}
		for i := int32(0); i < min(L, 200); i++ {
			edges = append(edges, i, L-1-i)
		}
		rng := rand.New(rand.NewPCG(uint64(r), 9))
		for range 3000 {
			rnd = append(rnd, int32(rng.IntN(int(L))))
		}
		for i := int32(0); i < min(L, 3000); i++ {
			stride = append(stride, (i*67)%L)
		}
		orders["desc"], orders["asc"], orders["mid"], orders["edges"], orders["rand"], orders["stride"] = desc, asc, mid, edges, rnd, stride
		for name, seq := range orders {
			pt := newPairTable[uint64](r)
			pt.sync(3)
			want := map[[2]int32]int{}
			for i, b := range seq {
				s := uint32(i % 3)
				if name == "rand" || name == "stride" {
					s = 1
				}
				k := [2]int32{int32(s), b}
				p, ok := want[k]
				if f := pt.find(s, b); ok != (f >= 0 && (!pt.dense || pt.rec[f] != 0)) || ok && f != p {
					t.Fatalf("radius %v %s step %d: find(%d, %d) = %d, want %d (%v)", r, name, i, s, b, f, p, ok)
				}
				q := pt.at(s, b)
				if ok && q != p {
					t.Fatalf("radius %v %s step %d: at(%d, %d) = %d, was %d", r, name, i, s, b, q, p)
				}
				if !ok {
					if pt.rec[q] != 0 {
						t.Fatalf("radius %v %s: slot %d reused", r, name, q)
					}
					pt.rec[q] = uint64(s)<<32 | uint64(b) + 1
					want[k] = q
				}
			}
			for k, p := range want {
				if pt.find(uint32(k[0]), k[1]) != p || pt.rec[p] != uint64(k[0])<<32|uint64(k[1])+1 {
					t.Fatalf("radius %v %s: pair %v lost", r, name, k)
				}
			}
			for _, row := range pt.rowm {
				if row.lo < 0 || row.n <= 0 || row.lo+row.n > L {
					t.Fatalf("radius %v %s: window %+v outside 0..%d", r, name, row, L-1)
				}
			}
			// A state's windows (old ones kept) take at most about eight
			// times the span of its budgets (each doubling grows towards the
			// budget met, so that budgets met alternately below and above
			// the window double it twice for a span just above its width),
			// or 64 at least.
			lo, hi := map[int32]int32{}, map[int32]int32{}
			for k := range want {
				if l, ok := lo[k[0]]; !ok || k[1] < l {
					lo[k[0]] = k[1]
				}
				hi[k[0]] = max(hi[k[0]], k[1])
			}
			limit := int64(0)
			for s, l := range lo {
				limit += 8*int64(hi[s]-l+1) + 128
			}
			if !pt.dense && int64(len(pt.rows)) > limit {
				t.Errorf("radius %v %s: %d window budgets, more than %d", r, name, len(pt.rows), limit)
			}
		}
	}
}
