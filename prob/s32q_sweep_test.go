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

// The s32q sweep: small adversarial MDPs solved for Pmax, Pmin, Emax and
// Emin against the brute force over every memoryless scheduler in
// rationals (s31vBrute). Besides s31v's kinds, s32qSpecOf draws rings
// whose σ choices enter one class each (the differences of values are
// summed along them, certdiff.go), near ties, values near 0 and near 1,
// rewards of 1e300 and 1e-300, self-loops left with less than 2^-900
// (leaveRatio) and entries whose rationals underflow float64. The
// component solutions run in float64 first (floatFirstTest), policy
// iteration is cut after 1, 2 or 100 rounds, and with diffOnlyTest
// every advantage is bounded through the differences alone (small
// systems' intervals are so tight that certify would not need them).
// S32Q_SWEEP=N runs N systems (the CI size is 40, about 10 s), S32Q_SEED
// another seed.

var s32qRewards = []*big.Rat{new(big.Rat), big.NewRat(1, 1), s31vRat(1e300), s31vRat(1e-300), big.NewRat(1, 3), s31vRat(0x1p1000), s31vRat(0x1p-1000)}

// s32qSpecOf: kind 0, a ring whose first choice enters the next state
// with 1 - e (e tiny, spread between goal and sink with a share near 0
// or near 1) and whose others are near twins or jump ahead; kind 1,
// self-loops kept with 1 - 2^-k (k up to 1100) besides the ring; kind 2,
// a ring with an entry of 2^-1076 (a float64 0) into a state of reward
// 2^1000.
func s32qSpecOf(r *rand.Rand, kind, n int, dtmc bool) mdpSpec {
	sp := mdpSpec{goal: make([]bool, n+3), choices: make([][]choiceSpec, n+3)}
	goal, sink, big1 := uint32(n), uint32(n+1), uint32(n+2)
	sp.goal[goal] = true
	one := big.NewRat(1, 1)
	pow2 := func(k int) *big.Rat {
		return new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), uint(k)))
	}
	eps := func() *big.Rat {
		return []*big.Rat{s31vRat(1e-9), s31vRat(2e-9), s31vRat(1e-300), pow2(40), pow2(999), big.NewRat(1, 3), s31vRat(1e-15)}[r.IntN(7)]
	}
	share := func() *big.Rat {
		return []*big.Rat{new(big.Rat), one, big.NewRat(1, 2), new(big.Rat).Sub(one, s31vRat(1e-12)), s31vRat(1e-12), s31vRat(0x1p-52)}[r.IntN(6)]
	}
	rew := func() *big.Rat { return s32qRewards[r.IntN(len(s32qRewards))] }
	// ring is a choice into to with 1 - e, leaving e (share a to the goal).
	ring := func(to uint32, e, a *big.Rat, rw *big.Rat) choiceSpec {
		g := new(big.Rat).Mul(e, a)
		s := new(big.Rat).Sub(e, g)
		ts, ws := []uint32{to}, []*big.Rat{new(big.Rat).Sub(one, e)}
		if g.Sign() > 0 {
			ts, ws = append(ts, goal), append(ws, g)
		}
		if s.Sign() > 0 {
			ts, ws = append(ts, sink), append(ws, s)
		}
		return s31vDist(ts, ws, rw)
	}
	for x := range n {
		next := uint32((x + 1) % n)
		e, a, rw := eps(), share(), rew()
		sp.choices[x] = append(sp.choices[x], ring(next, e, a, rw))
		switch kind {
		case 1:
			if r.IntN(2) == 0 {
				k := []int{901, 950, 1010, 1060, 1074, 1100}[r.IntN(6)]
				c := sp.choices[x][0]
				// stay with 1 - 2^-k, the ring's choice scaled into 2^-k
				st := new(big.Rat).Sub(one, pow2(k))
				nc := choiceSpec{to: []uint32{uint32(x)}, p: []*big.Rat{st}, rew: c.rew}
				for i, t := range c.to {
					nc.to = append(nc.to, t)
					nc.p = append(nc.p, new(big.Rat).Mul(c.p[i], pow2(k)))
				}
				sp.choices[x][0] = nc
			}
		case 2:
			if r.IntN(2) == 0 {
				c := &sp.choices[x][0]
				t := pow2([]int{1076, 1080, 1030}[r.IntN(3)])
				c.p[0] = new(big.Rat).Sub(c.p[0], t)
				c.to = append(c.to, big1)
				c.p = append(c.p, t)
			}
		}
		if dtmc {
			continue
		}
		for range r.IntN(3) {
			switch r.IntN(3) {
			case 0: // a near twin
				d := []*big.Rat{s31vRat(0x1p-52), s31vRat(0x1p-60), new(big.Rat), s31vRat(-0x1p-53), s31vRat(1e-15)}[r.IntN(5)]
				e2 := new(big.Rat).Mul(e, new(big.Rat).Add(one, d))
				rw2 := rw
				if r.IntN(2) == 0 {
					rw2 = new(big.Rat).Mul(rw, new(big.Rat).Add(one, d))
				}
				sp.choices[x] = append(sp.choices[x], ring(next, e2, a, rw2))
			case 1: // jump ahead
				sp.choices[x] = append(sp.choices[x], ring(uint32((x+1+r.IntN(n))%n), eps(), share(), rew()))
			default: // split between two states
				to := []uint32{uint32(r.IntN(n)), uint32(r.IntN(n)), []uint32{goal, sink}[r.IntN(2)]}
				w := []*big.Rat{one, big.NewRat(1, 3), eps()}
				sp.choices[x] = append(sp.choices[x], s31vDist(to, w, rew()))
			}
		}
	}
	sp.choices[sink] = []choiceSpec{{to: []uint32{sink}, p: []*big.Rat{one}, rew: new(big.Rat)}}
	sp.choices[big1] = []choiceSpec{{to: []uint32{goal}, p: []*big.Rat{one}, rew: s31vRat(0x1p1000)}}
	return sp
}

// s32qCheck solves sp four ways against the brute force; it counts the
// answers, the refusals and the misses (each miss an error).
func s32qCheck(t *testing.T, name string, sp mdpSpec, eps float64, c *s32qCounts) {
	t.Helper()
	m, rew := sp.model()
	for _, reward := range []bool{false, true} {
		for _, max := range []bool{false, true} {
			tag := fmt.Sprintf("%s/reward=%v/max=%v", name, reward, max)
			ctx, cancel := context.WithTimeout(context.Background(), s32qTimeout)
			var res *Result
			var err error
			opt := SolveOptions{Max: max, Epsilon: eps}
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
				if os.Getenv("S32Q_VERBOSE") != "" {
					t.Logf("%s: stopped: %v\n%s", tag, err, specText(sp))
				}
				continue
			case err != nil:
				c.refused++
				continue
			}
			c.floats += res.FloatComponents
			c.rats += res.RationalComponents
			want := s31vBrute(sp, max, reward)
			if s, ok := s32qEncloses(res.Lower, res.Upper, want); !ok {
				c.misses++
				w := "inf"
				if want[s] != nil {
					w = want[s].FloatString(30)
				}
				if c.misses <= 5 {
					t.Errorf("%s: state %d: [%v, %v] misses %s (float %d, rational %d)\n%s", tag, s, res.Lower[s], res.Upper[s], w, res.FloatComponents, res.RationalComponents, specText(sp))
				}
			}
		}
	}
}

// s32qTimeout bounds each solution: components with an entry below
// 2^-1000 that are left with 10^-300 a step are declined by both direct
// solutions and iterated until it (stopped, counted, not wrong).
var s32qTimeout = 300 * time.Millisecond

type s32qCounts struct{ runs, refused, stopped, misses, floats, rats int }

// s32qEncloses is encloses with an upper end of +Inf (no bound) allowed.
func s32qEncloses(lo, hi []float64, want []*big.Rat) (int, bool) {
	for s, w := range want {
		if w == nil {
			if lo[s] < 1e308 {
				return s, false
			}
			continue
		}
		l := new(big.Rat).SetFloat64(lo[s])
		if l == nil || l.Cmp(w) > 0 {
			return s, false
		}
		if h := new(big.Rat).SetFloat64(hi[s]); h != nil && h.Cmp(w) < 0 || h == nil && hi[s] != hi[s] {
			return s, false
		}
	}
	return 0, true
}

func TestS32qSweep(t *testing.T) {
	total := 40
	if v, err := strconv.Atoi(os.Getenv("S32Q_SWEEP")); err == nil {
		total = v
	}
	seed := uint64(0x532)
	if v, err := strconv.ParseUint(os.Getenv("S32Q_SEED"), 10, 64); err == nil {
		seed = v
	}
	floatFirstTest = os.Getenv("S32Q_NOFIRST") == ""
	defer func() { floatFirstTest, floatRoundsTest, diffOnlyTest = false, 0, false }()
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	var c s32qCounts
	systems := 0
	for i := 0; systems < total; i++ {
		floatRoundsTest = []int{0, 1, 2}[i%3]
		diffOnlyTest = i%2 == 0
		dtmc := i%9 == 0
		n := 2 + r.IntN(6)
		var sp mdpSpec
		if i%4 == 3 {
			sp = s31vSpecOf(r, i%5, n, dtmc)
		} else {
			sp = s32qSpecOf(r, i%3, n, dtmc)
		}
		if s31vSchedulers(sp) > 512 {
			continue
		}
		systems++
		s32qCheck(t, fmt.Sprintf("sys%d", i), sp, []float64{1e-6, 1e-12, 1e-3}[i%3], &c)
	}
	t.Logf("%d systems, %d solutions: %d refused, %d stopped, %d misses; %d components in float64, %d in rationals", systems, c.runs, c.refused, c.stopped, c.misses, c.floats, c.rats)
}
