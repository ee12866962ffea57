package safety

import (
	"math/rand/v2"
	"testing"
)

// TestPairTable checks the pair table against a map: every pair keeps the
// slot it got first, slots are distinct, find answers -1 for untouched
// pairs, and records keep their contents, whatever order the budgets come
// in (chains, rows, windows that grow both ways, dense tables), and the
// pairs indexed stay near the pairs touched when a state's budgets are
// near each other.
func TestPairTable(t *testing.T) {
	for _, r := range []Radius{Inf, 0, 1, 2, 3, 10, 50, 1000, MaxRadius} {
		for seed := uint64(1); seed <= 20; seed++ {
			rng := rand.New(rand.NewPCG(seed, uint64(r)+7))
			layers := int32(1)
			if r >= 0 {
				layers = int32(r) + 1
			}
			pt := newPairTable[uint64](r)
			spread := r >= 0 && r <= 1000
			const states = 50
			pt.sync(states)
			want := map[[2]int64]int{}
			key := func(s uint32, b int32) [2]int64 { return [2]int64{int64(s), int64(b)} }
			for range 3000 {
				s := uint32(rng.IntN(states))
				// Budgets spread over the radius (small radii), or
				// within 20 of a budget of the state's own.
				b := int32(rng.IntN(int(layers)))
				if !spread {
					c := int32(uint64(s)*2654435761%uint64(layers)) - 10
					b = min(layers-1, max(0, c+int32(rng.IntN(21))))
				}
				p, ok := want[key(s, b)]
				if f := pt.find(s, b); ok != (f >= 0 && (!pt.dense || pt.rec[f] != 0)) || ok && f != p {
					t.Fatalf("radius %v seed %d: find(%d, %d) = %d, want %d (known %v)", r, seed, s, b, f, p, ok)
				}
				q := pt.at(s, b)
				if ok && q != p {
					t.Fatalf("radius %v seed %d: at(%d, %d) = %d, was %d", r, seed, s, b, q, p)
				}
				if !ok {
					if pt.rec[q] != 0 {
						t.Fatalf("radius %v seed %d: new slot %d of (%d, %d) not zero", r, seed, q, s, b)
					}
					pt.rec[q] = uint64(s)<<32 | uint64(b) + 1
					want[key(s, b)] = q
				}
			}
			seen := map[int]bool{}
			for k, p := range want {
				if seen[p] {
					t.Fatalf("radius %v seed %d: slot %d twice", r, seed, p)
				}
				seen[p] = true
				if pt.rec[p] != uint64(k[0])<<32|uint64(k[1])+1 || pt.find(uint32(k[0]), int32(k[1])) != p {
					t.Fatalf("radius %v seed %d: pair %v lost its record", r, seed, k)
				}
			}
			if !spread && !pt.dense && pt.size() > int64(len(want))+int64(states)*(64+2*min(int64(layers), 100)) {
				t.Errorf("radius %v seed %d: %d pairs indexed for %d touched", r, seed, pt.size(), len(want))
			}
		}
	}
}
