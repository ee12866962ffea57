package report

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"vigil/fuzz"
	"vigil/internal/testutil"
	"vigil/safety"
	"vigil/symbolic/explicit"
)

// RunGoal and RunSafety are vigil test as a library call: on the line model
// (fuzz/testdata/line.spec) the
// goal test finds bugs, and the same seed gives the same bugs; on
// oneway_line the safety test returns a complete report whose Record
// writes one run file per unsafe run.
func TestRunPipelines(t *testing.T) {
	ctx := context.Background()
	m := testutil.LoadFile(t, "../testdata/line.spec")
	pd := m.Policy("pi")
	d, err := explicit.NewDecider(m, pd)
	if err != nil {
		t.Fatal(err)
	}
	s := Subject{Model: m, Property: m.Property("p"), Policy: pd, Decider: d, Workers: 1}
	opt := GoalOptions{Budget: time.Minute, Seed: 1, Pool: fuzz.PoolOptions{MaxPool: 20, WalkLen: 5, BState: 50, BExpansion: 200, MaxSteps: 100_000},
		Biases: []string{fuzz.BiasPolicyQuality, fuzz.BiasNovelty}, Depth: 2}
	g1, err := RunGoal(ctx, s, opt)
	if err != nil {
		t.Fatal(err)
	}
	g2, err := RunGoal(ctx, s, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(g1.Result.Bugs) == 0 || len(g1.Result.Bugs) != len(g2.Result.Bugs) || !g1.Complete || g1.Outcomes != "adversarial" {
		t.Errorf("goal test: %d then %d bugs, complete %v, outcomes %q; want the same bugs, some, complete, adversarial",
			len(g1.Result.Bugs), len(g2.Result.Bugs), g1.Complete, g1.Outcomes)
	}
	if err := g1.Record(t.TempDir()); err != nil {
		t.Errorf("Goal.Record: %v", err)
	}
	if _, err := RunGoal(ctx, Subject{Model: m, Property: m.Property("p")}, opt); err == nil {
		t.Error("RunGoal without a policy: no error")
	}

	src, err := os.ReadFile("../../specs/oneway_line.spec")
	if err != nil {
		t.Fatal(err)
	}
	m = loadModel(t, "oneway_line.spec", src)
	pd = m.Policy("careful")
	if d, err = explicit.NewDecider(m, pd); err != nil {
		t.Fatal(err)
	}
	cfg, err := fuzz.ParseSafetyConfig("inf-greedy")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := RunSafety(ctx, Subject{Model: m, Property: m.Property(""), Policy: pd, Decider: d, Workers: 2},
		SafetyOptions{Budget: time.Minute, Seed: 1, Config: cfg, Runs: 50, Radius: safety.Inf})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Stopped != "" || len(rep.Oracles) != 1 || rep.Oracles[0] != "tarjan" || rep.Policy != "careful" {
		t.Errorf("safety test: stopped %q, oracles %v, policy %q; want complete, tarjan, careful", rep.Stopped, rep.Oracles, rep.Policy)
	}
	dir := t.TempDir()
	if err := rep.Record(dir); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(rep.Files) != len(rep.Result.Cases) || len(files) != len(rep.Result.Cases) {
		t.Errorf("Safety.Record: %d names, %d files for %d unsafe runs", len(rep.Files), len(files), len(rep.Result.Cases))
	}
}
