package batch

// Session 24's adversarial review of vigil batch: the results a report
// credits, the runs it sums over, and the options that silently gave an
// empty or unchecked report.

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An instance's static attribute named verdict (or an answer attribute
// of [report] agree) stood in for each run's own verdict: a peer that
// answered safe read as unsafe, and the disagreement went unreported.
func TestReview24bStaticAnswerRefused(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "m.spec"), nil, 0o644)
	for _, c := range []struct{ extra, attrs, want string }{
		{"", `{ verdict = "unsafe" }`, `exp.toml:8:16: error[B0003]: attribute "verdict" is part of a run's answer`},
		{"[report]\nagree = [\"safe\"]\n", `{ safe = 3 }`, `attribute "safe" is part of a run's answer`},
		{"", `{ prepare_time = 1 }`, `attribute "prepare_time" is one the batch writes itself`},
		{"[limits]\ntime = \"600s\"\nwall = \"5s\"\n", "{ a = 1 }", `exp.toml:11:1: error[B0003]: wall limit 5s is below the CPU time limit 10m0s: every run stops at 5s, while PAR-2 and the plots count its limit as 10m0s`},
		{"", "{ a = { b = 1 } }", `exp.toml:8:16: error[B0003]: attribute a = map[b:1] is not a number, string or boolean`},
		{"", "{ a = 1 }\ndefines = { N = [1, 2] }", `exp.toml:9:13: error[B0003]: defines: N = [1 2] is not a number, string or boolean`},
		{"", "{ a = 1 }\npolicies = [\"\"]", `exp.toml:9:13: error[B0003]: policies: an empty name`},
		{"", "{ a = 1 }\nproperties = [\"p\", \"p\"]", `exp.toml:9:20: error[B0003]: properties: "p" is listed twice`},
		{"[[algorithms]]\nname = \"z3\"\nprogram = \"z3\"\nargs = [\"q.smt2\"]\nverdicts = { sat = \"safe\", unknown = \"unknown\" }\n", `{ arch = "x" }`,
			`exp.toml:13:28: error[B0003]: algorithm "z3": unknown = "unknown" is no verdict (a run with a verdict counts as solved): leave unknown out of verdicts`},
	} {
		src := "name = \"s\"\n[[algorithms]]\nname = \"a\"\nargs = [\"verify\", \"{model}\"]\n[[instances]]\ndomain = \"d\"\nmodels = [\"m.spec\"]\nattributes = " + c.attrs + "\n" + c.extra
		_, err := Parse(filepath.Join(dir, "exp.toml"), []byte(src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("attributes = %s: %v, want %q", c.attrs, err, c.want)
		}
	}
}

// A report leaves out the finished runs made with another command or
// under other limits (batch run refuses to mix them; the report showed
// them as results of the edited experiment), and says so.
func TestReview24bStaleRunsLeftOut(t *testing.T) {
	x := experiment(t, 2, "[limits]\ntime = \"10s\"", "echo", "echo x")
	fakeResults(t, x, map[string]float64{"a0/d/m000": 1, "a1/d/m000": 3, "a0/d/m001": 2, "a1/d/m001": 5})
	// The experiment's a1 now runs another command.
	src, _ := os.ReadFile(x.File)
	os.WriteFile(x.File, []byte(strings.Replace(string(src), `"echo", "x"`, `"echo", "y"`, 1)), 0o644)
	y, err := Load(x.File)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := y.Fetch(ReportOptions{Attributes: []string{"coverage"}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Stale != 2 || len(rep.Runs) != 2 || !slicesEqual(rep.Algorithms, []string{"a0"}) {
		t.Errorf("stale %d, runs %d, algorithms %v; want 2 stale left out, a0's 2 runs", rep.Stale, len(rep.Runs), rep.Algorithms)
	}
	var b strings.Builder
	rep.Markdown(&b)
	if !strings.Contains(b.String(), "2 runs (left out: 2 runs made with another command or other limits than the experiment now gives (vigil batch run --rerun stale runs them again))") {
		t.Errorf("the report does not say what it left out:\n%s", b.String())
	}
	// Every run stale: an error that says so, not "none finished".
	os.WriteFile(x.File, []byte(strings.Replace(string(src), `time = "10s"`, `time = "20s"`, 1)), 0o644)
	z, err := Load(x.File)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := z.Fetch(ReportOptions{}); err == nil || !strings.Contains(err.Error(), "every finished run of experiment test (4 in") {
		t.Errorf("all stale: %v", err)
	}
}

func slicesEqual(a, b []string) bool { return strings.Join(a, "\x00") == strings.Join(b, "\x00") }

// A sum over fewer runs is not comparable: an algorithm whose timeout was
// not finished yet (or was filtered out) had the smallest PAR-2 and was
// emphasized as the best.
func TestReview24bPartialSumsMarked(t *testing.T) {
	x := experiment(t, 3, "[limits]\ntime = \"10s\"", "echo", "echo x")
	writeProps(t, x, "a0/d/m000", solved("safe", 1))
	writeProps(t, x, "a0/d/m001", solved("safe", 1))
	writeProps(t, x, "a0/d/m002", solved("safe", 1))
	writeProps(t, x, "a1/d/m000", solved("safe", 0.5))
	writeProps(t, x, "a1/d/m001", solved("safe", 0.5))
	// a1/d/m002 has not finished (a timeout to come).
	md := markdown(t, x, ReportOptions{Attributes: []string{"coverage", "par2"}})
	wantLines(t, md,
		"| d (3) | **3** | 2 (2 of 3 runs) |",
		"| **sum** (3) | **3** | 2 (2 of 3 runs) |",
		"| d (3) | **3** | 1 (2 of 3 runs) |",
		"| **all** (3) | **3** | 1 (2 of 3 runs) |")
	if !strings.Contains(md, "a cell marked (K of N runs) lacks runs of some of the row's instances") {
		t.Errorf("no note on the partial cells:\n%s", md)
	}
	// The same when a filter drops a1's timeout.
	writeProps(t, x, "a1/d/m002", failed("timeout", 10))
	md = markdown(t, x, ReportOptions{Attributes: []string{"par2"}, Filters: []Filter{{Attr: "error", Not: true, Values: []string{"timeout"}}}})
	wantLines(t, md, "| d (3) | **3** | 1 (2 of 3 runs) |")
	md = markdown(t, x, ReportOptions{Attributes: []string{"par2"}})
	wantLines(t, md, "| d (3) | **3** | 21 |")
}

// Options naming what no run has gave an empty report, a column of
// dashes or an unchecked agreement, with exit 0; each is now an error
// that names it.
func TestReview24bReportOptionsChecked(t *testing.T) {
	x := experiment(t, 2, "", "echo", "echo x")
	writeProps(t, x, "a0/d/m000", solved("safe", 1))
	writeProps(t, x, "a1/d/m000", map[string]any{"error": "success", "coverage": 1, "verdict": "safe", "time": 1.0, "engine": "bfs"})
	for _, c := range []struct {
		o    ReportOptions
		want string
	}{
		{ReportOptions{Filters: []Filter{{Attr: "algoritm", Values: []string{"a0"}}}}, `filter algoritm=a0: no finished run of experiment test has the attribute "algoritm" (did you mean "algorithm"?)`},
		{ReportOptions{Filters: []Filter{{Attr: "algorithm", Values: []string{"a0", "a2"}}}}, `filter algorithm=a0,a2: "a2" is none of experiment test's algorithms (a0, a1)`},
		{ReportOptions{Filters: []Filter{{Attr: "domain", Values: []string{"e"}}}}, `"e" is none of experiment test's domains (d)`},
		{ReportOptions{Filters: []Filter{{Attr: "engine", Values: []string{"ic3"}}}}, "the filters engine=ic3 keep none of the 2 finished runs"},
		{ReportOptions{Group: []string{"arch"}}, `group: no finished run of experiment test has the attribute "arch"`},
		{ReportOptions{Attributes: []string{"states"}}, `attribute states: no finished run of experiment test has the attribute "states"`},
		{ReportOptions{Attributes: []string{"ratio:states"}}, `attribute ratio:states: no finished run`},
		{ReportOptions{Attributes: []string{"ratio:engine"}}, `"engine" is not a number in any finished run, so it has no ratio`},
		{ReportOptions{Agree: []string{"verdict", "safe"}}, `agree: no finished run of experiment test has the attribute "safe"`},
	} {
		if _, err := x.Fetch(c.o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.o, err, c.want)
		}
	}
	// A name is counted per value, not averaged into dashes.
	md := markdown(t, x, ReportOptions{Attributes: []string{"engine"}})
	wantLines(t, md, "| engine | a0 | a1 |", "|  | 1 | 0 |", "| bfs | 0 | 1 |")
	// What the runs have passes, and so do filters that keep some runs.
	for _, o := range []ReportOptions{
		{Filters: []Filter{{Attr: "engine", Values: []string{"bfs"}}}},
		{Filters: []Filter{{Attr: "error", Not: true, Values: []string{"crash"}}}, Group: []string{"domain", "rep"}, Attributes: []string{"coverage", "par2", "ratio", "time", "ratio:time"}},
	} {
		if _, err := x.Fetch(o); err != nil {
			t.Errorf("%+v: %v", o, err)
		}
	}
}

// A misspelt --rerun outcome reran nothing and said all was done.
func TestReview24bRerunOutcomesChecked(t *testing.T) {
	if err := CheckRerun([]string{"crash", "timeout", "stale"}); err != nil {
		t.Error(err)
	}
	if err := CheckRerun([]string{"crashed"}); err == nil || !strings.Contains(err.Error(), `"crashed" is not an outcome: did you mean "crash"?`) {
		t.Errorf("--rerun crashed: %v", err)
	}
	// Every outcome classify gives is one --rerun takes.
	for _, o := range []outcome{{exitCode: 0}, {exitCode: 4}, {wallKill: true}, {exitCode: 1}, {exitCode: 2}, {signal: "killed"}, {prepareFailed: true}, {startErr: os.ErrNotExist}} {
		if e := classify(o, Limits{}, nil, nil); CheckRerun([]string{e}) != nil {
			t.Errorf("classify gives %q, which --rerun refuses", e)
		}
	}
	if e := classify(outcome{exitCode: 1}, Limits{}, nil, []byte("out of memory")); CheckRerun([]string{e}) != nil {
		t.Errorf("classify gives %q, which --rerun refuses", e)
	}
}

// Two batches started together on a new data directory (Slurm array
// tasks): the second found the directory made, holding only the first's
// temporary identity file, and refused it as "not a vigil batch data
// directory", failing its task.
func TestReview24bDataDirRace(t *testing.T) {
	x := experiment(t, 1, "", "echo")
	os.MkdirAll(x.Data, 0o755)
	tmp := filepath.Join(x.Data, "."+identityFile+".tmp-999-1")
	os.WriteFile(tmp, []byte("{"), 0o644)
	if err := x.openData(true, nil); err != nil {
		t.Fatalf("a directory holding only another batch's temporary identity: %v", err)
	}
	if err := x.openData(false, nil); err != nil {
		t.Fatal(err)
	}
	// Another experiment's identity is still refused, and so is a
	// directory with other contents.
	y := experiment(t, 1, "", "echo")
	y.Name = "other"
	y.Data = x.Data
	if err := y.openData(true, nil); err == nil || !strings.Contains(err.Error(), `written by experiment "test"`) {
		t.Errorf("another experiment's directory: %v", err)
	}
	z := experiment(t, 1, "", "echo")
	os.MkdirAll(z.Data, 0o755)
	os.WriteFile(filepath.Join(z.Data, "notes.txt"), nil, 0o644)
	if err := z.openData(true, nil); err == nil || !strings.Contains(err.Error(), "exists and is not a vigil batch data directory") {
		t.Errorf("a directory with other files: %v", err)
	}
	// Many batches at once on one new directory: all of them open it.
	w := experiment(t, 1, "", "echo")
	errs := make(chan error, 16)
	for range 16 {
		go func() { errs <- w.openData(true, nil) }()
	}
	for range 16 {
		if err := <-errs; err != nil {
			t.Errorf("concurrent open: %v", err)
		}
	}
}

// A scatter point needs both runs: an instance whose run of one algorithm
// had not finished sat on the border, drawn as that algorithm giving up.
func TestReview24bScatterNeedsBothRuns(t *testing.T) {
	x := experiment(t, 3, "[limits]\ntime = \"10s\"", "echo", "echo x")
	writeProps(t, x, "a0/d/m000", solved("safe", 1))
	writeProps(t, x, "a1/d/m000", solved("safe", 2))
	writeProps(t, x, "a0/d/m001", solved("safe", 1))
	writeProps(t, x, "a1/d/m001", failed("timeout", 10))
	writeProps(t, x, "a0/d/m002", solved("safe", 1)) // a1's not finished
	rep, err := x.Fetch(ReportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pts, doms := rep.scatterPoints("a0", "a1", rep.border())
	if len(doms) != 1 || len(pts["d"]) != 2 {
		t.Fatalf("points %v, want 2 in d (m000, and m001 with a1 on the border)", pts)
	}
	for _, p := range pts["d"] {
		if p.X != 1 || p.Y != 2 && p.Y != 10 {
			t.Errorf("point %v", p)
		}
	}
}

// A run is the one whose directory holds its properties: a directory
// renamed with its algorithm (runs/b to runs/b-old, keeping the results of
// a changed command) still said algorithm b, and the report credited its
// verdict to the first algorithm, which then "solved" an instance twice.
func TestReview24bRunIsItsDirectory(t *testing.T) {
	x := experiment(t, 1, "", "echo", "echo x")
	writeProps(t, x, "a0/d/m000", solved("safe", 1))
	p := solved("unsafe", 1)
	p["algorithm"], p["id"], p["run_dir"], p["domain"] = "b", []any{"b", "e", "m000"}, "runs/b/e/m000", "e"
	writeProps(t, x, "a1/d/m000", p)
	md := markdown(t, x, ReportOptions{Attributes: []string{"coverage"}})
	wantLines(t, md, "| d (1) | 1 | 1 |") // a tie emphasizes neither (TestS31jTieMarksNone)
	if !strings.Contains(md, "m000: a0: verdict=safe; a1: verdict=unsafe") {
		t.Errorf("the disagreement does not name both algorithms:\n%s", md)
	}
}

// A '#' or '?' in the data directory's name ended the links to the runs'
// files (the rest read as a fragment or a query).
func TestReview24bRunLinksEscaped(t *testing.T) {
	rep := &Report{RunsLink: "../results#2?x"}
	if got := rep.runLink("runs/a/d/m"); got != "../results%232%3Fx/runs/a/d/m/" {
		t.Errorf("runLink = %q", got)
	}
	rep.RunsLink = "../runs (old)"
	if got := mdLink(rep.runLink("runs/a/d/m")); got != "../runs%20%28old%29/runs/a/d/m/" {
		t.Errorf("mdLink = %q", got)
	}
}

// A number in a filter matches however it is written: size=1e6 kept no
// run whose size was the float 1e6 (printed 1e+06).
func TestReview24bNumericFilter(t *testing.T) {
	p := map[string]any{"size": 1e6, "n": int64(4), "name": "1e6"}
	for _, c := range []struct {
		f    string
		keep bool
	}{{"size=1e6", true}, {"size=1000000", true}, {"size=1e+06", true}, {"size!=1e6", false}, {"size=2e6", false},
		{"n=4", true}, {"n=4.0", true}, {"name=1e6", true}, {"name=1000000", false}} {
		f, err := ParseFilter(c.f)
		if err != nil || f.keep(p) != c.keep {
			t.Errorf("%s: keep %v, want %v (%v)", c.f, f.keep(p), c.keep, err)
		}
	}
}

// A ratio of an attribute where more is better (--higher) emphasizes the
// largest ratio, as its mean and median tables do; it emphasized the
// smallest.
func TestReview24bHigherRatio(t *testing.T) {
	x := experiment(t, 1, "", "echo", "echo x", "echo y")
	for id, n := range map[string]float64{"a0/d/m000": 10, "a1/d/m000": 20, "a2/d/m000": 5} {
		p := solved("safe", 1)
		p["states"] = n
		writeProps(t, x, id, p)
	}
	md := markdown(t, x, ReportOptions{Attributes: []string{"ratio:states"}, Higher: []string{"states"}})
	wantLines(t, md, "| d | 1 | **2 (1/0/0)** | 0.5 (1/0/0) |")
	md = markdown(t, x, ReportOptions{Attributes: []string{"ratio:states"}})
	wantLines(t, md, "| d | 1 | 2 (1/0/0) | **0.5 (1/0/0)** |")
}

// A signal that arrives after every run was recorded interrupted nothing:
// batch run said "interrupted" and exited 4 on a finished experiment.
func TestReview24bSignalAfterTheLastRun(t *testing.T) {
	x := experiment(t, 2, "", "echo")
	fakeResults(t, x, map[string]float64{"a0/d/m000": 1, "a0/d/m001": 1})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s, err := x.Execute(ctx, Options{Self: "/bin/false"})
	if err != nil || s.Interrupted || s.Done != 2 {
		t.Errorf("all finished, then a signal: %+v, %v", s, err)
	}
	y := experiment(t, 2, "", "echo")
	fakeResults(t, y, map[string]float64{"a0/d/m000": 1})
	if s, err := y.Execute(ctx, Options{Self: "/bin/false"}); err != nil || !s.Interrupted {
		t.Errorf("one run left, then a signal: %+v, %v", s, err)
	}
}

// A run whose --json output is too large to read whole (a counterexample
// of millions of steps) lost its verdict: it counted as solved, was left
// out of the agreement check, and the report asked for --json it had.
func TestReview24bLargeOutputKeepsItsVerdict(t *testing.T) {
	defer func(m int64) { maxStdout = m }(maxStdout)
	maxStdout = 200
	x := experiment(t, 1, "", "echo")
	r := x.Runs[0]
	os.MkdirAll(x.RunDir(r), 0o755)
	steps := strings.Repeat(`{"state": {"x": [1, 2, {"y": "}"}]}},`, 20)
	big := `{"verdict": "unsafe", "counterexample": {"steps": [` + steps + `{}]}, "states": 7, "ok": true, "none": null}`
	for _, c := range []struct {
		out     string
		verdict any
	}{
		{big, "unsafe"},
		{big[:len(big)-40], nil},                 // cut short: not trusted
		{big + "\n{\"verdict\": \"safe\"}", nil}, // two objects
	} {
		os.WriteFile(filepath.Join(x.RunDir(r), "stdout"), []byte(c.out), 0o644)
		os.WriteFile(filepath.Join(x.RunDir(r), "stderr"), nil, 0o644)
		p := x.properties(r, outcome{exitCode: 3}, nil)
		if p["verdict"] != c.verdict {
			t.Errorf("verdict %v, want %v (output of %d bytes)", p["verdict"], c.verdict, len(c.out))
		}
		if c.verdict != nil && (p["states"] != 7.0 || p["ok"] != true || p["counterexample_steps_count"] != nil) {
			t.Errorf("properties %v: want the top-level scalars only", p)
		}
	}
}

// A run starts from a directory without files: a rerun whose preparation
// step exits 0 without writing its output (an export that wrote nothing)
// gave the program the question of the earlier attempt, and its answer
// was recorded as the new run's.
func TestReview24bRunStartsClean(t *testing.T) {
	src := peerSource("clean", "if [ -e {run_dir}/q.smt2 ]; then cat {run_dir}/q.smt2; else echo none; fi", `{ sat = "safe", none = "no-question" }`, "prepare = [\"echo\"]\n", "")
	x := loadOneModel(t, src)
	if err := x.openData(true, nil); err != nil {
		t.Fatal(err)
	}
	r := x.Runs[0]
	os.MkdirAll(filepath.Join(x.RunDir(r), "rep-1"), 0o755)
	os.WriteFile(filepath.Join(x.RunDir(r), "q.smt2"), []byte("sat\n"), 0o644) // an earlier attempt's
	os.WriteFile(filepath.Join(x.RunDir(r), "rep-1", "properties"), []byte("{}"), 0o644)
	t.Setenv("VIGIL_BATCH_HELPER", "1")
	if _, err := x.Execute(context.Background(), Options{Self: self()}); err != nil {
		t.Fatal(err)
	}
	p, err := x.Properties(r)
	if err != nil || p["verdict"] != "no-question" {
		t.Errorf("verdict %v (%v), want no-question: the earlier attempt's file was read", p["verdict"], err)
	}
	if _, err := os.Stat(filepath.Join(x.RunDir(r), "rep-1", "properties")); err != nil {
		t.Errorf("a directory inside the run's was removed: %v", err)
	}
}
