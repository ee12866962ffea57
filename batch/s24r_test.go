package batch

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// s24r: a program (not vigil) whose output is larger than the batch reads
// whole (a solver's log of more than 64 MiB, then its answer on the last
// line) lost its answer: the run counted as unknown (unsolved) where it
// had answered. Its last line is read from the end of the file; a last
// line that does not start within the part read is no answer (its
// suffix could look like one).
func TestS24rLargeProgramOutputKeepsItsVerdict(t *testing.T) {
	defer func(m int64) { maxStdout = m }(maxStdout)
	maxStdout = 200
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "m.spec"), nil, 0o644)
	src := `name = "large"
[[algorithms]]
name = "peer"
program = "sh"
args = ["-c", "true"]
verdicts = { UNSAT = "safe", SAT = "unsafe" }
[[instances]]
domain = "d"
models = ["m.spec"]
`
	os.WriteFile(filepath.Join(dir, "exp.toml"), []byte(src), 0o644)
	x, err := Load(filepath.Join(dir, "exp.toml"))
	if err != nil {
		t.Fatal(err)
	}
	r := x.Runs[0]
	os.MkdirAll(x.RunDir(r), 0o755)
	log := strings.Repeat("c conflicts 12345 learnt 678\n", 100)
	for _, c := range []struct {
		out     string
		verdict any
		err     string
	}{
		{log + "UNSAT\n", "safe", "success"},
		{log + "SAT\r\n\n", "unsafe", "success"},
		{log + "c still searching\n", nil, "unknown"},
		// one line of 70 KiB ending in "SAT": its start is not read
		{strings.Repeat("x", 70<<10) + " SAT\n", nil, "unknown"},
	} {
		os.WriteFile(filepath.Join(x.RunDir(r), "stdout"), []byte(c.out), 0o644)
		os.WriteFile(filepath.Join(x.RunDir(r), "stderr"), nil, 0o644)
		p := x.properties(r, outcome{exitCode: 0}, nil)
		if p["verdict"] != c.verdict || p["error"] != c.err {
			t.Errorf("output of %d bytes ending %q: verdict %v, error %v; want %v, %v", len(c.out), c.out[len(c.out)-8:], p["verdict"], p["error"], c.verdict, c.err)
		}
	}
}
