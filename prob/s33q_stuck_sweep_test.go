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

// The s33q stuck sweep: small MDPs with classes that cannot move their
// bounds (zeroExits: a choice that leaves only through entries whose
// float64 is 0, or for max stays with a float64 1) in every position:
// the start state, states that feed other components, states reached
// only through other such classes or through entries that are 0 in
// float64, several in one component, in components that also have
// ordinary rings. Interval iteration leaves such classes out of a
// component's convergence test once the direct solutions declined
// (ii.go); every answer's bounds, in every state, must hold the value
// the brute force gives (s31vBrute), for Pmax, Pmin, Emax and Emin.
// S33Q_SWEEP=N runs N systems (the CI size is 40), S33Q_SEED another
// seed; half run with the direct solutions after the first sweep
// (floatFirstTest), half as the CLI does. S33Q_INPUT=1 draws only
// entries an input file can give (at least 2^-63).

func s33qStuckSpec(r *rand.Rand, n int, input bool) mdpSpec {
	sp := mdpSpec{goal: make([]bool, n+2), choices: make([][]choiceSpec, n+2)}
	goal, sink := uint32(n), uint32(n+1)
	sp.goal[goal] = true
	one := big.NewRat(1, 1)
	pow2 := func(k int) *big.Rat {
		return new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), uint(k)))
	}
	rew := func() *big.Rat { return s32qRewards[r.IntN(len(s32qRewards))] }
	anyTarget := func() uint32 {
		if r.IntN(4) == 0 {
			return []uint32{goal, sink}[r.IntN(2)]
		}
		return uint32(r.IntN(n))
	}
	weight := func() *big.Rat {
		return []*big.Rat{one, big.NewRat(1, 3), s31vRat(1e-9), s31vRat(1e-300), s31vRat(0x1p-999)}[r.IntN(5)]
	}
	// stay is a choice of x kept with 1 - t, t spread over 1 or 2 targets.
	stay := func(x uint32, t *big.Rat) choiceSpec {
		to, w := []uint32{x}, []*big.Rat{new(big.Rat).Sub(one, t)}
		k := 1 + r.IntN(2)
		for i := range k {
			y := anyTarget()
			if i == 0 && r.IntN(2) == 0 {
				y = uint32((int(x) + 1) % n) // towards the next state
			}
			to = append(to, y)
			w = append(w, new(big.Rat).Quo(t, big.NewRat(int64(k), 1)))
		}
		return s31vDist(to, w, rew())
	}
	stuckAt := make([]bool, n)
	stuckAt[r.IntN(n)] = true // at least one
	for x := range n {
		if r.IntN(3) == 0 {
			stuckAt[x] = true
		}
	}
	if r.IntN(2) == 0 {
		stuckAt[0] = true // the start state
	}
	for x := range n {
		xs := uint32(x)
		k := 1 + r.IntN(2)
		for c := range k {
			switch {
			case c == 0 && stuckAt[x]:
				var t *big.Rat
				kind := r.IntN(5)
				if input {
					kind = 2 + r.IntN(2)
				}
				switch kind {
				case 0, 1:
					t = pow2([]int{1076, 1100, 1500}[r.IntN(3)]) // 0 in float64
				case 2:
					t = pow2([]int{54, 60, 200}[r.IntN(3)]) // stays with a float64 1
				case 3:
					t = big.NewRat(1, 1<<62) // an input file's smallest
				default:
					t = new(big.Rat).Add(pow2(1076), pow2(1200))
				}
				sp.choices[x] = append(sp.choices[x], stay(xs, t))
			default:
				m := 1 + r.IntN(3)
				var to []uint32
				var w []*big.Rat
				if r.IntN(2) == 0 {
					to, w = append(to, uint32((x+1)%n)), append(w, one) // a ring
				}
				for range m {
					to, w = append(to, anyTarget()), append(w, weight())
				}
				d := s31vDist(to, w, rew())
				if !input && r.IntN(3) == 0 {
					// an entry that is 0 in float64 into another state
					t := pow2([]int{1076, 1100}[r.IntN(2)])
					d.p[0] = new(big.Rat).Sub(d.p[0], t)
					d.to = append(d.to, uint32(r.IntN(n)))
					d.p = append(d.p, t)
				}
				sp.choices[x] = append(sp.choices[x], d)
			}
		}
	}
	sp.choices[sink] = []choiceSpec{{to: []uint32{sink}, p: []*big.Rat{one}, rew: new(big.Rat)}}
	return sp
}

func TestS33qStuckSweep(t *testing.T) {
	total := 40
	if v, err := strconv.Atoi(os.Getenv("S33Q_SWEEP")); err == nil {
		total = v
	}
	seed := uint64(0x533)
	if v, err := strconv.ParseUint(os.Getenv("S33Q_SEED"), 10, 64); err == nil {
		seed = v
	}
	defer func(d time.Duration) {
		floatFirstTest, floatRoundsTest, diffOnlyTest, s32qTimeout = false, 0, false, d
	}(s32qTimeout)
	s32qTimeout = 500 * time.Millisecond
	stuck0 := stuckCountTest
	// S33Q_INPUT=1: only what input files can give (entries of at least
	// 2^-63: stays that are a float64 1, none that are 0)
	input := os.Getenv("S33Q_INPUT") != ""
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	var c s32qCounts
	systems, wide := 0, 0
	for i := 0; systems < total; i++ {
		floatFirstTest = i%2 == 0
		floatRoundsTest = []int{0, 1, 2}[i%3]
		n := 2 + r.IntN(5)
		sp := s33qStuckSpec(r, n, input)
		if s31vSchedulers(sp) > 256 {
			continue
		}
		systems++
		wide += s33qCheck(t, fmt.Sprintf("sys%d", i), sp, []float64{1e-6, 1e-12, 1e-3}[i%3], &c)
	}
	t.Logf("%d systems, %d solutions: %d refused, %d stopped, %d misses; %d components in float64, %d in rationals; %d left zeroed classes out; %d answers with the start state's bounds wider than epsilon", systems, c.runs, c.refused, c.stopped, c.misses, c.floats, c.rats, stuckCountTest-stuck0, wide)
}

// s33qCheck is s32qCheck (Pmax, Pmin, Emax, Emin against the brute
// force, every state's bounds must hold the value) that also counts the
// answers whose start state's bounds are wider than epsilon (sound, and
// shown as bounds: a class left out of the convergence test keeps its
// bounds as they are).
func s33qCheck(t *testing.T, name string, sp mdpSpec, eps float64, c *s32qCounts) (wide int) {
	t.Helper()
	m, rew := sp.model()
	for _, reward := range []bool{false, true} {
		for _, max := range []bool{false, true} {
			ctx, cancel := context.WithTimeout(context.Background(), s32qTimeout)
			opt := SolveOptions{Max: max, Epsilon: eps}
			stuck0 := stuckCountTest
			var res *Result
			var err error
			if reward {
				res, err = SolveReward(ctx, m, sp.goal, rew, opt)
			} else {
				res, err = Solve(ctx, m, sp.goal, opt)
			}
			stopped := ctx.Err() != nil
			cancel()
			c.runs++
			switch {
			case stopped:
				c.stopped++
				continue
			case err != nil:
				c.refused++
				if os.Getenv("S32Q_VERBOSE") != "" {
					t.Logf("%s/reward=%v/max=%v: refused: %v", name, reward, max, err)
				}
				continue
			}
			c.floats += res.FloatComponents
			c.rats += res.RationalComponents
			want := s31vBrute(sp, max, reward)
			if s, ok := s32qEncloses(res.Lower, res.Upper, want); !ok {
				c.misses++
				if c.misses <= 5 {
					t.Errorf("%s/reward=%v/max=%v: state %d: [%v, %v] misses %v\n%s", name, reward, max, s, res.Lower[s], res.Upper[s], want[s], specText(sp))
				}
			}
			if d := res.Upper[0] - res.Lower[0]; d > eps*res.Lower[0] && d == d && res.Upper[0] < 1e308 {
				wide++
				if os.Getenv("S32Q_VERBOSE") != "" {
					t.Logf("%s/reward=%v/max=%v: wide [%v, %v], zeroed left out: %v\n%s", name, reward, max, res.Lower[0], res.Upper[0], stuckCountTest > stuck0, specText(sp))
				}
			}
		}
	}
	return wide
}
