package trees

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand"
	"strconv"
	"testing"
)

// rawTree is an XGBoost tree as the file holds it, for an evaluator that
// shares nothing with the loader: float32(x) < t on the raw float32
// threshold, and float32 sums, base first, then the trees in order.
type rawTree struct {
	left, right, feat []int
	cond              []float32
	class             int
}

func (t *rawTree) leaf(x []float64) float32 {
	i := 0
	for t.left[i] != -1 {
		if float32(x[t.feat[i]]) < t.cond[i] {
			i = t.left[i]
		} else {
			i = t.right[i]
		}
	}
	return t.cond[i]
}

// review20rValues are leaf values and base margins whose float32 sums
// round: ulps of 1, values an ulp apart, large and tiny magnitudes, so that
// the real sum and the float32 sum order classes differently.
var review20rValues = []float32{1, -1, 0x1p-24, -0x1p-24, 0x1.8p-24, 0x1.000002p0, -0x1.000002p0, 0x1p24, -0x1p24, 0.1, -0.1, 1.0 / 3, 2.0 / 3, 0, 0.5}

// review20rThresholds hold integers and half-integers, and values near
// 2^24 where float32(x) rounds integers together.
var review20rThresholds = []float32{0, 0.5, 1, 1.5, 2, 3, 0x1p24, 0x1p24 + 2, 0x1p24 + 4}

func review20rEnsemble(rng *rand.Rand, nf, nclass, ntrees int) ([]byte, []rawTree, []float32) {
	base := make([]float32, nclass)
	bv := review20rValues[rng.Intn(len(review20rValues))]
	for c := range base {
		base[c] = bv // XGBoost has one base_score for all classes
	}
	var raws []rawTree
	var jt []map[string]any
	info := []int{}
	for ti := 0; ti < ntrees; ti++ {
		var t rawTree
		t.class = ti % nclass
		var grow func(d int) int
		grow = func(d int) int {
			me := len(t.left)
			t.left, t.right, t.feat, t.cond = append(t.left, -1), append(t.right, -1), append(t.feat, 0), append(t.cond, 0)
			if d == 0 || rng.Intn(4) == 0 {
				t.cond[me] = review20rValues[rng.Intn(len(review20rValues))]
				return me
			}
			t.feat[me] = rng.Intn(nf)
			t.cond[me] = review20rThresholds[rng.Intn(len(review20rThresholds))]
			l := grow(d - 1)
			r := grow(d - 1)
			t.left[me], t.right[me] = l, r
			return me
		}
		grow(1 + rng.Intn(3))
		raws = append(raws, t)
		info = append(info, t.class)
		conds := make([]float64, len(t.cond))
		for i, c := range t.cond {
			conds[i] = float64(c)
		}
		jt = append(jt, map[string]any{
			"tree_param":       map[string]string{"num_nodes": fmt.Sprint(len(t.left))},
			"left_children":    t.left,
			"right_children":   t.right,
			"split_indices":    t.feat,
			"split_conditions": conds,
		})
	}
	nc := "0"
	obj := "reg:squarederror"
	if nclass > 1 {
		nc, obj = fmt.Sprint(nclass), "multi:softprob"
	}
	m := map[string]any{"learner": map[string]any{
		"learner_model_param": map[string]string{"base_score": strconv.FormatFloat(float64(bv), 'g', -1, 32), "num_class": nc, "num_feature": fmt.Sprint(nf)},
		"objective":           map[string]string{"name": obj},
		"gradient_booster": map[string]any{"name": "gbtree", "model": map[string]any{
			"gbtree_model_param": map[string]string{"num_trees": fmt.Sprint(ntrees)},
			"tree_info":          info, "trees": jt}},
	}}
	data, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	return data, raws, base
}

// TestReview20rSearchAgainstIntegers builds XGBoost files whose float32
// sums round and whose thresholds sit where float32(x) merges integers,
// and checks the Veritas-style search (Excludes, Max, Min: what `vigil trees
// decide` and `bound` run) against brute-force enumeration of every
// integer input of the box, evaluated by an independent reading of the
// raw trees: an exclusion must hold at every integer, a witness must win,
// an exact optimum must be attained and never exceeded.
func TestReview20rSearchAgainstIntegers(t *testing.T) {
	rng := rand.New(rand.NewSource(20))
	los := []float64{-1, 0, 1, 0x1p24 - 2}
	for iter := 0; iter < 300; iter++ {
		nf, nclass := 1+rng.Intn(2), 1+rng.Intn(3)
		data, raws, base := review20rEnsemble(rng, nf, nclass, 1+rng.Intn(6))
		e, err := ParseXGBoost(data)
		if err != nil {
			t.Fatalf("iter %d: %v\n%s", iter, err, data)
		}
		box := make(Box, nf)
		for f := range box {
			lo := los[rng.Intn(len(los))]
			box[f] = Interval{lo, lo + float64(rng.Intn(6))}
		}
		var points [][]float64
		var rec func(f int, x []float64)
		rec = func(f int, x []float64) {
			if f == nf {
				points = append(points, append([]float64(nil), x...))
				return
			}
			for v := box[f].Lo; v <= box[f].Hi; v++ {
				rec(f+1, append(x, v))
			}
		}
		rec(0, nil)
		ref := func(x []float64) []float64 {
			s := make([]float32, nclass)
			copy(s, base)
			for i := range raws {
				s[raws[i].class] += raws[i].leaf(x)
			}
			out := make([]float64, nclass)
			for c := range s {
				out[c] = float64(s[c])
			}
			return out
		}
		sc := make([]float64, nclass)
		for _, x := range points {
			want := ref(x)
			e.Scores(x, sc)
			for c := range sc {
				if sc[c] != want[c] {
					t.Fatalf("iter %d: x=%v class %d: vigil %v, raw float32 reading %v\n%s", iter, x, c, sc[c], want[c], data)
				}
			}
		}
		for c := 0; c < nclass; c++ {
			bmax, bmin := math.Inf(-1), math.Inf(1)
			for _, x := range points {
				s := ref(x)
				bmax, bmin = max(bmax, s[c]), min(bmin, s[c])
			}
			r, err := e.Max(box, c, Options{})
			if err != nil || !r.Exact {
				t.Fatalf("iter %d: Max: %+v %v", iter, r, err)
			}
			// The search ranges over real inputs, so its optimum may lie
			// at a non-integer point: never below the integers' optimum,
			// and attained at its witness.
			if r.Lower < bmax || ref(r.Witness)[c] != r.Lower {
				t.Fatalf("iter %d: Max class %d = %v at %v (scores %v); integers reach %v\n%s", iter, c, r.Lower, r.Witness, ref(r.Witness), bmax, data)
			}
			r, err = e.Min(box, c, Options{})
			if err != nil || !r.Exact || r.Lower > bmin || ref(r.Witness)[c] != r.Lower {
				t.Fatalf("iter %d: Min class %d = %+v %v; integers reach %v\n%s", iter, c, r, err, bmin, data)
			}
		}
		for a := 0; a < nclass; a++ {
			var sure []int
			for c := 0; c < nclass; c++ {
				if c != a || rng.Intn(2) == 0 {
					sure = append(sure, c)
				}
			}
			can := false
			for _, x := range points {
				if wins(ref(x), a, sure) {
					can = true
				}
			}
			for _, opt := range []Options{{}, {MaxNodes: 1 + rng.Intn(3)}} {
				d, err := e.Excludes(box, a, sure, opt)
				if err != nil {
					t.Fatal(err)
				}
				switch d.Verdict {
				case Proved:
					if can {
						t.Fatalf("iter %d: class %d excluded (sure %v) but wins at an integer of %v\n%s", iter, a, sure, box, data)
					}
				case Refuted:
					if !inBox(d.Witness, box) || !wins(ref(d.Witness), a, sure) {
						t.Fatalf("iter %d: witness %v does not win for class %d\n%s", iter, d.Witness, a, data)
					}
				}
			}
		}
	}
}
