package ppa_test

// s32u: tree policies over a variable whose range ends at or near ±2^53
// (2^53 - K .. 2^53, -2^53 .. -2^53 + K, -(2^53-1) .. ..., and a negative
// range), read through inputs affine in it with float64 rounding (x, -x,
// x/3, 1 - x/7, (3x+1)/10, x/2^40), with thresholds at the inputs' values
// at the states, one ulp either side, and beyond the range, asked of
// polic3, ppa and bdd (with certificates: a safe answer's certificate is
// checked) against bfs. VIGIL_S32U_PPA_MODELS sets the number of models
// (default 6).

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"vigil/internal/testutil"
	"vigil/symbolic/explicit"
	"vigil/verify"
)

type s32uIn struct {
	text     string
	num, den int64 // input = (num x + c) / den, c = cnum/den
	cnum     int64
}

var s32uIns = []s32uIn{
	{"x", 1, 1, 0}, {"-x", -1, 1, 0}, {"x / 3", 1, 3, 0}, {"1 - x / 7", -1, 7, 7},
	{"(3 * x + 1) / 10", 3, 10, 1}, {"x / 1099511627776", 1, 1 << 40, 0},
}

// at is the input at x: the exact value rounded to float64.
func (in s32uIn) at(x int) float64 {
	n := new(big.Int).Mul(big.NewInt(in.num), big.NewInt(int64(x)))
	n.Add(n, big.NewInt(in.cnum))
	f, _ := new(big.Rat).SetFrac(n, big.NewInt(in.den)).Float64()
	return f
}

func s32uTopGen(seed uint64, file string) (src, ens string) {
	r := rand.New(rand.NewPCG(seed, 0x73333275))
	const top = 1 << 53
	k := 6 + r.IntN(10)
	lo := []int{top - k, -top, -top + 1, -k - 20, top - 1 - k}[r.IntN(5)]
	hi := lo + k
	in := s32uIns[r.IntN(len(s32uIns))]
	thr := func() float64 {
		x := lo - 2 + r.IntN(k+5)
		v := in.at(x)
		switch r.IntN(4) {
		case 1:
			return math.Nextafter(v, math.Inf(1))
		case 2:
			return math.Nextafter(v, math.Inf(-1))
		}
		return v
	}
	type node map[string]any
	var grow func(d int) node
	grow = func(d int) node {
		if d == 0 || r.IntN(4) == 0 {
			return node{"leaf_value": []float64{float64(r.IntN(3)), float64(r.IntN(3))}}
		}
		return node{"feat_id": 0, "split_value": thr(), "left": grow(d - 1), "right": grow(d - 1)}
	}
	var trees []any
	for ti := 0; ti < 1+r.IntN(4); ti++ {
		trees = append(trees, map[string]any{"num_leaf_values": 2, "split_type": "LtSplit", "structure": grow(1 + r.IntN(3))})
	}
	b, _ := json.Marshal(map[string]any{"at_type": "RAW", "base_scores": []float64{0, 0}, "trees": trees})
	start := lo + r.IntN(k/2)
	bad := lo + k/2 + r.IntN(k/2+1)
	src = fmt.Sprintf(`model s32u%d
var x : %d .. %d = %d
action up when x < %d -> x' = x + 1
action down when x > %d -> x' = x - 1
policy trees pi %s {
    inputs %s
    outputs up, down
}
property p {
    start x == %d
    unsafe x == %d
}
`, seed, lo, hi, start, hi, lo, strconv.Quote(file), in.text, start, bad)
	return src, string(b)
}

func TestS32uTopOfRangeEnginesAgainstBFS(t *testing.T) {
	n := 6
	if v := os.Getenv("VIGIL_S32U_PPA_MODELS"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	tally := map[string]int{}
	for seed := uint64(1); seed <= uint64(n); seed++ {
		file := filepath.Join(dir, fmt.Sprintf("e%d.json", seed))
		src, ens := s32uTopGen(seed, file)
		if err := os.WriteFile(file, []byte(ens), 0o644); err != nil {
			t.Fatal(err)
		}
		m := testutil.LoadSource(t, fmt.Sprintf("s32u%d.spec", seed), src)
		ask := func(eng string) (*verify.Verdict, error) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			return verify.Decide(ctx, &verify.Question{Model: m, Property: m.Properties[0], Policy: m.Policies[0], Engine: eng, Certificate: eng != "bfs"})
		}
		want, err := ask("bfs")
		if err != nil {
			t.Fatalf("seed %d: bfs: %v\n%s", seed, err, src)
		}
		tally["bfs "+want.Answer.String()]++
		for _, eng := range []string{"polic3", "ppa", "bdd"} {
			got, err := ask(eng)
			if err != nil {
				tally[eng+" error"]++
				t.Logf("seed %d, %s: %v", seed, eng, err)
				continue
			}
			tally[eng+" "+got.Answer.String()]++
			if got.Answer != explicit.Unknown && got.Answer != want.Answer {
				t.Errorf("seed %d: %s says %v, bfs %v\n%s\n%s", seed, eng, got.Answer, want.Answer, src, ens)
			}
		}
	}
	t.Logf("%d models: %v", n, tally)
}
