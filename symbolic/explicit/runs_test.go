package explicit_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vigil/internal/testutil"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// Runs prints each run under a header, records the first, and reports a
// start state it cannot find as a *StartError.
func TestRuns(t *testing.T) {
	m := wideModel(1, symbolic.Compare(symbolic.V(0), symbolic.Ge, symbolic.Lit(995)))
	g := testutil.Generator(t, m, m.Properties[0])
	rec := filepath.Join(t.TempDir(), "run.json")
	var b bytes.Buffer
	sim := explicit.SimOptions{Steps: 10, Rand: rand.New(rand.NewPCG(1, 2)), Ctx: context.Background()}
	end, err := explicit.Runs(g, &b, explicit.RunsOptions{Sim: sim, Runs: 2, Index: 1, Record: rec})
	if err != nil || end != explicit.EndDeadlock {
		t.Fatalf("Runs = %q, %v; want a deadlock at a=999", end, err)
	}
	if out := b.String(); strings.Count(out, "run ") != 2 || !strings.HasPrefix(out, "run 1:\n") {
		t.Errorf("output:\n%s", out)
	}
	if src, err := os.ReadFile(rec); err != nil || !strings.Contains(string(src), `"property": "p"`) {
		t.Errorf("run file: %v\n%s", err, src)
	}
	sampled := 0
	_, err = explicit.Runs(g, &b, explicit.RunsOptions{Sim: sim, Runs: 3, Index: -1, Sampler: func() (*explicit.StartSampler, error) {
		sampled++
		return g.NewStartSampler(context.Background(), explicit.SamplerOptions{Seed: 1})
	}})
	if err != nil || sampled != 1 {
		t.Errorf("sampled runs: %v, sampler prepared %d times; want once", err, sampled)
	}
	_, err = explicit.Runs(g, &b, explicit.RunsOptions{Sim: sim, Runs: 1, Index: 99})
	if _, ok := errors.AsType[*explicit.StartError](err); !ok {
		t.Errorf("start 99 of 5: %v, want a *StartError", err)
	}
}

// Replay prints a recorded run with what it was recorded with, and an
// error in the file names it.
func TestReplay(t *testing.T) {
	m := wideModel(1, symbolic.Compare(symbolic.V(0), symbolic.Ge, symbolic.Lit(995)))
	g := testutil.Generator(t, m, m.Properties[0])
	rec := filepath.Join(t.TempDir(), "run.json")
	sim := explicit.SimOptions{Steps: 10, Rand: rand.New(rand.NewPCG(1, 2)), Ctx: context.Background()}
	if _, err := explicit.Runs(g, io.Discard, explicit.RunsOptions{Sim: sim, Runs: 1, Index: 0, Record: rec}); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := explicit.Replay(&b, m, rec); err != nil || !strings.HasPrefix(b.String(), "replay of "+rec+": model wide, property p, policy none\n") {
		t.Errorf("Replay: %v\n%s", err, b.String())
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte("{"), 0o644)
	if err := explicit.Replay(&b, m, bad); err == nil || !strings.HasPrefix(err.Error(), bad+": ") || strings.Contains(err.Error(), "explicit:") {
		t.Errorf("Replay of a broken file: %v", err)
	}
}

// A context that ends between runs stops the runs there, even when each
// run is shorter than the 1024 steps after which Simulate looks at it:
// vigil run --runs 9999 on short runs went on to the last one after
// Ctrl-C.
func TestRunsStopBetweenRuns(t *testing.T) {
	m := wideModel(1, symbolic.Compare(symbolic.V(0), symbolic.Ge, symbolic.Lit(995)))
	g := testutil.Generator(t, m, m.Properties[0])
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sim := explicit.SimOptions{Steps: 10, Rand: rand.New(rand.NewPCG(1, 2)), Ctx: ctx}
	runs := 0
	var b bytes.Buffer
	end, err := explicit.Runs(g, &b, explicit.RunsOptions{Sim: sim, Runs: 50, Index: 1, OnRun: func(*explicit.Run) {
		runs++
		if runs == 2 {
			cancel()
		}
	}})
	if err != nil || end != explicit.EndStopped || runs != 2 {
		t.Fatalf("Runs = %q, %v after %d runs; want stopped after 2", end, err, runs)
	}
	if !strings.HasSuffix(b.String(), "interrupted after 2 of 50 runs\n") {
		t.Errorf("output ends:\n%s", b.String())
	}
}
