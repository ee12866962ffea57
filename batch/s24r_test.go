package batch

import (
	"context"
	"encoding/json"
	"fmt"
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
	x := loadOneModel(t, peerSource("large", "true", `{ UNSAT = "safe", SAT = "unsafe" }`, "", ""))
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

// s24r: {run_dir} was the run's directory relative to the experiment's
// only when both were given the same way (both relative, or both
// absolute). With the experiment file given absolute and --data relative
// (to the working directory), the program, run in the experiment's
// directory, got data/runs/... and read another directory: an earlier
// attempt's question there was answered as this run's. With the file
// given relative and the data absolute, the command recorded differed
// from the same experiment's given absolute: its runs were stale, and the
// report refused them.
func TestS24rRunDirWhicheverWayGiven(t *testing.T) {
	root := t.TempDir()
	exp, cwd := filepath.Join(root, "exp"), filepath.Join(root, "cwd")
	os.MkdirAll(exp, 0o755)
	os.MkdirAll(cwd, 0o755)
	os.WriteFile(filepath.Join(exp, "m.spec"), nil, 0o644)
	src := peerSource("rd", "if [ -e {run_dir}/q ]; then echo sat; else echo none; fi", `{ sat = "safe", none = "no-question" }`, "", "")
	os.WriteFile(filepath.Join(exp, "e.toml"), []byte(src), 0o644)
	// the question of another experiment's run, where the wrong path led
	os.MkdirAll(filepath.Join(exp, "data", "runs", "peer", "d", "m"), 0o755)
	os.WriteFile(filepath.Join(exp, "data", "runs", "peer", "d", "m", "q"), []byte("x"), 0o644)
	t.Chdir(cwd)
	load := func(file, data string) *Experiment {
		t.Helper()
		x, err := Load(file)
		if err != nil {
			t.Fatal(err)
		}
		x.Data = data
		return x
	}
	x := load(filepath.Join(exp, "e.toml"), "data")
	t.Setenv("VIGIL_BATCH_HELPER", "1")
	if _, err := x.Execute(context.Background(), Options{Self: self()}); err != nil {
		t.Fatal(err)
	}
	r := x.Runs[0]
	p, err := x.Properties(r)
	if err != nil || p["verdict"] != "no-question" {
		t.Errorf("verdict %v (%v), want no-question: the program read another directory's question", p["verdict"], err)
	}
	// The same experiment and data directory, named every way, are the
	// same command: none of its runs is stale.
	abs := filepath.Join(cwd, "data")
	t.Chdir(exp)
	for _, c := range [][2]string{{"e.toml", abs}, {filepath.Join(exp, "e.toml"), abs}, {"e.toml", "../cwd/data"}, {filepath.Join(exp, "e.toml"), "../cwd/data"}} {
		y := load(c[0], c[1])
		if y.stale(y.Runs[0], p) {
			t.Errorf("experiment %s with data %s: its run is stale (command %v, recorded %v)", c[0], c[1], y.command(y.Runs[0]), p["command"])
		}
	}
	// A command recorded with the run's directory absolute (as it was
	// when the file was given relative and the data absolute) is the same.
	q := map[string]any{}
	for k, v := range p {
		q[k] = v
	}
	q["command"] = []any{"sh", "-c", "if [ -e " + filepath.Join(abs, "runs", "peer", "d", "m") + "/q ]; then echo sat; else echo none; fi"}
	if y := load("e.toml", abs); y.stale(y.Runs[0], q) {
		t.Errorf("the command recorded with the absolute run directory is stale")
	}
	q["command"] = []any{"sh", "-c", "if [ -e elsewhere/q ]; then echo sat; else echo none; fi"}
	if y := load("e.toml", abs); !y.stale(y.Runs[0], q) {
		t.Errorf("a command naming another directory is not stale")
	}
}

// s24r: a number in a filter was compared as a float64: an instance's
// integer attribute seed = 9007199254740993 and the filter
// seed=9007199254740992 both round to 2^53, so the filter kept the runs
// of both seeds. Integers are compared exactly (1e6 still writes
// 1000000); floats read from a run's JSON as they were read.
func TestS24rFilterIntegersExactly(t *testing.T) {
	p := map[string]any{"seed": int64(9007199254740993), "size": int64(1000000), "t": 0.1, "n": json.Number("9007199254740993")}
	for _, c := range []struct {
		filter string
		keep   bool
	}{
		{"seed=9007199254740992", false}, {"seed=9007199254740993", true}, {"seed=9.007199254740993e15", true},
		{"seed=9.007199254740992e15", false}, {"seed!=9007199254740992", true},
		{"size=1e6", true}, {"size=1000000.0", true}, {"size=1e999999999", false}, {"size=1000000.5", false},
		{"t=0.1", true}, {"t=0.10", true}, {"t=1e-1", true},
		{"n=9007199254740992", false}, {"n=9007199254740993", true},
	} {
		f, err := ParseFilter(c.filter)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.keep(p); got != c.keep {
			t.Errorf("%s keeps %v, want %v", c.filter, got, c.keep)
		}
	}
}

// s24r: batches of two experiments started together on one new data
// directory (data = "..." the same in both) could both go on: each wrote
// its identity by a rename, and one read its own back before the other's
// rename replaced it. The identity is written only where none is (a hard
// link), so the second reads the first's and refuses.
func TestS24rIdentityFirstWins(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	if err := writeNew(nil, path, []byte("first")); err != nil {
		t.Fatal(err)
	}
	if err := writeNew(nil, path, []byte("second")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "first" {
		t.Errorf("the file holds %q, want the first writer's", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("%d files left, want 1 (temporary files removed)", len(ents))
	}
	for i := range 30 {
		data := filepath.Join(t.TempDir(), "data")
		xs := []*Experiment{experiment(t, 1, "", "echo"), experiment(t, 1, "", "echo")}
		xs[1].Name = "other"
		errs := make(chan error, 2)
		for _, x := range xs {
			x.Data = data
			go func() { errs <- x.openData(true, nil) }()
		}
		if e1, e2 := <-errs, <-errs; e1 == nil && e2 == nil {
			t.Fatalf("try %d: two experiments both opened the data directory %s", i, data)
		}
	}
}

// s24r: verdicts refused "unknown" only as written: UNKNOWN = "UNKNOWN"
// (or a verdict "timeout") counted a run that gave up as solved, and a
// verdict "safe " disagreed with every other algorithm's "safe"; a line
// " sat" never matched the last line, read without its spaces.
func TestS24rVerdictSpellings(t *testing.T) {
	for _, c := range []struct{ verdicts, want string }{
		{`{ sat = "safe", UNKNOWN = "UNKNOWN" }`, `UNKNOWN = "UNKNOWN" is no verdict`},
		{`{ sat = "safe", timeout = "Timeout" }`, `timeout = "Timeout" is no verdict`},
		{`{ sat = "safe ", unsat = "unsafe" }`, `the verdict "safe " has spaces around it`},
		{`{ " sat" = "safe", unsat = "unsafe" }`, `the line " sat" has spaces around it`},
		{`{ sat = "safe", none = "no-question" }`, ``},
	} {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "m.spec"), nil, 0o644)
		src := "name = \"v\"\n[[algorithms]]\nname = \"z3\"\nprogram = \"z3\"\nargs = [\"q\"]\nverdicts = " + c.verdicts + "\n[[instances]]\ndomain = \"d\"\nmodels = [\"m.spec\"]\n"
		os.WriteFile(filepath.Join(dir, "e.toml"), []byte(src), 0o644)
		_, err := Load(filepath.Join(dir, "e.toml"))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("verdicts %s: %v", c.verdicts, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("verdicts %s: error %v, want one saying %s", c.verdicts, err, c.want)
		}
	}
}

// loadOneModel loads the experiment src, written as exp.toml in a new
// directory beside an empty model m.spec.
// peerSource is the source of the experiment name whose one algorithm,
// peer, runs sh -c script and reads its verdict with verdicts (a TOML
// inline table), on the one model m.spec of domain d; algoLines and
// instanceLines are added to the algorithm's and the instance's tables.
func peerSource(name, script, verdicts, algoLines, instanceLines string) string {
	return fmt.Sprintf("name = %q\n[[algorithms]]\nname = \"peer\"\n%sprogram = \"sh\"\nargs = [\"-c\", %q]\nverdicts = %s\n[[instances]]\ndomain = \"d\"\nmodels = [\"m.spec\"]\n%s",
		name, algoLines, script, verdicts, instanceLines)
}

func loadOneModel(t *testing.T, src string) *Experiment {
	t.Helper()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "m.spec"), nil, 0o644)
	os.WriteFile(filepath.Join(dir, "exp.toml"), []byte(src), 0o644)
	x, err := Load(filepath.Join(dir, "exp.toml"))
	if err != nil {
		t.Fatal(err)
	}
	return x
}
