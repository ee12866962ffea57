package trees

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// LightGBM text models: a header of key=value lines (num_class,
// num_tree_per_iteration, max_feature_idx, ...), then "Tree=k" sections with
// split_feature, threshold, decision_type, left_child, right_child and
// leaf_value; a negative child c is leaf -c-1; tree k belongs to class
// k mod num_tree_per_iteration. A split goes left iff x <= threshold
// (float64), which vigil stores as x < nextafter(threshold, +Inf).
//
// decision_type bits: 1 categorical (rejected), 2 default_left, and bits 2-3
// the missing type. Missing type NaN never applies (inputs are never NaN);
// missing type Zero sends x in (-1e-35, 1e-35] to the default side, which is accepted
// only when that agrees with the threshold test (else the split is not a
// single threshold and is rejected). Linear trees are rejected. A
// random-forest model (average_output) is read as any other: its scores
// are LightGBM's raw scores, the sums of its trees' leaves (GBDT::PredictRaw
// divides by nothing; only the transformed prediction divides the sum by
// the number of iterations).

// lgbZero is LightGBM's kZeroThreshold, the float literal 1e-35f widened
// to double; inputs in (-lgbZero, lgbZero] count as zero.
var lgbZero = float64(float32(1e-35))

// ParseLightGBM reads a LightGBM text model.
func ParseLightGBM(data []byte) (*Ensemble, error) {
	header := map[string]string{}
	var sections []map[string]string
	var cur map[string]string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<16), 1<<28)
	line := 0
	complete := false
	for sc.Scan() {
		line++
		s := strings.TrimSpace(sc.Text())
		if s == "" {
			continue
		}
		if s == "end of trees" {
			complete = true
			break
		}
		if line == 1 && s != "tree" {
			return nil, fmt.Errorf("trees: not a LightGBM text model (the first line is %q, want \"tree\"); save it with Booster.save_model(\"model.txt\")", truncate(s, 40))
		}
		k, v, ok := strings.Cut(s, "=")
		if !ok {
			if line == 1 || s == "average_output" {
				header[s] = ""
			}
			continue
		}
		if k == "Tree" {
			cur = map[string]string{"Tree": v}
			sections = append(sections, cur)
			continue
		}
		if cur != nil {
			if _, dup := cur[k]; dup {
				return nil, fmt.Errorf("trees: LightGBM model: line %d: Tree=%s gives %s twice", line, cur["Tree"], k)
			}
			cur[k] = v
		} else {
			header[k] = v
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("trees: LightGBM model: %v", err)
	}
	if _, ok := header["tree"]; !ok {
		return nil, fmt.Errorf("trees: not a LightGBM text model (no \"tree\" header line)")
	}
	nclass, err := lgbInt(header, "num_class", 1)
	if err != nil {
		return nil, err
	}
	perIter, err := lgbInt(header, "num_tree_per_iteration", nclass)
	if err != nil {
		return nil, err
	}
	if nclass < 1 || nclass > 1<<16 || perIter < 1 || perIter != nclass {
		return nil, fmt.Errorf("trees: LightGBM model: num_class %d and num_tree_per_iteration %d: want equal and positive", nclass, perIter)
	}
	maxFeat, err := lgbInt(header, "max_feature_idx", -2)
	if err != nil {
		return nil, err
	}
	b := newBuilder("lightgbm", nclass)
	if maxFeat >= -1 {
		if maxFeat >= MaxFeatures {
			return nil, fmt.Errorf("trees: LightGBM model: max_feature_idx %d is too large: vigil reads at most %d features (max_feature_idx %d)", maxFeat, MaxFeatures, MaxFeatures-1)
		}
		b.e.NumFeatures, b.e.Declared = maxFeat+1, true
	}
	// A file cut short must not load as a smaller model: the header
	// declares the trees (tree_sizes) and the list ends with a marker.
	if sizes, ok := header["tree_sizes"]; ok && len(strings.Fields(sizes)) != len(sections) {
		return nil, fmt.Errorf("trees: LightGBM model: the header declares %d trees (tree_sizes) but the file has %d; is the file cut short?", len(strings.Fields(sizes)), len(sections))
	}
	if !complete {
		return nil, fmt.Errorf("trees: LightGBM model: no \"end of trees\" line after the %d trees read; the file is incomplete (cut short?)", len(sections))
	}
	if len(sections)%nclass != 0 {
		return nil, fmt.Errorf("trees: LightGBM model: %d trees is not a multiple of num_tree_per_iteration %d; is the file cut short?", len(sections), nclass)
	}
	for k, sec := range sections {
		if strings.TrimSpace(sec["Tree"]) != strconv.Itoa(k) {
			return nil, fmt.Errorf("trees: LightGBM model: section Tree=%s is number %d in the file; the trees must be numbered 0, 1, ... in order", sec["Tree"], k)
		}
		t, err := lgbTree(sec, k%nclass)
		if err != nil {
			return nil, fmt.Errorf("trees: LightGBM model: Tree=%s: %v", sec["Tree"], err)
		}
		b.e.Trees = append(b.e.Trees, t)
	}
	return b.finish()
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

func lgbInt(m map[string]string, key string, def int) (int, error) {
	v, ok := m[key]
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		return 0, fmt.Errorf("trees: LightGBM model: bad %s %q", key, v)
	}
	return n, nil
}

func lgbFloats(sec map[string]string, key string, n int) ([]float64, error) {
	f := strings.Fields(sec[key])
	if len(f) != n {
		return nil, fmt.Errorf("%s has %d values, want %d", key, len(f), n)
	}
	out := make([]float64, n)
	for i, s := range f {
		// Go reads 1_000 as 1000 where LightGBM's std::stod stops at
		// the underscore (1): LightGBM never writes one, so neither
		// reading is chosen.
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || strings.Contains(s, "_") {
			return nil, fmt.Errorf("%s: bad number %q", key, s)
		}
		out[i] = v
	}
	return out, nil
}

func lgbInts(sec map[string]string, key string, n int) ([]int, error) {
	f := strings.Fields(sec[key])
	if len(f) != n {
		return nil, fmt.Errorf("%s has %d values, want %d", key, len(f), n)
	}
	out := make([]int, n)
	for i, s := range f {
		v, err := strconv.Atoi(s)
		if err != nil {
			return nil, fmt.Errorf("%s: bad integer %q", key, s)
		}
		out[i] = v
	}
	return out, nil
}

func lgbTree(sec map[string]string, class int) (Tree, error) {
	nleaves, err := lgbInt(sec, "num_leaves", -1)
	if err != nil {
		return Tree{}, err
	}
	if nleaves < 1 {
		return Tree{}, fmt.Errorf("num_leaves %d: want a positive count", nleaves)
	}
	if nleaves > 1<<24 {
		return Tree{}, fmt.Errorf("num_leaves %d is too large (at most 2^24)", nleaves)
	}
	if v := strings.TrimSpace(sec["is_linear"]); v != "" && v != "0" {
		return Tree{}, fmt.Errorf("linear trees are not supported (train with linear_tree=false)")
	}
	if v := strings.TrimSpace(sec["num_cat"]); v != "" && v != "0" {
		return Tree{}, fmt.Errorf("categorical splits are not supported")
	}
	leaves, err := lgbFloats(sec, "leaf_value", nleaves)
	if err != nil {
		return Tree{}, err
	}
	t := Tree{Class: class, Values: leaves}
	if nleaves == 1 {
		t.Nodes = []Node{{Feature: -1, Leaf: 0}}
		return t, nil
	}
	ni := nleaves - 1
	feat, err := lgbInts(sec, "split_feature", ni)
	if err != nil {
		return Tree{}, err
	}
	thr, err := lgbFloats(sec, "threshold", ni)
	if err != nil {
		return Tree{}, err
	}
	left, err := lgbInts(sec, "left_child", ni)
	if err != nil {
		return Tree{}, err
	}
	right, err := lgbInts(sec, "right_child", ni)
	if err != nil {
		return Tree{}, err
	}
	dt := make([]int, ni)
	if _, ok := sec["decision_type"]; ok {
		if dt, err = lgbInts(sec, "decision_type", ni); err != nil {
			return Tree{}, err
		}
	}
	// Internal node i becomes node i; leaf j becomes node ni+j.
	t.Nodes = make([]Node, ni+nleaves)
	child := func(c int) (int, error) {
		if c >= 0 {
			if c >= ni {
				return 0, fmt.Errorf("child %d out of range", c)
			}
			return c, nil
		}
		l := -c - 1
		if l >= nleaves {
			return 0, fmt.Errorf("leaf %d out of range", l)
		}
		return ni + l, nil
	}
	for i := 0; i < ni; i++ {
		if dt[i]&1 != 0 {
			return Tree{}, fmt.Errorf("node %d is a categorical split; vigil supports numerical splits only", i)
		}
		if feat[i] < 0 {
			return Tree{}, fmt.Errorf("node %d: negative split_feature %d", i, feat[i])
		}
		if feat[i] >= MaxFeatures {
			return Tree{}, fmt.Errorf("node %d: split_feature %d is beyond the %d features vigil reads", i, feat[i], MaxFeatures)
		}
		defaultLeft := dt[i]&2 != 0
		if (dt[i]>>2)&3 == 1 { // missing type Zero
			// Zero-ish inputs go to the default side; accept the split only
			// when the threshold sends them there anyway.
			zeroLeft := lgbZero <= thr[i]  // all of [-z, z] satisfies x <= thr
			zeroRight := thr[i] < -lgbZero // none of [-z, z] does
			if !(defaultLeft && zeroLeft) && !(!defaultLeft && zeroRight) {
				return Tree{}, fmt.Errorf("node %d: missing_type=Zero with threshold %v sends 0 against the threshold test; retrain with zero_as_missing=false", i, thr[i])
			}
		}
		l, err := child(left[i])
		if err != nil {
			return Tree{}, fmt.Errorf("node %d: %v", i, err)
		}
		r, err := child(right[i])
		if err != nil {
			return Tree{}, fmt.Errorf("node %d: %v", i, err)
		}
		th := thr[i]
		if !math.IsInf(th, 0) && !math.IsNaN(th) {
			th = math.Nextafter(th, math.Inf(1))
		}
		t.Nodes[i] = Node{Feature: feat[i], Threshold: th, Left: l, Right: r}
	}
	for j := 0; j < nleaves; j++ {
		t.Nodes[ni+j] = Node{Feature: -1, Leaf: j}
	}
	return t, nil
}
