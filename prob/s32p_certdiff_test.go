package prob

import (
	"context"
	"math/big"
	"math/rand/v2"
	"testing"
)

// s32pChainExact solves σ's chain of an abstract component (point
// intervals, E = L + Σ w exactly) in rationals.
func s32pChainExact(ch [][]fchoice, sched []int) []*big.Rat {
	n := len(ch)
	a := make([][]*big.Rat, n)
	b := make([]*big.Rat, n)
	for i := range n {
		fc := &ch[i][sched[i]]
		a[i] = make([]*big.Rat, n)
		for j := range n {
			a[i][j] = new(big.Rat)
		}
		e := s31vRat(fc.L.lo)
		for t, j := range fc.to {
			w := s31vRat(fc.w[t].lo)
			e.Add(e, w)
			a[i][j].Sub(a[i][j], w)
		}
		a[i][i].Add(a[i][i], e)
		b[i] = s31vRat(fc.b.lo)
	}
	return s31vSolveDense(a, b)
}

// s32pRingAbstract is an abstract ring of n classes that keeps inside
// with a weight near 1 (one successor per choice, k ahead, as the MDP
// rings), leaving with one of a palette of tiny weights; its choices are
// near ties by construction (the same leaving weights, shuffled).
func s32pRingAbstract(r *rand.Rand, n int, prob bool) [][]fchoice {
	pal := []float64{1e-9, 2e-9, 1e-9 + 1e-22, 0x1p-40, 1e-300, 1.0 / 3}
	out := make([][]fchoice, n)
	for i := range n {
		for range 1 + r.IntN(3) {
			k := 1 + r.IntN(min(3, n-1)) // (no self-loop: the form drops them)
			fc := fchoice{to: []uint32{uint32((i + k) % n)}, w: []ival{point(1)}}
			fc.L = point(pal[r.IntN(len(pal))])
			if prob {
				fc.b = point(fc.L.lo * []float64{0, 1, 0.5, 0.25}[r.IntN(4)]) // exact: a power of two
			} else {
				fc.b = point([]float64{0, 1, 7, 1e-300}[r.IntN(4)])
			}
			fc.E = iadd(fc.L, fc.w[0])
			// (E = L + w rounded outwards: it holds the exact sum the
			// reference reads)
			out[i] = append(out[i], fc)
		}
	}
	return out
}

// TestS32pDiffNeedSound: the bound of E_a·A through differences of values
// (certdiff.go) against E_a·A in rationals, for σ's exact values enclosed
// in the float64 elimination's intervals, on random abstract components
// (s31vAbstract) and rings of near ties (s32pRingAbstract), every
// non-σ choice, max and min. A bound below the exact figure would let
// certify accept a scheduler it must not.
func TestS32pDiffNeedSound(t *testing.T) {
	r := rand.New(rand.NewPCG(32, 0xd1f))
	checked, tight := 0, 0
	for i := range 1000 {
		prob := i%2 == 0
		var ch [][]fchoice
		if i%3 == 0 {
			ch = s31vAbstract(r, 1+r.IntN(6), prob)
		} else {
			ch = s32pRingAbstract(r, 2+r.IntN(7), prob)
		}
		n := len(ch)
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
				xf, _ := x[k].Float64()
				t.Fatalf("case %d: class %d: σ's interval [%v, %v] misses %v\n%+v %v", i, k, v[k].lo, v[k].hi, xf, ch, sched)
			}
		}
		dc := newDiffCert(ch, sched, v)
		for k := range n {
			for c := range ch[k] {
				if c == sched[k] {
					continue
				}
				fc := &ch[k][c]
				// E·A = b - L·x_k + Σ w (x_j - x_k), exactly
				ea := s31vRat(fc.b.lo)
				ea.Sub(ea, new(big.Rat).Mul(s31vRat(fc.L.lo), x[k]))
				for t2, j := range fc.to {
					ea.Add(ea, new(big.Rat).Mul(s31vRat(fc.w[t2].lo), new(big.Rat).Sub(x[j], x[k])))
				}
				for _, max := range []bool{true, false} {
					need := dc.need(fc, k, max)
					want := ea
					if !max {
						want = new(big.Rat).Neg(ea)
					}
					checked++
					if nr := new(big.Rat); nr.SetFloat64(need) != nil {
						if nr.Cmp(want) < 0 {
							t.Fatalf("case %d max=%v class %d choice %d: need %v below E·A %s\n%+v sched %v", i, max, k, c, need, want.FloatString(30), ch, sched)
						}
						d, _ := new(big.Rat).Sub(nr, want).Float64()
						if w, _ := want.Float64(); d <= 1e-9*max2(w, -w)+1e-300 {
							tight++
						}
					}
				}
			}
		}
	}
	t.Logf("%d bounds checked, %d within 1e-9 relative", checked, tight)
	if checked < 1500 {
		t.Errorf("only %d bounds checked", checked)
	}
}

func max2(a, b float64) float64 {
	if a > b {
		return a
	}
	return b
}

// TestS32pCertifyRings: floating policy iteration with its certificate
// (now with sure improvements and differences of values) on rings of near
// ties, from random schedulers, stopped after 1, 2 or 100 rounds: the
// certified side must bound the optimum over every scheduler (brute
// force in rationals), the other side be on the right side of it.
func TestS32pCertifyRings(t *testing.T) {
	defer func() { floatRoundsTest, diffOffTest = 0, false }()
	r := rand.New(rand.NewPCG(32, 0x71e))
	certified, cases, before := 0, 0, 0
	for i := range 150 {
		floatRoundsTest = []int{1, 2, 0}[i%3]
		prob := i%2 == 0
		ch := s32pRingAbstract(r, 2+r.IntN(5), prob)
		n := len(ch)
		for _, max := range []bool{false, true} {
			sched := make([]int, n)
			for k := range sched {
				sched[k] = r.IntN(len(ch[k]))
			}
			cases++
			diffOffTest = true
			if _, ok := floatPolicyIteration(context.Background(), ch, append([]int{}, sched...), max, true, prob); ok {
				before++
			}
			diffOffTest = false
			v, ok := floatPolicyIteration(context.Background(), ch, sched, max, true, prob)
			if !ok {
				continue
			}
			certified++
			want := s31vAbstractOpt(ch, max)
			for k := range n {
				if !s31vIn(v[k], want[k]) {
					t.Fatalf("case %d max=%v prob=%v class %d: [%v, %v] misses the optimum %s\n%+v sched %v", i, max, prob, k, v[k].lo, v[k].hi, want[k].FloatString(30), ch, sched)
				}
			}
		}
	}
	t.Logf("%d of %d certified (%d without the differences)", certified, cases, before)
	if certified < cases/2 {
		t.Errorf("only %d of %d certified", certified, cases)
	}
}
