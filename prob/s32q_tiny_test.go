package prob

import (
	"context"
	"math/big"
	"testing"
	"time"
)

// TestS32qTinyEntryRing: a ring of two states left with 10^-300 a step
// (to the goal), with an outcome of 2^-1076 (a float64 0) or 2^-1010 into
// a sink. Both direct solutions declined on entries below 2^-1000, and
// interval iteration needs about 10^300 sweeps: Pmax ran until --timeout.
// The float64 solution now reads such an entry as an interval that holds
// its rational; the answer must come at once (the context is a hang
// guard) and hold the exact value 10^-300/(10^-300 + t) (Pmax, Pmin),
// and the expected steps likewise (Emax, Emin over the runs that reach
// the goal surely: none here with the sink, so a ring of reward 1 that
// reaches the goal with t replaced by a second goal entry).
func TestS32qTinyEntryRing(t *testing.T) {
	one := big.NewRat(1, 1)
	e := s31vRat(1e-300)
	for _, k := range []uint{1010, 1030, 1076, 1100} {
		tiny := new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), k))
		for _, reward := range []bool{false, true} {
			sp := mdpSpec{goal: []bool{false, false, true, false}, choices: make([][]choiceSpec, 4)}
			side := uint32(3)
			if reward {
				side = 2 // the goal again: every run reaches it
			}
			stay := new(big.Rat).Sub(one, e)
			sp.choices[0] = []choiceSpec{{to: []uint32{1, 2, side}, p: []*big.Rat{new(big.Rat).Sub(stay, tiny), e, tiny}, rew: one}}
			sp.choices[1] = []choiceSpec{{to: []uint32{0}, p: []*big.Rat{one}, rew: one}}
			sp.choices[3] = []choiceSpec{{to: []uint32{3}, p: []*big.Rat{one}, rew: new(big.Rat)}}
			m, rew := sp.model()
			for _, max := range []bool{true, false} {
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				var res *Result
				var err error
				if reward {
					res, err = SolveReward(ctx, m, sp.goal, rew, SolveOptions{Max: max})
				} else {
					res, err = Solve(ctx, m, sp.goal, SolveOptions{Max: max})
				}
				stopped := ctx.Err() != nil
				cancel()
				if stopped || err != nil {
					t.Errorf("2^-%d reward=%v max=%v: %v (stopped %v)", k, reward, max, err, stopped)
					continue
				}
				want := s31vBrute(sp, max, reward)
				if s, ok := s32qEncloses(res.Lower, res.Upper, want); !ok {
					wf, _ := want[s].Float64()
					t.Errorf("2^-%d reward=%v max=%v: state %d: [%v, %v] misses %v", k, reward, max, s, res.Lower[s], res.Upper[s], wf)
				}
			}
		}
	}
}
