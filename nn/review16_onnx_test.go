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
