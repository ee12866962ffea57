package nn

import (
	"math"
	"strings"
	"testing"
)

// TestReview16ColumnBroadcast: a constant of shape n x 1 added to (or
// multiplying) the 1 x n data row broadcasts it to an n x n matrix, as
// PyTorch's x + c does for a buffer c of shape (n, 1). vigil read it as
// an element-wise constant and evaluated a network of n x m outputs as one
// of m (silently wrong scores); it is refused now, naming the node, while
// the shapes [n] and [1, n] still act element by element.
func TestReview16ColumnBroadcast(t *testing.T) {
	gemm := onnxTestNode{op: "Gemm", in: []string{"h", "W", "B"}, out: []string{"y"}, i: map[string]int64{"transB": 1}}
	for _, op := range []string{"Add", "Mul", "Sub", "Div"} {
		for _, tc := range []struct {
			dims []float32
			ok   bool
		}{{[]float32{2, 1}, false}, {[]float32{1, 2}, true}, {[]float32{2}, true}, {[]float32{1, 1, 2}, true}, {[]float32{2, 1, 1}, false}} {
			inits := map[string][2][]float32{
				"C": {tc.dims, {2, 10}},
				"W": {{2, 2}, {1, -2, 0.5, 3}}, "B": {{2}, {0.25, -1}},
			}
			chain := []onnxTestNode{{op: op, in: []string{"x", "C"}, out: []string{"h"}}, gemm}
			net, err := ParseONNX(buildONNX(2, chain, inits))
			if !tc.ok {
				if err == nil || !strings.Contains(err.Error(), "broadcasts") || !strings.Contains(err.Error(), op) {
					t.Errorf("%s by a constant of shape %v: got %v, want a refusal naming the node", op, tc.dims, err)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s by a constant of shape %v: %v", op, tc.dims, err)
				continue
			}
			x := []float64{0.5, -0.25}
			h := make([]float64, 2)
			for i, c := range []float64{2, 10} {
				switch op {
				case "Add":
					h[i] = x[i] + c
				case "Sub":
					h[i] = x[i] - c
				case "Mul":
					h[i] = x[i] * c
				case "Div":
					h[i] = x[i] / c
				}
			}
			got := net.Eval(x)
			want := []float64{0.25 + h[0] - 2*h[1], -1 + 0.5*h[0] + 3*h[1]}
			for i := range want {
				if math.Abs(got[i]-want[i]) > 1e-12 {
					t.Errorf("%s by a constant of shape %v: output %d = %v, want %v", op, tc.dims, i, got[i], want[i])
				}
			}
		}
	}
}

// TestReview16ColumnData: PyTorch's softmax(W @ x.T, dim=-1) computes on
// the 3 x 1 column W x^T, so each softmax is over one element and every
// output is 1 (a tie: the first label wins). vigil ignored the data's
// transpose and took the softmax over the 3 scores, choosing another
// label. The data's layout is tracked now: a Softmax, or an element-wise
// constant of shape [n], on a column is refused; the same network that
// transposes back before its Softmax, or adds a constant of shape [3, 1]
// to the column, evaluates as PyTorch does.
func TestReview16ColumnData(t *testing.T) {
	inits := map[string][2][]float32{
		"W": {{3, 2}, {1, -2, 0.5, 3, 2, 1}}, "Bc": {{3, 1}, {0.5, -1, 2}}, "Br": {{3}, {0.5, -1, 2}},
	}
	tr := func(in, out string) onnxTestNode {
		return onnxTestNode{op: "Transpose", in: []string{in}, out: []string{out}}
	}
	node := func(op, a, b, out string) onnxTestNode {
		return onnxTestNode{op: op, in: []string{a, b}, out: []string{out}}
	}
	soft := onnxTestNode{op: "Softmax", in: []string{"h"}, out: []string{"y"}, i: map[string]int64{"axis": -1}}
	for _, tc := range []struct {
		name  string
		chain []onnxTestNode
		err   string
	}{
		{"softmax of W x^T", []onnxTestNode{tr("x", "xt"), node("MatMul", "W", "xt", "h"), soft}, "column"},
		{"Gemm(W, x, transB) then softmax", []onnxTestNode{{op: "Gemm", in: []string{"W", "x"}, out: []string{"h"}, i: map[string]int64{"transB": 1}}, soft}, "column"},
		{"W x^T plus a row constant", []onnxTestNode{tr("x", "xt"), node("MatMul", "W", "xt", "c"), node("Add", "c", "Br", "a"), tr("a", "h"), soft}, "broadcasts"},
		{"W x without the transpose", []onnxTestNode{node("MatMul", "W", "x", "h"), soft}, "takes a column"},
		{"W x^T plus a column constant, transposed back", []onnxTestNode{tr("x", "xt"), node("MatMul", "W", "xt", "c"), node("Add", "c", "Bc", "a"), tr("a", "h"), soft}, ""},
	} {
		net, ok := parseOrRefused(t, tc.name, buildONNX(2, tc.chain, inits), tc.err)
		if !ok {
			continue
		}
		x := []float64{0.5, -0.25}
		z := []float64{0.5 + x[0] - 2*x[1], -1 + 0.5*x[0] + 3*x[1], 2 + 2*x[0] + x[1]}
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

// parseOrRefused parses an ONNX network that must load (wantErr "") or be
// refused with an error mentioning wantErr; ok says there is a network to
// evaluate.
func parseOrRefused(t *testing.T, name string, data []byte, wantErr string) (*Network, bool) {
	t.Helper()
	net, err := ParseONNX(data)
	if wantErr != "" {
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Errorf("%s: got %v, want a refusal mentioning %q", name, err, wantErr)
		}
		return nil, false
	}
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return nil, false
	}
	return net, true
}
