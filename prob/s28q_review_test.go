package prob

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"
	"time"
)

// s28qSpec draws an MDP of n states built against the direct solution of
// MDP reward components: zero-reward moves between states (zero-reward
// cycles and end components of several states, which Emin collapses),
// rings left with 10^-12 or 10^-15 (iteration alone never ends, so the
// component is solved by policy iteration), splits by thirds (float64
// probabilities that are not the rationals), self-loops of positive
// reward (improper choices for Emin), and rewards from a small set
// (ties between choices, which policy iteration must not cycle on).
func s28qSpec(r *rand.Rand, n int) mdpSpec {
	sp := mdpSpec{goal: make([]bool, n), choices: make([][]choiceSpec, n)}
	sp.goal[n-1] = true
	one := big.NewRat(1, 1)
	qs := []*big.Rat{big.NewRat(1, 1_000_000_000_000), big.NewRat(1, 1_000_000_000_000_000), big.NewRat(1, 3), big.NewRat(1, 10_000_000), big.NewRat(1, 7)}
	rews := []*big.Rat{new(big.Rat), new(big.Rat), big.NewRat(1, 1), big.NewRat(2, 1), big.NewRat(1, 3), big.NewRat(1_000_000, 1)}
	for s := range n - 1 {
		if r.IntN(20) == 0 {
			continue
		}
		for range 1 + r.IntN(3) {
			c := choiceSpec{rew: rews[r.IntN(len(rews))]}
			switch r.IntN(6) {
			case 0: // a zero-reward move
				c.rew = new(big.Rat)
				c.to, c.p = []uint32{uint32(r.IntN(n))}, []*big.Rat{one}
			case 1, 2: // a ring left with q
				q := qs[r.IntN(len(qs))]
				stay, leave := uint32(r.IntN(n-1)), uint32(r.IntN(n))
				if r.IntN(2) == 0 {
					leave = uint32(n - 1)
				}
				if stay == leave {
					c.to, c.p = []uint32{stay}, []*big.Rat{one}
					break
				}
				c.to, c.p = []uint32{stay, leave}, []*big.Rat{new(big.Rat).Sub(one, q), q}
			case 3: // thirds
				seen := map[uint32]int{}
				for range 3 {
					t := uint32(r.IntN(n))
					if j, ok := seen[t]; ok {
						c.p[j] = new(big.Rat).Add(c.p[j], big.NewRat(1, 3))
						continue
					}
					seen[t] = len(c.to)
					c.to, c.p = append(c.to, t), append(c.p, big.NewRat(1, 3))
				}
			case 4: // a self-loop
				c.to, c.p = []uint32{uint32(s)}, []*big.Rat{one}
			default: // straight to the goal
				c.to, c.p = []uint32{uint32(n - 1)}, []*big.Rat{one}
			}
			sp.choices[s] = append(sp.choices[s], c)
		}
	}
	return sp
}

// TestReviewMDPComponents (s28q): on s28qSpec's MDPs, the ii bounds of
// Emin and Emax enclose the brute force over all schedulers in rationals
// (Storm's semantics: Emin over the schedulers that reach the goal
// almost surely, Emax infinite where one may miss it), and the exact
// method equals it.
func TestReviewMDPComponents(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 17))
	count := 400
	if testing.Short() {
		count = 60
	}
	for i := range count {
		sp := s28qSpec(r, 3+r.IntN(6))
		m, rew := sp.model()
		for _, max := range []bool{false, true} {
			name := fmt.Sprintf("mdp%d/max=%v", i, max)
			want := bruteForce(sp, max)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			ex, err := SolveReward(ctx, m, sp.goal, rew, SolveOptions{Max: max, Method: Exact})
			if err != nil {
				cancel()
				t.Fatalf("%s: exact: %v\n%s", name, err, specText(sp))
			}
			for s := range want {
				if got := ex.Exact[s]; (got == nil) != (want[s] == nil) || got != nil && got.Cmp(want[s]) != 0 {
					cancel()
					t.Fatalf("%s: state %d: exact %s, brute force %s\n%s", name, s, ratText(got), ratText(want[s]), specText(sp))
				}
			}
			res, err := SolveReward(ctx, m, sp.goal, rew, SolveOptions{Max: max, Epsilon: []float64{1e-6, 1e-12}[i%2]})
			cancel()
			if err != nil {
				t.Fatalf("%s: ii: %v\n%s", name, err, specText(sp))
			}
			if s, ok := encloses(res.Lower, res.Upper, want); !ok {
				t.Fatalf("%s: state %d: [%v, %v] misses %s\n%s", name, s, res.Lower[s], res.Upper[s], ratText(want[s]), specText(sp))
			}
		}
	}
}

// s28qRing is the system of a ring of n classes, each going on with
// about 1 - 10^-13 - a and to a random class with a < 1/2 (float64
// probabilities of 53 bits): elimination round the ring makes rationals
// of tens of thousands of digits.
func s28qRing(n int) *chainSystem {
	r := rand.New(rand.NewPCG(3, 3))
	sys := &chainSystem{x: make([]*big.Rat, n), rows: make([]map[uint32]*big.Rat, n), b: make([]*big.Rat, n), users: make([]map[uint32]bool, n)}
	for i := range n {
		a := new(big.Rat).SetFloat64(r.Float64() * 0.5)
		rest := new(big.Rat).SetFloat64(1 - 1e-13 - r.Float64()*0.5)
		row := map[uint32]*big.Rat{uint32((i + 1) % n): rest}
		if j := uint32(r.IntN(n)); j != uint32((i+1)%n) && j != uint32(i) {
			row[j] = a
		}
		sys.rows[i] = row
		sys.b[i] = big.NewRat(1, 1)
	}
	for i, row := range sys.rows {
		for j := range row {
			if sys.users[j] == nil {
				sys.users[j] = map[uint32]bool{}
			}
			sys.users[j][uint32(i)] = true
		}
	}
	return sys
}

// TestEliminationStopsOnBigRationals (s28q): the elimination of a ring of
// 1000 classes (maxDirect, which policy iteration of an MDP's reward
// component solves) stops within a second of the context's end. It
// looked at the context every 4096 entries, which with rationals of
// tens of thousands of digits was 0.9 to 1.5 s (a deadline of 6 s took
// 7.46 s); now by the digits multiplied as well.
func TestEliminationStopsOnBigRationals(t *testing.T) {
	sys := s28qRing(1000)
	d := 6 * time.Second
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	t0 := time.Now()
	_, err := sys.solve(ctx)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v, want the deadline (the ring was solved within %v: make it harder)", err, d)
	}
	if took := time.Since(t0); took > d+time.Second {
		t.Errorf("stopped %v after the context's end", took-d)
	}
}
