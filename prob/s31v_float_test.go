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

// Session 31, h-rev5: an adversarial differential harness of the float64
// interval solution of components (sccf64.go, rewardf64.go), independent of
// the s31p tests: its own generators (rings, chains falling back to their
// middle, near ties, tiny and huge probabilities and rewards, end
// components) and its own exact reference (every deterministic memoryless
// scheduler, each chain solved by dense rational elimination on the
// rational probabilities, not on their float64 roundings).

// s31vRat is x as an exact rational.
func s31vRat(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }

// s31vSolveDense solves A x = b in rationals (A nonsingular), by Gaussian
// elimination with any non-zero pivot.
func s31vSolveDense(a [][]*big.Rat, b []*big.Rat) []*big.Rat {
	n := len(b)
	for k := range n {
		p := -1
		for i := k; i < n; i++ {
			if a[i][k].Sign() != 0 {
				p = i
				break
			}
		}
		if p < 0 {
			panic("s31v: singular system")
		}
		a[k], a[p] = a[p], a[k]
		b[k], b[p] = b[p], b[k]
		for i := k + 1; i < n; i++ {
			if a[i][k].Sign() == 0 {
				continue
			}
			f := new(big.Rat).Quo(a[i][k], a[k][k])
			for j := k; j < n; j++ {
				if a[k][j].Sign() != 0 {
					a[i][j] = new(big.Rat).Sub(a[i][j], new(big.Rat).Mul(f, a[k][j]))
				}
			}
			b[i] = new(big.Rat).Sub(b[i], new(big.Rat).Mul(f, b[k]))
		}
	}
	x := make([]*big.Rat, n)
	for i := n - 1; i >= 0; i-- {
		s := new(big.Rat).Set(b[i])
		for j := i + 1; j < n; j++ {
			if a[i][j].Sign() != 0 {
				s.Sub(s, new(big.Rat).Mul(a[i][j], x[j]))
			}
		}
		x[i] = s.Quo(s, a[i][i])
	}
	return x
}

// s31vChain is the value of every state under pick: with reward, the
// expected total reward until the goal (nil where the goal is missed with
// positive probability); else the probability of reaching the goal.
func s31vChain(sp mdpSpec, pick []int, reward bool) []*big.Rat {
	n := len(sp.goal)
	succ := func(s int) *choiceSpec {
		if sp.goal[s] || len(sp.choices[s]) == 0 {
			return nil
		}
		return &sp.choices[s][pick[s]]
	}
	// reach[s]: s reaches the goal.
	reach := make([]bool, n)
	for changed := true; changed; {
		changed = false
		for s := range n {
			if reach[s] {
				continue
			}
			if sp.goal[s] {
				reach[s], changed = true, true
				continue
			}
			if c := succ(s); c != nil {
				for _, t := range c.to {
					if reach[t] {
						reach[s], changed = true, true
						break
					}
				}
			}
		}
	}
	// in[s]: an unknown. Probabilities: the non-goal states that reach the
	// goal. Rewards: those from which every reachable state does.
	in := make([]bool, n)
	for s := range n {
		if sp.goal[s] || !reach[s] {
			continue
		}
		in[s] = true
		if reward {
			seen := map[int]bool{s: true}
			stack := []int{s}
			for len(stack) > 0 && in[s] {
				u := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if !reach[u] {
					in[s] = false
				}
				if c := succ(u); c != nil {
					for _, t := range c.to {
						if !seen[int(t)] {
							seen[int(t)] = true
							stack = append(stack, int(t))
						}
					}
				}
			}
		}
	}
	idx := map[int]int{}
	var vars []int
	for s := range n {
		if in[s] {
			idx[s] = len(vars)
			vars = append(vars, s)
		}
	}
	k := len(vars)
	a := make([][]*big.Rat, k)
	b := make([]*big.Rat, k)
	for i, s := range vars {
		a[i] = make([]*big.Rat, k)
		for j := range k {
			a[i][j] = new(big.Rat)
		}
		a[i][i].SetInt64(1)
		b[i] = new(big.Rat)
		c := succ(s)
		if reward {
			b[i].Set(c.rew)
		}
		for e, t := range c.to {
			switch j, ok := idx[int(t)]; {
			case ok:
				a[i][j].Sub(a[i][j], c.p[e])
			case sp.goal[t] && !reward:
				b[i].Add(b[i], c.p[e])
			}
		}
	}
	x := s31vSolveDense(a, b)
	out := make([]*big.Rat, n)
	for s := range n {
		switch {
		case in[s]:
			out[s] = x[idx[s]]
		case sp.goal[s] && reward:
			out[s] = new(big.Rat)
		case sp.goal[s]:
			out[s] = big.NewRat(1, 1)
		case !reward:
			out[s] = new(big.Rat)
		}
	}
	return out
}

// s31vBrute is the optimum over every deterministic memoryless scheduler
// (they suffice for reachability and expected total rewards), per state:
// Pmax/Pmin, or Emax/Emin (nil: infinite; Emin over the schedulers that
// reach the goal almost surely, infinite when none does).
func s31vBrute(sp mdpSpec, max, reward bool) []*big.Rat {
	n := len(sp.goal)
	pick := make([]int, n)
	best := make([]*big.Rat, n)
	first := true
	for {
		v := s31vChain(sp, pick, reward)
		for s := range n {
			switch {
			case first:
				best[s] = v[s]
			case reward && max && (best[s] == nil || v[s] == nil):
				best[s] = nil
			case reward && !max && v[s] == nil:
			case reward && !max && best[s] == nil:
				best[s] = v[s]
			default:
				if c := v[s].Cmp(best[s]); max && c > 0 || !max && c < 0 {
					best[s] = v[s]
				}
			}
		}
		first = false
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

// s31vSchedulers is the number of deterministic memoryless schedulers.
func s31vSchedulers(sp mdpSpec) float64 {
	k := 1.0
	for s, cs := range sp.choices {
		if !sp.goal[s] && len(cs) > 1 {
			k *= float64(len(cs))
		}
	}
	return k
}

// s31vEps are the tiny probabilities the generators draw: what leaves a
// cycle, 2^-999 just above the float solution's 2^-1000 floor.
var s31vEps = []float64{1e-12, 1e-300, 0x1p-999, 1e-9, 3e-7, 1e-100, 1e-15, 0.25}

// s31vRewards are the rewards drawn: 0 (cycles of reward 0), huge, tiny.
var s31vRewards = []*big.Rat{new(big.Rat), big.NewRat(1, 1), s31vRat(1e300), s31vRat(1e-300), big.NewRat(1, 3), new(big.Rat), big.NewRat(7, 2)}

func s31vReward(r *rand.Rand) *big.Rat { return s31vRewards[r.IntN(len(s31vRewards))] }

// s31vDist makes a choice from successors and positive weights (rationals,
// normalised exactly).
func s31vDist(to []uint32, w []*big.Rat, rew *big.Rat) choiceSpec {
	sum := new(big.Rat)
	for _, x := range w {
		sum.Add(sum, x)
	}
	c := choiceSpec{rew: rew}
	pos := map[uint32]int{}
	for i, t := range to {
		p := new(big.Rat).Quo(w[i], sum)
		if j, ok := pos[t]; ok {
			c.p[j].Add(c.p[j], p)
			continue
		}
		pos[t] = len(c.to)
		c.to = append(c.to, t)
		c.p = append(c.p, p)
	}
	return c
}

// s31vSpecOf draws an MDP (one choice per state with dtmc) of kind:
// 0 a ring left with tiny probabilities, 1 chains falling back to their
// middle (haddad-monmege), 2 near ties (two choices whose exits differ by
// an ulp or so), 3 random with weights 1e-300 beside 1, 4 clusters of
// states cycling with probability 1 (end components) that leave rarely.
// The goal is state n, a sink state n + 1.
func s31vSpecOf(r *rand.Rand, kind, n int, dtmc bool) mdpSpec {
	sp := mdpSpec{goal: make([]bool, n+2), choices: make([][]choiceSpec, n+2)}
	goal, sink := uint32(n), uint32(n+1)
	sp.goal[goal] = true
	eps := func() *big.Rat { return s31vRat(s31vEps[r.IntN(len(s31vEps))]) }
	one := big.NewRat(1, 1)
	choices := func() int {
		if dtmc {
			return 1
		}
		return 1 + r.IntN(3)
	}
	// leave spreads e between the goal and the sink (or the goal alone).
	leave := func(stay []uint32, ws []*big.Rat, e *big.Rat) ([]uint32, []*big.Rat) {
		a := []*big.Rat{new(big.Rat), big.NewRat(1, 3), big.NewRat(1, 2), one}[r.IntN(4)]
		g := new(big.Rat).Mul(e, a)
		s := new(big.Rat).Sub(e, g)
		if g.Sign() > 0 {
			stay, ws = append(stay, goal), append(ws, g)
		}
		if s.Sign() > 0 {
			stay, ws = append(stay, sink), append(ws, s)
		}
		return stay, ws
	}
	switch kind {
	case 0:
		for x := range n {
			for range choices() {
				e := eps()
				k := 1 + r.IntN(max(n-1, 1)) // never a self-loop (a class alone left with 1e-300 is iterated)
				to, w := leave([]uint32{uint32((x + k) % n)}, []*big.Rat{new(big.Rat).Sub(one, e)}, e)
				sp.choices[x] = append(sp.choices[x], s31vDist(to, w, s31vReward(r)))
			}
		}
	case 1:
		mid := n / 2
		for x := range n {
			for range choices() {
				p := []*big.Rat{big.NewRat(1, 2), big.NewRat(7, 10), s31vRat(1e-12), new(big.Rat).Sub(one, s31vRat(1e-12))}[r.IntN(4)]
				var next uint32
				switch {
				case x == 0:
					next = goal
				case x == n-1:
					next = sink
				case x < mid:
					next = uint32(x - 1)
				case x > mid:
					next = uint32(x + 1)
				default:
					next = uint32(x - 1)
					if r.IntN(2) == 0 {
						next = uint32(x + 1)
					}
				}
				back := uint32(mid)
				if x == mid {
					back = uint32((x + 1 + r.IntN(n-1)) % n)
				}
				sp.choices[x] = append(sp.choices[x], s31vDist([]uint32{next, back}, []*big.Rat{p, new(big.Rat).Sub(one, p)}, s31vReward(r)))
			}
		}
	case 2:
		for x := range n {
			e := eps()
			next := uint32((x + 1) % n)
			to, w := leave([]uint32{next}, []*big.Rat{new(big.Rat).Sub(one, e)}, e)
			rew := s31vReward(r)
			sp.choices[x] = append(sp.choices[x], s31vDist(to, w, rew))
			if dtmc {
				continue
			}
			// A near twin: the exit scaled by 1 + δ, δ an ulp or less.
			d := []*big.Rat{s31vRat(0x1p-52), s31vRat(0x1p-60), new(big.Rat), s31vRat(1e-15), s31vRat(-0x1p-53)}[r.IntN(5)]
			e2 := new(big.Rat).Mul(e, new(big.Rat).Add(one, d))
			to2, w2 := leave([]uint32{next}, []*big.Rat{new(big.Rat).Sub(one, e2)}, e2)
			rew2 := rew
			if r.IntN(2) == 0 {
				rew2 = new(big.Rat).Mul(rew, new(big.Rat).Add(one, d))
			}
			sp.choices[x] = append(sp.choices[x], s31vDist(to2, w2, rew2))
		}
	case 3:
		for x := range n {
			for range choices() {
				k := 1 + r.IntN(4)
				var to []uint32
				var w []*big.Rat
				for range k {
					to = append(to, uint32(r.IntN(n+2)))
					w = append(w, []*big.Rat{one, s31vRat(1e-300), s31vRat(0x1p-999), big.NewRat(1, 3), s31vRat(1e-12)}[r.IntN(5)])
				}
				sp.choices[x] = append(sp.choices[x], s31vDist(to, w, s31vReward(r)))
			}
		}
	case 4:
		// clusters of 2 or 3 states cycling among themselves with
		// probability 1 (an end component for every choice of cycling),
		// each state also with a choice that moves on to the next cluster
		// with 1 - e and leaves with e.
		size := 2 + r.IntN(2)
		for x := range n {
			base := x - x%size
			nxt := uint32((x + 1) % n)
			if x+1-base >= size || x+1 >= n {
				nxt = uint32(base)
			}
			sp.choices[x] = append(sp.choices[x], choiceSpec{to: []uint32{nxt}, p: []*big.Rat{one}, rew: s31vReward(r)})
			if dtmc && r.IntN(2) == 0 {
				sp.choices[x] = sp.choices[x][:0]
			}
			if r.IntN(3) > 0 || dtmc || x == n-1 {
				e := eps()
				on := uint32((base + size + r.IntN(size)) % n)
				to, w := leave([]uint32{on}, []*big.Rat{new(big.Rat).Sub(one, e)}, e)
				sp.choices[x] = append(sp.choices[x], s31vDist(to, w, s31vReward(r)))
			}
		}
	}
	// The sink loops for ever (reward 0): probability 0, an infinite
	// expected reward.
	sp.choices[sink] = []choiceSpec{{to: []uint32{sink}, p: []*big.Rat{one}, rew: new(big.Rat)}}
	return sp
}

// s31vCheck solves sp for Pmax, Pmin, Emax, Emin and compares every
// state's bounds with want (the brute force, or the exact method's).
func s31vCheck(t *testing.T, name string, sp mdpSpec, eps float64, floats *int) {
	t.Helper()
	m, rew := sp.model()
	for _, reward := range []bool{false, true} {
		for _, max := range []bool{false, true} {
			tag := fmt.Sprintf("%s/reward=%v/max=%v", name, reward, max)
			ctx, cancel := context.WithTimeout(context.Background(), s31vTimeout)
			var res *Result
			var err error
			opt := SolveOptions{Max: max, Epsilon: eps}
			if reward {
				res, err = SolveReward(ctx, m, sp.goal, rew, opt)
			} else {
				res, err = Solve(ctx, m, sp.goal, opt)
			}
			cancel()
			if err != nil {
				// Refusals (overflow of float64 rewards) are not wrong
				// answers.
				t.Logf("%s: %v\n%s", tag, err, specText(sp))
				continue
			}
			*floats += res.FloatComponents
			var want []*big.Rat
			if s31vSchedulers(sp) <= 4096 {
				want = s31vBrute(sp, max, reward)
			} else {
				ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
				var ex *Result
				if reward {
					ex, err = SolveReward(ctx, m, sp.goal, rew, SolveOptions{Max: max, Method: Exact})
				} else {
					ex, err = Solve(ctx, m, sp.goal, SolveOptions{Max: max, Method: Exact})
				}
				cancel()
				if err != nil {
					t.Logf("%s: exact: %v", tag, err)
					continue
				}
				want = ex.Exact
			}
			if s, ok := encloses(res.Lower, res.Upper, want); !ok {
				w := "inf"
				if want[s] != nil {
					w = want[s].FloatString(20)
				}
				t.Fatalf("%s: state %d: [%v, %v] misses %s (float components %d)\n%s", tag, s, res.Lower[s], res.Upper[s], w, res.FloatComponents, specText(sp))
			}
		}
	}
}

// TestS31vFloatDifferential: small MDPs and DTMCs of every kind, every
// component of several classes solved directly after one sweep, the
// floating policy iteration stopped after 1, 2 or 100 rounds (the
// certificate then meets a poor scheduler); every bound must hold the
// brute force over schedulers in rationals.
func TestS31vFloatDifferential(t *testing.T) {
	floatFirstTest = true
	defer func() { floatFirstTest, floatRoundsTest = false, 0 }()
	r := rand.New(rand.NewPCG(31, 0x5e5))
	floats := 0
	for i := range 250 {
		floatRoundsTest = []int{0, 1, 2}[i%3]
		kind := i % 5
		dtmc := i%7 == 0
		n := 2 + r.IntN(7)
		sp := s31vSpecOf(r, kind, n, dtmc)
		if s31vSchedulers(sp) > 4096 {
			continue
		}
		s31vCheck(t, fmt.Sprintf("mdp%d/kind%d", i, kind), sp, []float64{1e-6, 1e-12, 1e-3}[i%3], &floats)
	}
	t.Logf("%d components in float64 intervals", floats)
}

// TestS31vFloatMedium: medium DTMCs and MDPs (up to 60 states) of every
// kind against the exact method (its rationals satisfy the Bellman
// equations exactly) or the brute force.
func TestS31vFloatMedium(t *testing.T) {
	floatFirstTest = true
	defer func() { floatFirstTest, floatRoundsTest = false, 0 }()
	r := rand.New(rand.NewPCG(31, 0x3ed))
	floats := 0
	for i := range 15 {
		floatRoundsTest = []int{0, 1, 2}[i%3]
		kind := i % 5
		sp := s31vSpecOf(r, kind, 20+r.IntN(40), i%4 == 0)
		s31vCheck(t, fmt.Sprintf("medium%d/kind%d", i, kind), sp, 1e-9, &floats)
	}
	t.Logf("%d components in float64 intervals", floats)
}

var _ = math.Inf

// s31vTimeout bounds each solution (a timeout is logged, not a wrong answer).
var s31vTimeout = time.Second

// s31vIn says whether the exact rational x lies in [a.lo, a.hi].
func s31vIn(a ival, x *big.Rat) bool {
	if math.IsNaN(a.lo) || math.IsNaN(a.hi) || a.lo > a.hi {
		return false
	}
	if !math.IsInf(a.hi, 1) && s31vRat(a.hi).Cmp(x) < 0 {
		return false
	}
	return s31vRat(a.lo).Cmp(x) <= 0
}

// TestS31vOutwardOps: up and down at their edges (0, subnormals, the
// binade boundaries, MaxFloat64, +Inf), and iadd, imul, idiv of random
// non-negative intervals (normal, subnormal, huge, tiny) against the exact
// rationals of their ends: every result must enclose the exact result of
// every pair of ends (the operations are monotone on non-negative reals,
// so the ends suffice).
func TestS31vOutwardOps(t *testing.T) {
	sub := math.SmallestNonzeroFloat64
	for _, c := range []struct{ x, up, down float64 }{
		{0, sub, 0},
		{sub, 2 * sub, 0},
		{0x1p-1022, math.Nextafter(0x1p-1022, 1), math.Nextafter(0x1p-1022, 0)},
		{1, 1 + 0x1p-52, 1 - 0x1p-53},
		{math.MaxFloat64, math.Inf(1), math.Nextafter(math.MaxFloat64, 0)},
		{math.Inf(1), math.Inf(1), math.MaxFloat64},
	} {
		if u := up(c.x); u != c.up {
			t.Errorf("up(%v) = %v, want %v", c.x, u, c.up)
		}
		if d := down(c.x); d != c.down {
			t.Errorf("down(%v) = %v, want %v", c.x, d, c.down)
		}
	}
	r := rand.New(rand.NewPCG(31, 0xa11))
	draw := func() float64 {
		switch r.IntN(6) {
		case 0:
			return 0
		case 1:
			return math.Float64frombits(1 + r.Uint64N(1<<52)) // subnormal
		case 2:
			return math.Ldexp(1+r.Float64(), -1074+r.IntN(80))
		case 3:
			return math.Ldexp(1+r.Float64(), 900+r.IntN(123))
		default:
			return math.Ldexp(1+r.Float64(), -60+r.IntN(120))
		}
	}
	pair := func() ival {
		a, b := draw(), draw()
		if r.IntN(4) == 0 {
			b = a
		}
		return ival{min(a, b), max(a, b)}
	}
	for range 40000 {
		a, b := pair(), pair()
		ends := func(f func(x, y *big.Rat) *big.Rat, got ival, name string, skip func(x, y float64) bool) {
			for _, x := range []float64{a.lo, a.hi} {
				for _, y := range []float64{b.lo, b.hi} {
					if skip != nil && skip(x, y) {
						continue
					}
					if want := f(s31vRat(x), s31vRat(y)); !s31vIn(got, want) {
						t.Fatalf("%s([%g, %g], [%g, %g]) = [%g, %g] misses %s at (%g, %g)", name, a.lo, a.hi, b.lo, b.hi, got.lo, got.hi, want.FloatString(30), x, y)
					}
				}
			}
		}
		ends(func(x, y *big.Rat) *big.Rat { return new(big.Rat).Add(x, y) }, iadd(a, b), "iadd", nil)
		ends(func(x, y *big.Rat) *big.Rat { return new(big.Rat).Mul(x, y) }, imul(a, b), "imul", nil)
		if b.hi > 0 {
			got := idiv(a, b)
			ends(func(x, y *big.Rat) *big.Rat { return new(big.Rat).Quo(x, y) }, got, "idiv", func(_, y float64) bool { return y == 0 })
		}
	}
}

// s31vAbstract is a component in the form sccf64.go solves, drawn at
// random with point intervals: every choice leaves (L > 0) or enters a
// class of lower index, so every scheduler leaves with probability 1.
func s31vAbstract(r *rand.Rand, n int, prob bool) [][]fchoice {
	pal := []float64{1, 0.5, 1e-300, 0x1p-999, 1e-12, 1 - 0x1p-53, 1.0 / 3, 1e-7, 0.999999}
	out := make([][]fchoice, n)
	for i := range n {
		for range 1 + r.IntN(3) {
			var fc fchoice
			for j := range n {
				if j != i && r.IntN(2) == 0 {
					fc.to = append(fc.to, uint32(j))
					fc.w = append(fc.w, point(pal[r.IntN(len(pal))]))
				}
			}
			if i == 0 || r.IntN(2) == 0 || len(fc.to) == 0 {
				fc.L = point(pal[r.IntN(len(pal))])
			} else {
				fc.to = append(fc.to, uint32(r.IntN(i)))
				fc.w = append(fc.w, point(pal[r.IntN(len(pal))]))
			}
			if fc.L.hi > 0 {
				if prob {
					g := []float64{1, 0, 1.0 / 3, 1 - 0x1p-50, 1e-300}[r.IntN(5)]
					fc.b = imul(fc.L, point(g))
					if fc.b.lo != fc.b.hi { // keep b a point: the exact b is then known
						fc.b = point(fc.b.hi)
						if fc.b.hi > fc.L.hi {
							fc.b = fc.L
						}
					}
				} else {
					fc.b = point([]float64{0, 1, 1e300, 1e-300, 7}[r.IntN(5)])
				}
			} else if !prob {
				fc.b = point([]float64{0, 1, 1e-300}[r.IntN(3)])
			}
			fc.E = fc.L
			for _, w := range fc.w {
				fc.E = iadd(fc.E, w)
			}
			if fc.E.lo != fc.E.hi {
				// E must be the exact sum of the points: skip choices
				// whose sum rounds (the reference reads E as L + Σ w).
				fc.E = ival{}
			}
			if fc.E.hi > 0 {
				out[i] = append(out[i], fc)
			}
		}
		if len(out[i]) == 0 {
			out[i] = append(out[i], fchoice{L: point(1), b: point(0), E: point(1)})
		}
	}
	return out
}

// s31vAbstractOpt is the exact optimum of an abstract component over every
// deterministic scheduler (E x = b + W x per class), in rationals.
func s31vAbstractOpt(ch [][]fchoice, max bool) []*big.Rat {
	n := len(ch)
	pick := make([]int, n)
	var best []*big.Rat
	for {
		a := make([][]*big.Rat, n)
		b := make([]*big.Rat, n)
		for i := range n {
			fc := &ch[i][pick[i]]
			a[i] = make([]*big.Rat, n)
			for j := range n {
				a[i][j] = new(big.Rat)
			}
			e := s31vRat(fc.L.lo)
			for t, j := range fc.to {
				w := s31vRat(fc.w[t].lo)
				e.Add(e, w)
				a[i][j].Sub(a[i][j], w)
			}
			a[i][i].Add(a[i][i], e)
			b[i] = s31vRat(fc.b.lo)
		}
		x := s31vSolveDense(a, b)
		if best == nil {
			best = x
		}
		for i := range n {
			if c := x[i].Cmp(best[i]); max && c > 0 || !max && c < 0 {
				best[i] = x[i]
			}
		}
		i := 0
		for ; i < n; i++ {
			if pick[i]+1 < len(ch[i]) {
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

// TestS31vCertifyAbstract: floating policy iteration with its certificate
// (sccf64.go) on random components given directly (no interval iteration
// around it, no intersection with other bounds, no O'Cinneide factor):
// stopped after 1, 2 or 100 rounds from a random scheduler, the certified
// side must bound the optimum over every scheduler and the other side be
// on the right side of it too.
func TestS31vCertifyAbstract(t *testing.T) {
	defer func() { floatRoundsTest = 0 }()
	r := rand.New(rand.NewPCG(31, 0xce7))
	certified := 0
	for i := range 20000 {
		floatRoundsTest = []int{1, 2, 0}[i%3]
		prob := i%2 == 0
		n := 1 + r.IntN(5)
		ch := s31vAbstract(r, n, prob)
		for _, max := range []bool{false, true} {
			sched := make([]int, n)
			for k := range sched {
				sched[k] = r.IntN(len(ch[k]))
			}
			v, ok := floatPolicyIteration(context.Background(), ch, sched, max, true, prob)
			if !ok {
				continue
			}
			certified++
			want := s31vAbstractOpt(ch, max)
			for k := range n {
				if !s31vIn(v[k], want[k]) {
					t.Fatalf("case %d max=%v prob=%v class %d: [%v, %v] misses the optimum %s\n%+v sched %v", i, max, prob, k, v[k].lo, v[k].hi, want[k].FloatString(30), ch, sched)
				}
			}
		}
	}
	t.Logf("%d certified", certified)
	if certified < 5000 {
		t.Errorf("only %d certified", certified)
	}
}
