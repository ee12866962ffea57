package prob

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"
)

// s30qCount is how many random cases a randomized s30q test draws: n by
// default (CI-fast), n·VIGIL_S30Q_SCALE when that is set.
func s30qCount(n int) int {
	if v, err := strconv.Atoi(os.Getenv("VIGIL_S30Q_SCALE")); err == nil && v > 0 {
		return n * v
	}
	return n
}

// s30qSystem draws a component's system directly (sccfloat.go's input): n
// classes of 1 to 3 choices, each entering other classes and leaving the
// component with weights built against the interval solver: a stay of
// 1 - 10^-15 or 1 - 10^-290 (ties the precision must resolve; divisors
// near 0), thirds and sevenths (not
// float numbers), choices that leave nothing (out = 0: an end component
// for max, a jump), exact duplicates (ties), boundary values that differ
// between the lower and upper runs, and for rewards values from 10^-9 to
// 10^6. prob: b ≤ out (a probability); otherwise b is a reward plus a
// boundary share.
func s30qSystem(r *rand.Rand, n int, prob bool) [][]sccChoice {
	tiny := []*big.Rat{big.NewRat(1, 1_000_000_000_000_000), new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Exp(big.NewInt(10), big.NewInt(290), nil)), big.NewRat(1, 3), big.NewRat(1, 7), big.NewRat(1, 1_000_000), big.NewRat(0, 1), big.NewRat(0, 1)}
	rews := []*big.Rat{new(big.Rat), new(big.Rat), big.NewRat(1, 1), big.NewRat(1, 3), big.NewRat(1, 1_000_000_000), big.NewRat(1_000_000, 1)}
	ch := make([][]sccChoice, n)
	for i := range n {
		for range 1 + r.IntN(3) {
			if len(ch[i]) > 0 && r.IntN(5) == 0 {
				// an exact duplicate of a choice: a tie
				d := ch[i][r.IntN(len(ch[i]))]
				ch[i] = append(ch[i], d)
				continue
			}
			out := tiny[r.IntN(len(tiny))]
			sc := sccChoice{off: map[uint32]*big.Rat{}, e: new(big.Rat)}
			stay := new(big.Rat).Sub(big.NewRat(1, 1), out)
			if out.Sign() == 0 && n == 1 {
				out = big.NewRat(1, 2)
				stay = big.NewRat(1, 2)
			}
			if n > 1 && stay.Sign() > 0 {
				k := 1 + r.IntN(2)
				for t := range k {
					j := uint32(r.IntN(n - 1))
					if j >= uint32(i) {
						j++
					}
					w := new(big.Rat).Quo(stay, big.NewRat(int64(k), 1))
					if t == 0 && k == 2 {
						w = new(big.Rat).Mul(stay, big.NewRat(1, 3))
					} else if k == 2 {
						w = new(big.Rat).Mul(stay, big.NewRat(2, 3))
					}
					if v, ok := sc.off[j]; ok {
						v.Add(v, w)
					} else {
						sc.off[j] = w
					}
				}
			} else {
				out = big.NewRat(1, 1)
			}
			for _, p := range sc.off {
				sc.e.Add(sc.e, p)
			}
			sc.e.Add(sc.e, out)
			// Part of what leaves may leave the class only (self-loops
			// are dropped before, so e < 1 is normal): scale e and all.
			if r.IntN(3) == 0 {
				f := big.NewRat(int64(1+r.IntN(9)), 10)
				sc.e.Mul(sc.e, f)
				out = new(big.Rat).Mul(out, f)
				for _, p := range sc.off {
					p.Mul(p, f)
				}
			}
			if prob {
				// a share of out that reaches the goal: [lo, hi] ⊆ [0, 1]
				a := big.NewRat(int64(r.IntN(4)), 3)
				b := big.NewRat(int64(r.IntN(4)), 3)
				if a.Cmp(b) > 0 {
					a, b = b, a
				}
				sc.bLo, sc.bHi = new(big.Rat).Mul(out, a), new(big.Rat).Mul(out, b)
			} else {
				rw := rews[r.IntN(len(rews))]
				v := big.NewRat(int64(r.IntN(5)), 1)
				sc.bLo = new(big.Rat).Add(rw, new(big.Rat).Mul(out, v))
				sc.bHi = new(big.Rat).Add(rw, new(big.Rat).Mul(out, new(big.Rat).Add(v, big.NewRat(int64(r.IntN(2)), 7))))
			}
			sc.sameLH = sc.bLo.Cmp(sc.bHi) == 0
			ch[i] = append(ch[i], sc)
		}
	}
	return ch
}

// s30qSchedValue is the value of the deterministic scheduler pick on the
// system ch with the lower (upper false) or upper boundary: the least
// non-negative solution of e·x_i = b + Σ off·x_j. For probabilities,
// classes that cannot leave are 0; for rewards, classes that leave with
// probability below 1 are infinite (nil), as are those whose value is.
func s30qSchedValue(ch [][]sccChoice, pick []int, upper, prob bool) []*big.Rat {
	n := len(ch)
	can := make([]bool, n) // reaches a choice that leaves
	for changed := true; changed; {
		changed = false
		for i := range n {
			if can[i] {
				continue
			}
			c := &ch[i][pick[i]]
			sum := new(big.Rat)
			for _, p := range c.off {
				sum.Add(sum, p)
			}
			ok := sum.Cmp(c.e) < 0
			for j := range c.off {
				ok = ok || can[j]
			}
			if ok {
				can[i], changed = true, true
			}
		}
	}
	in := can
	if !prob {
		// sure: every class reachable reaches an exit
		in = make([]bool, n)
		for i := range n {
			seen := map[uint32]bool{uint32(i): true}
			stack := []uint32{uint32(i)}
			in[i] = true
			for len(stack) > 0 && in[i] {
				u := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if !can[u] {
					in[i] = false
				}
				for j := range ch[u][pick[u]].off {
					if !seen[j] {
						seen[j] = true
						stack = append(stack, j)
					}
				}
			}
		}
	}
	var vars []int
	idx := map[int]int{}
	for i := range n {
		if in[i] {
			idx[i] = len(vars)
			vars = append(vars, i)
		}
	}
	k := len(vars)
	a := make([][]*big.Rat, k)
	for r, i := range vars {
		a[r] = make([]*big.Rat, k+1)
		for j := range a[r] {
			a[r][j] = new(big.Rat)
		}
		c := &ch[i][pick[i]]
		a[r][r].Set(c.e)
		for j, p := range c.off {
			if q, ok := idx[int(j)]; ok {
				a[r][q].Sub(a[r][q], p)
			}
		}
		if upper {
			a[r][k].Set(c.bHi)
		} else {
			a[r][k].Set(c.bLo)
		}
	}
	x := gaussJordan(a)
	out := make([]*big.Rat, n)
	for i := range n {
		switch q, ok := idx[i]; {
		case ok:
			out[i] = x[q]
		case prob:
			out[i] = new(big.Rat)
		}
	}
	return out
}

// s30qBrute is the optimum over every deterministic scheduler of the
// system (nil: infinite), and whether every scheduler is proper.
func s30qBrute(ch [][]sccChoice, upper, max, prob bool) (best []*big.Rat, allProper bool) {
	n := len(ch)
	pick := make([]int, n)
	allProper = true
	first := true
	for {
		allProper = allProper && proper(ch, pick)
		v := s30qSchedValue(ch, pick, upper, prob)
		if first {
			best, first = v, false
		} else {
			for i := range n {
				switch {
				case max && (best[i] == nil || v[i] == nil):
					best[i] = nil
				case max:
					if v[i].Cmp(best[i]) > 0 {
						best[i] = v[i]
					}
				case v[i] == nil:
				case best[i] == nil || v[i].Cmp(best[i]) < 0:
					best[i] = v[i]
				}
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
			return best, allProper
		}
	}
}

// TestS30qIntervalCore (s30q): intervalPolicyIteration on random small
// systems (s30qSystem) against the brute force over deterministic
// schedulers of the same rational system: wherever it answers, its
// interval holds the optimum, for Pmax (end components allowed: the
// certificate bounds improper schedulers too), Pmin (no end components,
// as Prob0E leaves none), Emax (every scheduler proper) and Emin (improper
// schedulers infinite; started from a proper one).
func TestS30qIntervalCore(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 0x5e1))
	answered, declined := map[string]int{}, map[string]int{}
	for it := range s30qCount(1500) {
		prob := it%2 == 0
		max := it%4 < 2
		kind := map[[2]bool]string{{true, true}: "Pmax", {true, false}: "Pmin", {false, true}: "Emax", {false, false}: "Emin"}[[2]bool{prob, max}]
		n := 1 + r.IntN(5)
		ch := s30qSystem(r, n, prob)
		wantLo, allProper := s30qBrute(ch, false, max, prob)
		wantHi, _ := s30qBrute(ch, true, max, prob)
		if !allProper && (prob && !max || !prob && max) {
			continue // not an input of this kind
		}
		sched := make([]int, n)
		for i := range n {
			sched[i] = r.IntN(len(ch[i]))
		}
		if !proper(ch, sched) && !attractor(ch, sched) {
			continue
		}
		name := fmt.Sprintf("case %d (%s, n=%d)", it, kind, n)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		lo, _, _ := intervalPolicyIteration(ctx, ch, sched, false, max, prob)
		var hi []float64
		if lo != nil {
			_, hi, _ = intervalPolicyIteration(ctx, ch, sched, true, max, prob)
		}
		cancel()
		if lo == nil || hi == nil {
			declined[kind]++
			continue
		}
		answered[kind]++
		for i := range n {
			if wantLo[i] == nil || wantHi[i] == nil {
				t.Fatalf("%s: class %d: [%v, %v] for an infinite optimum\n%s", name, i, lo[i], hi[i], s30qText(ch))
			}
			if new(big.Rat).SetFloat64(lo[i]).Cmp(wantLo[i]) > 0 || new(big.Rat).SetFloat64(hi[i]).Cmp(wantHi[i]) < 0 {
				t.Fatalf("%s: class %d: [%v, %v] misses [%s, %s]\n%s", name, i, lo[i], hi[i], wantLo[i].RatString(), wantHi[i].RatString(), s30qText(ch))
			}
		}
	}
	t.Logf("answered %v, declined %v", answered, declined)
	for _, k := range []string{"Pmax", "Pmin", "Emax", "Emin"} {
		if answered[k] == 0 {
			t.Errorf("no %s system answered", k)
		}
	}
}

func s30qText(ch [][]sccChoice) string {
	s := ""
	for i := range ch {
		s += fmt.Sprintf("class %d:", i)
		for _, c := range ch[i] {
			s += fmt.Sprintf(" [e=%s b=%s..%s", c.e.RatString(), c.bLo.RatString(), c.bHi.RatString())
			for j, p := range c.off {
				s += fmt.Sprintf(" %s->%d", p.RatString(), j)
			}
			s += "]"
		}
		s += "\n"
	}
	return s
}

// s30qSpec draws an MDP (dtmc: one choice a state) of n states, the last
// the goal and the one before a sink (no choice), built so that its
// components are solved directly: a ring state+1 kept with 1 - q for q
// of 10^-9 to 10^-15 or thirds, random jumps with probability 1 (of
// reward 0: zero-reward cycles), self-loops with probability 1 (end
// components, of reward 0 or not), splits by sevenths, exact duplicate
// choices (ties), and rewards 0, 1, 1/3, 10^6.
func s30qSpec(r *rand.Rand, n int, dtmc bool) mdpSpec {
	sp := mdpSpec{goal: make([]bool, n), choices: make([][]choiceSpec, n)}
	goal, sink := uint32(n-1), uint32(n-2)
	sp.goal[goal] = true
	one := big.NewRat(1, 1)
	qs := []*big.Rat{big.NewRat(1, 1_000_000_000), big.NewRat(1, 1_000_000_000_000), big.NewRat(1, 1_000_000_000_000_000), big.NewRat(1, 3)}
	rews := []*big.Rat{new(big.Rat), new(big.Rat), big.NewRat(1, 1), big.NewRat(1, 3), big.NewRat(1_000_000, 1)}
	open := n - 2
	for s := range open {
		k := 1 + r.IntN(3)
		if dtmc {
			k = 1
		}
		for range k {
			c := choiceSpec{rew: rews[r.IntN(len(rews))]}
			if len(sp.choices[s]) > 0 && r.IntN(6) == 0 {
				sp.choices[s] = append(sp.choices[s], sp.choices[s][0])
				continue
			}
			switch v := r.IntN(10); {
			case v < 5 || dtmc && v < 8: // the ring, left with q
				q := qs[r.IntN(len(qs))]
				next := uint32((s + 1 + r.IntN(2)) % open)
				exit := []uint32{goal, sink, goal, uint32(r.IntN(open))}[r.IntN(4)]
				if next == exit {
					c.to, c.p = []uint32{next}, []*big.Rat{one}
					break
				}
				c.to, c.p = []uint32{next, exit}, []*big.Rat{new(big.Rat).Sub(one, q), q}
			case v < 6: // a zero-reward jump
				c.rew = new(big.Rat)
				c.to, c.p = []uint32{uint32(r.IntN(open))}, []*big.Rat{one}
			case v < 7: // a self-loop for ever
				c.to, c.p = []uint32{uint32(s)}, []*big.Rat{one}
			default: // sevenths
				seen := map[uint32]int{}
				for _, w := range []int64{1, 2, 4} {
					t := []uint32{goal, sink, uint32(r.IntN(open)), uint32(r.IntN(open))}[r.IntN(4)]
					if j, ok := seen[t]; ok {
						c.p[j] = new(big.Rat).Add(c.p[j], big.NewRat(w, 7))
						continue
					}
					seen[t] = len(c.to)
					c.to, c.p = append(c.to, t), append(c.p, big.NewRat(w, 7))
				}
			}
			sp.choices[s] = append(sp.choices[s], c)
		}
	}
	return sp
}

// TestS30qIntervalSolveSmall (s30q): with the interval solver taking
// components of 2 classes and more, s30qSpec's MDPs and DTMCs: the ii
// bounds of Pmax, Pmin, Emax and Emin hold the brute force over all
// deterministic schedulers in rationals (which the float64 probabilities
// only approximate), and some components go through the interval solver.
func TestS30qIntervalSolveSmall(t *testing.T) {
	old := minIntervalClasses
	minIntervalClasses = 2
	defer func() { minIntervalClasses = old }()
	r := rand.New(rand.NewPCG(30, 0x5e2))
	used := map[string]int{}
	for i := range s30qCount(120) {
		dtmc := i%4 == 3
		sp := s30qSpec(r, 4+r.IntN(5), dtmc)
		m, rew := sp.model()
		for _, max := range []bool{false, true} {
			name := fmt.Sprintf("mdp%d/dtmc=%v/max=%v", i, dtmc, max)
			eps := []float64{1e-6, 1e-12}[i%2]
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			res, err := Solve(ctx, m, sp.goal, SolveOptions{Max: max, Epsilon: eps})
			if err != nil {
				cancel()
				t.Fatalf("%s: P: %v\n%s", name, err, specText(sp))
			}
			used["P"] += res.IntervalComponents
			if s, ok := encloses(res.Lower, res.Upper, bruteReach(sp, max)); !ok {
				cancel()
				t.Fatalf("%s: P: state %d: [%v, %v] misses %s\n%s", name, s, res.Lower[s], res.Upper[s], bruteReach(sp, max)[s].RatString(), specText(sp))
			}
			res, err = SolveReward(ctx, m, sp.goal, rew, SolveOptions{Max: max, Epsilon: eps})
			cancel()
			if err != nil {
				t.Fatalf("%s: E: %v\n%s", name, err, specText(sp))
			}
			used["E"] += res.IntervalComponents
			want := bruteForce(sp, max)
			if s, ok := encloses(res.Lower, res.Upper, want); !ok {
				t.Fatalf("%s: E: state %d: [%v, %v] misses %s\n%s", name, s, res.Lower[s], res.Upper[s], ratText(want[s]), specText(sp))
			}
		}
	}
	t.Logf("components solved in interval arithmetic: %v", used)
	if used["P"] == 0 || used["E"] == 0 {
		t.Errorf("too few components through the interval solver: %v", used)
	}
}

// s30qRing draws a ring of n states (the last the goal, the one before a
// sink) whose every choice stays in the ring with 1 - q (q of 10^-9 to
// 10^-15: iteration is hopeless, the component is solved directly) and
// splits the rest between the goal and the sink by thirds or sevenths;
// choices go on to s+1, s+2 or a random state; some are exact duplicates
// (ties), a few states may also jump with probability 1 at reward 0 (a
// zero-reward cycle with the ring, or an end component for Pmax) or
// loop on themselves for ever.
func s30qRing(r *rand.Rand, n int, dtmc bool) mdpSpec {
	sp := mdpSpec{goal: make([]bool, n), choices: make([][]choiceSpec, n)}
	goal, sink := uint32(n-1), uint32(n-2)
	sp.goal[goal] = true
	one := big.NewRat(1, 1)
	qs := []*big.Rat{big.NewRat(1, 1_000_000_000), big.NewRat(1, 1_000_000_000_000), big.NewRat(1, 1_000_000_000_000_000)}
	splits := []*big.Rat{big.NewRat(1, 3), big.NewRat(2, 3), big.NewRat(1, 7), big.NewRat(4, 7), big.NewRat(0, 1), big.NewRat(1, 1)}
	rews := []*big.Rat{new(big.Rat), big.NewRat(1, 1), big.NewRat(1, 3), big.NewRat(2, 1), big.NewRat(1_000_000, 1)}
	open := n - 2
	for s := range open {
		k := 1 + r.IntN(3)
		if dtmc {
			k = 1
		}
		for j := range k {
			c := choiceSpec{rew: rews[r.IntN(len(rews))]}
			switch v := r.IntN(20); {
			case j > 0 && v < 3:
				c = sp.choices[s][0]
			case j > 0 && v < 4:
				c.rew = new(big.Rat)
				c.to, c.p = []uint32{uint32(r.IntN(open))}, []*big.Rat{one}
			case j > 0 && v < 5:
				c.to, c.p = []uint32{uint32(s)}, []*big.Rat{one}
			default:
				q := qs[r.IntN(len(qs))]
				next := uint32((s + 1) % open)
				if j > 0 {
					next = []uint32{uint32((s + 2) % open), uint32(r.IntN(open)), next}[r.IntN(3)]
				}
				a := splits[r.IntN(len(splits))]
				toGoal := new(big.Rat).Mul(q, a)
				c.to, c.p = []uint32{next}, []*big.Rat{new(big.Rat).Sub(one, q)}
				if toGoal.Sign() > 0 {
					c.to, c.p = append(c.to, goal), append(c.p, toGoal)
				}
				if rest := new(big.Rat).Sub(q, toGoal); rest.Sign() > 0 {
					c.to, c.p = append(c.to, sink), append(c.p, rest)
				}
			}
			sp.choices[s] = append(sp.choices[s], c)
		}
	}
	return sp
}

// TestS30qIntervalSolveLarge (s30q): s30qRing's MDPs and DTMCs of 50 to
// 65 states, components at the interval solver's real threshold
// (minIntervalClasses): the ii bounds of Pmax, Pmin, Emax and
// Emin hold the exact method's rationals.
func TestS30qIntervalSolveLarge(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 0x5e3))
	used := map[string]int{}
	for i := range s30qCount(6) {
		dtmc := i%3 == 2
		sp := s30qRing(r, 50+r.IntN(16), dtmc)
		for _, reward := range []bool{false, true} {
			if reward {
				// the sink reached is the goal too: finite rewards
				sp.goal = append([]bool(nil), sp.goal...)
				sp.goal[len(sp.goal)-2] = true
			}
			m, rew := sp.model()
			for _, max := range []bool{false, true} {
				name := fmt.Sprintf("mdp%d/dtmc=%v/max=%v/reward=%v", i, dtmc, max, reward)
				ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
				solve := func(o SolveOptions) (*Result, error) {
					if reward {
						return SolveReward(ctx, m, sp.goal, rew, o)
					}
					return Solve(ctx, m, sp.goal, o)
				}
				res, err := solve(SolveOptions{Max: max, Epsilon: 1e-9})
				if err != nil {
					cancel()
					t.Fatalf("%s: ii: %v\n%s", name, err, specText(sp))
				}
				used[fmt.Sprint(reward)] += res.IntervalComponents
				ex, err := solve(SolveOptions{Max: max, Method: Exact})
				cancel()
				if err != nil {
					t.Fatalf("%s: exact: %v", name, err)
				}
				if s, ok := encloses(res.Lower, res.Upper, ex.Exact); !ok {
					t.Fatalf("%s: state %d: [%v, %v] misses the exact %s\n%s", name, s, res.Lower[s], res.Upper[s], ratText(ex.Exact[s]), specText(sp))
				}
			}
		}
	}
	t.Logf("components solved in interval arithmetic (reward: count): %v", used)
	if used["false"] == 0 || used["true"] == 0 {
		t.Errorf("too few components through the interval solver: %v", used)
	}
}

// TestS30qIntervalCoreVsRational (s30q): intervalPolicyIteration on
// random systems of 12 to 27 classes (too many for the brute force)
// against policyIteration in rationals on the same system, from the same
// proper scheduler: wherever both answer, the interval holds the
// rational optimum. Pmax and Pmin without end components (every choice
// leaves a little: every scheduler proper), Emax likewise, Emin with end
// components (from a proper start).
func TestS30qIntervalCoreVsRational(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 0x5e4))
	answered := 0
	for it := range s30qCount(16) {
		prob, max := it%2 == 0, it%4 < 2
		n := 12 + r.IntN(16)
		var ch [][]sccChoice
		for {
			ch = s30qSystem(r, n, prob)
			if !(prob || max) {
				break
			}
			// every choice leaves: every scheduler proper
			all := true
			for i := range ch {
				for k := range ch[i] {
					sum := new(big.Rat)
					for _, p := range ch[i][k].off {
						sum.Add(sum, p)
					}
					all = all && sum.Cmp(ch[i][k].e) < 0
				}
			}
			if all {
				break
			}
			// drop the choices that leave nothing, where another is left
			for i := range ch {
				var keep []sccChoice
				for _, c := range ch[i] {
					sum := new(big.Rat)
					for _, p := range c.off {
						sum.Add(sum, p)
					}
					if sum.Cmp(c.e) < 0 {
						keep = append(keep, c)
					}
				}
				if len(keep) > 0 {
					ch[i] = keep
				}
			}
			if s30qAllLeave(ch) {
				break
			}
		}
		sched := make([]int, n)
		if !attractor(ch, sched) {
			continue
		}
		for _, upper := range []bool{false, true} {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			s1 := append([]int(nil), sched...)
			lo, hi, _ := intervalPolicyIteration(ctx, ch, s1, upper, max, prob)
			s2 := append([]int(nil), sched...)
			want, err := policyIteration(ctx, ch, s2, upper, max)
			cancel()
			if lo == nil || want == nil || err != nil {
				continue
			}
			answered++
			for i := range n {
				if new(big.Rat).SetFloat64(lo[i]).Cmp(want[i]) > 0 || new(big.Rat).SetFloat64(hi[i]).Cmp(want[i]) < 0 {
					t.Fatalf("case %d (prob=%v max=%v upper=%v n=%d): class %d: [%v, %v] misses %s\n%s", it, prob, max, upper, n, i, lo[i], hi[i], want[i].FloatString(20), s30qText(ch))
				}
			}
		}
	}
	t.Logf("%d systems answered by both", answered)
	if answered == 0 {
		t.Errorf("no system answered by both")
	}
}

// s30qAllLeave says whether every choice of ch leaves its class for
// outside the component with some probability.
func s30qAllLeave(ch [][]sccChoice) bool {
	for i := range ch {
		for k := range ch[i] {
			sum := new(big.Rat)
			for _, p := range ch[i][k].off {
				sum.Add(sum, p)
			}
			if sum.Cmp(ch[i][k].e) >= 0 {
				return false
			}
		}
	}
	return true
}

// TestS30qIntervalCoreLowPrecision (s30q): TestS30qIntervalCore's
// systems with the interval solver starting at 2 to 24 bits (then 4
// times more a level): at such precisions the intervals are wide, ties
// are not resolved and certificates fail or barely pass, so a rounding
// the wrong way, or a certificate's inequality the wrong way round,
// would show as a bound that misses the brute force's optimum.
func TestS30qIntervalCoreLowPrecision(t *testing.T) {
	defer func(p uint) { intervalTestPrec = p }(intervalTestPrec)
	r := rand.New(rand.NewPCG(30, 0x5e5))
	answered, low := 0, 0
	for it := range s30qCount(1200) {
		intervalTestPrec = []uint{2, 3, 5, 8, 13, 24}[it%6]
		prob := it%2 == 0
		max := (it/2)%2 == 0
		n := 1 + r.IntN(5)
		ch := s30qSystem(r, n, prob)
		wantLo, allProper := s30qBrute(ch, false, max, prob)
		wantHi, _ := s30qBrute(ch, true, max, prob)
		if !allProper && (prob && !max || !prob && max) {
			continue
		}
		sched := make([]int, n)
		for i := range n {
			sched[i] = r.IntN(len(ch[i]))
		}
		if !proper(ch, sched) && !attractor(ch, sched) {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		lo, _, pl := intervalPolicyIteration(ctx, ch, sched, false, max, prob)
		var hi []float64
		var ph uint
		if lo != nil {
			_, hi, ph = intervalPolicyIteration(ctx, ch, sched, true, max, prob)
		}
		cancel()
		if lo == nil || hi == nil {
			continue
		}
		answered++
		if pl < 128 || ph < 128 {
			low++
		}
		for i := range n {
			if wantLo[i] == nil || wantHi[i] == nil || new(big.Rat).SetFloat64(lo[i]).Cmp(wantLo[i]) > 0 || new(big.Rat).SetFloat64(hi[i]).Cmp(wantHi[i]) < 0 {
				t.Fatalf("case %d (prob=%v max=%v n=%d, %d and %d bits): class %d: [%v, %v] misses [%s, %s]\n%s", it, prob, max, n, pl, ph, i, lo[i], hi[i], ratText(wantLo[i]), ratText(wantHi[i]), s30qText(ch))
			}
		}
	}
	t.Logf("answered %d, %d of them below 128 bits", answered, low)
	if low == 0 {
		t.Errorf("no system answered below 128 bits")
	}
}

// TestS30qIntervalSolveLowPrecision (s30q): TestS30qIntervalSolveSmall's
// end-to-end check (threshold 2, against the brute force) with the
// interval solution starting at 3 to 24 bits: its callers (scc.go,
// rewardii.go) take whatever wide bounds it certifies, widen them by the
// float64 probabilities' error and intersect them with iteration's.
func TestS30qIntervalSolveLowPrecision(t *testing.T) {
	defer func(m int, p uint) { minIntervalClasses, intervalTestPrec = m, p }(minIntervalClasses, intervalTestPrec)
	minIntervalClasses = 2
	r := rand.New(rand.NewPCG(30, 0x5e6))
	used, failed := 0, 0
	for i := range s30qCount(60) {
		intervalTestPrec = []uint{3, 8, 24}[i%3]
		dtmc := i%4 == 3
		sp := s30qSpec(r, 4+r.IntN(5), dtmc)
		if i%2 == 1 {
			sp = stickySpec(r, 3+r.IntN(6))
		}
		m, rew := sp.model()
		for _, max := range []bool{false, true} {
			name := fmt.Sprintf("mdp%d/max=%v/prec=%d", i, max, intervalTestPrec)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			// (bounds this wide may leave iteration no float64 upper
			// bound within epsilon: an error, never a wrong interval)
			res, err := Solve(ctx, m, sp.goal, SolveOptions{Max: max, Epsilon: 1e-9})
			if err != nil {
				failed++
			} else {
				used += res.IntervalComponents
				want := bruteReach(sp, max)
				if s, ok := encloses(res.Lower, res.Upper, want); !ok {
					cancel()
					t.Fatalf("%s: P: state %d: [%v, %v] misses %s\n%s", name, s, res.Lower[s], res.Upper[s], want[s].RatString(), specText(sp))
				}
			}
			res, err = SolveReward(ctx, m, sp.goal, rew, SolveOptions{Max: max, Epsilon: 1e-9})
			cancel()
			if err != nil {
				failed++
				continue
			}
			used += res.IntervalComponents
			want := bruteForce(sp, max)
			if s, ok := encloses(res.Lower, res.Upper, want); !ok {
				t.Fatalf("%s: E: state %d: [%v, %v] misses %s\n%s", name, s, res.Lower[s], res.Upper[s], ratText(want[s]), specText(sp))
			}
		}
	}
	t.Logf("%d components solved in interval arithmetic; %d solutions ended in an error", used, failed)
	if used == 0 {
		t.Errorf("no component went through the interval solver")
	}
}
