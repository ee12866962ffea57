package prob_test

// Review of session 27's prob changes (s27q): a reward bound whose
// accumulation would pass 2^63.

import (
	"context"
	"math"
	"math/big"
	"testing"

	"vigil/internal/testutil"
	"vigil/prob"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

const s27qChain = `model chain
var x : 0 .. 3 = 0
action go when x < 3 -> x' = x + 1
property p { unsafe x == 3 }
`

// TestRewardBoundNearInt64: x goes 0, 1, 2, 3, earning 1 in x = 0 and
// 2^63 - 1 in every other state. Reaching x = 3 accumulates more than
// 2^63, so P[F x=3 with reward ≤ 5] = 0 and P[... ≥ 5] = 1. The unfolding
// added 1 + (2^63 - 1), which wrapped round to -2^63: the dense id table
// of 1f9b86a indexed it (panic), and the map before it counted the run
// as within the bounds (≥ 5 answered 0).
func TestRewardBoundNearInt64(t *testing.T) {
	m := testutil.LoadSource(t, "chain.spec", s27qChain)
	g := testutil.Generator(t, m, m.Properties[0])
	pm, err := prob.Build(context.Background(), g, prob.Options{Exact: true})
	if err != nil {
		t.Fatal(err)
	}
	huge := new(big.Rat).SetInt64(math.MaxInt64)
	at0 := symbolic.Compare(symbolic.V(0), symbolic.Eq, symbolic.Lit(0))
	rew := &symbolic.Reward{Name: "r", Exit: true, Default: huge, Parts: []symbolic.RewardPart{{At: at0, Const: big.NewRat(1, 1)}}}
	for _, c := range []struct {
		name string
		b    *symbolic.PathBounds
		want float64
	}{
		{"le5", &symbolic.PathBounds{Reward: rew, Upper: big.NewRat(5, 1)}, 0},
		{"ge5", &symbolic.PathBounds{Reward: rew, Lower: big.NewRat(5, 1)}, 1},
	} {
		q := prob.Query{Name: c.name, Target: explicit.Unsafe, Max: true, Bounds: c.b}
		for _, method := range []prob.Method{prob.II, prob.Exact} {
			res, err := prob.Ask(context.Background(), pm, q, prob.SolveOptions{Method: method, Epsilon: 1e-6})
			if err != nil {
				t.Fatalf("%s %s: %v", c.name, method, err)
			}
			if lo, hi := res.Lower, res.Upper; lo > c.want || hi < c.want {
				t.Errorf("%s %s: [%g, %g], want %g", c.name, method, lo, hi, c.want)
			}
		}
	}
}
