package prob

import (
	"context"
	"math/big"
	"strings"
	"testing"
	"time"
)

// s33pZeroExitSpec: state 0 stays with 1 - 2^-k and leaves to state 1
// with 2^-k (a float64 0 for k ≥ 1076); states 1 and 2 form a ring left
// with 10^-9 a step (to the goal 3 and the sink 4) and returns to 0 with
// 10^-9, so the component {0, 1, 2} keeps changing for about 10^10 sweeps
// while state 0's bound on the optimising side cannot move.
func s33pZeroExitSpec(k uint) mdpSpec {
	one := big.NewRat(1, 1)
	tiny := new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), k))
	e := big.NewRat(1, 1_000_000_000)
	sp := mdpSpec{goal: []bool{false, false, false, true, false}, choices: make([][]choiceSpec, 5)}
	sp.choices[0] = []choiceSpec{{to: []uint32{0, 1}, p: []*big.Rat{new(big.Rat).Sub(one, tiny), tiny}, rew: one}}
	sp.choices[1] = []choiceSpec{{to: []uint32{2, 3}, p: []*big.Rat{new(big.Rat).Sub(one, e), e}, rew: one}}
	sp.choices[2] = []choiceSpec{{to: []uint32{0, 1, 4}, p: []*big.Rat{e, new(big.Rat).Sub(one, new(big.Rat).Mul(e, big.NewRat(2, 1))), e}, rew: one}}
	sp.choices[4] = []choiceSpec{{to: []uint32{4}, p: []*big.Rat{one}, rew: new(big.Rat)}}
	return sp
}

// TestS33pZeroExitRefused: a component with a class that leaves only
// through entries that are 0 in float64 was iterated until --timeout
// (both direct solutions decline it, and the class's upper bound for max,
// lower bound for min, cannot move). Interval iteration must now refuse
// at once (the 20 s context is a hang guard), naming --method exact, and
// the exact method must give the value the brute force gives.
func TestS33pZeroExitRefused(t *testing.T) {
	for _, k := range []uint{1076, 1100, 1500} {
		sp := s33pZeroExitSpec(k)
		m, _ := sp.model()
		for _, max := range []bool{true, false} {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			t0 := time.Now()
			res, err := Solve(ctx, m, sp.goal, SolveOptions{Max: max})
			stopped := ctx.Err() != nil
			cancel()
			if stopped {
				t.Errorf("2^-%d max=%v: iterated until the deadline (%v): %v", k, max, time.Since(t0), err)
				continue
			}
			want := s31vBrute(sp, max, false)
			if err == nil {
				t.Logf("2^-%d max=%v: [%g, %g] float %d rat %d it %d", k, max, res.Lower[0], res.Upper[0], res.FloatComponents, res.RationalComponents, res.Iterations)
				// an answer is allowed if it holds the exact value
				if s, ok := s32qEncloses(res.Lower, res.Upper, want); !ok {
					t.Errorf("2^-%d max=%v: state %d: [%v, %v] misses the exact value", k, max, s, res.Lower[s], res.Upper[s])
				}
				continue
			}
			t.Logf("2^-%d max=%v: %v (%v)", k, max, err, time.Since(t0))
			if !strings.Contains(err.Error(), "--method exact") {
				t.Errorf("2^-%d max=%v: the refusal does not name the exact method: %v", k, max, err)
			}
			ctx, cancel = context.WithTimeout(context.Background(), 20*time.Second)
			ex, err := Solve(ctx, m, sp.goal, SolveOptions{Max: max, Method: Exact})
			cancel()
			if err != nil {
				t.Errorf("2^-%d max=%v: exact: %v", k, max, err)
				continue
			}
			for s, w := range want {
				if ex.Exact[s] == nil || ex.Exact[s].Cmp(w) != 0 {
					t.Errorf("2^-%d max=%v: exact: state %d: %v, want %v", k, max, s, ex.Exact[s], w)
				}
			}
		}
	}
}
