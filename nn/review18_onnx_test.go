package nn

import (
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// TestReview18ExternalData: an ONNX tensor whose values lie in another
// file (onnx.save_model(..., save_as_external_data=True): data_location
// EXTERNAL, the file named in external_data) was read as a tensor of no
// values, refused as "0 values for shape [3 2]", which does not say what
// is wrong. Now the refusal names the external file and how to save the
// model with its tensors inside.
func TestReview18ExternalData(t *testing.T) {
	mm := []onnxTestNode{{op: "MatMul", in: []string{"x", "W"}, out: []string{"y"}}}
	b := withInitializer(t, buildONNX(3, mm, nil), "W", []int64{3, 2}, 1, nil)
	// add the external fields to the initializer (the graph's last field)
	num, _, n := protowire.ConsumeTag(b)
	g, _ := protowire.ConsumeBytes(b[n:])
	if num != 7 {
		t.Fatal("buildONNX's model does not start with its graph")
	}
	var head, init []byte
	for rest := g; len(rest) > 0; {
		num, typ, n := protowire.ConsumeTag(rest)
		m := protowire.ConsumeFieldValue(num, typ, rest[n:])
		if n < 0 || m < 0 {
			t.Fatal("cannot read buildONNX's graph")
		}
		if num == 5 && len(rest) == n+m {
			init, _ = protowire.ConsumeBytes(rest[n:])
		} else {
			head = append(head, rest[:n+m]...)
		}
		rest = rest[n+m:]
	}
	if init == nil {
		t.Fatal("no initializer at the graph's end")
	}
	entry := protowire.AppendTag(nil, 1, protowire.BytesType)
	entry = protowire.AppendBytes(entry, []byte("location"))
	entry = protowire.AppendTag(entry, 2, protowire.BytesType)
	entry = protowire.AppendBytes(entry, []byte("w.data"))
	init = append([]byte(nil), init...)
	init = protowire.AppendTag(init, 13, protowire.BytesType)
	init = protowire.AppendBytes(init, entry)
	init = protowire.AppendTag(init, 14, protowire.VarintType)
	init = protowire.AppendVarint(init, 1)
	head = protowire.AppendTag(head, 5, protowire.BytesType)
	head = protowire.AppendBytes(head, init)
	out := protowire.AppendTag(nil, 7, protowire.BytesType)
	out = protowire.AppendBytes(out, head)
	parseOrRefused(t, "external data", out, `tensor "W" keeps its values in an external file ("w.data")`)
}
