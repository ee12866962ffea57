package prob

import (
	"context"
	"math/big"
	"testing"
	"time"
)

// TestS33pCumulativeTinyEntry: the bounded iteration's slack for entries
// below 2^-1022 (bounded.go's round, session 32), on its own. State 0
// collects 2^-70 and moves to the sink 1 with 1 - 2^-e and to state 2
// with 2^-e (a float64 0 or a subnormal), which collects 2^re and moves
// to the sink: the expected reward of the first k ≥ 2 steps is 2^-70 +
// 2^(re-e) exactly. The float64 product of the entry and state 2's bound
// loses up to 2^-1075·2^re, far beyond the relative rounding margin of a
// sum of 2^-70: without the slack, the upper bound misses the value (the
// lower bound is 2^-70 either way).
func TestS33pCumulativeTinyEntry(t *testing.T) {
	pow2 := func(k int) *big.Rat {
		if k >= 0 {
			return new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), uint(k)))
		}
		return new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), uint(-k)))
	}
	one := big.NewRat(1, 1)
	checked := 0
	for _, e := range []int{1030, 1074, 1076, 1080, 1100} {
		for _, re := range []int{1000, 1023} {
			if re-e < -200 {
				continue
			}
			tiny := pow2(-e)
			r0 := pow2(-70)
			sp := mdpSpec{goal: []bool{false, false, false}, choices: make([][]choiceSpec, 3)}
			sp.choices[0] = []choiceSpec{{to: []uint32{1, 2}, p: []*big.Rat{new(big.Rat).Sub(one, tiny), tiny}, rew: r0}}
			sp.choices[1] = []choiceSpec{{to: []uint32{1}, p: []*big.Rat{one}, rew: new(big.Rat)}}
			sp.choices[2] = []choiceSpec{{to: []uint32{1}, p: []*big.Rat{one}, rew: pow2(re)}}
			m, rew := sp.model()
			want := new(big.Rat).Add(r0, new(big.Rat).Mul(tiny, pow2(re)))
			for _, k := range []int{2, 3} {
				for _, max := range []bool{true, false} {
					ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
					res, err := cumulative(ctx, m, append([]*big.Rat(nil), rew...), k, SolveOptions{Max: max})
					cancel()
					if err != nil {
						t.Errorf("2^-%d·2^%d k=%d max=%v: %v", e, re, k, max, err)
						continue
					}
					checked++
					lo, hi := new(big.Rat).SetFloat64(res.Lower[0]), new(big.Rat).SetFloat64(res.Upper[0])
					if lo == nil || hi == nil || lo.Cmp(want) > 0 || hi.Cmp(want) < 0 {
						wf, _ := want.Float64()
						t.Errorf("2^-%d·2^%d k=%d max=%v: [%v, %v] misses %v", e, re, k, max, res.Lower[0], res.Upper[0], wf)
					}
				}
			}
		}
	}
	if checked < 30 {
		t.Fatalf("only %d bounds checked", checked)
	}
}
