package nn

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// TestLoadAgainstPyTorch evaluates the fixtures written by
// testdata/make_fixtures.py and compares with PyTorch's outputs.
func TestLoadAgainstPyTorch(t *testing.T) {
	b, err := os.ReadFile("testdata/expected.json")
	if err != nil {
		t.Fatal(err)
	}
	var exp map[string]struct{ Inputs, Outputs [][]float64 }
	if err := json.Unmarshal(b, &exp); err != nil {
		t.Fatal(err)
	}
	if len(exp) < 4 {
		t.Fatalf("expected.json has %d fixtures, want 4", len(exp))
	}
	for name, e := range exp {
		n, err := Load(filepath.Join("testdata", name))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		for k, x := range e.Inputs {
			y := n.Eval(x)
			for j := range y {
				if d := math.Abs(y[j] - e.Outputs[k][j]); d > 1e-5*(1+math.Abs(y[j])) {
					t.Errorf("%s: input %v: output %d = %v, PyTorch %v", name, x, j, y[j], e.Outputs[k][j])
				}
			}
		}
	}
}

// TestRoundTrip writes networks as JSON and NNet and reads them back.
func TestRoundTrip(t *testing.T) {
	n, err := Load("testdata/nnet.nnet")
	if err != nil {
		t.Fatal(err)
	}
	js, err := json.Marshal(n)
	if err != nil {
		t.Fatal(err)
	}
	nj, err := ParseJSON(js)
	if err != nil {
		t.Fatal(err)
	}
	nb, err := WriteNNet(n)
	if err != nil {
		t.Fatal(err)
	}
	nn2, err := ParseNNet(nb)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range [][]float64{{0, 0}, {-3, 5}, {0.3, 1.7}} {
		a, b, c := n.Eval(x), nj.Eval(x), nn2.Eval(x)
		for i := range a {
			if a[i] != b[i] || a[i] != c[i] {
				t.Errorf("at %v: %v, JSON %v, NNet %v", x, a, b, c)
			}
		}
	}
}

func TestLoadErrors(t *testing.T) {
	for _, c := range []struct{ file, content, want string }{
		{"a.json", `{"format":"vigil-nn","version":1,"layers":[{"weights":[[1,2]],"bias":[0,1]}]}`, "2 weights and 2 biases"},
		{"a.json", `{"format":"vigil-nn","version":1,"layers":[{"weights":[[1,2]],"bias":[0]},{"weights":[[1,2,3]],"bias":[0]}]}`, "does not match input"},
		{"a.json", `{"format":"vigil-nn","version":1,"layers":[{"weights":[[1]],"bias":[0],"activation":"gelu"}]}`, `activation "gelu"`},
		{"a.json", `{"format":"vigil-nn","version":1,"layers":[{"weights":[[1]],"bias":[0],"activation":"tanh","slope":0.1}]}`, `"slope" is for`},
		{"a.json", `{"format":"vigil-nn","version":1,"layers":[{"weights":[[1]],"bias":[0],"activation":"leaky_relu","slope":2}]}`, `slope 2`},
		{"a.json", `{"format":"vigil-nn","version":1,"layers":[{"weights":[[1]],"bias":[0]}],"output":"argmax"}`, `output "argmax"`},
		{"a.json", `{"format":"keras"}`, "vigil-nn"},
		{"a.nnet", "2,2,3,3,\n2,1,3,\n0,\n", "truncated"},
		{"a.nnet", "1,1,1,1,\n1,1,\n0,\n0,\n1,\n0,0,\n1,1,\n1,\nnan,\n", "not finite"},
		{"a.onnx", "\x3a\x05garbage", "not an ONNX model"},
	} {
		dir := t.TempDir()
		p := filepath.Join(dir, c.file)
		os.WriteFile(p, []byte(c.content), 0o644)
		_, err := Load(p)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "nn: ") {
			t.Errorf("%s %q: got error %v, want one containing %q", c.file, c.content, err, c.want)
		}
	}
}

// TestUnsupportedOp: the error names the op and the node, and lists the
// ops vigil reads.
func TestUnsupportedOp(t *testing.T) {
	b, err := os.ReadFile("testdata/gemm.onnx")
	if err != nil {
		t.Fatal(err)
	}
	// Rename the first Relu node's op type (field 4, length 4) to Celu.
	i := strings.Index(string(b), "\x22\x04Relu") + 2
	if i < 2 {
		t.Fatal("no Relu in gemm.onnx")
	}
	bad := append([]byte(nil), b...)
	copy(bad[i:], "Celu")
	_, err = ParseONNX(bad)
	if err == nil || !strings.Contains(err.Error(), "unsupported op Celu") || !strings.Contains(err.Error(), "node") || !strings.Contains(err.Error(), SupportedONNXOps) {
		t.Errorf("got %v, want an error naming op Celu and its node, listing the supported ops", err)
	}
}

// onnxNode is a node of a hand-built ONNX graph: op, input and output
// tensor names, and float or int attributes.
type onnxTestNode struct {
	op      string
	in, out []string
	f       map[string]float32
	i       map[string]int64
}

// buildONNX writes an ONNX model from Go: a graph with one input x of
// width nin, the given nodes and float initializers (name -> dims,
// values), and output y.
func buildONNX(nin int, nodes []onnxTestNode, inits map[string][2][]float32) []byte {
	bytesField := func(b []byte, num protowire.Number, v []byte) []byte {
		b = protowire.AppendTag(b, num, protowire.BytesType)
		return protowire.AppendBytes(b, v)
	}
	str := func(b []byte, num protowire.Number, s string) []byte { return bytesField(b, num, []byte(s)) }
	valueInfo := func(name string, dims ...int) []byte {
		var shape []byte
		for _, d := range dims {
			var dim []byte
			dim = protowire.AppendTag(dim, 1, protowire.VarintType)
			dim = protowire.AppendVarint(dim, uint64(d))
			shape = bytesField(shape, 1, dim)
		}
		var tensor []byte
		tensor = protowire.AppendTag(tensor, 1, protowire.VarintType)
		tensor = protowire.AppendVarint(tensor, 1)
		tensor = bytesField(tensor, 2, shape)
		var vi []byte
		vi = str(vi, 1, name)
		return bytesField(vi, 2, bytesField(nil, 1, tensor))
	}
	var g []byte
	for _, n := range nodes {
		var nb []byte
		for _, in := range n.in {
			nb = str(nb, 1, in)
		}
		for _, o := range n.out {
			nb = str(nb, 2, o)
		}
		nb = str(nb, 3, n.op+"_"+n.out[0])
		nb = str(nb, 4, n.op)
		for k, v := range n.f {
			var a []byte
			a = str(a, 1, k)
			a = protowire.AppendTag(a, 2, protowire.Fixed32Type)
			a = protowire.AppendFixed32(a, math.Float32bits(v))
			nb = bytesField(nb, 5, a)
		}
		for k, v := range n.i {
			var a []byte
			a = str(a, 1, k)
			a = protowire.AppendTag(a, 3, protowire.VarintType)
			a = protowire.AppendVarint(a, uint64(v))
			nb = bytesField(nb, 5, a)
		}
		g = bytesField(g, 1, nb)
	}
	for name, t := range inits {
		var tb []byte
		for _, d := range t[0] {
			tb = protowire.AppendTag(tb, 1, protowire.VarintType)
			tb = protowire.AppendVarint(tb, uint64(d))
		}
		tb = protowire.AppendTag(tb, 2, protowire.VarintType)
		tb = protowire.AppendVarint(tb, 1)
		for _, v := range t[1] {
			tb = protowire.AppendTag(tb, 4, protowire.Fixed32Type)
			tb = protowire.AppendFixed32(tb, math.Float32bits(v))
		}
		tb = str(tb, 8, name)
		g = bytesField(g, 5, tb)
	}
	g = bytesField(g, 11, valueInfo("x", 1, nin))
	g = bytesField(g, 12, valueInfo("y"))
	return bytesField(nil, 7, g)
}

// TestHandBuiltActivations builds ONNX graphs in Go (so that the loader
// is tested on Tanh networks without PyTorch): a Gemm-Tanh-Gemm-Sigmoid-
// Gemm-LeakyRelu-Gemm-Softmax chain evaluates as its definition says, and
// misplaced or malformed ops are refused with the node named.
func TestHandBuiltActivations(t *testing.T) {
	inits := map[string][2][]float32{
		"W1": {{2, 2}, {1, -2, 0.5, 3}}, "B1": {{2}, {0.25, -1}},
		"W2": {{2, 2}, {-1, 1, 2, 0.5}}, "B2": {{2}, {0, 0.5}},
		"W3": {{2, 2}, {3, -1, 1, 1}}, "B3": {{2}, {-2, 0}},
		"W4": {{3, 2}, {1, 2, -1, 0.5, 0, 1}}, "B4": {{3}, {0, 1, -1}},
	}
	gemm := func(in, w, b, out string) onnxTestNode {
		return onnxTestNode{op: "Gemm", in: []string{in, w, b}, out: []string{out}, i: map[string]int64{"transB": 1}}
	}
	chain := []onnxTestNode{
		gemm("x", "W1", "B1", "h1"), {op: "Tanh", in: []string{"h1"}, out: []string{"a1"}},
		gemm("a1", "W2", "B2", "h2"), {op: "Sigmoid", in: []string{"h2"}, out: []string{"a2"}},
		gemm("a2", "W3", "B3", "h3"), {op: "LeakyRelu", in: []string{"h3"}, out: []string{"a3"}, f: map[string]float32{"alpha": 0.125}},
		gemm("a3", "W4", "B4", "z"), {op: "Softmax", in: []string{"z"}, out: []string{"y"}, i: map[string]int64{"axis": -1}},
	}
	net, err := ParseONNX(buildONNX(2, chain, inits))
	if err != nil {
		t.Fatal(err)
	}
	x := []float64{0.7, -1.3}
	h := func(w, b []float32, x []float64) []float64 {
		y := make([]float64, len(b))
		for i := range y {
			s := float64(b[i])
			for j := range x {
				s += float64(float64(w[i*len(x)+j]) * x[j])
			}
			y[i] = s
		}
		return y
	}
	a := h(inits["W1"][1], inits["B1"][1], x)
	for i := range a {
		a[i] = math.Tanh(a[i])
	}
	a = h(inits["W2"][1], inits["B2"][1], a)
	for i := range a {
		a[i] = 1 / (1 + math.Exp(-a[i]))
	}
	a = h(inits["W3"][1], inits["B3"][1], a)
	for i := range a {
		if a[i] < 0 {
			a[i] *= 0.125
		}
	}
	z := h(inits["W4"][1], inits["B4"][1], a)
	m := max(z[0], z[1], z[2])
	s := 0.0
	for i := range z {
		z[i] -= m
		s += math.Exp(z[i])
	}
	got := net.Eval(x)
	for i := range z {
		if want := math.Exp(z[i]) / s; got[i] != want {
			t.Errorf("output %d: %v, want %v", i, got[i], want)
		}
	}

	bad := func(name string, nodes []onnxTestNode, want ...string) {
		t.Helper()
		_, err := ParseONNX(buildONNX(2, nodes, inits))
		for _, w := range want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("%s: got %v, want an error containing %q", name, err, w)
			}
		}
	}
	bad("Softmax before a layer", []onnxTestNode{
		gemm("x", "W1", "B1", "h1"), {op: "Softmax", in: []string{"h1"}, out: []string{"s"}},
		gemm("s", "W4", "B4", "y")}, `node "Gemm_y" (Gemm) follows the network's softmax`, "only as the last op")
	bad("Softmax over axis 0", []onnxTestNode{
		gemm("x", "W1", "B1", "h1"), {op: "Softmax", in: []string{"h1"}, out: []string{"y"}, i: map[string]int64{"axis": 0}}},
		`node "Softmax_y" (Softmax): axis 0`)
	bad("LeakyRelu alpha 2", []onnxTestNode{
		gemm("x", "W1", "B1", "h1"), {op: "LeakyRelu", in: []string{"h1"}, out: []string{"y"}, f: map[string]float32{"alpha": 2}}},
		`node "LeakyRelu_y" (LeakyRelu): alpha 2`)
	bad("Elu", []onnxTestNode{
		gemm("x", "W1", "B1", "h1"), {op: "Elu", in: []string{"h1"}, out: []string{"y"}}},
		`node "Elu_y" (Elu): unsupported op Elu; vigil reads Gemm`, "Tanh, Sigmoid")
}

// TestCorpusNetworksLoad loads every network of the external corpus.
func TestCorpusNetworksLoad(t *testing.T) {
	dir := "../../shared/corpus"
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("external corpus %s absent: %v", dir, err)
	}
	files, _ := filepath.Glob(dir + "/nn/vnncomp/onnx/*.onnx")
	more, _ := filepath.Glob(dir + "/jani/plaja/*.nnet")
	for _, f := range append(files, more...) {
		if _, err := Load(f); err != nil {
			t.Errorf("%v", err)
		}
	}
}

// TestTruncatedNetworks: a network file cut short anywhere is an error,
// never a smaller network that loads.
func TestTruncatedNetworks(t *testing.T) {
	for _, c := range []struct {
		file  string
		parse func([]byte) (*Network, error)
		step  int
	}{
		{"testdata/gemm.onnx", ParseONNX, 1},
		{"testdata/matmul.onnx", ParseONNX, 1},
		{"testdata/nnet.nnet", ParseNNet, 1},
	} {
		data, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		full, err := c.parse(data)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < len(data); i += c.step {
			n, err := c.parse(data[:i])
			if err == nil && !reflect.DeepEqual(n, full) {
				t.Errorf("%s cut after %d of %d bytes loads as a different network", c.file, i, len(data))
			}
		}
	}
}
