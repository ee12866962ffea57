package batch

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeResults writes properties for the runs of x: time[i] is the time of
// run i, a negative time marks a run without a verdict.
func fakeResults(t *testing.T, x *Experiment, times map[string]float64) {
	t.Helper()
	if err := x.openData(true, nil); err != nil {
		t.Fatal(err)
	}
	for _, r := range x.Runs {
		tm, ok := times[r.ID]
		if !ok {
			continue
		}
		p := map[string]any{"id": []string{r.Algorithm, r.Domain, r.Problem}, "algorithm": r.Algorithm, "domain": r.Domain,
			"problem": r.Problem, "time": tm, "coverage": 1, "error": "success", "verdict": "safe"}
		x.identify(r, p)
		if tm < 0 {
			p["time"], p["coverage"], p["error"] = 10.0, 0, "timeout"
			delete(p, "verdict")
		}
		b, _ := json.Marshal(p)
		os.MkdirAll(x.RunDir(r), 0o755)
		if err := os.WriteFile(filepath.Join(x.RunDir(r), propertiesFile), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// The absolute report: coverage sums, and mean and median over the
// instances every algorithm solved only.
func TestReportCommonlySolved(t *testing.T) {
	x := experiment(t, 3, "[limits]\ntime = \"10s\"", "echo", "echo x")
	fakeResults(t, x, map[string]float64{
		"a0/d/m000": 1, "a1/d/m000": 3,
		"a0/d/m001": 2, "a1/d/m001": 5,
		"a0/d/m002": 4, "a1/d/m002": -1, // a1 did not solve m002: left out of the means
	})
	rep, err := x.Fetch(ReportOptions{Attributes: []string{"coverage", "verdict", "time"}})
	if err != nil {
		t.Fatal(err)
	}
	var md strings.Builder
	rep.Markdown(&md)
	for _, want := range []string{
		"| d (3) | **3** | 2 |",
		"## time (CPU seconds), mean", "| d (2) | **1.5** | 4 |",
		"## time (CPU seconds), median", "## verdict", "| safe | 3 | 2 |", "| none (timeout) | 0 | 1 |",
		"agree on verdict wherever two or more decided (2 instances)",
	} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, md.String())
		}
	}
	plots, err := rep.Plots()
	if err != nil {
		t.Fatal(err)
	}
	if len(plots) != 2 || plots[0].File != "scatter-time-a0-a1.svg" || plots[1].File != "coverage-over-time.svg" {
		t.Errorf("plots %v", plots)
	}
	for _, p := range plots {
		if !strings.HasPrefix(p.SVG, "<?xml") || !strings.Contains(p.SVG, "<svg") {
			t.Errorf("%s is not an SVG", p.File)
		}
	}
	b, err := os.ReadFile(filepath.Join(x.Data, propertiesFile))
	if err != nil {
		t.Fatal(err)
	}
	var all map[string]map[string]any
	if err := json.Unmarshal(b, &all); err != nil || len(all) != 6 || all["a1-d-m002"]["error"] != "timeout" {
		t.Errorf("Lab's combined properties: %v (%v)", all, err)
	}
}

func TestBorderIsTheTimeLimit(t *testing.T) {
	x := experiment(t, 1, "[limits]\ntime = \"7s\"", "echo")
	if b := (&Report{x: x}).border(); b != 7 {
		t.Errorf("border %v, want the time limit 7", b)
	}
	x.Limits.CPU = 0 * time.Second
	rep := &Report{x: x, Runs: []map[string]any{{"time": 3.0}}}
	if b := rep.border(); b != 6 {
		t.Errorf("border %v, want twice the largest time", b)
	}
}

// A run that a batch process holds shows as running in the status.
func TestStatusRunning(t *testing.T) {
	x := experiment(t, 2, "", "echo")
	if err := x.openData(true, nil); err != nil {
		t.Fatal(err)
	}
	dir := x.RunDir(x.Runs[0])
	os.MkdirAll(dir, 0o755)
	f, err := os.OpenFile(filepath.Join(dir, "lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscallFlock(f); err != nil {
		t.Fatal(err)
	}
	st, err := x.Status()
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Missing) != 2 || len(st.Running) != 1 || st.Running[0] != x.Runs[0].ID {
		t.Errorf("status %+v", st)
	}
}

// PAR-2 sums a run's time when solved and twice the limit when not; the
// ratio table gives the median ratio to the baseline over the instances
// both decided, and counts those only one of them decided; Scatter
// restricts the plots to the pairs it names.
func TestReportPAR2AndRatios(t *testing.T) {
	x := experiment(t, 3, "[limits]\ntime = \"10s\"", "echo", "echo x", "echo y")
	fakeResults(t, x, map[string]float64{
		"a0/d/m000": 1, "a1/d/m000": 3, "a2/d/m000": 1,
		"a0/d/m001": 2, "a1/d/m001": 5, "a2/d/m001": -1,
		"a0/d/m002": -1, "a1/d/m002": 4, "a2/d/m002": -1,
	})
	rep, err := x.Fetch(ReportOptions{Attributes: []string{"par2", "ratio"}, Baseline: "a0", Scatter: [][2]string{{"a1", "a0"}}})
	if err != nil {
		t.Fatal(err)
	}
	var md strings.Builder
	rep.Markdown(&md)
	for _, want := range []string{
		"## par2 (CPU seconds), sum", "| d (3) | 23 | **12** | 41 |",
		"## time (CPU seconds) ratio to a0, median", "| d | 1 | 2.75 (2/1/0) | **1 (1/0/1)** |",
	} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, md.String())
		}
	}
	plots, err := rep.Plots()
	if err != nil {
		t.Fatal(err)
	}
	if len(plots) != 2 || plots[0].File != "scatter-time-a1-a0.svg" {
		t.Errorf("plots %v, want the one scatter asked for and the coverage plot", plots)
	}
	if _, err := x.Fetch(ReportOptions{Baseline: "nope"}); err == nil || !strings.Contains(err.Error(), `baseline "nope" is not an algorithm`) {
		t.Errorf("unknown baseline: %v", err)
	}
}
