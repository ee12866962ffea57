package batch

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// writeProps writes the properties of run id of x, as a batch would.
func writeProps(t *testing.T, x *Experiment, id string, p map[string]any) {
	t.Helper()
	if err := x.openData(true, nil); err != nil {
		t.Fatal(err)
	}
	for _, r := range x.Runs {
		if r.ID != id {
			continue
		}
		q := map[string]any{"id": []string{r.Algorithm, r.Domain, r.Problem}, "algorithm": r.Algorithm, "domain": r.Domain,
			"problem": r.Problem, "run_dir": "runs/" + r.ID}
		x.identify(r, q)
		for k, v := range p {
			q[k] = v
		}
		b, _ := json.Marshal(q)
		os.MkdirAll(x.RunDir(r), 0o755)
		if err := os.WriteFile(filepath.Join(x.RunDir(r), propertiesFile), b, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Fatalf("no run %s", id)
}

func solved(verdict string, time float64) map[string]any {
	return map[string]any{"error": "success", "coverage": 1, "verdict": verdict, "time": time}
}

func failed(outcome string, time float64) map[string]any {
	return map[string]any{"error": outcome, "coverage": 0, "time": time}
}

func markdown(t *testing.T, x *Experiment, o ReportOptions) string {
	t.Helper()
	rep, err := x.Fetch(o)
	if err != nil {
		t.Fatal(err)
	}
	var md strings.Builder
	rep.Markdown(&md)
	return md.String()
}

func wantLines(t *testing.T, md string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(md, w) {
			t.Errorf("report lacks %q:\n%s", w, md)
		}
	}
}

// Every kind of run that gave no verdict (timeout, out of memory, crash,
// unknown, bad input) costs twice the limit in PAR-2 and nothing in
// coverage; a wrong verdict is a verdict (the report flags the
// disagreement). The figures, by hand, with the limit 10 s:
//
//	a0: 1 + 2 + 20 + 20 = 43, coverage 2
//	a1: 3 + 20 + 4 + 20 = 47, coverage 2
//	a2: 20 + 20 + 20 + 0.5 = 60.5, coverage 1
//
// medians over the instances all three solved: none; ratio a1/a0 over
// m000 only (3/1), a2/a0: none decided by both.
func TestReview20bReportByHand(t *testing.T) {
	x := experiment(t, 4, "[limits]\ntime = \"10s\"", "echo", "echo x", "echo y")
	for id, p := range map[string]map[string]any{
		"a0/d/m000": solved("safe", 1), "a1/d/m000": solved("safe", 3), "a2/d/m000": failed("timeout", 10.2),
		"a0/d/m001": solved("unsafe", 2), "a1/d/m001": failed("out-of-memory", 0.3), "a2/d/m001": failed("crash", 0),
		"a0/d/m002": failed("unknown", 5), "a1/d/m002": solved("unsafe", 4), "a2/d/m002": failed("input-error", 0.01),
		"a0/d/m003": failed("timeout", 10.5), "a1/d/m003": failed("timeout", 11), "a2/d/m003": solved("safe", 0.5),
	} {
		writeProps(t, x, id, p)
	}
	md := markdown(t, x, ReportOptions{Attributes: []string{"coverage", "par2", "ratio", "verdict", "time"}})
	wantLines(t, md,
		"| d (4) | **2** | **2** | 1 |", "| **sum** (4) | **2** | **2** | 1 |",
		"| d (4) | **43** | 47 | 60.5 |", "twice the CPU limit (2 x 10 s) when not",
		"| d | 1 | **3 (1/1/1)** | – (0/1/2) |",
		"| none (timeout) | 1 | 1 | 1 |", "| none (out-of-memory) | 0 | 1 | 0 |",
		"| safe | 1 | 1 | 1 |", "| unsafe | 1 | 1 | 0 |",
		"| d (0) | – | – | – |",
		"agree on verdict wherever two or more decided (1 instances)",
	)
}

// An even number of commonly solved instances: the median is the mean
// of the middle two, ties included.
func TestReview20bMedianEven(t *testing.T) {
	x := experiment(t, 4, "[limits]\ntime = \"10s\"", "echo", "echo x")
	for i, tm := range [][2]float64{{1, 2}, {1, 2}, {3, 8}, {5, 8}} {
		writeProps(t, x, "a0/d/m00"+string(rune('0'+i)), solved("safe", tm[0]))
		writeProps(t, x, "a1/d/m00"+string(rune('0'+i)), solved("safe", tm[1]))
	}
	md := markdown(t, x, ReportOptions{Attributes: []string{"time", "ratio"}})
	// a0: 1 1 3 5 -> median 2, mean 2.5; a1: 2 2 8 8 -> 5, 5;
	// ratios a1/a0: 2 2 2.67 1.6 -> (2+2)/2 = 2
	wantLines(t, md, "| d (4) | **2.5** | 5 |", "| d (4) | **2** | 5 |", "| d | 1 | **2 (4/0/0)** |")
}

// Two runs too fast to measure are equally fast: their ratio is 1, not
// the numerator over the floor (0.2 ms / 1 ms = 0.2, "five times faster"),
// as the table's note says ("a value under 0.001 counts as 0.001").
func TestReview20bRatioUnderTheFloor(t *testing.T) {
	x := experiment(t, 2, "[limits]\ntime = \"10s\"", "echo", "echo x")
	writeProps(t, x, "a0/d/m000", solved("safe", 0.0008))
	writeProps(t, x, "a1/d/m000", solved("safe", 0.0002))
	writeProps(t, x, "a0/d/m001", solved("safe", 0))
	writeProps(t, x, "a1/d/m001", solved("safe", 0))
	md := markdown(t, x, ReportOptions{Attributes: []string{"ratio"}})
	wantLines(t, md, "| d | 1 | **1 (2/0/0)** |")
}

// Names a report prints from the experiment (attribute values it groups
// by, a peer's verdict words) may hold '|', line breaks and '<': in
// Markdown they must stay inside their cell and show as written.
func TestReview20bMarkdownEscapes(t *testing.T) {
	x := experiment(t, 1, "", "echo", "echo x")
	for _, r := range x.Runs {
		r.Attrs = map[string]any{"family": "a|b <i>x</i>\nnext"}
	}
	writeProps(t, x, "a0/d/m000", solved("sa|fe <b>", 1))
	writeProps(t, x, "a1/d/m000", failed("crash", 1))
	md := markdown(t, x, ReportOptions{Attributes: []string{"coverage", "verdict"}, Group: []string{"family"}})
	wantLines(t, md,
		`| a\|b &lt;i&gt;x&lt;/i&gt; next (1) | **1** | 0 |`,
		`| sa\|fe &lt;b&gt; | 1 | 0 |`,
		`| a0 | d | m000 |  | sa\|fe &lt;b&gt; | success |`,
	)
	// Every row of a table has as many cells as its header.
	cols := 0
	for _, line := range strings.Split(md, "\n") {
		if !strings.HasPrefix(line, "|") {
			cols = 0
			continue
		}
		n := strings.Count(strings.ReplaceAll(line, `\|`, ""), "|")
		if cols == 0 {
			cols = n
		} else if n != cols {
			t.Errorf("row with %d separators under a header with %d: %s", n, cols, line)
		}
	}
}

// A run that printed a verdict but ran past its CPU limit is a timeout:
// the verdict table does not count its verdict as one (it would not add up
// to the coverage), and says why.
func TestReview20bVerdictPastTheLimit(t *testing.T) {
	x := experiment(t, 1, "[limits]\ntime = \"1s\"", "echo")
	r := x.Runs[0]
	if err := x.openData(true, nil); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(x.RunDir(r), 0o755)
	os.WriteFile(filepath.Join(x.RunDir(r), "stdout"), []byte(`{"verdict": "safe"}`), 0o644)
	p := x.properties(r, outcome{exitCode: 0, cpu: 1500e6}, nil)
	if p["error"] != "timeout" || p["coverage"] != 0 {
		t.Fatalf("a run past its CPU limit: %v", p)
	}
	writeProps(t, x, r.ID, p)
	md := markdown(t, x, ReportOptions{Attributes: []string{"coverage", "verdict"}})
	wantLines(t, md, "| d (1) | 0 |", "| safe (not counted: timeout) | 1 |")
}

// Without a CPU limit, PAR-2's penalty is made up from the runs shown; the
// note says so rather than calling it the limit.
func TestReview20bPAR2WithoutLimit(t *testing.T) {
	x := experiment(t, 2, "", "echo")
	writeProps(t, x, "a0/d/m000", solved("safe", 3))
	writeProps(t, x, "a0/d/m001", failed("crash", 1))
	md := markdown(t, x, ReportOptions{Attributes: []string{"par2"}})
	// the stand-in limit is 2 x 3 s = 6 s; the crash costs 12
	wantLines(t, md, "| d (2) | 15 |", "when not, 2 x 6 s: the experiment sets no CPU limit")
}

// A damaged properties file names itself and what to do.
func TestReview20bDamagedProperties(t *testing.T) {
	x := experiment(t, 2, "", "echo")
	writeProps(t, x, "a0/d/m000", solved("safe", 3))
	for _, junk := range []string{`{"error": "succ`, "null", ""} {
		os.WriteFile(filepath.Join(x.RunDir(x.Runs[0]), propertiesFile), []byte(junk), 0o644)
		for _, err := range []error{func() error { _, err := x.Fetch(ReportOptions{}); return err }(), func() error { _, err := x.Status(); return err }()} {
			if err == nil || !strings.Contains(err.Error(), "a0/d/m000/properties is not a run's properties") || !strings.Contains(err.Error(), "remove it") {
				t.Errorf("properties %q: %v", junk, err)
			}
		}
	}
}

// Lab's combined properties key a run by its id joined with '-'; two runs
// whose ids join alike both stay in the file.
func TestReview20bLabKeysCollide(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "c.spec"), nil, 0o644)
	src := `name = "k"
[[algorithms]]
name = "a-b"
args = ["x"]
[[algorithms]]
name = "a"
args = ["y"]
[[instances]]
domain = "b-c"
models = ["c.spec"]
[[instances]]
domain = "c"
models = ["c.spec"]
`
	os.WriteFile(filepath.Join(dir, "exp.toml"), []byte(src), 0o644)
	x, err := Load(filepath.Join(dir, "exp.toml"))
	if err != nil {
		t.Fatal(err)
	}
	writeProps(t, x, "a-b/c/c", solved("safe", 1))
	writeProps(t, x, "a/b-c/c", solved("unsafe", 1))
	if _, err := x.Fetch(ReportOptions{}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(x.Data, propertiesFile))
	var all map[string]map[string]any
	if err := json.Unmarshal(b, &all); err != nil || len(all) != 2 {
		t.Errorf("Lab's combined properties hold %d runs, want 2: %s", len(all), b)
	}
}

// A wrong verdict is a verdict: coverage and PAR-2 count it as solved (the
// report cannot tell which side is wrong), and their notes say that some
// verdicts they count are wrong, so that a table copied alone does not
// claim otherwise.
func TestReview20bWrongVerdictsMarked(t *testing.T) {
	x := experiment(t, 2, "[limits]\ntime = \"10s\"", "echo", "echo x")
	writeProps(t, x, "a0/d/m000", solved("safe", 1))
	writeProps(t, x, "a1/d/m000", solved("unsafe", 1))
	writeProps(t, x, "a0/d/m001", solved("safe", 1))
	writeProps(t, x, "a1/d/m001", solved("safe", 1))
	md := markdown(t, x, ReportOptions{Attributes: []string{"coverage", "par2"}})
	if n := strings.Count(md, "CAUTION: on 1 instances the algorithms disagree"); n != 2 {
		t.Errorf("%d cautions, want one per table:\n%s", n, md)
	}
	writeProps(t, x, "a1/d/m000", solved("safe", 1))
	if md := markdown(t, x, ReportOptions{Attributes: []string{"coverage", "par2"}}); strings.Contains(md, "CAUTION") {
		t.Errorf("a caution without a disagreement:\n%s", md)
	}
}

// runs.csv has no empty columns for the derived attributes: par2 is each
// run's PAR-2 score, ratio the time it is made of; a verdict given past
// the limit is marked as in the tables.
func TestReview20bCSVDerived(t *testing.T) {
	x := experiment(t, 2, "[limits]\ntime = \"10s\"", "echo")
	writeProps(t, x, "a0/d/m000", solved("safe", 1.5))
	writeProps(t, x, "a0/d/m001", map[string]any{"error": "timeout", "coverage": 0, "verdict": "unsafe", "time": 10.2})
	rep, err := x.Fetch(ReportOptions{Attributes: []string{"par2", "ratio"}})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := rep.CSV(&b); err != nil {
		t.Fatal(err)
	}
	want := "algorithm,domain,problem,rep,verdict,par2,time\na0,d,m000,,safe,1.5,1.5\na0,d,m001,,unsafe (not counted: timeout),20,10.2\n"
	if b.String() != want {
		t.Errorf("runs.csv:\n%s\nwant:\n%s", b.String(), want)
	}
}

// A run that exited with an answer but printed no verdict (a command
// without --json) counts as solved, and the agreement sentence says it
// could not be compared rather than let it pass as agreeing.
func TestReview20bUncheckedRuns(t *testing.T) {
	x := experiment(t, 1, "", "echo", "echo x")
	writeProps(t, x, "a0/d/m000", solved("safe", 1))
	writeProps(t, x, "a1/d/m000", map[string]any{"error": "success", "coverage": 1, "time": 1.0})
	md := markdown(t, x, ReportOptions{Attributes: []string{"coverage"}})
	wantLines(t, md, "(0 instances). 1 runs count as solved but report no verdict (add --json to their command), so they were not compared.")
}

// The Slurm script starts the vigil it was written by even when that
// path needs quoting ("${VIGIL:-'/a b/vigil'}" kept the quotes in the
// path), or $VIGIL when set; and a task's time covers the preparation
// steps, which run under the same wall limit as their runs.
func TestReview20bSlurmQuoting(t *testing.T) {
	x := experiment(t, 2, "[limits]\ntime = \"20s\"\nwall = \"60s\"", "echo")
	bin := filepath.Join(t.TempDir(), "a b}$x'", "vigil")
	os.MkdirAll(filepath.Dir(bin), 0o755)
	if err := os.WriteFile(bin, []byte("#!/bin/sh\necho started \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	path, tasks, err := x.Slurm(SlurmOptions{Self: bin, MaxArraySize: 1})
	if err != nil || tasks != 1 {
		t.Fatal(tasks, err)
	}
	cmd := exec.Command("bash", path)
	cmd.Env = append(os.Environ(), "SLURM_ARRAY_TASK_ID=1", "VIGIL=")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "started batch run --tasks 1 --task 1 --data ") {
		t.Errorf("the job script ran %q (%v)", out, err)
	}
	b, _ := os.ReadFile(path)
	if !strings.Contains(string(b), "#SBATCH --time=00:07:20\n") { // 2 runs x (60 s + 10 s) + 5 min
		t.Errorf("time without preparation:\n%s", b)
	}
	for _, r := range x.Runs {
		r.Prepare = []string{"export"}
	}
	if path, _, err = x.Slurm(SlurmOptions{Self: bin, MaxArraySize: 1}); err != nil {
		t.Fatal(err)
	}
	b, _ = os.ReadFile(path)
	if !strings.Contains(string(b), "#SBATCH --time=00:09:20\n") { // 2 runs x (60 s + 60 s + 10 s) + 5 min
		t.Errorf("time with preparation:\n%s", b)
	}
}

// A ratio to a baseline the filters leave without runs is refused (the
// table said the other algorithms alone decided every instance), and a
// scatter pair with such an algorithm is not drawn (all its points would
// sit on the border, "no verdict").
func TestReview20bFilteredBaseline(t *testing.T) {
	x := experiment(t, 1, "[limits]\ntime = \"10s\"", "echo", "echo x", "echo y")
	writeProps(t, x, "a0/d/m000", solved("safe", 1))
	writeProps(t, x, "a1/d/m000", solved("safe", 2))
	writeProps(t, x, "a2/d/m000", solved("safe", 2))
	keepA1 := []Filter{{Attr: "algorithm", Values: []string{"a1", "a2"}}}
	if _, err := x.Fetch(ReportOptions{Filters: keepA1, Attributes: []string{"ratio"}, Baseline: "a0"}); err == nil || !strings.Contains(err.Error(), "the baseline a0 has no finished run the filters keep") {
		t.Errorf("ratio to a filtered-out baseline: %v", err)
	}
	rep, err := x.Fetch(ReportOptions{Filters: keepA1, Scatter: [][2]string{{"a0", "a1"}}})
	if err != nil {
		t.Fatal(err)
	}
	if plots, err := rep.Plots(); err != nil || len(plots) != 1 || plots[0].File != "coverage-over-time.svg" {
		t.Errorf("plots %v (%v), want no scatter of a filtered-out algorithm (its points all on the border)", plots, err)
	}
	if _, err := x.Fetch(ReportOptions{Filters: keepA1, Attributes: []string{"coverage"}}); err != nil {
		t.Errorf("without ratios or a scatter: %v", err)
	}
}
