package prob

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"
)

// layeredSpec draws an MDP of n states whose choices lead mostly to
// states up to w further on and some back (at most w), so that it falls
// into many strongly connected components of a few states, goal states
// among them: the topological solver (rewardii.go) solves each after
// those it leads to, from their final bounds. Weights up to 1000 make
// loops that keep a run for a while; half the rewards are 0 (end
// components of zero reward, states of value 0 beside infinite ones).
func layeredSpec(r *rand.Rand, n int) mdpSpec {
	sp := mdpSpec{goal: make([]bool, n), choices: make([][]choiceSpec, n)}
	w := 1 + r.IntN(5)
	for s := range n {
		if s > 0 && r.IntN(9) == 0 || s == n-1 {
			sp.goal[s] = true
			continue
		}
		if r.IntN(25) == 0 {
			continue // a deadlock: never reaches the goal
		}
		nc := 1
		if r.IntN(3) == 0 {
			nc += r.IntN(3)
		}
		for range nc {
			k := 1 + r.IntN(3)
			c := choiceSpec{rew: new(big.Rat)}
			if r.IntN(2) == 0 {
				c.rew = big.NewRat(int64(r.IntN(7)), int64(1+r.IntN(4)))
			}
			ws := make([]int64, k)
			var sum int64
			for i := range ws {
				ws[i] = 1 + int64(r.IntN(1000))
				sum += ws[i]
			}
			seen := map[uint32]int{}
			for i := range k {
				t := uint32(min(n-1, max(0, s-w)+r.IntN(2*w+2)))
				if j, ok := seen[t]; ok {
					c.p[j].Add(c.p[j], big.NewRat(ws[i], sum))
					continue
				}
				seen[t] = len(c.to)
				c.to = append(c.to, t)
				c.p = append(c.p, big.NewRat(ws[i], sum))
			}
			sp.choices[s] = append(sp.choices[s], c)
		}
	}
	return sp
}

// TestRewardComponentsAgreeWithExact (s27q): on MDPs of up to 64 states
// in many components, the ii bounds of Emin and Emax enclose the exact
// method's values (policy iteration on the whole model, which shares
// nothing with the component-by-component solver), and infinite values
// are infinite for both.
func TestRewardComponentsAgreeWithExact(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 17))
	for i := range 400 {
		sp := layeredSpec(r, 5+r.IntN(60))
		m, rew := sp.model()
		for _, max := range []bool{false, true} {
			name := fmt.Sprintf("mdp%d/max=%v", i, max)
			ex, err := SolveReward(context.Background(), m, sp.goal, rew, SolveOptions{Max: max, Method: Exact})
			if err != nil {
				t.Fatalf("%s: exact: %v", name, err)
			}
			opt := SolveOptions{Max: max, Epsilon: []float64{1e-6, 1e-9, 1e-2}[i%3]}
			if i%4 == 0 {
				opt.Epsilon, opt.Absolute = 1e-6, true
			}
			ii, err := SolveReward(context.Background(), m, sp.goal, rew, opt)
			if err != nil {
				t.Fatalf("%s: ii: %v\n%s", name, err, specText(sp))
			}
			for s, want := range ex.Exact {
				lo, hi := ii.Lower[s], ii.Upper[s]
				if want == nil {
					if lo < 1e308 {
						t.Fatalf("%s: state %d: ii [%g, %g], exact inf\n%s", name, s, lo, hi, specText(sp))
					}
					continue
				}
				if new(big.Rat).SetFloat64(lo).Cmp(want) > 0 || new(big.Rat).SetFloat64(hi).Cmp(want) < 0 {
					w, _ := want.Float64()
					t.Fatalf("%s: state %d: ii [%v, %v] misses %v = %s\n%s", name, s, lo, hi, w, want.RatString(), specText(sp))
				}
			}
		}
	}
}

// TestRewardCollapsedRingDirect (s27q): two end components of reward 0
// ({0, 1} and {2, 3}) that Emin collapses into classes, each left by
// one choice of positive reward, the first to the goal with 1/(3·10^15)
// and otherwise into the second, which returns: a chain component of two
// classes that iteration would take about 10^15 sweeps on, solved
// directly (with the other states of each class at the same value).
// Its bounds must enclose the exact 1.36·10^16, and Emax, whose
// scheduler may stay in a zero loop for ever, is infinite.
func TestRewardCollapsedRingDirect(t *testing.T) {
	one := big.NewRat(1, 1)
	zero := new(big.Rat)
	q := big.NewRat(1, 3_000_000_000_000_000)
	nq := new(big.Rat).Sub(one, q)
	sp := mdpSpec{goal: []bool{false, false, false, false, true}, choices: [][]choiceSpec{
		{{to: []uint32{1}, p: []*big.Rat{one}, rew: zero}, {to: []uint32{2, 4}, p: []*big.Rat{nq, q}, rew: big.NewRat(1, 3)}},
		{{to: []uint32{0}, p: []*big.Rat{one}, rew: zero}},
		{{to: []uint32{3}, p: []*big.Rat{one}, rew: zero}},
		{{to: []uint32{2}, p: []*big.Rat{one}, rew: zero}, {to: []uint32{1, 2}, p: []*big.Rat{big.NewRat(1, 3), big.NewRat(2, 3)}, rew: big.NewRat(7, 5)}},
		nil}}
	m, rew := sp.model()
	for _, max := range []bool{false, true} {
		ex, err := SolveReward(context.Background(), m, sp.goal, rew, SolveOptions{Max: max, Method: Exact})
		if err != nil {
			t.Fatal(err)
		}
		ii, err := SolveReward(context.Background(), m, sp.goal, rew, SolveOptions{Max: max})
		if err != nil {
			t.Fatalf("max=%v: %v", max, err)
		}
		for s := range 4 {
			want := ex.Exact[s]
			lo, hi := ii.Lower[s], ii.Upper[s]
			switch {
			case max && (want != nil || lo < 1e308):
				t.Errorf("Emax state %d: exact %v, ii [%g, %g]; want inf", s, want, lo, hi)
			case !max && (want == nil || new(big.Rat).SetFloat64(lo).Cmp(want) > 0 || new(big.Rat).SetFloat64(hi).Cmp(want) < 0 || hi-lo > 1e-6*hi):
				t.Errorf("Emin state %d: ii [%v, %v], exact %v", s, lo, hi, want)
			}
		}
	}
}
