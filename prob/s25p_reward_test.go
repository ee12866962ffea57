package prob

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"

	"vigil/symbolic/explicit"
)

// mdpSpec is a small MDP written by hand or generated: choices[s] are the
// choices of state s, each a distribution over successors with a reward.
type mdpSpec struct {
	goal    []bool
	choices [][]choiceSpec
}

type choiceSpec struct {
	to  []uint32
	p   []*big.Rat
	rew *big.Rat
}

// model builds the sparse Model of sp (no generator: only what the
// solvers read).
func (sp mdpSpec) model() (*Model, []*big.Rat) {
	m := &Model{RowStart: []uint32{0}, EntryStart: []uint32{0}}
	var rew []*big.Rat
	for s := range sp.goal {
		st := explicit.Open
		if sp.goal[s] {
			st = explicit.Goal
		}
		m.Status = append(m.Status, st)
		for _, c := range sp.choices[s] {
			for i, t := range c.to {
				m.To = append(m.To, t)
				f, _ := c.p[i].Float64()
				m.P = append(m.P, f)
				m.Exact = append(m.Exact, c.p[i])
			}
			m.EntryStart = append(m.EntryStart, uint32(len(m.To)))
			m.Label = append(m.Label, 0)
			m.Cmd = append(m.Cmd, 0)
			rew = append(rew, c.rew)
		}
		m.RowStart = append(m.RowStart, uint32(len(m.Cmd)))
	}
	m.Starts = 1
	return m, rew
}

// randomSpec draws an MDP of n states: about a fifth goal states, some
// deadlocks, up to three choices of up to three successors, rewards 0
// (often, for end components of zero reward) to 3 with denominators up
// to 4.
func randomSpec(r *rand.Rand, n int) mdpSpec {
	sp := mdpSpec{goal: make([]bool, n), choices: make([][]choiceSpec, n)}
	for s := range n {
		if s > 0 && r.IntN(5) == 0 {
			sp.goal[s] = true
			continue
		}
		if r.IntN(12) == 0 {
			continue // a deadlock: never reaches the goal
		}
		for range 1 + r.IntN(3) {
			k := 1 + r.IntN(3)
			c := choiceSpec{rew: new(big.Rat)}
			if r.IntN(3) > 0 {
				c.rew = big.NewRat(int64(r.IntN(7)), int64(1+r.IntN(4)))
			}
			ws := make([]int64, k)
			var sum int64
			for i := range ws {
				ws[i] = 1 + int64(r.IntN(4))
				sum += ws[i]
			}
			seen := map[uint32]int{}
			for i := range k {
				t := uint32(r.IntN(n))
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

// bruteForce is the reference: the best over every deterministic
// memoryless scheduler (which suffice for expected total rewards) of its
// value, infinite (nil) where it misses the goal with positive
// probability, each solved by dense exact elimination.
func bruteForce(sp mdpSpec, max bool) []*big.Rat {
	n := len(sp.goal)
	pick := make([]int, n)
	var best []*big.Rat
	bestSet := false
	for {
		v := schedValue(sp, pick)
		if !bestSet {
			best, bestSet = v, true
		} else {
			for s := range n {
				switch {
				case max && (best[s] == nil || v[s] == nil):
					best[s] = nil
				case max:
					if v[s].Cmp(best[s]) > 0 {
						best[s] = v[s]
					}
				case v[s] == nil:
				case best[s] == nil || v[s].Cmp(best[s]) < 0:
					best[s] = v[s]
				}
			}
		}
		i := 0
		for ; i < n; i++ {
			if pick[i]+1 < len(sp.choices[i]) {
				pick[i]++
				break
			}
			pick[i] = 0
		}
		if i == n {
			return best
		}
	}
}

func schedValue(sp mdpSpec, pick []int) []*big.Rat {
	n := len(sp.goal)
	// canGoal[s]: s reaches the goal in the chain.
	canGoal := chainCanReach(sp, pick)
	// sure[s]: every state reachable from s reaches the goal.
	sure := make([]bool, n)
	for s := range n {
		seen := map[int]bool{s: true}
		stack := []int{s}
		sure[s] = true
		for len(stack) > 0 {
			u := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if !canGoal[u] {
				sure[s] = false
				break
			}
			for _, t := range chainSucc(sp, pick, u) {
				if !seen[int(t)] {
					seen[int(t)] = true
					stack = append(stack, int(t))
				}
			}
		}
	}
	// Dense system over the sure, non-goal states: x - P x = r.
	x := chainSolve(sp, pick, sure, func(c choiceSpec) *big.Rat { return c.rew })
	out := make([]*big.Rat, n)
	for s := range n {
		switch {
		case sp.goal[s]:
			out[s] = new(big.Rat)
		case sure[s]:
			out[s] = x[s]
		}
	}
	return out
}

func ratText(x *big.Rat) string {
	if x == nil {
		return "inf"
	}
	return x.RatString()
}

// TestRewardMethodsAgree compares, on many small generated MDPs, the
// exact method, the bounds of the ii method (relative epsilon, and
// absolute for a third of them) and the brute-force
// reference, for Emin and Emax from every state.
func TestRewardMethodsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 1))
	for i := range 1000 {
		sp := randomSpec(r, 2+r.IntN(7))
		m, rew := sp.model()
		for _, max := range []bool{false, true} {
			name := fmt.Sprintf("mdp%d/max=%v", i, max)
			want := bruteForce(sp, max)
			ex, err := SolveReward(context.Background(), m, sp.goal, rew, SolveOptions{Max: max, Method: Exact})
			if err != nil {
				t.Fatalf("%s: exact: %v", name, err)
			}
			abs := i%3 == 0 // half the MDPs with an absolute epsilon
			ii, err := SolveReward(context.Background(), m, sp.goal, rew, SolveOptions{Max: max, Epsilon: 1e-9, Absolute: abs})
			if err != nil {
				t.Fatalf("%s: ii: %v\n%s", name, err, specText(sp))
			}
			for s := range want {
				got := ex.Exact[s]
				if (got == nil) != (want[s] == nil) || got != nil && got.Cmp(want[s]) != 0 {
					t.Fatalf("%s: state %d: exact %s, brute force %s\n%+v", name, s, ratText(got), ratText(want[s]), sp)
				}
				lo, hi := ii.Lower[s], ii.Upper[s]
				if want[s] == nil {
					if lo != hi || hi < 1e308 {
						t.Fatalf("%s: state %d: ii [%g, %g], want inf", name, s, lo, hi)
					}
					continue
				}
				if new(big.Rat).SetFloat64(lo).Cmp(want[s]) > 0 || new(big.Rat).SetFloat64(hi).Cmp(want[s]) < 0 {
					t.Fatalf("%s: state %d: ii [%g, %g] misses %s", name, s, lo, hi, want[s].RatString())
				}
				if w, _ := want[s].Float64(); !abs && hi-lo > 1e-8*w+1e-300 || abs && hi-lo > 1e-8 {
					t.Fatalf("%s: state %d: ii [%g, %g] wider than epsilon", name, s, lo, hi)
				}
			}
		}
	}
}

// TestRewardGeometric: a retry that succeeds with probability 1/2 takes 2
// steps on average; with the choice of a sure success costing 3, Emin
// is 2 and Emax 3; a zero-reward self-loop beside it must not make Emin
// 0 (staying forever misses the goal, which is infinite).
func TestRewardGeometric(t *testing.T) {
	h := big.NewRat(1, 2)
	one := big.NewRat(1, 1)
	sp := mdpSpec{goal: []bool{false, true}, choices: [][]choiceSpec{{
		{to: []uint32{0, 1}, p: []*big.Rat{h, h}, rew: one},
		{to: []uint32{1}, p: []*big.Rat{one}, rew: big.NewRat(3, 1)},
		{to: []uint32{0}, p: []*big.Rat{one}, rew: new(big.Rat)},
	}, nil}}
	m, rew := sp.model()
	for _, c := range []struct {
		max  bool
		want string
	}{{false, "2"}, {true, "inf"}} {
		for _, meth := range []Method{Exact, II} {
			res, err := SolveReward(context.Background(), m, sp.goal, rew, SolveOptions{Max: c.max, Method: meth})
			if err != nil {
				t.Fatal(err)
			}
			got := fmt.Sprintf("[%g, %g]", res.Lower[0], res.Upper[0])
			if meth == Exact {
				got = ratText(res.Exact[0])
			}
			if c.want == "inf" && res.Lower[0] < 1e308 || c.want == "2" && (res.Lower[0] > 2 || res.Upper[0] < 2 || res.Upper[0]-res.Lower[0] > 1e-5) {
				t.Errorf("max=%v %s: %s, want %s", c.max, meth, got, c.want)
			}
		}
	}
	// Without the zero loop every scheduler reaches the goal: Emax 3.
	sp.choices[0] = sp.choices[0][:2]
	m, rew = sp.model()
	res, err := SolveReward(context.Background(), m, sp.goal, rew, SolveOptions{Max: true, Method: Exact})
	if err != nil || ratText(res.Exact[0]) != "3" {
		t.Fatalf("Emax without the loop: %v %v", res.Exact, err)
	}
}

func specText(sp mdpSpec) string {
	s := ""
	for i := range sp.goal {
		s += fmt.Sprintf("%d goal=%v:", i, sp.goal[i])
		for _, c := range sp.choices[i] {
			s += fmt.Sprintf(" [r=%s", c.rew.RatString())
			for j, t := range c.to {
				s += fmt.Sprintf(" %s->%d", c.p[j].RatString(), t)
			}
			s += "]"
		}
		s += "\n"
	}
	return s
}

// TestRewardSlowLoops: a retry that succeeds with probability 1e-6 takes
// 10^6 steps on average; a self-loop is solved in one sweep (the value of
// repeating it until it leaves), and a two-state cycle that leaves with
// probability 1e-5 a round (2·10^5 steps) still converges, within bounds.
func TestRewardSlowLoops(t *testing.T) {
	one := big.NewRat(1, 1)
	p := big.NewRat(1, 1000000)
	q := new(big.Rat).Sub(one, p)
	self := mdpSpec{goal: []bool{false, true}, choices: [][]choiceSpec{{{to: []uint32{0, 1}, p: []*big.Rat{q, p}, rew: one}}, nil}}
	p5 := big.NewRat(1, 100000)
	q5 := new(big.Rat).Sub(one, p5)
	cycle := mdpSpec{goal: []bool{false, false, true}, choices: [][]choiceSpec{
		{{to: []uint32{1}, p: []*big.Rat{one}, rew: one}},
		{{to: []uint32{0, 2}, p: []*big.Rat{q5, p5}, rew: one}}, nil}}
	for _, c := range []struct {
		name  string
		sp    mdpSpec
		want  float64
		sweep int
	}{{"self-loop", self, 1e6, 5}, {"cycle", cycle, 2e5, 0}} {
		m, rew := c.sp.model()
		for _, max := range []bool{false, true} {
			res, err := SolveReward(context.Background(), m, c.sp.goal, rew, SolveOptions{Max: max})
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if res.Lower[0] > c.want || res.Upper[0] < c.want || res.Upper[0]-res.Lower[0] > 1e-6*c.want {
				t.Errorf("%s max=%v: [%g, %g], want %g", c.name, max, res.Lower[0], res.Upper[0], c.want)
			}
			if c.sweep > 0 && res.Iterations > c.sweep {
				t.Errorf("%s max=%v: %d sweeps", c.name, max, res.Iterations)
			}
			t.Logf("%s max=%v: [%.12g, %.12g] in %d sweeps, %v", c.name, max, res.Lower[0], res.Upper[0], res.Iterations, res.Elapsed)
		}
	}
}
