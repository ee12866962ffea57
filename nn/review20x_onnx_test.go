package nn

import (
	"strings"
	"testing"
)

// review20x: reading an ArgMax output as its scores, where the graph
// computes something else, is refused; a cyclic graph is refused rather
// than recursed into until the stack overflows.
func TestReview20xArgMaxReading(t *testing.T) {
	w := map[string][2][]float32{"W": {{2, 3}, {1, 0, 0.5, 0, 1, 0.5}}}
	for _, c := range []struct {
		name  string
		nodes []onnxTestNode
		inits map[string][2][]float32
		want  string
	}{
		{"softmax cycle", []onnxTestNode{
			{op: "Softmax", in: []string{"s2"}, out: []string{"s1"}},
			{op: "Softmax", in: []string{"s1"}, out: []string{"s2"}},
			{op: "ArgMax", in: []string{"s1"}, out: []string{"y"}, i: map[string]int64{"axis": 1}},
		}, nil, "feed-forward chains only"},
		{"cast to bool", []onnxTestNode{
			{op: "MatMul", in: []string{"x", "W"}, out: []string{"z"}},
			{op: "ArgMax", in: []string{"z"}, out: []string{"a"}, i: map[string]int64{"axis": 1}},
			{op: "Cast", in: []string{"a"}, out: []string{"y"}, i: map[string]int64{"to": 9}},
		}, w, "casts the ArgMax of 3 scores to ONNX type 9"},
		{"cast to int8, 3 scores", []onnxTestNode{
			{op: "MatMul", in: []string{"x", "W"}, out: []string{"z"}},
			{op: "ArgMax", in: []string{"z"}, out: []string{"a"}, i: map[string]int64{"axis": 1}},
			{op: "Cast", in: []string{"a"}, out: []string{"y"}, i: map[string]int64{"to": 3}},
		}, w, ""},
		{"tensor assigned twice", []onnxTestNode{
			{op: "MatMul", in: []string{"x", "W"}, out: []string{"z"}},
			{op: "ArgMax", in: []string{"z"}, out: []string{"y"}, i: map[string]int64{"axis": 1}},
			{op: "Relu", in: []string{"x"}, out: []string{"z"}},
		}, w, `tensor "z" is computed by both`},
		{"argmax of one score", []onnxTestNode{
			{op: "MatMul", in: []string{"x", "V"}, out: []string{"z"}},
			{op: "ArgMax", in: []string{"z"}, out: []string{"y"}, i: map[string]int64{"axis": 1}},
		}, map[string][2][]float32{"V": {{2, 1}, {1, 0}}}, "ArgMax of one score, which is always 0"},
		{"second output of the ArgMax", []onnxTestNode{
			{op: "MatMul", in: []string{"x", "W"}, out: []string{"z"}},
			{op: "ArgMax", in: []string{"z"}, out: []string{"a", "y"}, i: map[string]int64{"axis": 1}},
		}, w, "unsupported op ArgMax"},
	} {
		_, err := ParseONNX(buildONNX(2, c.nodes, c.inits))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: got %v, want an error with %q", c.name, err, c.want)
		}
	}
}
