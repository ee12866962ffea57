package trees

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/gen"
)

// tieValues are the leaf values of tieXGB: small integers and halves, whose
// sums tie exactly in many states, and 2^-24 and 2^-25, which vanish when
// added to 1 in float32 (1 + 2^-24 rounds to 1, ties to even) but not in
// float64, so that classes tie in XGBoost's float32 sums where float64 sums
// would not.
var tieValues = []float64{0, 1, -1, 0.5, 2, 0x1p-24, -0x1p-24, 0x1p-25}

// tieEnsemble is the ensemble tieXGB wrote, as the test's own evaluator
// reads it: XGBoost's JSON arrays per tree, the class each tree scores.
type tieEnsemble struct {
	nclass int
	class  []int
	left   [][]int
	right  [][]int
	feat   [][]int
	cond   [][]float64 // threshold, or the leaf value at a leaf
}

// scores evaluates te at input x as XGBoost does, written here apart
// from the package's evaluator: a split goes left iff float32(x) <
// threshold, and the classes' margins sum base 0 and then each tree's leaf
// value in tree order in float32.
func (te *tieEnsemble) scores(x []float64) []float64 {
	sum := make([]float32, te.nclass)
	for t := range te.class {
		i := 0
		for te.left[t][i] >= 0 {
			if float64(float32(x[te.feat[t][i]])) < te.cond[t][i] {
				i = te.left[t][i]
			} else {
				i = te.right[t][i]
			}
		}
		sum[te.class[t]] += float32(te.cond[t][i])
	}
	out := make([]float64, te.nclass)
	for c, v := range sum {
		out[c] = float64(v)
	}
	return out
}

// choose is the tie rule of lang/spec.md, written here apart from
// symbolic.Choose: the arg-max over the outputs (the applicable ones, or
// all of them for `argmax all`, and then only if applicable), NaN and -Inf
// never, ties to the earliest output; -1 when stuck.
func tieChoose(sc []float64, app []bool, all bool) int {
	best := -1
	for i, v := range sc {
		if math.IsNaN(v) || math.IsInf(v, -1) || (!all && !app[i]) {
			continue
		}
		if best < 0 || v > sc[best] {
			best = i
		}
	}
	if best >= 0 && !app[best] {
		return -1
	}
	return best
}

// tieXGB writes to dir an XGBoost JSON ensemble (multi:softprob, base
// score 0, one class per tree) for model m with the model's labels as
// outputs, the shape of Random's seed (one-class trees) and leaf values
// drawn from tieValues. It returns the declaration naming the file and
// the test's evaluator.
func tieXGB(dir string, m *symbolic.Model, seed uint64, all bool) (*symbolic.PolicyDecl, *tieEnsemble, error) {
	outs := make([]symbolic.LabelID, len(m.Labels))
	for i := range outs {
		outs[i] = symbolic.LabelID(i)
	}
	p, d, err := Random(m, outs, seed, 2+int(seed%5), 2)
	if err != nil {
		return nil, nil, err
	}
	r := rand.New(rand.NewPCG(seed, 24))
	te := &tieEnsemble{nclass: len(outs)}
	var xtrees []map[string]any
	var info []int
	for ti, t := range p.Ens.Trees {
		class := ti % len(outs) // one-class trees, even where Random made vector leaves
		n := len(t.Nodes)
		l, rt, f, c := make([]int, n), make([]int, n), make([]int, n), make([]float64, n)
		for i, nd := range t.Nodes {
			if nd.Feature < 0 {
				l[i], rt[i], f[i] = -1, -1, 0
				c[i] = tieValues[r.IntN(len(tieValues))]
				continue
			}
			l[i], rt[i], f[i] = nd.Left, nd.Right, nd.Feature
			c[i] = float64(float32(nd.Threshold))
			if c[i] != nd.Threshold {
				return nil, nil, fmt.Errorf("threshold %v is not a float32", nd.Threshold)
			}
		}
		te.class = append(te.class, class)
		te.left, te.right, te.feat, te.cond = append(te.left, l), append(te.right, rt), append(te.feat, f), append(te.cond, c)
		info = append(info, class)
		xtrees = append(xtrees, map[string]any{
			"tree_param":       map[string]string{"num_nodes": fmt.Sprint(n)},
			"left_children":    l,
			"right_children":   rt,
			"split_indices":    f,
			"split_conditions": c,
		})
	}
	doc := map[string]any{"learner": map[string]any{
		"learner_model_param": map[string]string{"base_score": "0", "num_class": fmt.Sprint(len(outs)), "num_feature": fmt.Sprint(len(d.Inputs))},
		"objective":           map[string]any{"name": "multi:softprob"},
		"gradient_booster": map[string]any{"name": "gbtree", "model": map[string]any{
			"gbtree_model_param": map[string]string{"num_trees": fmt.Sprint(len(xtrees))},
			"tree_info":          info,
			"trees":              xtrees,
		}},
	}}
	if len(outs) == 1 {
		// One class: XGBoost's binary layout, no num_class.
		doc["learner"].(map[string]any)["learner_model_param"] = map[string]string{"base_score": "0", "num_feature": fmt.Sprint(len(d.Inputs))}
		doc["learner"].(map[string]any)["objective"] = map[string]any{"name": "reg:squarederror"}
	}
	b, err := json.Marshal(doc)
	if err != nil {
		return nil, nil, err
	}
	d.File = filepath.Join(dir, fmt.Sprintf("ties%d.json", seed))
	d.ArgMaxAll = all
	return d, te, os.WriteFile(d.File, b, 0o644)
}

// tieInputs is the policy's input vector at s, from the declaration's
// affine inputs (exact: Random's coefficients are halves and integers).
func tieInputs(d *symbolic.PolicyDecl, s symbolic.State) []float64 {
	x := make([]float64, len(d.Inputs))
	for i, in := range d.Inputs {
		x[i] = in.Const.Float()
		for _, tm := range in.Terms {
			x[i] += tm.Coef.Float() * float64(s[tm.Var])
		}
	}
	return x
}

// TestS24yExactTies: on generated models with XGBoost ensembles whose
// class margins tie exactly in many states (and in float32 only, where
// 1 + 2^-24 is 1), every state's choice by the explicit engine's decider
// (which bfs and the safety deciders use), under every applicable set,
// follows the tie rule as the test evaluates it, and the box search
// (Exclude, which polic3, ppa's policy facts and the certificate checker
// ask) agrees with enumerating the box's states: Excluded only where no
// state of the box lets the label win, Possible with a witness where it
// wins. Both readings, `argmax applicable` and `argmax all`.
func TestS24yExactTies(t *testing.T) {
	dir := t.TempDir()
	g := gen.Options{MaxVars: 3, MaxRange: 5, MaxLabels: 4}
	models, states, ties, f32ties, boxes, undecided := 0, 0, 0, 0, 0, 0
	for seed := uint64(1); models < 400; seed++ {
		m := gen.Model(seed, g)
		all := seed%3 == 0
		d, te, err := tieXGB(dir, m, seed, all)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		m.Policies[0] = d
		pol, err := symbolic.Instantiate(m, d)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		tp := pol.(*Policy)
		dec, err := explicit.NewDecider(m, d)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		models++
		nl := len(m.Labels)
		r := rand.New(rand.NewPCG(seed, 7))
		sts := gen.States(m)
		choice := make([]map[int]int, len(sts)) // per state: applicable mask -> choice
		for si, s := range sts {
			states++
			x := tieInputs(d, s)
			want := te.scores(x)
			got := make([]float64, nl)
			if err := tp.Scores(s, got); err != nil {
				t.Fatal(err)
			}
			for c := range want {
				if math.Float64bits(got[c]) != math.Float64bits(want[c]) {
					t.Fatalf("seed %d, state %s: scores %v, XGBoost's float32 sums %v", seed, m.FormatState(s), got, want)
				}
			}
			// Count the states where two classes tie at the top, and
			// those where the float64 sums would not tie.
			top := tieChoose(want, ones(nl), true)
			for c := range want {
				if c != top && want[c] == want[top] {
					ties++
					if te.f64(x, c) != te.f64(x, top) {
						f32ties++
					}
					break
				}
			}
			choice[si] = map[int]int{}
			for k := 0; k < 4; k++ {
				mask := (1 << nl) - 1
				if k > 0 {
					mask = r.IntN(1 << nl)
				}
				app := make([]bool, nl)
				for l := range app {
					app[l] = mask&(1<<l) != 0
				}
				want := tieChoose(want, app, all)
				l, err := dec.Decide(s, app)
				if err != nil {
					t.Fatal(err)
				}
				if int(l) != want && !(l == symbolic.NoLabel && want < 0) {
					t.Errorf("seed %d, state %s, applicable %v, %s: the decider chooses %d, the tie rule %d (scores %v)", seed, m.FormatState(s), app, map[bool]string{true: "argmax all", false: "argmax applicable"}[all], l, want, te.scores(x))
				}
			}
		}
		// Boxes: the whole range and random sub-boxes; sure: a random
		// subset of labels.
		for k := 0; k < 12; k++ {
			lo, hi := make([]int, len(m.Vars)), make([]int, len(m.Vars))
			for v, vr := range m.Vars {
				lo[v], hi[v] = vr.Lo, vr.Hi
				if k > 0 {
					a, b := vr.Lo+r.IntN(vr.Hi-vr.Lo+1), vr.Lo+r.IntN(vr.Hi-vr.Lo+1)
					lo[v], hi[v] = min(a, b), max(a, b)
				}
			}
			a := symbolic.LabelID(r.IntN(nl))
			var sure []symbolic.LabelID
			app := make([]bool, nl)
			for l := 0; l < nl; l++ {
				if r.IntN(2) == 0 || symbolic.LabelID(l) == a {
					sure = append(sure, symbolic.LabelID(l))
					app[l] = true
				}
			}
			// a wins at s when it is the choice with exactly sure applicable
			// (Exclude's question: sure labels are applicable, a is one of them).
			var wins []symbolic.State
			for _, s := range sts {
				in := true
				for v := range s {
					in = in && lo[v] <= s[v] && s[v] <= hi[v]
				}
				if in && tieChoose(te.scores(tieInputs(d, s)), app, all) == int(a) {
					wins = append(wins, s)
				}
			}
			ex, w, err := tp.Exclude(lo, hi, a, sure)
			if err != nil {
				t.Fatal(err)
			}
			boxes++
			switch ex {
			case symbolic.Excluded:
				if len(wins) > 0 {
					t.Errorf("seed %d, box %v..%v, label %d, sure %v: excluded, but it wins at %s", seed, lo, hi, a, sure, m.FormatState(wins[0]))
				}
			case symbolic.Possible:
				ok := len(w) == len(lo)
				for v := 0; ok && v < len(w); v++ {
					ok = lo[v] <= w[v] && w[v] <= hi[v]
				}
				if !ok || tieChoose(te.scores(tieInputs(d, w)), app, all) != int(a) {
					t.Errorf("seed %d, box %v..%v, label %d, sure %v: possible at %v, where it does not win", seed, lo, hi, a, sure, w)
				}
			default:
				undecided++
			}
		}
		// Input boxes (vigil trees decide): Ensemble.Excludes against
		// every cell of the box, one point per cell (the box's lower
		// end and every cut inside it: a split goes left below its cut).
		for k := 0; k < 8; k++ {
			nf := tp.Ens.NumFeatures
			box := make(Box, nf)
			for f := range box {
				a, b := float64(r.IntN(33)-16)/4, float64(r.IntN(33)-16)/4
				box[f] = Interval{Lo: min(a, b), Hi: max(a, b)}
			}
			a := r.IntN(nl)
			var sure []int
			app := make([]bool, nl)
			app[a] = true
			for c := 0; c < nl; c++ {
				if c != a && r.IntN(2) == 0 {
					sure = append(sure, c)
					app[c] = true
				}
			}
			var win []float64
			pts := make([][]float64, nf)
			for f := range pts {
				pts[f] = []float64{box[f].Lo}
				for _, c := range tp.Ens.Cuts(f) {
					if box[f].Lo < c && c <= box[f].Hi {
						pts[f] = append(pts[f], c)
					}
				}
			}
			x := make([]float64, nf)
			var walk func(f int)
			walk = func(f int) {
				if win != nil {
					return
				}
				if f == nf {
					if tieChoose(te.scores(x), app, false) == a {
						win = append([]float64(nil), x...)
					}
					return
				}
				for _, v := range pts[f] {
					x[f] = v
					walk(f + 1)
				}
			}
			walk(0)
			dd, err := tp.Ens.Excludes(box, a, sure, Options{})
			if err != nil {
				t.Fatal(err)
			}
			boxes++
			switch dd.Verdict {
			case Proved:
				if win != nil {
					t.Errorf("seed %d, input box %v, class %d, sure %v: excluded, but it wins at %v (scores %v)", seed, box, a, sure, win, te.scores(win))
				}
			case Refuted:
				if tieChoose(te.scores(dd.Witness), app, false) != a || !box.contains(dd.Witness) {
					t.Errorf("seed %d, input box %v, class %d, sure %v: possible at %v, where it does not win (scores %v)", seed, box, a, sure, dd.Witness, te.scores(dd.Witness))
				}
			default:
				undecided++
			}
		}
	}
	t.Logf("%d models, %d states (%d with a tie at the top, %d of them only in float32), %d box questions over states and inputs (%d undecided)", models, states, ties, f32ties, boxes, undecided)
	if ties == 0 || f32ties == 0 || undecided > boxes/10 {
		t.Errorf("%d ties, %d float32-only ties, %d of %d box questions undecided: the test tests too little", ties, f32ties, undecided, boxes)
	}
}

// f64 is class c's margin at x summed in float64 instead.
func (te *tieEnsemble) f64(x []float64, c int) float64 {
	sum := 0.0
	for t := range te.class {
		if te.class[t] != c {
			continue
		}
		i := 0
		for te.left[t][i] >= 0 {
			if float64(float32(x[te.feat[t][i]])) < te.cond[t][i] {
				i = te.left[t][i]
			} else {
				i = te.right[t][i]
			}
		}
		sum += te.cond[t][i]
	}
	return sum
}

func ones(n int) []bool {
	b := make([]bool, n)
	for i := range b {
		b[i] = true
	}
	return b
}

func (b Box) contains(x []float64) bool {
	for f, iv := range b {
		if f >= len(x) || !(iv.Lo <= x[f] && x[f] <= iv.Hi) {
			return false
		}
	}
	return true
}

// S24yTieXGB is tieXGB for the engines' differential (package trees_test).
func S24yTieXGB(dir string, m *symbolic.Model, seed uint64, all bool) (*symbolic.PolicyDecl, error) {
	d, _, err := tieXGB(dir, m, seed, all)
	return d, err
}

// tiesScript trains small XGBoost models on integer data, overwrites every
// leaf value with one of tieValues (so that margins tie exactly, some only
// in float32), saves each, reloads it and prints, per model, the file, a
// grid of inputs (the half-integers, on and between the splits) and
// XGBoost's margins there.
const tiesScript = `import json, sys, os, numpy as np, xgboost as xgb
out = sys.argv[1]
vals = [0.0, 1.0, -1.0, 0.5, 2.0, 2.0**-24, -2.0**-24, 2.0**-25]
cases = []
for seed in range(16):
    rng = np.random.default_rng(seed)
    nclass = int(rng.integers(2, 5)); nf = int(rng.integers(1, 4))
    X = rng.integers(-4, 5, (300, nf)).astype(np.float32)
    y = rng.integers(0, nclass, 300)
    params = {"objective": "multi:softprob", "num_class": nclass, "max_depth": 3, "seed": seed, "nthread": 1}
    if seed % 2:
        params["base_score"] = 0.0
    bst = xgb.train(params, xgb.DMatrix(X, label=y), num_boost_round=int(rng.integers(2, 6)))
    p = os.path.join(out, "m%d.json" % seed)
    bst.save_model(p)
    doc = json.load(open(p))
    for t in doc["learner"]["gradient_booster"]["model"]["trees"]:
        for i, l in enumerate(t["left_children"]):
            if l == -1:
                v = vals[int(rng.integers(len(vals)))]
                t["split_conditions"][i] = v
                t["base_weights"][i] = v
    json.dump(doc, open(p, "w"))
    b = xgb.Booster(model_file=p)
    g = np.array(np.meshgrid(*[np.arange(-4.5, 5, 0.5)] * nf)).reshape(nf, -1).T.astype(np.float32)
    m = b.predict(xgb.DMatrix(g), output_margin=True)
    cases.append({"file": p, "inputs": g.astype(float).tolist(), "margins": m.astype(float).tolist()})
json.dump(cases, sys.stdout)
`

// TestS24yTiesRealXGBoost: on real XGBoost files whose margins tie
// exactly, vigil's scores are XGBoost's (bit for bit in float32) and its
// choice over all outputs is the first arg-max of XGBoost's margins
// (numpy's argmax, the tie rule of lang/spec.md).
func TestS24yTiesRealXGBoost(t *testing.T) {
	if err := exec.Command("/usr/bin/python3", "-c", "import xgboost, numpy").Run(); err != nil {
		t.Skip("python3-xgboost is not installed (apt-get install python3-xgboost): real XGBoost ties are not compared")
	}
	dir := t.TempDir()
	out, err := exec.Command("/usr/bin/python3", "-c", tiesScript, dir).Output()
	if err != nil {
		t.Fatalf("xgboost: %v", err)
	}
	var cases []struct {
		File    string      `json:"file"`
		Inputs  [][]float64 `json:"inputs"`
		Margins [][]float64 `json:"margins"`
	}
	if err := json.Unmarshal(out, &cases); err != nil {
		t.Fatal(err)
	}
	inputs, ties := 0, 0
	for _, c := range cases {
		e, err := Load(c.File)
		if err != nil {
			t.Fatalf("%s: %v", c.File, err)
		}
		outs := make([]symbolic.LabelID, e.NumClasses)
		for i := range outs {
			outs[i] = symbolic.LabelID(i)
		}
		dst := make([]float64, e.NumClasses)
		for i, x := range c.Inputs {
			want := c.Margins[i]
			if err := e.Scores(x, dst); err != nil {
				t.Fatal(err)
			}
			for k := range want {
				if float32(dst[k]) != float32(want[k]) {
					t.Fatalf("%s: input %v: scores %v, XGBoost's margins %v", c.File, x, dst, want)
				}
			}
			first := 0
			for k := range want {
				if want[k] > want[first] {
					first = k
				}
			}
			for k := range want {
				if k != first && want[k] == want[first] {
					ties++
					break
				}
			}
			if l := symbolic.Choose(outs, dst, func(symbolic.LabelID) bool { return true }); int(l) != first {
				t.Errorf("%s: input %v: vigil chooses class %d, XGBoost's first arg-max is %d (margins %v)", c.File, x, l, first, want)
			}
			inputs++
		}
	}
	t.Logf("%d XGBoost models, %d inputs (%d with tied margins at the top)", len(cases), inputs, ties)
	if len(cases) < 16 || ties == 0 {
		t.Errorf("%d models, %d ties: the test compares too little", len(cases), ties)
	}
}
