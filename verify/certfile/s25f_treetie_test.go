package certfile

// TestS25fTreeFactTies compares ic3/cert.CheckFact with enumeration on
// XGBoost ensembles written to tie: float32 leaf values whose float32
// sums absorb one another (3e7 + 1 == 3e7), thresholds at the float32
// values of the inputs at random states and next to them, inputs that
// round (thirds, large offsets), several classes with equal sums. The
// file goes through the loader (trees.Load), as vigil reads it.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	invcert "vigil/ic3/cert"
	"vigil/symbolic"
	"vigil/trees"
)

type xgbTreeJSON struct {
	Left  []int     `json:"left_children"`
	Right []int     `json:"right_children"`
	Idx   []int     `json:"split_indices"`
	Cond  []float64 `json:"split_conditions"`
	Type  []int     `json:"split_type"`
	Param struct {
		NumNodes string `json:"num_nodes"`
	} `json:"tree_param"`
}

func xgbTiedFile(r *rand.Rand, m *symbolic.Model, d *symbolic.PolicyDecl, classes int) ([]byte, []xgbTreeJSON, []int) {
	leafVals := []float32{0, 1, -1, 0.5, 3e7, -3e7, 1e-8, 0.1, 0.2, 0.3, 16777216, 1, 2}
	var ts []xgbTreeJSON
	var info []int
	ntrees := classes * (1 + r.IntN(3))
	for ti := 0; ti < ntrees; ti++ {
		var t xgbTreeJSON
		var grow func(depth int) int
		grow = func(depth int) int {
			i := len(t.Left)
			t.Left, t.Right, t.Idx, t.Cond, t.Type = append(t.Left, -1), append(t.Right, -1), append(t.Idx, 0), append(t.Cond, 0), append(t.Type, 0)
			if depth == 0 || r.IntN(4) == 0 {
				t.Cond[i] = float64(leafVals[r.IntN(len(leafVals))])
				return i
			}
			f := r.IntN(len(d.Inputs))
			// a threshold at the input's float32 value at some state, or
			// one float32 ulp from it
			s := make(symbolic.State, len(m.Vars))
			for v, va := range m.Vars {
				s[v] = va.Lo + r.IntN(va.Size())
			}
			th := float32(d.Inputs[f].Eval(s))
			switch r.IntN(3) {
			case 1:
				th = math.Nextafter32(th, float32(math.Inf(1)))
			case 2:
				th = math.Nextafter32(th, float32(math.Inf(-1)))
			}
			t.Idx[i], t.Cond[i] = f, float64(th)
			l := grow(depth - 1)
			rr := grow(depth - 1)
			t.Left[i], t.Right[i] = l, rr
			return i
		}
		grow(1 + r.IntN(3))
		t.Param.NumNodes = fmt.Sprint(len(t.Left))
		ts = append(ts, t)
		info = append(info, ti%classes)
	}
	f := map[string]any{"learner": map[string]any{
		"attributes":          map[string]string{},
		"learner_model_param": map[string]any{"base_score": "5E-1", "num_class": fmt.Sprint(classes), "num_feature": fmt.Sprint(len(d.Inputs))},
		"objective":           map[string]any{"name": "multi:softmax"},
		"gradient_booster": map[string]any{"name": "gbtree", "model": map[string]any{
			"gbtree_model_param": map[string]string{"num_trees": fmt.Sprint(len(ts)), "num_parallel_tree": "1"},
			"trees":              ts, "tree_info": info}},
	}}
	b, err := json.Marshal(f)
	if err != nil {
		panic(err)
	}
	return b, ts, info
}

// lgbTied writes the trees ts (their conditions read as float64
// thresholds and leaf values, not rounded to float32) as a LightGBM text
// model of classes classes, tree i of class i % classes.
func lgbTied(r *rand.Rand, ts []xgbTreeJSON, classes, features int) []byte {
	var b strings.Builder
	names := make([]string, features)
	infos := make([]string, features)
	for i := range names {
		names[i], infos[i] = fmt.Sprintf("f%d", i), "none"
	}
	fmt.Fprintf(&b, "tree\nversion=v4\nnum_class=%d\nnum_tree_per_iteration=%d\nlabel_index=0\nmax_feature_idx=%d\nobjective=multiclass num_class:%d\nfeature_names=%s\nfeature_infos=%s\n\n",
		classes, classes, features-1, classes, strings.Join(names, " "), strings.Join(infos, " "))
	for ti, t := range ts {
		// LightGBM numbers internal nodes 0.. and leaves ~0, ~1, ...
		internal, leaf := map[int]int{}, map[int]int{}
		for i := range t.Left {
			if t.Left[i] >= 0 {
				internal[i] = len(internal)
			} else {
				leaf[i] = len(leaf)
			}
		}
		child := func(c int) string {
			if t.Left[c] >= 0 {
				return fmt.Sprint(internal[c])
			}
			return fmt.Sprint(-leaf[c] - 1)
		}
		feat, th, dt, lc, rc := make([]string, len(internal)), make([]string, len(internal)), make([]string, len(internal)), make([]string, len(internal)), make([]string, len(internal))
		lv := make([]string, len(leaf))
		for i := range t.Left {
			if t.Left[i] >= 0 {
				k := internal[i]
				feat[k] = fmt.Sprint(t.Idx[i])
				th[k] = strconv.FormatFloat(t.Cond[i], 'g', -1, 64)
				dt[k] = []string{"2", "10", "0"}[r.IntN(3)]
				lc[k], rc[k] = child(t.Left[i]), child(t.Right[i])
			} else {
				lv[leaf[i]] = strconv.FormatFloat(t.Cond[i], 'g', -1, 64)
			}
		}
		fmt.Fprintf(&b, "Tree=%d\nnum_leaves=%d\nnum_cat=0\n", ti, len(leaf))
		if len(internal) > 0 {
			fmt.Fprintf(&b, "split_feature=%s\nthreshold=%s\ndecision_type=%s\nleft_child=%s\nright_child=%s\n",
				strings.Join(feat, " "), strings.Join(th, " "), strings.Join(dt, " "), strings.Join(lc, " "), strings.Join(rc, " "))
		}
		fmt.Fprintf(&b, "leaf_value=%s\nis_linear=0\nshrinkage=1\n\n\n", strings.Join(lv, " "))
	}
	b.WriteString("end of trees\n")
	return []byte(b.String())
}

// lgbScores is LightGBM's prediction of the raw scores from the trees as
// written: a split goes left iff x <= threshold, the sums in float64 from
// 0, in tree order.
func lgbScores(ts []xgbTreeJSON, x []float64, classes int) []float64 {
	out := make([]float64, classes)
	for ti, t := range ts {
		i := 0
		for t.Left[i] >= 0 {
			if x[t.Idx[i]] <= t.Cond[i] {
				i = t.Left[i]
			} else {
				i = t.Right[i]
			}
		}
		out[ti%classes] += t.Cond[i]
	}
	return out
}

// xgbScores is XGBoost's own prediction of the margins, from the trees
// as written: a split goes left iff float32(x) < the float32 condition,
// the margins start at base_score 0.5 and add each tree's leaf in
// float32, in tree order.
func xgbScores(ts []xgbTreeJSON, info []int, x []float64, classes int) []float64 {
	sum := make([]float32, classes)
	for c := range sum {
		sum[c] = 0.5
	}
	for ti, t := range ts {
		i := 0
		for t.Left[i] >= 0 {
			if float32(x[t.Idx[i]]) < float32(t.Cond[i]) {
				i = t.Left[i]
			} else {
				i = t.Right[i]
			}
		}
		sum[info[ti]] += float32(t.Cond[i])
	}
	out := make([]float64, classes)
	for c := range sum {
		out[c] = float64(sum[c])
	}
	return out
}

func TestS25fTreeFactTies(t *testing.T) {
	n := 600
	if testing.Short() {
		n = 100
	}
	dir := t.TempDir()
	var accepted, refuted, undecided int
	for seed := uint64(1); seed <= uint64(n); seed++ {
		r := rand.New(rand.NewPCG(seed, 2525))
		m, d := tieModel(r, []int{0, -300, 1 << 24, 1 << 40, -(1 << 45)}, []int{40, 300, 3000}, "ens", symbolic.KindTrees)
		nv, classes := len(m.Vars), len(d.Outputs)
		for v := range m.Vars {
			var a symbolic.Affine
			switch r.IntN(4) {
			case 0:
				a = symbolic.Affine{Const: symbolic.Rat{Num: 0, Den: 1}, Terms: []symbolic.AffineTerm{{Coef: symbolic.Rat{Num: 1, Den: 1}, Var: symbolic.VarID(v)}}}
			case 1:
				a = symbolic.Affine{Const: symbolic.Rat{Num: 1, Den: 7}, Terms: []symbolic.AffineTerm{{Coef: symbolic.Rat{Num: 1, Den: 3}, Var: symbolic.VarID(v)}}}
			case 2:
				a = symbolic.Affine{Const: symbolic.Rat{Num: 0, Den: 1}, Terms: []symbolic.AffineTerm{{Coef: symbolic.Rat{Num: -1, Den: 3}, Var: symbolic.VarID(v)}}}
			default:
				a = symbolic.Affine{Const: symbolic.Rat{Num: -int64(m.Vars[v].Lo), Den: 1}, Terms: []symbolic.AffineTerm{{Coef: symbolic.Rat{Num: 1, Den: 1}, Var: symbolic.VarID(v)}}}
			}
			if nv == 2 && v == 1 && r.IntN(3) == 0 {
				// an input over both variables: oblique splits
				a.Terms = append(a.Terms, symbolic.AffineTerm{Coef: symbolic.Rat{Num: 1, Den: 2}, Var: 0})
			}
			d.Inputs = append(d.Inputs, a)
		}
		d.ArgMaxAll = r.IntN(3) == 0
		m.Policies = []*symbolic.PolicyDecl{d}
		path := filepath.Join(dir, fmt.Sprintf("e%d", seed))
		data, ts, info := xgbTiedFile(r, m, d, classes)
		lgb := seed%2 == 0
		if lgb {
			// thresholds and leaves as float64: nudge some by a float64 ulp
			for ti := range ts {
				for i := range ts[ti].Cond {
					switch r.IntN(4) {
					case 0:
						ts[ti].Cond[i] = math.Nextafter(ts[ti].Cond[i], math.Inf(1))
					case 1:
						ts[ti].Cond[i] = math.Nextafter(ts[ti].Cond[i], math.Inf(-1))
					}
					if ts[ti].Left[i] < 0 && r.IntN(3) == 0 {
						ts[ti].Cond[i] = []float64{0.1, 0.2, 0.3, 1e16, -1e16, 1}[r.IntN(6)]
					}
				}
			}
			data = lgbTied(r, ts, classes, len(d.Inputs))
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		d.File = path
		p, err := trees.NewPolicy(m, d)
		if err != nil {
			t.Logf("seed %d: %v", seed, err)
			continue
		}
		for k := 0; k < 4; k++ {
			lo, hi, label, sure := randomFact(r, m, k == 0, classes, d.ArgMaxAll)
			atoms := randomAtoms(r, m)
			witness, found := factWitness(t, p, d, lo, hi, atoms, label, sure, classes, func(s symbolic.State, sc []float64) {
				x := make([]float64, len(d.Inputs))
				for i := range d.Inputs {
					x[i] = d.Inputs[i].Eval(s)
				}
				ref := xgbScores(ts, info, x, classes)
				if lgb {
					ref = lgbScores(ts, x, classes)
				}
				if fmt.Sprint(ref) != fmt.Sprint(sc) {
					t.Fatalf("seed %d state %v (inputs %v): vigil's scores %v, the format's own rule gives %v (lightgbm %v)\n%s", seed, s, x, sc, ref, lgb, data)
				}
			})
			want := !found
			err := invcert.CheckFact(context.Background(), m, p, invcert.Fact{Lo: lo, Hi: hi, Atoms: atoms, Label: label, Sure: sure})
			var ff *invcert.FactFailure
			switch {
			case err == nil:
				accepted++
				if !want {
					b, _ := os.ReadFile(path)
					t.Errorf("seed %d box %v..%v label a%d sure %v (argmax all %v): (atoms %v) CheckFact accepts the fact, but the policy chooses a%d in %v (scores %v)\ninputs %+v\nfile %s",
						seed, lo, hi, label, sure, d.ArgMaxAll, atoms, label, witness, scoresAt(p, witness, classes), d.Inputs, b)
				}
			case errors.As(err, &ff):
				refuted++
				if want {
					t.Errorf("seed %d box %v..%v label a%d sure %v: CheckFact refutes (%v), enumeration finds no state", seed, lo, hi, label, sure, err)
				}
			default:
				undecided++
			}
		}
	}
	t.Logf("%d facts accepted, %d refuted, %d undecided", accepted, refuted, undecided)
}
