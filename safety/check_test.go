package safety_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"vigil/safety"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// Check decides one state or the start states, writes the certificate of
// the decided ones and sets the verdict; a cancelled context leaves the
// states unknown with the reason.
func TestCheck(t *testing.T) {
	_, d, g := setup(t, 0)
	path := filepath.Join(t.TempDir(), "c.json")
	spec, _ := filepath.Abs("../specs/tarjansafe.spec")
	lines := 0
	rep, err := safety.Check(context.Background(), d, 0, safety.CheckOptions{Cert: path, Policy: "hasty", Progress: func(string) { lines++ },
		Source: safety.Source{Spec: spec, Property: g.Prop.Name, Policy: g.M.Policy("hasty")}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Model != "tarjansafe" || rep.Property != g.Prop.Name || rep.Policy != "hasty" || rep.Radius != "0" || rep.Verdict == "" || rep.Verdict == "unknown" ||
		len(rep.States) == 0 || rep.States[0].Cert != path || rep.Reason != "" {
		t.Fatalf("report %+v", rep)
	}
	_, d, _ = setup(t, safety.Inf)
	s, err := explicit.ParseState(g.M, "layer=4 side=true")
	if err != nil {
		t.Fatal(err)
	}
	rep, err = safety.Check(context.Background(), d, safety.Inf, safety.CheckOptions{State: s})
	if err != nil || len(rep.States) != 1 || rep.Verdict != "safe" {
		t.Fatalf("layer=4 side=true: %+v, %v; want safe (some policy steps on)", rep, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, d, _ = setup(t, safety.Inf)
	rep, err = safety.Check(ctx, d, safety.Inf, safety.CheckOptions{State: symbolic.State(s)})
	if err != nil || rep.Verdict != "unknown" || rep.Reason != "interrupted" {
		t.Fatalf("cancelled: %+v, %v; want unknown, interrupted", rep, err)
	}
}

// CheckRun analyses a counterexample of policy hasty and names it.
func TestCheckRun(t *testing.T) {
	sp, d, g := setup(t, safety.Inf)
	dec, _ := explicit.NewDecider(g.M, g.M.Policy("hasty"))
	cex, err := explicit.Search(context.Background(), g, explicit.Options{Policy: dec, StopAtUnsafe: true})
	if err != nil || cex.Trace == nil {
		t.Fatalf("no counterexample: %v", err)
	}
	run, err := safety.RunStates(sp, cex.Trace)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := safety.CheckRun(context.Background(), d, run, "hasty", nil)
	if err != nil || rep.Policy != "hasty" || rep.Property != g.Prop.Name || !rep.EndUnsafe || len(rep.Faults) == 0 || rep.Reason != "" {
		t.Fatalf("CheckRun = %+v, %v", rep, err)
	}
}

// ReadRun reads a recorded run into the space, naming the file in its
// errors, including for a run the tested policy did not make.
func TestReadRun(t *testing.T) {
	sp, _, g := setup(t, safety.Inf)
	patient, _ := explicit.NewDecider(g.M, g.M.Policy("patient"))
	dir := t.TempDir()
	record := func(name, from string) string {
		start, err := explicit.ParseState(g.M, from)
		if err != nil {
			t.Fatal(err)
		}
		steps, end, err := explicit.Simulate(g, start, explicit.SimOptions{Steps: 2, Policy: patient})
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := explicit.WriteRunFile(path, explicit.NewRun(g.M, g.Prop.Name, "patient", end, steps)); err != nil {
			t.Fatal(err)
		}
		return path
	}
	// From layer 0 the tested policy hasty steps as patient does; from
	// the upper state of layer 4 it jumps.
	if run, err := safety.ReadRun(sp, record("low.json", "layer=0")); err != nil || len(run) != 3 {
		t.Errorf("ReadRun = %v, %v; want 3 states", run, err)
	}
	high := record("high.json", "layer=4 side=true")
	if _, err := safety.ReadRun(sp, high); err == nil || !strings.HasPrefix(err.Error(), high+": run step 0: ") {
		t.Errorf("a run of another policy: %v", err)
	}
	if _, err := safety.ReadRun(sp, filepath.Join(dir, "none.json")); err == nil {
		t.Error("a missing file was read")
	}
}
