package nn

import "testing"

// TestS27nUnsupportedTypeNamed: a weight of a data type vigil does not
// read (float16 from a half-precision export, bfloat16, uint32) is refused
// with the type's name and what to do, not only its ONNX number.
func TestS27nUnsupportedTypeNamed(t *testing.T) {
	mm := []onnxTestNode{{op: "MatMul", in: []string{"x", "W"}, out: []string{"y"}}}
	for dt, name := range map[uint64]string{10: "(FLOAT16)", 16: "(BFLOAT16)", 12: "(UINT32)", 99: "(unknown)"} {
		b := withInitializer(t, buildONNX(3, mm, nil), "W", []int64{3, 2}, dt, []uint64{1, 2, 3, 4, 5, 6})
		parseOrRefused(t, "type "+name, b, name+" is not supported")
		parseOrRefused(t, "type "+name, b, "model.float()")
	}
}
