package prob

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestRewardScales: the random MDPs of TestRewardMethodsAgree with every
// reward multiplied by a factor from 1e-320 (subnormal rewards, where a
// relative rounding slack is 0) to 1e290 (values near float64's top,
// where x*(k+4) overflowed): ii's bounds must contain the exact value
// (or ii refuses with an error), never miss it, and an infinite value
// stays infinite.
func TestRewardScales(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 2))
	scales := []string{"1e-320", "1e-310", "1e-300", "1e200", "1e290", "1e300"}
	answered, refused := map[string]int{}, map[string]int{}
	for i := range 400 {
		sp := randomSpec(r, 2+r.IntN(7))
		f, _ := new(big.Rat).SetString(scales[i%len(scales)])
		for s := range sp.choices {
			for j := range sp.choices[s] {
				sp.choices[s][j].rew = new(big.Rat).Mul(sp.choices[s][j].rew, f)
			}
		}
		m, rew := sp.model()
		for _, max := range []bool{false, true} {
			name := fmt.Sprintf("mdp%d/scale=%s/max=%v", i, scales[i%len(scales)], max)
			ex, err := SolveReward(context.Background(), m, sp.goal, rew, SolveOptions{Max: max, Method: Exact})
			if err != nil {
				refused[scales[i%len(scales)]]++
				t.Logf("%s: exact: %v", name, err)
				continue // beyond float64: refused by name
			}
			abs := i%3 == 0
			ii, err := SolveReward(context.Background(), m, sp.goal, rew, SolveOptions{Max: max, Epsilon: 1e-6, Absolute: abs})
			if err != nil {
				refused[scales[i%len(scales)]]++
				t.Logf("%s: ii: %v", name, err)
				continue // refused (overflow), not answered wrong
			}
			answered[scales[i%len(scales)]]++
			for s := range sp.goal {
				want := ex.Exact[s]
				lo, hi := ii.Lower[s], ii.Upper[s]
				if want == nil {
					if lo != hi || hi < 1e308 {
						t.Fatalf("%s: state %d: ii [%g, %g], want inf", name, s, lo, hi)
					}
					continue
				}
				if new(big.Rat).SetFloat64(lo).Cmp(want) > 0 || new(big.Rat).SetFloat64(hi).Cmp(want) < 0 {
					t.Fatalf("%s: state %d: ii [%g, %g] misses %s\n%s", name, s, lo, hi, new(big.Float).SetRat(want).Text('g', 20), specText(sp))
				}
			}
		}
	}
	for _, sc := range scales {
		if answered[sc] < 20 {
			t.Errorf("scale %s: ii answered %d times, refused %d: the test checks too little", sc, answered[sc], refused[sc])
		}
	}
	t.Logf("answered %v, refused %v", answered, refused)
}
