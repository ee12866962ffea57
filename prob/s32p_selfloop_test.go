package prob

import (
	"context"
	"math/big"
	"testing"
	"time"
)

// TestS32pTinySelfLoop: one class that stays with 1 - 2^-e (1 in
// float64) and leaves to the goal with a third of 2^-e and to a sink with
// two thirds (Pr = 1/3), or only to the goal (expected steps 2^e), for e
// from 950 (where a probability was iterated until --timeout: 2^950
// sweeps) through the subnormal range. Each answer comes at once (a
// stopped solver fails the test: the context is a hang guard) and its
// bounds hold the exact value, or the solver refuses (a reward beyond
// float64).
func TestS32pTinySelfLoop(t *testing.T) {
	for _, e := range []uint{950, 1010, 1030, 1060, 1074, 1100} {
		tiny := new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), e))
		third := new(big.Rat).Mul(tiny, big.NewRat(1, 3))
		twoThirds := new(big.Rat).Mul(tiny, big.NewRat(2, 3))
		stay := new(big.Rat).Sub(big.NewRat(1, 1), tiny)
		one := big.NewRat(1, 1)
		sp := mdpSpec{goal: []bool{true, false, false}, choices: make([][]choiceSpec, 3)}
		sp.choices[1] = []choiceSpec{{to: []uint32{1, 0, 2}, p: []*big.Rat{stay, third, twoThirds}, rew: one}}
		sp.choices[2] = []choiceSpec{{to: []uint32{2}, p: []*big.Rat{one}, rew: new(big.Rat)}}
		// a second choice that leaves at once, with 1/2 to the goal
		spMDP := sp
		spMDP.choices = append([][]choiceSpec{}, sp.choices...)
		spMDP.choices[1] = append([]choiceSpec{{to: []uint32{0, 2}, p: []*big.Rat{big.NewRat(1, 2), big.NewRat(1, 2)}, rew: one}}, sp.choices[1]...)
		spR := mdpSpec{goal: []bool{true, false}, choices: make([][]choiceSpec, 2)}
		spR.choices[1] = []choiceSpec{{to: []uint32{1, 0}, p: []*big.Rat{stay, tiny}, rew: one}}
		steps := new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), e))
		for _, max := range []bool{true, false} {
			for _, meth := range []Method{II, Exact} {
				for k, c := range []struct {
					sp   mdpSpec
					want *big.Rat
				}{{sp, big.NewRat(1, 3)}, {spMDP, map[bool]*big.Rat{true: big.NewRat(1, 2), false: big.NewRat(1, 3)}[max]}} {
					m, _ := c.sp.model()
					ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
					res, err := Solve(ctx, m, c.sp.goal, SolveOptions{Max: max, Method: meth})
					cancel()
					if err != nil {
						t.Fatalf("2^-%d P%d max=%v %s: %v", e, k, max, meth, err)
					}
					if !s32pHolds(res, 1, c.want) {
						t.Errorf("2^-%d P%d max=%v %s: [%g, %g] misses %s", e, k, max, meth, res.Lower[1], res.Upper[1], c.want.FloatString(6))
					}
				}
				if meth == Exact && e >= 1024 {
					continue // 2^e is beyond float64: the exact method's report names a state, which these models without a generator cannot
				}
				m, rew := spR.model()
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				res, err := SolveReward(ctx, m, spR.goal, rew, SolveOptions{Max: max, Method: meth})
				stopped := ctx.Err() != nil
				cancel()
				switch {
				case stopped:
					t.Fatalf("2^-%d E max=%v %s: stopped: %v", e, max, meth, err)
				case err != nil:
					t.Logf("2^-%d E max=%v %s: %v", e, max, meth, err)
				case !s32pHolds(res, 1, steps):
					t.Errorf("2^-%d E max=%v %s: [%g, %g] misses 2^%d", e, max, meth, res.Lower[1], res.Upper[1], e)
				}
			}
		}
	}
}

// s32pHolds says whether res's bounds (or exact value) of state s hold x.
func s32pHolds(res *Result, s int, x *big.Rat) bool {
	if res.Exact != nil {
		return res.Exact[s].Cmp(x) == 0
	}
	lo, hi := new(big.Rat), new(big.Rat)
	lo.SetFloat64(res.Lower[s])
	if hi.SetFloat64(res.Upper[s]) == nil {
		return false
	}
	return lo.Cmp(x) <= 0 && hi.Cmp(x) >= 0
}
