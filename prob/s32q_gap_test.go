package prob

import (
	"context"
	"math/big"
	"testing"
	"time"
)

// TestS32qZeroedEntryReward: state 1 (reward 2^-70) goes to the goal with
// 1 - 2^-1100 and with 2^-1100 (a float64 0) to state 2, which collects
// 2^1000 and then reaches the goal: E = 2^-70 + 2^(re-e) exactly. The plain Bellman
// sum drops the zeroed entry's product (up to 2^-53, far above the rounding
// margin relative to 2^-70): the bounds must still hold 2^-100, or the
// solver must refuse.
func TestS32qZeroedEntryReward(t *testing.T) {
	for _, e := range []uint{1076, 1080, 1100} {
		for _, re := range []uint{1000, 1023} {
			tiny := new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), e))
			rest := new(big.Rat).Sub(big.NewRat(1, 1), tiny)
			big2 := new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), re))
			one := big.NewRat(1, 1)
			for _, loop := range []bool{false, true} {
				sp := mdpSpec{goal: []bool{true, false, false}, choices: make([][]choiceSpec, 3)}
				r1 := new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), 70))
				sp.choices[1] = []choiceSpec{{to: []uint32{0, 2}, p: []*big.Rat{rest, tiny}, rew: r1}}
				sp.choices[2] = []choiceSpec{{to: []uint32{0}, p: []*big.Rat{one}, rew: big2}}
				want := new(big.Rat).Add(r1, new(big.Rat).Mul(tiny, big2))
				wf, _ := want.Float64()
				if loop {
					// state 1 also stays with 1/2 (the division path)
					half := big.NewRat(1, 2)
					sp.choices[1] = []choiceSpec{{to: []uint32{1, 0, 2}, p: []*big.Rat{half, new(big.Rat).Mul(rest, half), new(big.Rat).Mul(tiny, half)}, rew: new(big.Rat).Mul(r1, half)}}
				}
				for _, max := range []bool{true, false} {
					m, rew := sp.model()
					ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
					res, err := SolveReward(ctx, m, sp.goal, rew, SolveOptions{Max: max, Method: II})
					cancel()
					if err != nil {
						t.Logf("2^-%d·2^%d loop=%v max=%v: %v", e, re, loop, max, err)
						// the way on the refusal names: the exact method
						ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
						ex, err := SolveReward(ctx, m, sp.goal, rew, SolveOptions{Max: max, Method: Exact})
						cancel()
						if err != nil || !s32pHolds(ex, 1, want) {
							t.Errorf("2^-%d·2^%d loop=%v max=%v: exact: %v", e, re, loop, max, err)
						}
						continue
					}
					if !s32pHolds(res, 1, want) {
						t.Errorf("2^-%d·2^%d loop=%v max=%v: [%g, %g] misses %g", e, re, loop, max, res.Lower[1], res.Upper[1], wf)
					}
				}
			}
		}
	}
}
