package nn

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
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
		{"a.json", `{"format":"vigil-nn","version":1,"layers":[{"weights":[[1]],"bias":[0],"activation":"tanh"}]}`, `activation "tanh"`},
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

// TestUnsupportedOp: the error names the op and the node.
func TestUnsupportedOp(t *testing.T) {
	b, err := os.ReadFile("testdata/gemm.onnx")
	if err != nil {
		t.Fatal(err)
	}
	// Rename the first Relu node's op type (field 4, length 4) to Tanh.
	i := strings.Index(string(b), "\x22\x04Relu") + 2
	if i < 2 {
		t.Fatal("no Relu in gemm.onnx")
	}
	bad := append([]byte(nil), b...)
	copy(bad[i:], "Tanh")
	_, err = ParseONNX(bad)
	if err == nil || !strings.Contains(err.Error(), "unsupported op Tanh") || !strings.Contains(err.Error(), "node") {
		t.Errorf("got %v, want an error naming op Tanh and its node", err)
	}
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
