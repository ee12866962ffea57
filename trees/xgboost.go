package trees

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"vigil/internal/jsonerr"
)

// XGBoost save_model JSON (1.7 and later). Trees live at
// learner.gradient_booster.model.trees (for dart: .gbtree.model), tree i
// belongs to class tree_info[i]; a node is a leaf when left_children is -1 and
// then split_conditions holds its value. A split goes left iff
// float32(x) < split_condition. default_left only matters for missing
// values, which vigil's inputs never are, so it is ignored. Categorical
// splits and vector leaves (multi_strategy) are rejected.

type xgbFile struct {
	Learner struct {
		LearnerModelParam struct {
			BaseScore  string `json:"base_score"`
			NumClass   string `json:"num_class"`
			NumFeature string `json:"num_feature"`
			NumTarget  string `json:"num_target"`
		} `json:"learner_model_param"`
		Objective struct {
			Name string `json:"name"`
		} `json:"objective"`
		GradientBooster xgbBooster `json:"gradient_booster"`
	} `json:"learner"`
}

type xgbBooster struct {
	Name       string      `json:"name"`
	Model      *xgbModel   `json:"model"`
	GBTree     *xgbBooster `json:"gbtree"`
	WeightDrop []float64   `json:"weight_drop"`
}

type xgbModel struct {
	Param struct {
		NumTrees string `json:"num_trees"`
	} `json:"gbtree_model_param"`
	Trees    []xgbTree `json:"trees"`
	TreeInfo []int     `json:"tree_info"`
}

type xgbTree struct {
	TreeParam struct {
		NumNodes       string `json:"num_nodes"`
		SizeLeafVector string `json:"size_leaf_vector"`
	} `json:"tree_param"`
	LeftChildren    []int     `json:"left_children"`
	RightChildren   []int     `json:"right_children"`
	SplitIndices    []int     `json:"split_indices"`
	SplitConditions []float64 `json:"split_conditions"`
	SplitType       []int     `json:"split_type"`
}

// ParseXGBoost reads XGBoost save_model JSON.
func ParseXGBoost(data []byte) (*Ensemble, error) {
	var f xgbFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("trees: XGBoost JSON: %s", jsonerr.Describe(data, err))
	}
	lp := f.Learner.LearnerModelParam
	nclass := 1
	if lp.NumClass != "" {
		n, err := strconv.Atoi(lp.NumClass)
		if err != nil || n < 0 || n > 1<<16 {
			return nil, fmt.Errorf("trees: XGBoost JSON: bad num_class %q", lp.NumClass)
		}
		nclass = max(n, 1)
	}
	if lp.NumTarget != "" && lp.NumTarget != "1" && lp.NumTarget != "0" {
		return nil, fmt.Errorf("trees: XGBoost JSON: num_target %s: multi-target models are not supported", lp.NumTarget)
	}
	gb := f.Learner.GradientBooster
	var weights []float64
	switch gb.Name {
	case "gbtree", "":
	case "dart":
		if gb.GBTree == nil {
			return nil, fmt.Errorf("trees: XGBoost JSON: dart booster without gbtree")
		}
		weights = gb.WeightDrop
		gb = *gb.GBTree
	default:
		return nil, fmt.Errorf("trees: XGBoost JSON: booster %q is not a tree ensemble (want gbtree or dart)", gb.Name)
	}
	if gb.Model == nil {
		return nil, fmt.Errorf("trees: XGBoost JSON: no learner.gradient_booster.model")
	}
	m := gb.Model
	if nt := m.Param.NumTrees; nt != "" && nt != strconv.Itoa(len(m.Trees)) {
		return nil, fmt.Errorf("trees: XGBoost JSON: gbtree_model_param.num_trees declares %s trees but the file has %d; is the file incomplete?", nt, len(m.Trees))
	}
	if nclass > 1 && len(m.TreeInfo) != len(m.Trees) {
		return nil, fmt.Errorf("trees: XGBoost JSON: %d trees but %d tree_info entries", len(m.Trees), len(m.TreeInfo))
	}
	if weights != nil && len(weights) != len(m.Trees) {
		return nil, fmt.Errorf("trees: XGBoost JSON: %d trees but %d dart weights", len(m.Trees), len(weights))
	}
	b := newBuilder("xgboost", nclass)
	if lp.NumFeature != "" {
		n, err := strconv.Atoi(lp.NumFeature)
		if err != nil || n < 0 || n > 1<<24 {
			return nil, fmt.Errorf("trees: XGBoost JSON: bad num_feature %q", lp.NumFeature)
		}
		b.e.NumFeatures, b.e.Declared = n, true
	}
	base, err := xgbBase(lp.BaseScore, f.Learner.Objective.Name, nclass)
	if err != nil {
		return nil, err
	}
	copy(b.e.Base, base)
	for ti, xt := range m.Trees {
		class := 0
		if nclass > 1 {
			class = m.TreeInfo[ti]
			if class < 0 || class >= nclass {
				return nil, fmt.Errorf("trees: XGBoost JSON: tree %d: tree_info %d out of range 0..%d", ti, class, nclass-1)
			}
		}
		w := 1.0
		if weights != nil {
			w = weights[ti]
		}
		t, err := xgbConvert(&xt, class, w)
		if err != nil {
			return nil, fmt.Errorf("trees: XGBoost JSON: tree %d: %v", ti, err)
		}
		b.e.Trees = append(b.e.Trees, t)
	}
	return b.finish()
}

func xgbConvert(xt *xgbTree, class int, weight float64) (Tree, error) {
	if s := xt.TreeParam.SizeLeafVector; s != "" && s != "0" && s != "1" {
		return Tree{}, fmt.Errorf("vector leaves (size_leaf_vector %s) are not supported", s)
	}
	n := len(xt.LeftChildren)
	if n == 0 {
		return Tree{}, fmt.Errorf("no nodes")
	}
	if nn := xt.TreeParam.NumNodes; nn != "" && nn != strconv.Itoa(n) {
		return Tree{}, fmt.Errorf("tree_param.num_nodes declares %s nodes but left_children has %d; is the file incomplete?", nn, n)
	}
	if len(xt.RightChildren) != n || len(xt.SplitIndices) != n || len(xt.SplitConditions) != n {
		return Tree{}, fmt.Errorf("node arrays differ in length (left_children %d, right_children %d, split_indices %d, split_conditions %d)",
			n, len(xt.RightChildren), len(xt.SplitIndices), len(xt.SplitConditions))
	}
	if xt.SplitType != nil && len(xt.SplitType) != n {
		return Tree{}, fmt.Errorf("split_type has %d entries for %d nodes", len(xt.SplitType), n)
	}
	t := Tree{Class: class, Nodes: make([]Node, n)}
	for i := 0; i < n; i++ {
		if xt.LeftChildren[i] == -1 {
			// XGBoost's leaf values are float32; a dart weight (float32
			// too) multiplies them in float32.
			v := float64(float32(float64(float32(xt.SplitConditions[i])) * float64(float32(weight))))
			t.Nodes[i] = Node{Feature: -1, Leaf: len(t.Values)}
			t.Values = append(t.Values, v)
			continue
		}
		if xt.SplitType != nil && xt.SplitType[i] != 0 {
			return Tree{}, fmt.Errorf("node %d is a categorical split; vigil supports numerical splits only (train with enable_categorical=False)", i)
		}
		if xt.SplitIndices[i] < 0 {
			return Tree{}, fmt.Errorf("node %d: negative split index %d", i, xt.SplitIndices[i])
		}
		t.Nodes[i] = Node{
			Feature:   xt.SplitIndices[i],
			Threshold: xgbThreshold(float32(xt.SplitConditions[i])),
			Left:      xt.LeftChildren[i],
			Right:     xt.RightChildren[i],
		}
	}
	return t, nil
}

// xgbThreshold returns the float64 T with float32(x) < t iff x < T for every
// float64 x, where float32(x) rounds to nearest, ties to even. float32(x) >= t
// iff x lies above the midpoint between t and its float32 predecessor, or on
// it when the tie rounds up to t (t's significand is even).
func xgbThreshold(t float32) float64 {
	if math.IsInf(float64(t), 0) || math.IsNaN(float64(t)) {
		return float64(t)
	}
	prev := math.Nextafter32(t, float32(math.Inf(-1)))
	if math.IsInf(float64(prev), -1) {
		// t is -MaxFloat32: x rounds to -Inf (< t) iff x <= -(MaxFloat32 +
		// half an ulp); the tie goes to -Inf because MaxFloat32 is odd.
		return math.Nextafter(-(math.MaxFloat32 + 0x1p103), math.Inf(1))
	}
	mid := (float64(prev) + float64(t)) / 2 // exact: 25 significant bits
	if math.Float32bits(t)&1 == 0 || t == 0 {
		return mid // a tie rounds to t (even)
	}
	return math.Nextafter(mid, math.Inf(1))
}

// xgbBase turns learner_model_param.base_score into per-class margin
// offsets. The string is a number ("5E-1") or, since XGBoost 2, a bracketed
// list ("[5E-1]"). For logistic objectives (not binary:logitraw) it is a
// probability, so the margin is logit(p); for log-link objectives
// (survival:aft among them) it is log(p).
func xgbBase(s, objective string, nclass int) ([]float64, error) {
	s = strings.TrimSpace(s)
	out := make([]float64, nclass)
	if s == "" {
		s = "0.5"
	}
	s = strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")
	parts := strings.Split(s, ",")
	if len(parts) != 1 && len(parts) != nclass {
		return nil, fmt.Errorf("trees: XGBoost JSON: base_score has %d values for %d classes", len(parts), nclass)
	}
	for i := range out {
		p := parts[0]
		if len(parts) > 1 {
			p = parts[i]
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 32)
		if err != nil {
			return nil, fmt.Errorf("trees: XGBoost JSON: bad base_score %q", s)
		}
		switch {
		case objective == "binary:logistic" || objective == "reg:logistic":
			if v <= 0 || v >= 1 {
				return nil, fmt.Errorf("trees: XGBoost JSON: base_score %v of a logistic objective must lie in (0, 1)", v)
			}
			// XGBoost's ProbToMargin in float32: -logf(1/p - 1).
			t := float32(1)/float32(v) - 1
			v = -float64(float32(math.Log(float64(t))))
		case objective == "count:poisson" || objective == "reg:gamma" || objective == "reg:tweedie" || objective == "survival:cox" ||
			objective == "survival:aft":
			if v <= 0 {
				return nil, fmt.Errorf("trees: XGBoost JSON: base_score %v of a log-link objective must be positive", v)
			}
			v = math.Log(v)
		case objective == "" || strings.HasPrefix(objective, "reg:") || strings.HasPrefix(objective, "multi:") ||
			strings.HasPrefix(objective, "rank:") || objective == "binary:hinge" || objective == "binary:logitraw":
			// binary:logitraw's base_score is a margin already (XGBoost's
			// LogisticRaw::ProbToMargin is the identity since 1.3.1, dmlc/xgboost#6517).
		default:
			return nil, fmt.Errorf("trees: XGBoost JSON: objective %q: vigil does not know how it transforms base_score; retrain with a reg:, binary:logistic or multi: objective", objective)
		}
		out[i] = float64(float32(v)) // XGBoost keeps the margin in float32
	}
	return out, nil
}
