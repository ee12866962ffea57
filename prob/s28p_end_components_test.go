package prob

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"
	"time"
)

// stickySpec draws an MDP of n states built against value iteration: most
// choices stay in a cycle of the model (to another state, or to their
// own: a self-loop) with 1 - q for q as small as 10^-12 and leave with q,
// some choices loop on their own state for ever (end components, of
// reward 0 or not), and the last state is the goal. Iteration alone
// takes about 1/q sweeps on such components; the solvers must solve them
// directly (policy iteration) and stay sound.
func stickySpec(r *rand.Rand, n int) mdpSpec {
	sp := mdpSpec{goal: make([]bool, n), choices: make([][]choiceSpec, n)}
	sp.goal[n-1] = true
	qs := []*big.Rat{big.NewRat(1, 1_000_000), big.NewRat(1, 1_000_000_000), big.NewRat(1, 1_000_000_000_000), big.NewRat(1, 3), big.NewRat(7, 10_000_000_000)}
	reward := func() *big.Rat {
		if r.IntN(3) == 0 {
			return new(big.Rat)
		}
		return big.NewRat(int64(1+r.IntN(5)), int64(1+r.IntN(3)))
	}
	for s := range n - 1 {
		if r.IntN(15) == 0 {
			continue // a deadlock
		}
		for range 1 + r.IntN(2) {
			c := choiceSpec{rew: reward()}
			switch r.IntN(5) {
			case 0: // an end component of one state
				c.to, c.p = []uint32{uint32(s)}, []*big.Rat{big.NewRat(1, 1)}
			default: // stay with 1 - q, else leave
				q := qs[r.IntN(len(qs))]
				stay := uint32(r.IntN(n - 1))
				leave := uint32(r.IntN(n))
				if r.IntN(2) == 0 {
					leave = uint32(n - 1)
				}
				if stay == leave {
					c.to, c.p = []uint32{stay}, []*big.Rat{big.NewRat(1, 1)}
					break
				}
				c.to = []uint32{stay, leave}
				c.p = []*big.Rat{new(big.Rat).Sub(big.NewRat(1, 1), q), new(big.Rat).Set(q)}
			}
			sp.choices[s] = append(sp.choices[s], c)
		}
	}
	return sp
}

// reachValue is the probability of reaching the goal under the
// deterministic memoryless scheduler pick, per state, by dense exact
// elimination over the states that can reach the goal in its chain.
func reachValue(sp mdpSpec, pick []int) []*big.Rat {
	n := len(sp.goal)
	can := chainCanReach(sp, pick)
	x := chainSolve(sp, pick, can, func(c choiceSpec) *big.Rat {
		r := new(big.Rat)
		for e, t := range c.to {
			if sp.goal[t] {
				r.Add(r, c.p[e])
			}
		}
		return r
	})
	out := make([]*big.Rat, n)
	for s := range n {
		switch {
		case sp.goal[s]:
			out[s] = big.NewRat(1, 1)
		case can[s]:
			out[s] = x[s]
		default:
			out[s] = new(big.Rat)
		}
	}
	return out
}

// chainSucc is the successors of s in the chain of the deterministic
// memoryless scheduler pick (none for goal and dead-end states).
func chainSucc(sp mdpSpec, pick []int, s int) []uint32 {
	if sp.goal[s] || len(sp.choices[s]) == 0 {
		return nil
	}
	return sp.choices[s][pick[s]].to
}

// chainCanReach reports, per state, whether it reaches the goal in the
// chain of pick.
func chainCanReach(sp mdpSpec, pick []int) []bool {
	n := len(sp.goal)
	can := make([]bool, n)
	for changed := true; changed; {
		changed = false
		for s := range n {
			if can[s] {
				continue
			}
			if sp.goal[s] {
				can[s], changed = true, true
				continue
			}
			for _, t := range chainSucc(sp, pick, s) {
				if can[t] {
					can[s], changed = true, true
					break
				}
			}
		}
	}
	return can
}

// chainSolve solves x(s) = rhs(c) + sum of c's probabilities times x over
// the states in (not goal) for the choice c that pick makes in each state
// in, where x is 0 outside in, by dense exact elimination; it returns x by
// state (nil outside in).
func chainSolve(sp mdpSpec, pick []int, in []bool, rhs func(c choiceSpec) *big.Rat) []*big.Rat {
	idx := map[int]int{}
	var vars []int
	for s := range sp.goal {
		if in[s] && !sp.goal[s] {
			idx[s] = len(vars)
			vars = append(vars, s)
		}
	}
	k := len(vars)
	a := make([][]*big.Rat, k)
	for i, s := range vars {
		a[i] = make([]*big.Rat, k+1)
		for j := range a[i] {
			a[i][j] = new(big.Rat)
		}
		a[i][i].SetInt64(1)
		c := sp.choices[s][pick[s]]
		for e, t := range c.to {
			if j, ok := idx[int(t)]; ok {
				a[i][j].Sub(a[i][j], c.p[e])
			}
		}
		a[i][k].Set(rhs(c))
	}
	x := gaussJordan(a)
	out := make([]*big.Rat, len(sp.goal))
	for i, s := range vars {
		out[s] = x[i]
	}
	return out
}

// gaussJordan solves the dense system a (k rows of k coefficients and the
// right-hand side), which must be nonsingular.
func gaussJordan(a [][]*big.Rat) []*big.Rat {
	k := len(a)
	for col := range k {
		p := col
		for a[p][col].Sign() == 0 {
			p++
		}
		a[col], a[p] = a[p], a[col]
		inv := new(big.Rat).Inv(a[col][col])
		for j := col; j <= k; j++ {
			a[col][j].Mul(a[col][j], inv)
		}
		for i := range k {
			if i == col || a[i][col].Sign() == 0 {
				continue
			}
			f := new(big.Rat).Set(a[i][col])
			for j := col; j <= k; j++ {
				a[i][j].Sub(a[i][j], new(big.Rat).Mul(f, a[col][j]))
			}
		}
	}
	x := make([]*big.Rat, k)
	for i := range k {
		x[i] = a[i][k]
	}
	return x
}

// bruteReach is Pmax or Pmin of reaching the goal: the best over every
// deterministic memoryless scheduler (they suffice for reachability).
func bruteReach(sp mdpSpec, max bool) []*big.Rat {
	n := len(sp.goal)
	pick := make([]int, n)
	var best []*big.Rat
	for {
		v := reachValue(sp, pick)
		if best == nil {
			best = v
		}
		for s := range n {
			if c := v[s].Cmp(best[s]); max && c > 0 || !max && c < 0 {
				best[s] = v[s]
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

// encloses reports a state whose bounds [lo, hi] miss want (nil: infinite).
func encloses(lo, hi []float64, want []*big.Rat) (int, bool) {
	for s, w := range want {
		if w == nil {
			if lo[s] < 1e308 {
				return s, false
			}
			continue
		}
		if new(big.Rat).SetFloat64(lo[s]).Cmp(w) > 0 || new(big.Rat).SetFloat64(hi[s]).Cmp(w) < 0 {
			return s, false
		}
	}
	return 0, true
}

// TestStickyEndComponents (s28p): on MDPs whose components keep a run
// with 1 - 10^-12 and whose end components (self-loops, of reward 0 or
// not) make naive value iteration stop at a wrong fixpoint (Pmax
// iterated from above stays at 1 on a loop; Emin from below at a loop of
// reward 0), interval iteration answers Pmax, Pmin, Emin and Emax within
// seconds (where iteration alone needs 10^12 sweeps) with bounds that
// enclose the brute force over all schedulers in rationals.
func TestStickyEndComponents(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 5))
	for i := range 300 {
		sp := stickySpec(r, 3+r.IntN(6))
		m, rew := sp.model()
		for _, max := range []bool{false, true} {
			name := fmt.Sprintf("mdp%d/max=%v", i, max)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			opt := SolveOptions{Max: max, Epsilon: []float64{1e-6, 1e-9}[i%2]}
			res, err := Solve(ctx, m, sp.goal, opt)
			if err != nil {
				cancel()
				t.Fatalf("%s: Solve: %v\n%s", name, err, specText(sp))
			}
			if s, ok := encloses(res.Lower, res.Upper, bruteReach(sp, max)); !ok {
				cancel()
				t.Fatalf("%s: P state %d: [%v, %v] misses %s\n%s", name, s, res.Lower[s], res.Upper[s], bruteReach(sp, max)[s].RatString(), specText(sp))
			}
			rr, err := SolveReward(ctx, m, sp.goal, rew, opt)
			cancel()
			if err != nil {
				t.Fatalf("%s: SolveReward: %v\n%s", name, err, specText(sp))
			}
			want := bruteForce(sp, max)
			if s, ok := encloses(rr.Lower, rr.Upper, want); !ok {
				t.Fatalf("%s: E state %d: [%v, %v] misses %v\n%s", name, s, rr.Lower[s], rr.Upper[s], want[s], specText(sp))
			}
		}
	}
}

// TestEminImproperStart (s28p): Emin on a component of two states whose
// best-looking choices by the lower bounds loop for ever (a ring of
// positive reward that leaves with 10^-12 beside a cheap exit that costs
// more): policy iteration must start from a proper scheduler and answer
// the cheap exit's value, not decline or loop.
func TestEminImproperStart(t *testing.T) {
	one := big.NewRat(1, 1)
	q := big.NewRat(1, 1_000_000_000_000)
	nq := new(big.Rat).Sub(one, q)
	sp := mdpSpec{goal: []bool{false, false, true}, choices: [][]choiceSpec{
		{{to: []uint32{1, 2}, p: []*big.Rat{nq, q}, rew: big.NewRat(1, 100)}, {to: []uint32{2}, p: []*big.Rat{one}, rew: big.NewRat(1000, 1)}},
		{{to: []uint32{0}, p: []*big.Rat{one}, rew: big.NewRat(1, 100)}, {to: []uint32{1}, p: []*big.Rat{one}, rew: big.NewRat(1, 1000)}},
		nil}}
	m, rew := sp.model()
	for _, max := range []bool{false, true} {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		res, err := SolveReward(ctx, m, sp.goal, rew, SolveOptions{Max: max})
		cancel()
		if err != nil {
			t.Fatalf("max=%v: %v", max, err)
		}
		want := bruteForce(sp, max)
		if s, ok := encloses(res.Lower, res.Upper, want); !ok {
			t.Fatalf("max=%v: state %d: [%v, %v] misses %v", max, s, res.Lower[s], res.Upper[s], want[s])
		}
	}
}
