// Package trees loads tree-ensemble policies (XGBoost JSON, LightGBM text,
// Veritas JSON), evaluates their class scores, bounds their outputs over input
// boxes with a Veritas-style best-first search, and answers PolIC3's decision
// query "can label a win anywhere in this box?" (paper 004, section 3.3.2).
//
// Design note: every loader normalises its format's split semantics to one
// form, "go left iff x[f] < T" with T a float64, so that evaluation and search
// share a single meaning of a split:
//   - Veritas: x < t as written;
//   - LightGBM: x <= t becomes x < nextafter(t, +Inf);
//   - XGBoost: float32(x) < t becomes x < T, where T is the smallest float64
//     that rounds to a float32 >= t (see xgbThreshold).
//
// The thresholds of each feature are then sorted and numbered, so the search
// works on integer cell indices and never compares floats (anchors.md, "Tree
// ensembles"). Scores are base + the sum of the leaf values in tree order,
// computed in float64.
package trees

import (
	"fmt"
	"math"
	"math/bits"
	"sort"

	"vigil/symbolic"
)

// MaxDepth is the deepest tree the loaders accept (learned trees are far
// shallower; the bound keeps the search's recursion shallow).
const MaxDepth = 1000

// Ensemble is a loaded tree ensemble with normalised splits. It is not
// changed after loading, so evaluation and searches may run concurrently.
type Ensemble struct {
	// Format names the file format the ensemble came from ("xgboost",
	// "lightgbm", "veritas").
	Format string
	// NumFeatures is the number of inputs: the declared count when the
	// format has one, else one more than the largest feature index used.
	NumFeatures int
	// Declared reports whether NumFeatures was declared by the file.
	Declared bool
	// NumClasses is the number of scores the ensemble computes.
	NumClasses int
	// Base holds one base score (margin offset) per class.
	Base []float64
	// Trees in evaluation order.
	Trees []Tree

	cuts [][]float64 // per feature: sorted distinct thresholds
	tol  float64     // bound on the rounding error of a score sum
	// float32 reports that scores are summed in float32, as XGBoost sums
	// them (its format); LightGBM and Veritas sum in float64.
	float32 bool
	mag     float64 // sum of |base| and each tree's largest |leaf value|
}

// Tree is one tree. Node 0 is the root.
type Tree struct {
	// Class is the class every leaf contributes to, or -1 when each leaf
	// holds one value per class.
	Class int
	Nodes []Node
	// Values holds the leaf values: one per leaf when Class >= 0, else
	// NumClasses per leaf; Node.Leaf indexes leaves.
	Values []float64
}

// Node is an internal node (Feature >= 0) or a leaf (Feature < 0).
type Node struct {
	Feature     int
	Threshold   float64 // go left iff x[Feature] < Threshold
	Left, Right int
	Leaf        int // leaf index (leaves only)
	cut         int // index of Threshold in cuts[Feature]
}

// leafValue returns the contribution of leaf l to class c.
func (t *Tree) leafValue(l, c, nclass int) float64 {
	if t.Class >= 0 {
		if c != t.Class {
			return 0
		}
		return t.Values[l]
	}
	return t.Values[l*nclass+c]
}

// builder accumulates trees in a format-independent way.
type builder struct {
	e *Ensemble
}

func newBuilder(format string, nclass int) *builder {
	return &builder{e: &Ensemble{Format: format, NumClasses: nclass, Base: make([]float64, nclass)}}
}

// finish validates the trees, numbers the thresholds and computes the
// rounding tolerance. Every loader ends here, so the checks below guard the
// search and evaluation against malformed files of any format.
func (b *builder) finish() (*Ensemble, error) {
	e := b.e
	if e.NumClasses < 1 {
		return nil, fmt.Errorf("trees: the model has %d classes; it needs at least one", e.NumClasses)
	}
	if len(e.Base) != e.NumClasses {
		return nil, fmt.Errorf("trees: %d base scores for %d classes", len(e.Base), e.NumClasses)
	}
	maxFeat := -1
	for ti := range e.Trees {
		t := &e.Trees[ti]
		if t.Class >= e.NumClasses {
			return nil, fmt.Errorf("trees: tree %d belongs to class %d but the model has %d classes", ti, t.Class, e.NumClasses)
		}
		if len(t.Nodes) == 0 {
			return nil, fmt.Errorf("trees: tree %d has no nodes", ti)
		}
		width := 1
		if t.Class < 0 {
			width = e.NumClasses
		}
		// Every node must be reached exactly once from the root, so the
		// structure is a tree (no cycles, no sharing) and walks terminate.
		seen := make([]bool, len(t.Nodes))
		depth := make([]int, len(t.Nodes))
		stack := []int{0}
		seen[0] = true
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			n := &t.Nodes[i]
			if depth[i] > MaxDepth {
				return nil, fmt.Errorf("trees: tree %d is deeper than %d levels, which vigil does not support", ti, MaxDepth)
			}
			if n.Feature < 0 {
				if n.Leaf < 0 || (n.Leaf+1)*width > len(t.Values) {
					return nil, fmt.Errorf("trees: tree %d node %d: leaf value missing", ti, i)
				}
				continue
			}
			if n.Feature >= MaxFeatures {
				return nil, fmt.Errorf("trees: tree %d node %d: feature index %d is beyond the %d features vigil reads", ti, i, n.Feature, MaxFeatures)
			}
			if math.IsNaN(n.Threshold) {
				return nil, fmt.Errorf("trees: tree %d node %d: threshold is NaN", ti, i)
			}
			for _, c := range []int{n.Left, n.Right} {
				if c <= 0 || c >= len(t.Nodes) {
					return nil, fmt.Errorf("trees: tree %d node %d: child %d out of range 1..%d", ti, i, c, len(t.Nodes)-1)
				}
				if seen[c] {
					return nil, fmt.Errorf("trees: tree %d node %d: child %d is reached twice; the file is not a tree", ti, i, c)
				}
				seen[c] = true
				depth[c] = depth[i] + 1
				stack = append(stack, c)
			}
			maxFeat = max(maxFeat, n.Feature)
		}
		for i, s := range seen {
			if !s {
				return nil, fmt.Errorf("trees: tree %d node %d is unreachable from the root", ti, i)
			}
		}
		for _, v := range t.Values {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("trees: tree %d has a leaf value %v; leaves must be finite", ti, v)
			}
		}
	}
	for c, v := range e.Base {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("trees: base score of class %d is %v; it must be finite", c, v)
		}
	}
	if e.Declared {
		if maxFeat >= e.NumFeatures {
			return nil, fmt.Errorf("trees: a split uses feature %d but the model declares %d features", maxFeat, e.NumFeatures)
		}
	} else {
		e.NumFeatures = maxFeat + 1
	}
	e.number()
	if !(e.mag <= e.maxScore()) {
		return nil, fmt.Errorf("trees: the base scores and largest leaf values add up to %g, beyond %g: score sums might overflow; rescale the model", e.mag, e.maxScore())
	}
	return e, nil
}

// number collects each feature's distinct thresholds, numbers them, and
// computes the rounding tolerance.
func (e *Ensemble) number() {
	e.cuts = make([][]float64, e.NumFeatures)
	for ti := range e.Trees {
		for _, n := range e.Trees[ti].Nodes {
			if n.Feature >= 0 {
				e.cuts[n.Feature] = append(e.cuts[n.Feature], n.Threshold)
			}
		}
	}
	for f, c := range e.cuts {
		sort.Float64s(c)
		k := 0
		for i, v := range c {
			if i == 0 || v != c[k-1] {
				c[k] = v
				k++
			}
		}
		e.cuts[f] = c[:k:k]
	}
	for ti := range e.Trees {
		t := &e.Trees[ti]
		for i := range t.Nodes {
			n := &t.Nodes[i]
			if n.Feature >= 0 {
				n.cut = sort.SearchFloat64s(e.cuts[n.Feature], n.Threshold)
			}
		}
	}
	// A sum of m terms is off by at most (m-1)*u*sum|terms|; the search
	// compares sums formed in another order than evaluation's, so it pads
	// partial bounds by twice that (u = 2^-53 for float64 sums, 2^-24 for
	// XGBoost's float32 sums), generously rounded up.
	e.float32 = e.Format == "xgboost"
	digits := 53
	if e.float32 {
		digits = 24
	}
	mag := 0.0
	for _, b := range e.Base {
		mag += math.Abs(b)
	}
	for ti := range e.Trees {
		m := 0.0
		for _, v := range e.Trees[ti].Values {
			m = max(m, math.Abs(v))
		}
		mag += m
	}
	e.mag = mag
	terms := float64(len(e.Trees) + 2)
	e.tol = 4 * terms * mag * math.Ldexp(1, -digits)
	// When every value is a multiple of 2^low and twice the largest
	// possible sum stays below 2^(low+53), every sum and difference the
	// search or evaluation forms is exact: no padding is needed, and ties
	// (common with vote-valued forests) are seen exactly.
	low := math.MaxInt
	note := func(v float64) {
		if v == 0 {
			return
		}
		frac, exp := math.Frexp(math.Abs(v))
		m := uint64(frac * (1 << 53))
		low = min(low, exp-53+bits.TrailingZeros64(m))

	}
	for _, b := range e.Base {
		note(b)
	}
	for ti := range e.Trees {
		for _, v := range e.Trees[ti].Values {
			note(v)
		}
	}
	if low == math.MaxInt || (low > -1000 && 2*mag < math.Ldexp(1, low+digits)) {
		e.tol = 0
	}
}

// maxScore bounds the magnitude of base plus leaf values an ensemble may
// reach: beyond it a score sum might overflow to an infinity (float32's
// largest value is about 2^128), and the loaders refuse the file.
func (e *Ensemble) maxScore() float64 {
	if e.float32 {
		return 0x1p120
	}
	return 0x1p1000
}

// Scores writes the class scores of input x into dst (len NumClasses).
// x must have at least NumFeatures entries.
func (e *Ensemble) Scores(x []float64, dst []float64) error {
	if len(x) < e.NumFeatures {
		return fmt.Errorf("trees: input has %d values, the model needs %d", len(x), e.NumFeatures)
	}
	if len(dst) != e.NumClasses {
		return fmt.Errorf("trees: %d score slots for %d classes", len(dst), e.NumClasses)
	}
	copy(dst, e.Base)
	for ti := range e.Trees {
		t := &e.Trees[ti]
		l := t.leafOf(x)
		if t.Class >= 0 {
			dst[t.Class] = e.Add(dst[t.Class], t.Values[l])
			continue
		}
		vs := t.Values[l*e.NumClasses : (l+1)*e.NumClasses]
		for c, v := range vs {
			dst[c] = e.Add(dst[c], v)
		}
	}
	return nil
}

// Add is one step of a score sum, s + v, rounded as the ensemble's format
// sums: to float32 for XGBoost (its scores are float32, and every base
// and leaf value is a float32 value), to float64 otherwise. Scores sums
// base, then each tree's leaf value in tree order, with Add.
func (e *Ensemble) Add(s, v float64) float64 {
	if e.float32 {
		return float64(float32(s) + float32(v))
	}
	return s + v
}

// ScoresBatch evaluates many inputs: dst[i] receives the scores of xs[i]
// and is allocated when nil or too short.
func (e *Ensemble) ScoresBatch(xs [][]float64, dst [][]float64) ([][]float64, error) {
	if len(dst) < len(xs) {
		dst = append(dst, make([][]float64, len(xs)-len(dst))...)
	}
	dst = dst[:len(xs)]
	for i, x := range xs {
		if len(dst[i]) != e.NumClasses {
			dst[i] = make([]float64, e.NumClasses)
		}
		if err := e.Scores(x, dst[i]); err != nil {
			return dst, fmt.Errorf("trees: input %d: %w", i, unprefix(err))
		}
	}
	return dst, nil
}

func unprefix(err error) error {
	s := err.Error()
	if len(s) > 7 && s[:7] == "trees: " {
		return fmt.Errorf("%s", s[7:])
	}
	return err
}

// leafOf returns the leaf index x falls into.
func (t *Tree) leafOf(x []float64) int {
	i := 0
	for {
		n := &t.Nodes[i]
		if n.Feature < 0 {
			return n.Leaf
		}
		if x[n.Feature] < n.Threshold {
			i = n.Left
		} else {
			i = n.Right
		}
	}
}

// Cuts returns the sorted distinct thresholds of feature f.
func (e *Ensemble) Cuts(f int) []float64 {
	if f < 0 || f >= len(e.cuts) {
		return nil
	}
	return e.cuts[f]
}

// params returns e's raw parameters (symbolic.Ensemble): its fields, the
// nodes copied without their cut indices.
func (e *Ensemble) params() *symbolic.Ensemble {
	r := &symbolic.Ensemble{NumFeatures: e.NumFeatures, NumClasses: e.NumClasses, Base: e.Base, Float32: e.float32}
	r.Trees = make([]symbolic.Tree, len(e.Trees))
	for i, t := range e.Trees {
		nodes := make([]symbolic.TreeNode, len(t.Nodes))
		for k, n := range t.Nodes {
			nodes[k] = symbolic.TreeNode{Feature: n.Feature, Threshold: n.Threshold, Left: n.Left, Right: n.Right, Leaf: n.Leaf}
		}
		r.Trees[i] = symbolic.Tree{Class: t.Class, Nodes: nodes, Values: t.Values}
	}
	return r
}

// NumLeaves returns the total number of leaves.
func (e *Ensemble) NumLeaves() int {
	n := 0
	for ti := range e.Trees {
		for _, nd := range e.Trees[ti].Nodes {
			if nd.Feature < 0 {
				n++
			}
		}
	}
	return n
}
