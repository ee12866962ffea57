package prob

import (
	"context"
	"math/big"
	"testing"
	"time"
)

// s33qBFSRingSpec is the JANI reward ring of bench/adversarial/
// s32p_reward_ring_3000.txtar (expected steps: go to x + 1 leaving to the
// goal with 10^-7, alt to x + 7 leaving with 3·10^-7; Emin = 10^7/3, Emax
// = 10^7) with its states numbered as the JANI import numbers them:
// breadth-first from 0, successors in the order of the edges'
// destinations (go's x + 1 and goal, alt's x + 7 and goal).
func s33qBFSRingSpec(n int) mdpSpec {
	one := big.NewRat(1, 1)
	q := big.NewRat(1, 10_000_000)
	q3 := big.NewRat(3, 10_000_000)
	goal := n
	succ := func(x int) [][2]int { // per choice: (ring successor, goal)
		return [][2]int{{(x + 1) % n, goal}, {(x + 7) % n, goal}}
	}
	num := map[int]int{0: 0}
	queue := []int{0}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		if x == goal {
			continue
		}
		for _, c := range succ(x) {
			for _, y := range c {
				if _, ok := num[y]; !ok {
					num[y] = len(num)
					queue = append(queue, y)
				}
			}
		}
	}
	sp := mdpSpec{goal: make([]bool, n+1), choices: make([][]choiceSpec, n+1)}
	sp.goal[num[goal]] = true
	for x := range n {
		c := succ(x)
		sp.choices[num[x]] = []choiceSpec{
			{to: []uint32{uint32(num[c[0][0]]), uint32(num[goal])}, p: []*big.Rat{new(big.Rat).Sub(one, q), q}, rew: big.NewRat(1, 1)},
			{to: []uint32{uint32(num[c[1][0]]), uint32(num[goal])}, p: []*big.Rat{new(big.Rat).Sub(one, q3), q3}, rew: big.NewRat(1, 1)},
		}
	}
	return sp
}

// TestS33qBFSRewardRing: the JANI reward ring's Emin at 3000 states, in
// the import's breadth-first numbering, was `unknown` at 120 s: floating
// policy iteration from the scheduler read off the Gauss-Seidel lower
// bounds needs about 700 rounds (9 switches a round), and each budgeted
// attempt started over. The bounds must hold 10^7/3 (Emin) and 10^7
// (Emax); the 5-minute context is a hang guard, not a time limit.
func TestS33qBFSRewardRing(t *testing.T) {
	sp := s33qBFSRingSpec(3000)
	m, rew := sp.model()
	for _, c := range []struct {
		max  bool
		want *big.Rat
	}{{false, big.NewRat(10_000_000, 3)}, {true, big.NewRat(10_000_000, 1)}} {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		t0 := time.Now()
		res, err := SolveReward(ctx, m, sp.goal, rew, SolveOptions{Max: c.max})
		cancel()
		if err != nil {
			t.Fatalf("max=%v: %v (%v)", c.max, err, time.Since(t0))
		}
		t.Logf("max=%v: [%v, %v] in %v, %d sweeps, float %d, rational %d", c.max, res.Lower[0], res.Upper[0], time.Since(t0), res.Iterations, res.FloatComponents, res.RationalComponents)
		lo, hi := new(big.Rat).SetFloat64(res.Lower[0]), new(big.Rat).SetFloat64(res.Upper[0])
		if lo.Cmp(c.want) > 0 || hi.Cmp(c.want) < 0 {
			t.Errorf("max=%v: [%v, %v] misses %s", c.max, res.Lower[0], res.Upper[0], c.want.FloatString(9))
		}
		if d := res.Upper[0] - res.Lower[0]; d > 1e-6*res.Lower[0] {
			t.Errorf("max=%v: [%v, %v] not within 1e-6", c.max, res.Lower[0], res.Upper[0])
		}
	}
}
