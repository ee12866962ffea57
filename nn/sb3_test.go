package nn_test

import (
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"vigil/nn"
)

// needTorch skips the test where Debian's python3-torch and python3-onnx
// are not installed.
func needTorch(t *testing.T) {
	t.Helper()
	if err := exec.Command("/usr/bin/python3", "-c", "import torch, onnx").Run(); err != nil {
		t.Skip("python3-torch and python3-onnx are not installed (apt-get install python3-torch python3-onnx): tools/sb3_to_onnx.py is not tested")
	}
}

// TestSB3ToONNX converts an archive with SB3's layout (nn/testdata/
// fake_sb3.py: a Tanh actor, a value head, two constants before the
// variables in the observation) with tools/sb3_to_onnx.py and checks that
// vigil's evaluation of the result matches torch's float64 evaluation of
// the original actor on the full observation, and that a wrong number of
// labels is refused with a message that says why.
func TestSB3ToONNX(t *testing.T) {
	needTorch(t)
	dir := t.TempDir()
	run := func(args ...string) (string, error) {
		out, err := exec.Command("/usr/bin/python3", args...).CombinedOutput()
		return string(out), err
	}
	if out, err := run("testdata/fake_sb3.py", dir); err != nil {
		t.Fatalf("fake_sb3.py: %v\n%s", err, out)
	}
	onnx := filepath.Join(dir, "actor.onnx")
	out, err := run("../tools/sb3_to_onnx.py", filepath.Join(dir, "model.zip"), onnx,
		"--constants", "3,-5", "--labels", "a,b,c,d", "--vars", "x,y,z")
	if err != nil {
		t.Fatalf("sb3_to_onnx.py: %v\n%s", err, out)
	}
	for _, want := range []string{"2 constants folded", "tanh", "dropped, not part of the actor: mlp_extractor.value_net, value_net", "outputs a, b, c, d"} {
		if !strings.Contains(out, want) {
			t.Errorf("the converter's report lacks %q:\n%s", want, out)
		}
	}
	net, err := nn.LoadONNX(onnx)
	if err != nil {
		t.Fatal(err)
	}
	if net.Inputs() != 3 || net.Outputs() != 4 || len(net.Layers) != 3 || net.Layers[0].Act != nn.ActTanh || net.Layers[1].Act != nn.ActTanh || net.Layers[2].Act != nn.ActLinear {
		t.Fatalf("loaded %d inputs, %d outputs, %d layers; want a 3-16-16-4 Tanh network", net.Inputs(), net.Outputs(), len(net.Layers))
	}
	b, err := os.ReadFile(filepath.Join(dir, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var exp struct{ Inputs, Outputs [][]float64 }
	if err := json.Unmarshal(b, &exp); err != nil {
		t.Fatal(err)
	}
	for k, x := range exp.Inputs {
		y := net.Eval(x)
		for j := range y {
			if d := math.Abs(y[j] - exp.Outputs[k][j]); d > 1e-12 {
				t.Errorf("input %v output %d: vigil %v, torch %v", x, j, y[j], exp.Outputs[k][j])
			}
		}
	}

	out, err = run("../tools/sb3_to_onnx.py", filepath.Join(dir, "model.zip"), filepath.Join(dir, "bad.onnx"), "--labels", "a,b,c")
	if err == nil || !strings.Contains(out, "the actor has 4 outputs") || !strings.Contains(out, "3 labels were given") {
		t.Errorf("three labels for four outputs: %v\n%s", err, out)
	}
	out, err = run("../tools/sb3_to_onnx.py", filepath.Join(dir, "model.zip"), filepath.Join(dir, "bad.onnx"), "--activation", "relu")
	if err == nil || !strings.Contains(out, "policy_kwargs name tanh") {
		t.Errorf("--activation relu for a Tanh archive: %v\n%s", err, out)
	}
}
