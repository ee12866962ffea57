package prob

import (
	"context"
	"math/big"
	"testing"
	"time"
)

// s32pRing is ringSpec with the ring's weight w instead of 10^9: a class
// leaves with about 1/w a step.
func s32pRing(n int, w int64) mdpSpec {
	sp := ringSpec(n)
	for x := 1; x <= n; x++ {
		for k, c := range sp.choices[x] {
			ws := []*big.Rat{big.NewRat(w, 1), big.NewRat(int64(1+x%3), 3), big.NewRat(1, 7)}
			if k == 1 {
				ws = []*big.Rat{big.NewRat(w, 1), big.NewRat(1, 5), big.NewRat(int64(1+x%2), 11)}
			}
			sum := new(big.Rat)
			for _, v := range ws {
				sum.Add(sum, v)
			}
			for i := range c.p {
				c.p[i] = new(big.Rat).Quo(ws[i], sum)
			}
		}
	}
	return sp
}

// TestS32pBudgetNotTime: the direct solution of a component runs within a
// budget of work units (work.go), no longer of time, so the path that
// answers, and so the bounds, do not depend on the machine's load. Each
// solve runs once as it is and once with every unit spent slowed down by
// 20 µs (workHookTest: under the time budget the slow run ran out of it
// and answered otherwise); the two must agree to the bit, in bounds,
// iterations and the components solved each way. Once with the budgets as
// they are (the float64 solution answers) and once starved (workScaleTest:
// it runs out, and iteration answers), so both paths are compared.
func TestS32pBudgetNotTime(t *testing.T) {
	defer func() { workScaleTest, workHookTest = 0, nil }()
	type run struct {
		lo, hi      []float64
		it, fl, rat int
	}
	solve := func(reward, max bool) run {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		var res *Result
		var err error
		if reward {
			sp := rewardRingSpec(20, big.NewRat(1, 20_000))
			m, rew := sp.model()
			res, err = SolveReward(ctx, m, sp.goal, rew, SolveOptions{Max: max})
		} else {
			sp := s32pRing(20, 20_000)
			m, _ := sp.model()
			res, err = Solve(ctx, m, sp.goal, SolveOptions{Max: max})
		}
		if err != nil {
			t.Fatalf("reward=%v max=%v scale=%g: %v", reward, max, workScaleTest, err)
		}
		return run{res.Lower, res.Upper, res.Iterations, res.FloatComponents, res.RationalComponents}
	}
	for _, reward := range []bool{false, true} {
		for _, max := range []bool{false, true} {
			var fast [2]run
			for i, scale := range []float64{0, 1e-9} {
				workScaleTest = scale
				workHookTest = nil
				fast[i] = solve(reward, max)
				workHookTest = func() { time.Sleep(20 * time.Microsecond) }
				slow := solve(reward, max)
				f := fast[i]
				same := f.it == slow.it && f.fl == slow.fl && f.rat == slow.rat
				for s := range f.lo {
					same = same && f.lo[s] == slow.lo[s] && f.hi[s] == slow.hi[s]
				}
				if !same {
					t.Errorf("reward=%v max=%v scale=%g: slowed down, the answer changed: iterations %d/%d, float %d/%d, rational %d/%d, state 0 [%v, %v] / [%v, %v]",
						reward, max, scale, f.it, slow.it, f.fl, slow.fl, f.rat, slow.rat, f.lo[0], f.hi[0], slow.lo[0], slow.hi[0])
				}
			}
			t.Logf("reward=%v max=%v: as is: %d iterations, %d float, %d rational; starved: %d iterations, %d float, %d rational",
				reward, max, fast[0].it, fast[0].fl, fast[0].rat, fast[1].it, fast[1].fl, fast[1].rat)
			if fast[0].fl == 0 || fast[1].fl+fast[1].rat != 0 {
				t.Errorf("reward=%v max=%v: the budgets did not decide the path (as is %d float; starved %d float, %d rational)", reward, max, fast[0].fl, fast[1].fl, fast[1].rat)
			}
		}
	}
}

// TestS32pSameBits: a ring with chords (rows of several entries, filled
// in by the elimination) solved five times gives the same bits each time:
// the float64 elimination sums its rows in a fixed order, not the maps'
// (which Go randomises per run), and spends a pivot's budget before it.
func TestS32pSameBits(t *testing.T) {
	sp := s32pRing(40, 20_000)
	for x := 1; x <= 40; x++ {
		for k := range sp.choices[x] {
			c := &sp.choices[x][k]
			// a chord to x + 5 with half the ring's weight, taken from it
			half := new(big.Rat).Quo(c.p[0], big.NewRat(2, 1))
			c.p[0] = half
			c.to = append(c.to, uint32((x+4)%40+1))
			c.p = append(c.p, half)
		}
	}
	m, _ := sp.model()
	var first *Result
	for range 5 {
		res, err := Solve(context.Background(), m, sp.goal, SolveOptions{Max: true})
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = res
			if res.FloatComponents == 0 {
				t.Errorf("no component in float64 (%d rational)", res.RationalComponents)
			}
			continue
		}
		for s := range res.Lower {
			if res.Lower[s] != first.Lower[s] || res.Upper[s] != first.Upper[s] {
				t.Fatalf("state %d: [%v, %v] then [%v, %v]", s, first.Lower[s], first.Upper[s], res.Lower[s], res.Upper[s])
			}
		}
	}
}
