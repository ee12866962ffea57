package prob

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
	"time"
)

// s30pRing is an MDP ring of n states (state n is the goal, n + 1 the
// unsafe sink, both terminal): state x has two choices, "go" to x + 1 and
// "alt" to x + 2 (round the ring), each staying in the ring with weight
// 1/stay and leaving to the goal and the sink with weights that vary
// with x (thirds, sevenths, fifths, elevenths: not float64 numbers). Every
// fifth state also has a third choice equal to its first (an exact tie).
// Reaching the sink is the question.
func s30pRing(n int, stay int64) mdpSpec {
	sp := mdpSpec{goal: make([]bool, n+2), choices: make([][]choiceSpec, n+2)}
	sp.goal[n+1] = true // the question's target: the unsafe sink
	goal := uint32(n)
	sink := uint32(n + 1)
	dist := func(next uint32, ws ...*big.Rat) choiceSpec {
		w := []*big.Rat{big.NewRat(stay, 1), ws[0], ws[1]}
		tot := new(big.Rat).Add(new(big.Rat).Add(w[0], w[1]), w[2])
		c := choiceSpec{to: []uint32{next, sink, goal}, rew: new(big.Rat)}
		for _, x := range w {
			c.p = append(c.p, new(big.Rat).Quo(x, tot))
		}
		return c
	}
	for x := range n {
		goW := []*big.Rat{big.NewRat(1, 3), big.NewRat(2, 3), big.NewRat(1, 1)}[x%3]
		altW := []*big.Rat{big.NewRat(1, 11), big.NewRat(2, 11)}[x%2]
		sp.choices[x] = []choiceSpec{
			dist(uint32((x+1)%n), goW, big.NewRat(1, 7)),
			dist(uint32((x+2)%n), big.NewRat(1, 5), altW),
		}
		if x%5 == 0 {
			sp.choices[x] = append(sp.choices[x], sp.choices[x][0])
		}
	}
	return sp
}

// TestIntervalRing (s30p): a ring of 200 classes left with about 10^-9 a
// step, too slow for iteration (10^9 sweeps) and, in rationals of the
// float64 probabilities, about 53 bits a class (a 300-class ring took 6 s
// of CPU before session 30, 1000 classes did not answer in 60 s), is
// solved directly in interval arithmetic: the bounds are within 10^-9
// relative, hold the exact method's value of the same ring, and the
// report counts the component.
func TestIntervalRing(t *testing.T) {
	for _, n := range []int{60, 200} {
		sp := s30pRing(n, 1_000_000_000)
		m, _ := sp.model()
		for _, max := range []bool{false, true} {
			name := fmt.Sprintf("n=%d/max=%v", n, max)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			res, err := Solve(ctx, m, sp.goal, SolveOptions{Max: max})
			if err != nil {
				cancel()
				t.Fatalf("%s: ii: %v", name, err)
			}
			if res.IntervalComponents == 0 {
				t.Errorf("%s: no component solved in interval arithmetic", name)
			}
			if w := res.Upper[0] - res.Lower[0]; !(w <= 1e-9*res.Lower[0]) {
				t.Errorf("%s: bounds [%v, %v] wider than 1e-9 relative", name, res.Lower[0], res.Upper[0])
			}
			if n > 60 {
				cancel()
				continue
			}
			ex, err := Solve(ctx, m, sp.goal, SolveOptions{Max: max, Method: Exact})
			cancel()
			if err != nil {
				t.Fatalf("%s: exact: %v", name, err)
			}
			if s, ok := encloses(res.Lower, res.Upper, ex.Exact[:n]); !ok {
				t.Fatalf("%s: state %d: [%v, %v] misses the exact %s", name, s, res.Lower[s], res.Upper[s], ex.Exact[s].RatString())
			}
		}
	}
}

// TestIntervalRingValueIteration (s30p): a ring of 60 classes left with
// about 10^-6 a step, which plain float64 value iteration (Gauss-Seidel,
// the Bellman operator on the float64 probabilities) still converges on
// in a few hundred thousand sweeps: the interval solution's bounds hold
// its value within 10^-7, as well as the exact method's.
func TestIntervalRingValueIteration(t *testing.T) {
	n := 60
	sp := s30pRing(n, 1_000_000)
	m, _ := sp.model()
	for _, max := range []bool{false, true} {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		res, err := Solve(ctx, m, sp.goal, SolveOptions{Max: max, Epsilon: 1e-12})
		cancel()
		if err != nil {
			t.Fatalf("max=%v: %v", max, err)
		}
		if res.IntervalComponents == 0 {
			t.Errorf("max=%v: no component solved in interval arithmetic", max)
		}
		type fchoice struct {
			to []uint32
			p  []float64
		}
		fch := make([][]fchoice, n)
		for x := range n {
			for _, c := range sp.choices[x] {
				fc := fchoice{to: c.to}
				for _, p := range c.p {
					f, _ := p.Float64()
					fc.p = append(fc.p, f)
				}
				fch[x] = append(fch[x], fc)
			}
		}
		v := make([]float64, n+2)
		v[n+1] = 1
		converged := false
		for sweep := 0; sweep < 3_000_000 && !converged; sweep++ {
			change := 0.0
			for x := n - 1; x >= 0; x-- {
				best := math.NaN()
				for _, c := range fch[x] {
					s := 0.0
					for i, to := range c.to {
						s += c.p[i] * v[to]
					}
					if math.IsNaN(best) || max && s > best || !max && s < best {
						best = s
					}
				}
				change = math.Max(change, math.Abs(best-v[x]))
				v[x] = best
			}
			// the rate is about 1 - 10^-4 a sweep: 10^-14 a sweep is
			// within 10^-10 of the limit
			converged = change < 1e-14
		}
		if !converged {
			t.Fatalf("max=%v: value iteration did not converge", max)
		}
		for x := range n {
			if v[x] < res.Lower[x]-1e-7 || v[x] > res.Upper[x]+1e-7 {
				t.Fatalf("max=%v: state %d: value iteration %v outside [%v, %v]", max, x, v[x], res.Lower[x], res.Upper[x])
			}
		}
	}
}

// TestIntervalSolverSmallComponents (s30p): with the interval solver
// taking components of 2 classes and more, TestStickyEndComponents' MDPs
// (rings left with 10^-6 to 10^-12, self-loop end components, thirds)
// and s30pRing's small rings: Pmax and Pmin bounds enclose the brute
// force over all schedulers in rationals, and some components go through
// the interval solver.
func TestIntervalSolverSmallComponents(t *testing.T) {
	old := minIntervalClasses
	minIntervalClasses = 2
	defer func() { minIntervalClasses = old }()
	r := rand.New(rand.NewPCG(30, 16))
	used := 0
	specs := []mdpSpec{s30pRing(3, 1_000_000_000), s30pRing(4, 1_000_000_000_000), s30pRing(5, 3)}
	for range 200 {
		specs = append(specs, stickySpec(r, 3+r.IntN(6)))
	}
	for i, sp := range specs {
		m, _ := sp.model()
		for _, max := range []bool{false, true} {
			name := fmt.Sprintf("mdp%d/max=%v", i, max)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			res, err := Solve(ctx, m, sp.goal, SolveOptions{Max: max, Epsilon: []float64{1e-6, 1e-9}[i%2]})
			cancel()
			if err != nil {
				t.Fatalf("%s: Solve: %v\n%s", name, err, specText(sp))
			}
			used += res.IntervalComponents
			want := bruteReach(sp, max)
			if s, ok := encloses(res.Lower, res.Upper, want); !ok {
				t.Fatalf("%s: state %d: [%v, %v] misses %s\n%s", name, s, res.Lower[s], res.Upper[s], want[s].RatString(), specText(sp))
			}
		}
	}
	if used == 0 {
		t.Fatalf("no component went through the interval solver")
	}
	t.Logf("%d components solved in interval arithmetic", used)
}

// TestIntervalTieFallsBack (s30p): a uniform ring of 50 classes (all
// values equal) where class 0 may also jump to class 25 with probability
// 1: the jump ties exactly with going on. Where policy iteration keeps
// going on (Pmax), the jump's advantage, 0, is to be bounded by
// 2^-100·(what it leaves with: nothing) + 2^-60·(its boundary value: 0),
// which no precision proves: the interval solution declines and the
// rational one answers (where it takes the jump, Pmin, going on leaves
// with something and the certificate holds). Either way the bounds hold
// the exact method's values.
func TestIntervalTieFallsBack(t *testing.T) {
	n := 50
	one := big.NewRat(1, 1)
	sp := mdpSpec{goal: make([]bool, n+2), choices: make([][]choiceSpec, n+2)}
	sp.goal[n+1] = true
	tot := big.NewRat(1_000_000_000*21+7+3, 21) // 10^9 + 1/3 + 1/7
	for x := range n {
		w := []*big.Rat{big.NewRat(1_000_000_000, 1), big.NewRat(1, 3), big.NewRat(1, 7)}
		c := choiceSpec{to: []uint32{uint32((x + 1) % n), uint32(n + 1), uint32(n)}, rew: new(big.Rat)}
		for _, v := range w {
			c.p = append(c.p, new(big.Rat).Quo(v, tot))
		}
		sp.choices[x] = []choiceSpec{c}
		if x == 0 {
			sp.choices[x] = append(sp.choices[x], choiceSpec{to: []uint32{25}, p: []*big.Rat{one}, rew: new(big.Rat)})
		}
	}
	m, _ := sp.model()
	for _, max := range []bool{false, true} {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		res, err := Solve(ctx, m, sp.goal, SolveOptions{Max: max})
		if err != nil {
			cancel()
			t.Fatalf("max=%v: ii: %v", max, err)
		}
		ex, err := Solve(ctx, m, sp.goal, SolveOptions{Max: max, Method: Exact})
		cancel()
		if err != nil {
			t.Fatalf("max=%v: exact: %v", max, err)
		}
		if s, ok := encloses(res.Lower, res.Upper, ex.Exact[:n]); !ok {
			t.Fatalf("max=%v: state %d: [%v, %v] misses the exact %s", max, s, res.Lower[s], res.Upper[s], ex.Exact[s].RatString())
		}
		if want := big.NewRat(7, 10); ex.Exact[0].Cmp(want) != 0 {
			t.Errorf("max=%v: exact %s, want 7/10", max, ex.Exact[0].RatString())
		}
		if max && res.IntervalComponents != 0 {
			t.Errorf("max=%v: the tie was certified in interval arithmetic", max)
		}
	}
}

// s30pRewardRing is an MDP ring of n states and the goal n: state x goes
// on to x + 1 with 1 - q at reward 1, or to x + 7 with 1 - 3q at reward
// 2, 3 or 4, and to the goal otherwise.
func s30pRewardRing(n int, q *big.Rat) mdpSpec {
	sp := mdpSpec{goal: make([]bool, n+1), choices: make([][]choiceSpec, n+1)}
	sp.goal[n] = true
	q3 := new(big.Rat).Mul(q, big.NewRat(3, 1))
	one := big.NewRat(1, 1)
	for x := range n {
		sp.choices[x] = []choiceSpec{
			{to: []uint32{uint32((x + 1) % n), uint32(n)}, p: []*big.Rat{new(big.Rat).Sub(one, q), q}, rew: big.NewRat(1, 1)},
			{to: []uint32{uint32((x + 7) % n), uint32(n)}, p: []*big.Rat{new(big.Rat).Sub(one, q3), q3}, rew: big.NewRat(int64(2+x%3), 1)},
		}
	}
	return sp
}

// TestIntervalRewardRing (s30p): expected rewards on an MDP ring left
// with 10^-7 a step: its component is solved directly (policy iteration),
// which in rationals of the float64 probabilities took 17.7 s (Emin) and
// 48 s (Emax) at 900 classes before session 30 and now runs in interval
// arithmetic (0.3 s, 0.1 s). At 200 classes the bounds are within 10^-9
// relative; at 60 they hold the exact method's rationals.
func TestIntervalRewardRing(t *testing.T) {
	for _, n := range []int{60, 200} {
		sp := s30pRewardRing(n, big.NewRat(1, 10_000_000))
		m, rew := sp.model()
		for _, max := range []bool{false, true} {
			name := fmt.Sprintf("n=%d/max=%v", n, max)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			res, err := SolveReward(ctx, m, sp.goal, rew, SolveOptions{Max: max})
			if err != nil {
				cancel()
				t.Fatalf("%s: ii: %v", name, err)
			}
			if res.IntervalComponents == 0 {
				t.Errorf("%s: no component solved in interval arithmetic", name)
			}
			if w := res.Upper[0] - res.Lower[0]; !(w <= 1e-9*res.Lower[0]) {
				t.Errorf("%s: bounds [%v, %v] wider than 1e-9 relative", name, res.Lower[0], res.Upper[0])
			}
			if n > 60 {
				cancel()
				continue
			}
			ex, err := SolveReward(ctx, m, sp.goal, rew, SolveOptions{Max: max, Method: Exact})
			cancel()
			if err != nil {
				t.Fatalf("%s: exact: %v", name, err)
			}
			if s, ok := encloses(res.Lower, res.Upper, ex.Exact[:n]); !ok {
				t.Fatalf("%s: state %d: [%v, %v] misses the exact %s", name, s, res.Lower[s], res.Upper[s], ex.Exact[s].RatString())
			}
		}
	}
}

// TestIntervalRewardSmallComponents (s30p): with the interval solver
// taking components of 2 classes and more, s28qSpec's MDPs (zero-reward
// cycles, rings left with 10^-12 and 10^-15, thirds, self-loops of
// positive reward, ties) and stickySpec's: the Emin and Emax bounds
// enclose the brute force over schedulers in rationals.
func TestIntervalRewardSmallComponents(t *testing.T) {
	old := minIntervalClasses
	minIntervalClasses = 2
	defer func() { minIntervalClasses = old }()
	r := rand.New(rand.NewPCG(30, 17))
	var specs []mdpSpec
	for range 150 {
		specs = append(specs, s28qSpec(r, 3+r.IntN(6)), stickySpec(r, 3+r.IntN(6)))
	}
	used := 0
	for i, sp := range specs {
		m, rew := sp.model()
		for _, max := range []bool{false, true} {
			name := fmt.Sprintf("mdp%d/max=%v", i, max)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			res, err := SolveReward(ctx, m, sp.goal, rew, SolveOptions{Max: max, Epsilon: []float64{1e-6, 1e-12}[i%2]})
			cancel()
			if err != nil {
				t.Fatalf("%s: ii: %v\n%s", name, err, specText(sp))
			}
			used += res.IntervalComponents
			want := bruteForce(sp, max)
			if s, ok := encloses(res.Lower, res.Upper, want); !ok {
				t.Fatalf("%s: state %d: [%v, %v] misses %s\n%s", name, s, res.Lower[s], res.Upper[s], ratText(want[s]), specText(sp))
			}
		}
	}
	if used == 0 {
		t.Fatalf("no component went through the interval solver")
	}
	t.Logf("%d components solved in interval arithmetic", used)
}

// TestSlowMissesTryDirect (s30p): an MDP's reward component that misses
// its upper-bound guesses slowly tries the direct solution before the
// twelfth miss once it has spent slowMisses (here 0, so at the first
// miss): on a 300-class ring left with 10^-5 (which misses 12 guesses,
// up to 15,408 sweeps, with the rule off) it answers in fewer sweeps,
// within the bounds the rule-off run gives.
func TestSlowMissesTryDirect(t *testing.T) {
	old := slowMisses
	defer func() { slowMisses = old }()
	sp := s30pRewardRing(300, big.NewRat(1, 100_000))
	m, rew := sp.model()
	for _, max := range []bool{false, true} {
		var res [2]*Result
		for k, d := range []time.Duration{time.Hour, 0} {
			slowMisses = d
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			r, err := SolveReward(ctx, m, sp.goal, rew, SolveOptions{Max: max})
			cancel()
			if err != nil {
				t.Fatalf("max=%v slowMisses=%v: %v", max, d, err)
			}
			res[k] = r
		}
		off, on := res[0], res[1]
		if on.Iterations >= off.Iterations {
			t.Errorf("max=%v: %d sweeps with the rule, %d without", max, on.Iterations, off.Iterations)
		}
		if on.IntervalComponents == 0 {
			t.Errorf("max=%v: not solved directly", max)
		}
		if on.Lower[0] > off.Upper[0] || off.Lower[0] > on.Upper[0] {
			t.Errorf("max=%v: [%v, %v] and [%v, %v] are disjoint", max, on.Lower[0], on.Upper[0], off.Lower[0], off.Upper[0])
		}
		t.Logf("max=%v: %d sweeps (rule off: %d), [%v, %v]", max, on.Iterations, off.Iterations, on.Lower[0], on.Upper[0])
	}
}
