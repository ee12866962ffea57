package report

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"vigil/fuzz"
	"vigil/internal/testutil"
	"vigil/lang"
	"vigil/safety"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

func loadModel(t *testing.T, name string, src []byte) *symbolic.Model {
	t.Helper()
	m, diags := lang.LoadSource(name, src, lang.Options{})
	if m == nil {
		t.Fatal(diags)
	}
	return m
}

// The goal report's text and JSON agree on the bugs found, and every bug
// names its faults; RecordGoal writes run files that read back.
func TestGoalTextJSON(t *testing.T) {
	m := testutil.LoadFile(t, "../testdata/line.spec") // walks away from the goal at 1, loops 7-8
	d, err := explicit.NewDecider(m, m.Policy("pi"))
	if err != nil {
		t.Fatal(err)
	}
	task, err := fuzz.NewGoalTask(m, m.Property(""), d, "pi")
	if err != nil {
		t.Fatal(err)
	}
	pool, res, err := fuzz.GoalTest(context.Background(), []*fuzz.GoalTask{task},
		fuzz.PoolOptions{MaxPool: 20, WalkLen: 5, BState: 50, BExpansion: 200, MaxSteps: 100000, Seed: 1}, fuzz.OracleOptions{Depth: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Bugs) == 0 {
		t.Fatal("no bug found on a policy that walks away from the goal")
	}
	g := &Goal{Task: task, Outcomes: "adversarial", Seed: 1, Pool: pool, Result: res, Complete: true, Oracles: fuzz.OracleNames}
	var b bytes.Buffer
	if err := g.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	for _, want := range []string{"goal testing: model line, property p, policy pi, adversarial outcomes, seed 1\n", "biases: none\n", "\nbug 1 (", "  faults: "} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	rep, err := g.JSON()
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Bugs) != len(res.Bugs) || rep.Biases == nil || rep.Stopped != "" || !rep.Complete {
		t.Errorf("JSON: %d bugs (want %d), biases %v, stopped %q, complete %v", len(rep.Bugs), len(res.Bugs), rep.Biases, rep.Stopped, rep.Complete)
	}
	if !strings.Contains(text, "\n"+plural(len(res.Bugs), "bug")+"\n") {
		t.Errorf("text does not count %d bugs:\n%s", len(res.Bugs), text)
	}
	for i, jb := range rep.Bugs {
		if len(jb.Patch) == 0 || len(jb.Plan) == 0 || jb.Plan[len(jb.Plan)-1].State != "x=5" {
			t.Errorf("bug %d: faults %v, plan %v (a plan ends at the goal)", i+1, jb.Patch, jb.Plan)
		}
	}
	if _, err := json.Marshal(rep); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := fuzz.RecordGoal(dir, task, res); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "bug-1-plan.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	run, steps, err := explicit.ReadRun(f, m)
	if err != nil || run.End != explicit.EndGoal || len(steps) != len(res.Bugs[0].Plan) {
		t.Errorf("bug-1-plan.json: %v, end %v, %d steps (want %d)", err, run, len(steps), len(res.Bugs[0].Plan))
	}
}

// The safety report's text, JSON and verdict agree with the result, and
// recorded unsafe runs are named in both.
func TestSafetyTextJSON(t *testing.T) {
	src, err := os.ReadFile("../../specs/oneway_line.spec")
	if err != nil {
		t.Fatal(err)
	}
	m := loadModel(t, "oneway_line.spec", src)
	pd := m.Policy("careful")
	d, err := explicit.NewDecider(m, pd)
	if err != nil {
		t.Fatal(err)
	}
	task, err := fuzz.NewSafetyTask(m, m.Property(""), d, pd.Name)
	if err != nil {
		t.Fatal(err)
	}
	cfg := fuzz.SafetyConfigs[len(fuzz.SafetyConfigs)-1]
	res, err := fuzz.SafetyTest(context.Background(), []*fuzz.SafetyTask{task}, fuzz.SafetyOptions{Config: cfg, Runs: 50, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	files, err := fuzz.RecordSafety(t.TempDir(), m, m.Property("").Name, pd.Name, res)
	if err != nil || len(files) != len(res.Cases) {
		t.Fatalf("RecordSafety: %v, %d files for %d unsafe runs", err, len(files), len(res.Cases))
	}
	s := &Safety{Model: m, Property: m.Property("").Name, Policy: pd.Name, Config: cfg.Name(), Seed: 1, Oracles: []string{"tarjan"},
		Radius: safety.Inf, Result: res, Elapsed: time.Second, Runs: 50, Files: files}
	rep := s.JSON()
	t.Logf("%d unsafe runs, %d distinct bugs", len(res.Cases), len(res.Distinct().Bugs))
	want := "none"
	if len(res.Distinct().Bugs) > 0 {
		want = "bugs"
	}
	if rep.Result != want || s.Verdict() != want || len(rep.Cases) != len(res.Cases) {
		t.Errorf("result %q, verdict %q, want %q; %d unsafe runs for %d", rep.Result, s.Verdict(), want, len(rep.Cases), len(res.Cases))
	}
	for i, c := range rep.Cases {
		if c.File != files[i] || c.Bugs == nil || c.Faults == nil {
			t.Errorf("unsafe run %d: file %q, bugs %v, faults %v", i+1, c.File, c.Bugs, c.Faults)
		}
	}
	var b bytes.Buffer
	if err := s.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	head := "safety testing: model " + m.Name + ", property " + s.Property + ", policy careful, configuration " + cfg.Name() + ", seed 1\n"
	if !strings.HasPrefix(text, head) {
		t.Errorf("text starts %q, want %q", text[:min(len(text), len(head))], head)
	}
	if want == "bugs" && !strings.Contains(text, "  recorded: ") {
		t.Errorf("text names no recorded run:\n%s", text)
	}
	if !strings.Contains(text, plural(len(rep.Bugs), "bug")+", "+plural(len(rep.Faults), "fault")) {
		t.Errorf("text does not count %d bugs and %d faults:\n%s", len(rep.Bugs), len(rep.Faults), text)
	}
}

// NewGoalTasks gives every worker a decider of its own, the first the one
// given.
func TestNewTasks(t *testing.T) {
	m := testutil.LoadFile(t, "../testdata/line.spec") // walks away from the goal at 1, loops 7-8
	d, err := explicit.NewDecider(m, m.Policy("pi"))
	if err != nil {
		t.Fatal(err)
	}
	tasks, err := fuzz.NewGoalTasks(m, m.Property(""), m.Policy("pi"), d, 3)
	if err != nil || len(tasks) != 3 {
		t.Fatalf("%d tasks, %v", len(tasks), err)
	}
	if tasks[0].Policy != d || tasks[1].Policy == d || tasks[1].Policy == tasks[2].Policy {
		t.Error("the workers share deciders")
	}
	st, err := fuzz.NewSafetyTasks(m, m.Property(""), m.Policy("pi"), nil, 0)
	if err != nil || len(st) != 1 || st[0].Policy == nil {
		t.Fatalf("%d safety tasks, %v", len(st), err)
	}
}
