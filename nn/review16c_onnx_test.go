package nn

import (
	"math"
	"strings"
	"testing"
)

// TestReview16cShapes: the lowering tracks the data's shape through
// Reshape, Flatten and Transpose, so that a Softmax or a broadcasting
// constant acts as in PyTorch (torch 1.13's exports, compared with
// vigil nn eval). Before, softmax(reshape(x, (2, 2)), -1) (two softmaxes
// over 2 elements each in PyTorch), softmax(reshape(x, (1, 1, 4)), 1)
// (over one element each: all 1) and softmax(flatten(x, 0, 1), -1) of a
// 1 x 2 x 2 input were all read as one softmax over the 4 elements,
// choosing another label; now they are refused, and a reshape to a
// matrix and back (relu in between) still evaluates.
func TestReview16cShapes(t *testing.T) {
	inits := map[string][2][]float32{
		"S22": {{2}, {2, 2}}, "S114": {{3}, {1, 1, 4}}, "S14": {{2}, {1, 4}}, "S41": {{2}, {4, 1}},
		"Bc": {{4, 1}, {1, 2, 3, 4}},
	}
	node := func(op, a, b, out string) onnxTestNode {
		return onnxTestNode{op: op, in: []string{a, b}, out: []string{out}}
	}
	soft := func(in string, axis int64) onnxTestNode {
		return onnxTestNode{op: "Softmax", in: []string{in}, out: []string{"y"}, i: map[string]int64{"axis": axis}}
	}
	for _, tc := range []struct {
		name  string
		chain []onnxTestNode
		err   string
	}{
		{"softmax of a 2 x 2 reshape", []onnxTestNode{node("Reshape", "x", "S22", "h"), soft("h", -1)}, "shape [2 2]"},
		{"softmax along axis 1 of a 1 x 1 x 4 reshape", []onnxTestNode{node("Reshape", "x", "S114", "h"), soft("h", 1)}, "has size 1"},
		{"softmax of a 4 x 1 reshape", []onnxTestNode{node("Reshape", "x", "S41", "h"), soft("h", -1)}, "has size 1"},
		{"flatten at axis 2 makes a column", []onnxTestNode{{op: "Flatten", in: []string{"x"}, out: []string{"h"}, i: map[string]int64{"axis": 2}}, soft("h", -1)}, "has size 1"},
		{"a 2 x 2 reshape transposed", []onnxTestNode{node("Reshape", "x", "S22", "a"), {op: "Transpose", in: []string{"a"}, out: []string{"h"}}, soft("h", -1)}, "permutes"},
		{"a row plus a [4, 1] constant", []onnxTestNode{node("Reshape", "x", "S14", "a"), node("Add", "a", "Bc", "h"), soft("h", -1)}, "broadcasts"},
		{"a 2 x 2 reshape, relu, reshaped back", []onnxTestNode{node("Reshape", "x", "S22", "a"), {op: "Relu", in: []string{"a"}, out: []string{"b"}}, node("Reshape", "b", "S14", "h"), soft("h", -1)}, ""},
		{"softmax along axis 2 of a 1 x 1 x 4 reshape", []onnxTestNode{node("Reshape", "x", "S114", "h"), soft("h", 2)}, ""},
		{"softmax along axis 0 of a 4 x 1 reshape", []onnxTestNode{node("Reshape", "x", "S41", "h"), soft("h", 0)}, ""},
	} {
		net, ok := parseOrRefused(t, tc.name, buildONNX(4, tc.chain, inits), tc.err)
		if !ok {
			continue
		}
		x := []float64{1, -2, 5, 4}
		z := append([]float64(nil), x...)
		if strings.Contains(tc.name, "relu") {
			for i := range z {
				z[i] = max(z[i], 0)
			}
		}
		s := 0.0
		for _, v := range z {
			s += math.Exp(v)
		}
		got := net.Eval(x)
		for i, v := range z {
			if want := math.Exp(v) / s; math.Abs(got[i]-want) > 1e-12 {
				t.Errorf("%s: output %d = %v, want %v", tc.name, i, got[i], want)
			}
		}
	}
}
