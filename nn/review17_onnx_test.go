package nn

import (
	"fmt"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// withInitializer returns the model b (as buildONNX writes it: one graph
// field) with one more initializer: name, dims, ONNX data type dtype and
// the values in int32_data, as onnx.helper.make_tensor stores float16,
// bfloat16, int8, uint8, int16, uint16 and bool tensors.
func withInitializer(t *testing.T, b []byte, name string, dims []int64, dtype uint64, int32Data []uint64) []byte {
	t.Helper()
	num, typ, n := protowire.ConsumeTag(b)
	if num != 7 || typ != protowire.BytesType {
		t.Fatal("buildONNX's model does not start with its graph")
	}
	g, m := protowire.ConsumeBytes(b[n:])
	if m < 0 {
		t.Fatal("cannot read buildONNX's graph")
	}
	var tb []byte
	for _, d := range dims {
		tb = protowire.AppendTag(tb, 1, protowire.VarintType)
		tb = protowire.AppendVarint(tb, uint64(d))
	}
	tb = protowire.AppendTag(tb, 2, protowire.VarintType)
	tb = protowire.AppendVarint(tb, dtype)
	for _, v := range int32Data {
		tb = protowire.AppendTag(tb, 5, protowire.VarintType)
		tb = protowire.AppendVarint(tb, v)
	}
	tb = protowire.AppendTag(tb, 8, protowire.BytesType)
	tb = protowire.AppendBytes(tb, []byte(name))
	g = append([]byte(nil), g...)
	g = protowire.AppendTag(g, 5, protowire.BytesType)
	g = protowire.AppendBytes(g, tb)
	out := protowire.AppendTag(nil, 7, protowire.BytesType)
	return protowire.AppendBytes(out, g)
}

// TestReview17Float16Weights: a float16 tensor kept in int32_data (as
// onnx.helper.make_tensor writes it, not as raw bytes) holds bit
// patterns; vigil read them as integers, so x @ W with W = [[1, 0.5],
// [-2, 0.25], [0, 1]] evaluated to (64512, 43008) at x = (1, 1, 1)
// where onnx's reference gives (-1, 1.75). Now such a tensor is refused
// (bfloat16 too), while int8 and bool tensors in int32_data are read as
// the integers they are.
func TestReview17Float16Weights(t *testing.T) {
	mm := []onnxTestNode{{op: "MatMul", in: []string{"x", "W"}, out: []string{"y"}}}
	fp16 := []uint64{15360, 14336, 49152, 13312, 0, 15360} // 1, 0.5, -2, 0.25, 0, 1
	for _, dt := range []uint64{10, 16} {
		b := withInitializer(t, buildONNX(3, mm, nil), "W", []int64{3, 2}, dt, fp16)
		parseOrRefused(t, "float16 weights", b, "data type")
	}
	// int8 (3): -2 is stored as its int32 value, a varint of 64 bits.
	minus2 := uint64(1<<64 - 2)
	b := withInitializer(t, buildONNX(3, mm, nil), "W", []int64{3, 2}, 3, []uint64{1, 0, minus2, 3, 0, 1})
	net, ok := parseOrRefused(t, "int8 weights", b, "")
	if !ok {
		return
	}
	got := net.Eval([]float64{1, 1, 1})
	if len(got) != 2 || got[0] != -1 || got[1] != 4 {
		t.Errorf("int8 weights: x @ W at (1, 1, 1) = %v, want [-1 4]", got)
	}
}

// TestReview17GemmBiasShape: Gemm's C must broadcast to the result (1 x
// m for a row times W): a bias of shape [m, 1] added to a 1 x m row
// makes an m x m matrix (ONNX does not allow it; numpy would compute
// it), which vigil read as one bias per output. Now refused; [m] and
// [1, m] still read.
func TestReview17GemmBiasShape(t *testing.T) {
	gemm := []onnxTestNode{{op: "Gemm", in: []string{"x", "W", "C"}, out: []string{"y"}}}
	w := []float32{1, 0, 0, 1, 1, 1}
	for _, tc := range []struct {
		dims []float32
		err  string
	}{
		{[]float32{2, 1}, "does not broadcast"},
		{[]float32{2}, ""},
		{[]float32{1, 2}, ""},
		{[]float32{1}, ""},
	} {
		c := []float32{10, 20}
		if len(tc.dims) == 1 && tc.dims[0] == 1 {
			c = []float32{10}
		}
		b := buildONNX(3, gemm, map[string][2][]float32{"W": {{3, 2}, w}, "C": {tc.dims, c}})
		net, ok := parseOrRefused(t, fmt.Sprintf("bias of shape %v", tc.dims), b, tc.err)
		if !ok {
			continue
		}
		got := net.Eval([]float64{1, 2, 3})
		want := []float64{4 + float64(c[0]), 5 + float64(c[len(c)-1])}
		if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
			t.Errorf("bias of shape %v: got %v, want %v", tc.dims, got, want)
		}
	}
}
