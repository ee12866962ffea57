package trees

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"vigil/internal/jsonerr"
)

// Veritas JSON: {"at_type", "base_scores": [...], "trees": [{"num_leaf_values",
// "split_type": "LtSplit", "structure": NODE}]} where NODE is either
// {"leaf_value": [v...]} or {"feat_id", "split_value", "left", "right"}.
// Splits go left iff x < split_value. Scores are base_scores plus the sum of
// the leaves for every at_type; for averaging types (CLF_MEAN, REGR_MEAN)
// Veritas divides by the number of trees afterwards, which changes no
// arg-max, so vigil keeps the sum (as the corpus's expected.json does).

type veritasFile struct {
	AtType     string        `json:"at_type"`
	BaseScores []float64     `json:"base_scores"`
	Trees      []veritasTree `json:"trees"`
}

type veritasTree struct {
	NumLeafValues int          `json:"num_leaf_values"`
	SplitType     string       `json:"split_type"`
	Structure     *veritasNode `json:"structure"`
}

// veritasNode is decoded in one pass with its subtrees (decoding each
// level from raw bytes rescanned every subtree once per level above it,
// which made loading dominate a query).
type veritasNode struct {
	FeatID     *int         `json:"feat_id"`
	SplitValue *float64     `json:"split_value"`
	Left       *veritasNode `json:"left"`
	Right      *veritasNode `json:"right"`
	LeafValue  *leafValues  `json:"leaf_value"`
}

// leafValues is a leaf's value: a number or an array of numbers.
type leafValues []float64

// UnmarshalJSON reads the numbers directly: raw is a JSON value that
// encoding/json has already validated, and leaves are most of a model.
func (l *leafValues) UnmarshalJSON(raw []byte) error {
	bad := fmt.Errorf("leaf_value: want a number or an array of numbers, got %s", truncate(string(raw), 40))
	s := strings.TrimSpace(string(raw))
	parts := []string{s}
	if strings.HasPrefix(s, "[") {
		s = strings.TrimSpace(s[1 : len(s)-1])
		if s == "" {
			*l = leafValues{}
			return nil
		}
		parts = strings.Split(s, ",")
	}
	out := make(leafValues, len(parts))
	for i, p := range parts {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return bad
		}
		out[i] = v
	}
	*l = out
	return nil
}

// ParseVeritas reads Veritas JSON.
func ParseVeritas(data []byte) (*Ensemble, error) {
	f, ok := decodeVeritasFast(data)
	if !ok {
		// encoding/json reads what the fast decoder leaves, and words the
		// errors
		f = veritasFile{}
		if err := json.Unmarshal(data, &f); err != nil {
			return nil, fmt.Errorf("trees: Veritas JSON: %s", jsonerr.Describe(data, err))
		}
	}
	switch f.AtType {
	case "", "REGR", "REGR_MEAN", "CLF_MEAN", "CLF_SOFTMAX", "RAW":
	default:
		return nil, fmt.Errorf("trees: Veritas JSON: unknown at_type %q (want REGR, REGR_MEAN, CLF_MEAN, CLF_SOFTMAX or RAW)", f.AtType)
	}
	nclass := len(f.BaseScores)
	if nclass == 0 {
		if len(f.Trees) == 0 {
			return nil, fmt.Errorf("trees: Veritas JSON: no base_scores and no trees")
		}
		nclass = f.Trees[0].NumLeafValues
	}
	if nclass < 1 || nclass > 1<<16 {
		return nil, fmt.Errorf("trees: Veritas JSON: %d classes; want 1..65536", nclass)
	}
	b := newBuilder("veritas", nclass)
	copy(b.e.Base, f.BaseScores)
	for ti, vt := range f.Trees {
		if vt.SplitType != "" && vt.SplitType != "LtSplit" {
			return nil, fmt.Errorf("trees: Veritas JSON: tree %d: split_type %q is not supported (only LtSplit)", ti, vt.SplitType)
		}
		if vt.NumLeafValues != 0 && vt.NumLeafValues != nclass {
			return nil, fmt.Errorf("trees: Veritas JSON: tree %d has %d leaf values, base_scores has %d", ti, vt.NumLeafValues, nclass)
		}
		t := Tree{Class: -1}
		if nclass == 1 {
			t.Class = 0
		}
		if err := veritasWalk(&t, vt.Structure, nclass, 0); err != nil {
			return nil, fmt.Errorf("trees: Veritas JSON: tree %d: %v", ti, err)
		}
		b.e.Trees = append(b.e.Trees, t)
	}
	return b.finish()
}

// veritasWalk appends the subtree n to t; the subtree's root is the node
// appended first.
func veritasWalk(t *Tree, n *veritasNode, nclass, depth int) error {
	if depth > MaxDepth {
		return fmt.Errorf("deeper than %d levels, which vigil does not support", MaxDepth)
	}
	if n == nil {
		return fmt.Errorf("missing node")
	}
	me := len(t.Nodes)
	if n.LeafValue != nil {
		vals := *n.LeafValue
		if len(vals) != nclass {
			return fmt.Errorf("leaf with %d values, want %d", len(vals), nclass)
		}
		t.Nodes = append(t.Nodes, Node{Feature: -1, Leaf: len(t.Values) / nclass})
		t.Values = append(t.Values, vals...)
		return nil
	}
	if n.FeatID == nil || n.SplitValue == nil {
		return fmt.Errorf("node %d has neither leaf_value nor feat_id and split_value", me)
	}
	if *n.FeatID < 0 {
		return fmt.Errorf("node %d: negative feat_id %d", me, *n.FeatID)
	}
	t.Nodes = append(t.Nodes, Node{Feature: *n.FeatID, Threshold: *n.SplitValue})
	t.Nodes[me].Left = len(t.Nodes)
	if err := veritasWalk(t, n.Left, nclass, depth+1); err != nil {
		return err
	}
	t.Nodes[me].Right = len(t.Nodes)
	return veritasWalk(t, n.Right, nclass, depth+1)
}
