package trees

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
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
// splits and vector leaves (multi_strategy) are rejected, and so are files
// whose own predict is not the sum of all their trees (an early-stopped
// scikit-learn model, one with a missing value other than NaN; see
// xgbCheckAttributes). Nodes that pruning deleted are dropped (xgbLive).
// The scores are the margins (predict(output_margin=True)), whose arg-max
// is multi:softmax's predict; XGBClassifier.predict of multi:softprob
// takes the arg-max of float32 probabilities instead, where margins an ulp
// apart may tie (testdata/review20r/near_tie.json).

// xgbFile is the file as vigil reads it. The numbers XGBoost reads as
// float32 are xgbFloats; xgbFileOf[[]float64] reads them as the standard
// decoder does, only to position an error (a custom decoder's errors
// carry no offset).
type xgbFile = xgbFileOf[xgbFloats]

type xgbFileOf[F any] struct {
	Learner struct {
		Attributes        map[string]string `json:"attributes"`
		LearnerModelParam struct {
			BaseScore  json.RawMessage `json:"base_score"` // absent: XGBoost's default 0.5
			NumClass   string          `json:"num_class"`
			NumFeature string          `json:"num_feature"`
			NumTarget  string          `json:"num_target"`
		} `json:"learner_model_param"`
		Objective struct {
			Name string `json:"name"`
		} `json:"objective"`
		GradientBooster xgbBoosterOf[F] `json:"gradient_booster"`
	} `json:"learner"`
}

type xgbBoosterOf[F any] struct {
	Name       string           `json:"name"`
	Model      *xgbModelOf[F]   `json:"model"`
	GBTree     *xgbBoosterOf[F] `json:"gbtree"`
	WeightDrop F                `json:"weight_drop"`
}

type xgbModelOf[F any] struct {
	Param struct {
		NumTrees        string `json:"num_trees"`
		NumParallelTree string `json:"num_parallel_tree"`
	} `json:"gbtree_model_param"`
	Trees    []xgbTreeOf[F] `json:"trees"`
	TreeInfo []int          `json:"tree_info"`
}

type xgbTree = xgbTreeOf[xgbFloats]

type xgbTreeOf[F any] struct {
	TreeParam struct {
		NumNodes       string `json:"num_nodes"`
		NumDeleted     string `json:"num_deleted"`
		SizeLeafVector string `json:"size_leaf_vector"`
	} `json:"tree_param"`
	LeftChildren    []int `json:"left_children"`
	RightChildren   []int `json:"right_children"`
	SplitIndices    []int `json:"split_indices"`
	SplitConditions F     `json:"split_conditions"`
	SplitType       []int `json:"split_type"`
}

// xgbFloats are numbers XGBoost reads as float32 (split conditions, leaf
// values, dart weights): each is the decimal rounded once to float32, as
// XGBoost's reader rounds it. Reading it as float64 first rounded twice,
// and a decimal just above a float32 midpoint (1.00000005960464477539062500000001)
// landed on the midpoint, then on the even float32 below: vigil read the
// split 1.0 where XGBoost reads 1.0000001 (s25f_xgb_float32_decimal).
// A number beyond float32's range is the infinity XGBoost reads.
type xgbFloats []float64

func (xs *xgbFloats) UnmarshalJSON(b []byte) error {
	var ns []json.RawMessage
	if err := json.Unmarshal(b, &ns); err != nil {
		var typ *json.UnmarshalTypeError
		if errors.As(err, &typ) {
			// an array of numbers, not of json.RawMessage's byte arrays
			// ("want an array of arrays of integers"); the decoder adds
			// the field
			return &json.UnmarshalTypeError{Value: typ.Value, Type: reflect.TypeOf([]float64(nil))}
		}
		return err
	}
	out := make(xgbFloats, len(ns))
	for i, n := range ns {
		// a JSON number token (not a string, null or a container)
		f, err := strconv.ParseFloat(string(n), 32)
		if c := n[0]; c != '-' && (c < '0' || c > '9') || err != nil && !(errors.Is(err, strconv.ErrRange) && math.IsInf(f, 0)) {
			return fmt.Errorf("entry %d of a split_conditions or weight_drop array is %s, not a number", i, n)
		}
		out[i] = f
	}
	*xs = out
	return nil
}

// ParseXGBoost reads XGBoost save_model JSON.
func ParseXGBoost(data []byte) (*Ensemble, error) {
	var f xgbFile
	if err := json.Unmarshal(data, &f); err != nil {
		var std xgbFileOf[[]float64]
		if serr := json.Unmarshal(data, &std); serr != nil {
			err = serr // the same error, with its position
		}
		if key, tok, ok := xgbNonFinite(data); ok {
			why := ""
			switch {
			case key == "split_conditions" && tok == "NaN":
				why = "; XGBoost writes NaN as the condition of a categorical split, which vigil does not support (train with enable_categorical=False)"
			case key == "split_conditions":
				// a leaf value (or threshold) of the other JSON writers'
				// infinity: no categorical split writes it
				why = "; leaf values must be finite"
			}
			return nil, fmt.Errorf("trees: XGBoost JSON: %s in %q is not a JSON number (%s)%s", tok, key, jsonerr.Describe(data, err), why)
		}
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
	// tree_info is checked whenever present: a multi-class model whose
	// num_class is missing would otherwise add every class's trees into
	// one score.
	if (nclass > 1 || len(m.TreeInfo) > 0) && len(m.TreeInfo) != len(m.Trees) {
		return nil, fmt.Errorf("trees: XGBoost JSON: %d trees but %d tree_info entries", len(m.Trees), len(m.TreeInfo))
	}
	if weights != nil && len(weights) != len(m.Trees) {
		return nil, fmt.Errorf("trees: XGBoost JSON: %d trees but %d dart weights", len(m.Trees), len(weights))
	}
	b := newBuilder("xgboost", nclass)
	if lp.NumFeature != "" {
		n, err := strconv.Atoi(lp.NumFeature)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("trees: XGBoost JSON: bad num_feature %q", lp.NumFeature)
		}
		if n > MaxFeatures {
			return nil, fmt.Errorf("trees: XGBoost JSON: learner_model_param.num_feature %d is more than the %d features vigil reads", n, MaxFeatures)
		}
		b.e.NumFeatures, b.e.Declared = n, true
	}
	baseText, err := xgbBaseText(lp.BaseScore)
	if err != nil {
		if raw := lp.BaseScore; raw[0] != '"' && string(raw) != "null" {
			// a number or another type: the decoder's own error, which
			// says where (decoded again on this error path only)
			var typed struct {
				Learner struct {
					LearnerModelParam struct {
						BaseScore string `json:"base_score"`
					} `json:"learner_model_param"`
				} `json:"learner"`
			}
			if terr := json.Unmarshal(data, &typed); terr != nil {
				return nil, fmt.Errorf("trees: XGBoost JSON: %s", jsonerr.Describe(data, terr))
			}
		}
		return nil, err
	}
	base, err := xgbBase(baseText, f.Learner.Objective.Name, nclass)
	if err != nil {
		return nil, err
	}
	copy(b.e.Base, base)
	for ti, xt := range m.Trees {
		class := 0
		if len(m.TreeInfo) > 0 {
			class = m.TreeInfo[ti]
			if class < 0 || class >= nclass {
				nc := "is missing"
				if lp.NumClass != "" {
					nc = "is " + lp.NumClass
				}
				return nil, fmt.Errorf("trees: XGBoost JSON: tree %d: tree_info %d out of range 0..%d (learner_model_param.num_class %s)", ti, class, nclass-1, nc)
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
	if err := xgbCheckAttributes(f.Learner.Attributes, len(m.Trees), nclass, m.Param.NumParallelTree); err != nil {
		return nil, err
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
	keep, err := xgbLive(xt)
	if err != nil {
		return Tree{}, err
	}
	t := Tree{Class: class, Nodes: make([]Node, 0, n)}
	for i := 0; i < n; i++ {
		if keep[i] < 0 {
			continue
		}
		if xt.LeftChildren[i] == -1 {
			// XGBoost's leaf values are float32; a dart weight (float32
			// too) multiplies them in float32.
			v := float64(float32(float64(float32(xt.SplitConditions[i])) * float64(float32(weight))))
			t.Nodes = append(t.Nodes, Node{Feature: -1, Leaf: len(t.Values)})
			t.Values = append(t.Values, v)
			continue
		}
		if xt.SplitType != nil && xt.SplitType[i] != 0 {
			return Tree{}, fmt.Errorf("node %d is a categorical split; vigil supports numerical splits only (train with enable_categorical=False)", i)
		}
		if xt.SplitIndices[i] < 0 {
			return Tree{}, fmt.Errorf("node %d: negative split index %d", i, xt.SplitIndices[i])
		}
		if xt.SplitIndices[i] >= MaxFeatures {
			return Tree{}, fmt.Errorf("node %d: split index %d is beyond the %d features vigil reads", i, xt.SplitIndices[i], MaxFeatures)
		}
		t.Nodes = append(t.Nodes, Node{
			Feature:   xt.SplitIndices[i],
			Threshold: xgbThreshold(float32(xt.SplitConditions[i])),
			Left:      xgbRenumber(keep, xt.LeftChildren[i]),
			Right:     xgbRenumber(keep, xt.RightChildren[i]),
		})
	}
	return t, nil
}

// xgbCheckAttributes refuses models whose own predict differs from the
// sum of all their trees in ways the file records only in
// learner.attributes:
//   - best_iteration below the last round (early stopping): XGBoost's
//     scikit-learn predict uses rounds 0..best_iteration only, Booster.predict
//     every round, and nothing says which one runs the policy;
//   - the scikit-learn interface's missing value (attribute scikit_learn)
//     other than NaN: its predict sends every input equal to it down each
//     split's default branch, which vigil's splits do not model.
func xgbCheckAttributes(attrs map[string]string, ntrees, nclass int, npt string) error {
	if bi, ok := attrs["best_iteration"]; ok {
		per := nclass
		if npt != "" {
			p, err := strconv.Atoi(npt)
			if err != nil || p < 1 {
				return fmt.Errorf("trees: XGBoost JSON: bad gbtree_model_param.num_parallel_tree %q", npt)
			}
			per *= p
		}
		rounds := ntrees / per
		best, err := strconv.Atoi(strings.TrimSpace(bi))
		if err != nil || best < 0 {
			return fmt.Errorf("trees: XGBoost JSON: bad learner.attributes.best_iteration %q", bi)
		}
		if best+1 < rounds {
			return fmt.Errorf("trees: XGBoost JSON: the model has %d boosting rounds but learner.attributes.best_iteration is %d (early stopping): "+
				"XGBoost's scikit-learn predict uses only rounds 0..%d and Booster.predict all %d, so vigil cannot tell which policy runs; "+
				"save the model the policy runs: booster[:%d].save_model(\"model.json\") for the early-stopped one (or delete the attribute from a booster that predicts with every round)",
				rounds, best, best, rounds, best+1)
		}
	}
	if sk, ok := attrs["scikit_learn"]; ok {
		if v, found := xgbMissing(sk); found && v != "NaN" && v != "null" && v != "nan" {
			return fmt.Errorf("trees: XGBoost JSON: the model was trained through XGBoost's scikit-learn interface with missing=%s "+
				"(learner.attributes.scikit_learn): its predict sends every input equal to %s down each split's default branch, which vigil does not model; "+
				"retrain with missing=np.nan (the default)", v, v)
		}
	}
	return nil
}

// xgbMissing returns the value of "missing" in the scikit-learn
// interface's parameters, a JSON object as Python writes it (with NaN).
func xgbMissing(sk string) (string, bool) {
	const key = `"missing":`
	i := strings.Index(sk, key)
	if i < 0 {
		return "", false
	}
	rest := strings.TrimLeft(sk[i+len(key):], " \t\n")
	j := strings.IndexAny(rest, ",}")
	if j < 0 {
		j = len(rest)
	}
	return strings.TrimSpace(rest[:j]), true
}

// xgbNonFinite finds the first bare NaN or Infinity (as XGBoost's JSON
// writer prints non-finite floats) outside strings, and the last object
// key before it.
func xgbNonFinite(data []byte) (key, tok string, ok bool) {
	inStr, start := false, 0
	for i := 0; i < len(data); i++ {
		c := data[i]
		if inStr {
			switch c {
			case '\\':
				i++
			case '"':
				inStr = false
				if j := skipSpace(data, i+1); j < len(data) && data[j] == ':' {
					key = string(data[start:i])
				}
			}
			continue
		}
		if c == '"' {
			inStr, start = true, i+1
			continue
		}
		for _, w := range []string{"NaN", "Infinity", "-Infinity"} {
			if bytes.HasPrefix(data[i:], []byte(w)) {
				return key, w, true
			}
		}
	}
	return "", "", false
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// xgbLive numbers the nodes that stay. XGBoost's pruning (gamma,
// max_delta_step, ...) turns a split into a leaf and marks its subtree
// deleted (tree_param.num_deleted) but keeps the deleted nodes in the arrays,
// unreachable from the root: when exactly num_deleted nodes are unreachable,
// they are dropped and the others renumbered in order (keep[i] is node i's
// new index, -1 for a deleted node). Otherwise every node stays, so that the
// checks every loader ends with (builder.finish) report the malformed
// structure on the file's own node numbers.
func xgbLive(xt *xgbTree) ([]int, error) {
	n := len(xt.LeftChildren)
	keep := make([]int, n)
	for i := range keep {
		keep[i] = i
	}
	nd := xt.TreeParam.NumDeleted
	if nd == "" || nd == "0" {
		return keep, nil
	}
	del, err := strconv.Atoi(nd)
	if err != nil || del < 0 || del >= n {
		return nil, fmt.Errorf("bad tree_param.num_deleted %q for %d nodes", nd, n)
	}
	seen := make([]bool, n)
	seen[0] = true
	stack := []int{0}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if xt.LeftChildren[i] == -1 {
			continue
		}
		for _, c := range []int{xt.LeftChildren[i], xt.RightChildren[i]} {
			if c <= 0 || c >= n || seen[c] {
				return keep, nil // not a tree: finish says where
			}
			seen[c] = true
			stack = append(stack, c)
		}
	}
	live := 0
	for _, s := range seen {
		if s {
			live++
		}
	}
	if n-live != del {
		return keep, nil // finish names an unreachable node
	}
	k := 0
	for i := range keep {
		if seen[i] {
			keep[i], k = k, k+1
		} else {
			keep[i] = -1
		}
	}
	return keep, nil
}

// xgbRenumber maps child index c through keep; an index out of range stays
// as it is, for builder.finish to report.
func xgbRenumber(keep []int, c int) int {
	if c < 0 || c >= len(keep) {
		return c
	}
	return keep[c]
}

// xgbThreshold returns the float64 T with float32(x) < t iff x < T for every
// float64 x, where float32(x) rounds to nearest, ties to even. float32(x) >= t
// iff x lies above the midpoint between t and its float32 predecessor, or on
// it when the tie rounds up to t (t's significand is even).
func xgbThreshold(t float32) float64 {
	if math.IsInf(float64(t), 1) {
		// float32(x) < +Inf iff x does not round to +Inf: x below
		// MaxFloat32 plus half its ulp (that tie rounds to +Inf, as
		// MaxFloat32 is odd). A condition beyond float32's range (1E39 in
		// the JSON) reads as +Inf; the threshold +Inf sent 1e300 left.
		return math.MaxFloat32 + 0x1p103
	}
	if math.IsInf(float64(t), -1) || math.IsNaN(float64(t)) {
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

// xgbBaseText is the text of learner_model_param.base_score: "0.5",
// XGBoost's default, where the key is absent. A null, an empty string or
// a value that is not a string is refused, as XGBoost's loader refuses it
// (vigil read them as 0.5, a margin offset the model may not have).
func xgbBaseText(raw json.RawMessage) (string, error) {
	if raw == nil {
		return "0.5", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil || string(raw) == "null" {
		return "", fmt.Errorf("trees: XGBoost JSON: learner_model_param.base_score is %s; XGBoost writes a number as a string (\"5E-1\"): re-save the model with XGBoost's save_model", raw)
	}
	if strings.TrimSpace(s) == "" {
		return "", fmt.Errorf("trees: XGBoost JSON: learner_model_param.base_score is an empty string; XGBoost writes a number (\"5E-1\"): re-save the model with XGBoost's save_model")
	}
	return s, nil
}

// xgbReadable reports whether XGBoost 1.x reads s as a number: its
// from_chars (after ryu's s2f) takes an optional '-', digits with at
// most one '.', at most 9 significant digits counted from the first
// non-zero one, and an optional exponent (e or E, a sign, digits), and
// nothing else. On any other string XGBoost 1.7 keeps the default
// base_score 0.5 and says nothing (xgboost 1.7.4 predicts 0.5 from
// "0.30000001192092896", "1.000000000", "+2.5" and " 2.5"), where vigil
// read 0.3, 1 and 2.5 (s25r_xgb_base_score_digits).
func xgbReadable(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits, sig, dot := 0, 0, false
mantissa:
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case c == '.' && !dot:
			dot = true
		case c >= '0' && c <= '9':
			digits++
			if sig > 0 || c != '0' {
				sig++
			}
		default:
			break mantissa
		}
	}
	if digits == 0 || sig > 9 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	return i == len(s)
}

// xgbBase turns learner_model_param.base_score into per-class margin
// offsets. The string is a number ("5E-1") or, since XGBoost 2, a bracketed
// list ("[5E-1]"). For logistic objectives (not binary:logitraw) it is a
// probability, so the margin is logit(p); for log-link objectives
// (survival:aft among them) it is log(p).
func xgbBase(s, objective string, nclass int) ([]float64, error) {
	raw := s
	plain := !strings.HasPrefix(strings.TrimSpace(s), "[")
	s = strings.TrimSpace(s)
	out := make([]float64, nclass)
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
		if plain && !xgbReadable(raw) {
			return nil, fmt.Errorf("trees: XGBoost JSON: bad base_score %q: a number XGBoost 1.x does not read (it takes a '-', digits with a '.', an exponent, at most 9 significant digits; no '+' or white space) and keeps its default 0.5 without a word, likely not what the file means; write the base score with at most 9 significant digits, as XGBoost's save_model does", raw)
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
