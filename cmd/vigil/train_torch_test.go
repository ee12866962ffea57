package main

import (
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

// systemPython is Debian's Python, for which python3-torch and
// python3-onnx are packaged (the python3 first on PATH may be another).
const systemPython = "/usr/bin/python3"

// TestTrainTorch runs python/train_torch.py, the loop jani_env users run:
// a PyTorch policy trained through vigil env on specs/cliff.spec, exported
// with torch.onnx.export, then verified by polic3 and bfs and its
// probabilities computed by vigil prob (the script fails when the engines
// disagree or a verdict contradicts the probability). The test also checks
// the exact Pr(reach unsafe) and Pr(reach goal), averaged over the start
// states, against the script's 400 simulated episodes through vigil env.
// It skips when /usr/bin/python3 cannot import torch and onnx.
func TestTrainTorch(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a network for about 10 s; skipped with -short")
	}
	if err := exec.Command(systemPython, "-c", "import torch, onnx").Run(); err != nil {
		t.Skipf("%s cannot import torch and onnx (%v): apt-get install python3-torch python3-onnx", systemPython, err)
	}
	if _, err := exec.LookPath("vigil"); err != nil {
		t.Fatalf("the test binary's vigil is not on PATH: %v", err)
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "cliff.onnx")
	cmd := exec.Command(systemPython, "python/train_torch.py", out)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "VIGIL=vigil", "PYTHONDONTWRITEBYTECODE=1") // no __pycache__ in the tree
	text, err := cmd.CombinedOutput()
	t.Logf("%s", text)
	if err != nil {
		t.Fatalf("python/train_torch.py: %v", err)
	}
	sum := regexp.MustCompile(`summary: polic3 (safe|unsafe), bfs (safe|unsafe), Pr\(reach unsafe\) average (\S+), Pr\(reach goal\) average (\S+) \(simulated: fell (\S+), goal (\S+)\)`).FindSubmatch(text)
	if sum == nil {
		t.Fatal("no summary line")
	}
	num := func(i int) float64 {
		f, err := strconv.ParseFloat(string(sum[i]), 64)
		if err != nil {
			t.Fatalf("summary field %q: %v", sum[i], err)
		}
		return f
	}
	// 400 episodes from start states drawn uniformly: the frequencies are
	// binomial around the exact averages (4.5 standard deviations, plus
	// the printed values' rounding).
	const n = 400
	for _, c := range []struct {
		what        string
		exact, freq float64
	}{{"fell", num(3), num(5)}, {"goal", num(4), num(6)}} {
		tol := 4.5*math.Sqrt(c.exact*(1-c.exact)/n) + 2e-3
		if math.Abs(c.exact-c.freq) > tol {
			t.Errorf("%s: exact average %.6g, simulated %.3f: off by more than %.3g", c.what, c.exact, c.freq, tol)
		}
	}
}
