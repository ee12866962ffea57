package fuzz

import (
	"context"
	"testing"

	"vigil/lang"
)

// TestS24tSafetyTimeIsWallClock: the safety test's time per phase summed
// the workers' time, so that with two workers the report said "fuzz
// 651ms, ..., total 363ms". Each phase's time is now the wall-clock time
// in which some worker was in it (at most the total), and the workers'
// sums are kept apart, at least as large.
func TestS24tSafetyTimeIsWallClock(t *testing.T) {
	m, diags := lang.Load("../specs/oneway_line.spec", lang.Options{})
	if m == nil {
		t.Fatal(diags)
	}
	pd := m.Policy("careful")
	var tasks []*SafetyTask
	for range 2 {
		tasks = append(tasks, safetyTaskOf(t, m, pd.Name))
	}
	res, err := SafetyTest(context.Background(), tasks, SafetyOptions{Runs: 2000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Workers != 2 {
		t.Errorf("workers %d; want 2", res.Workers)
	}
	for _, p := range []struct {
		name       string
		wall, work int64
	}{
		{"fuzz", int64(res.Fuzz), int64(res.FuzzWork)},
		{"confirm", int64(res.Confirm), int64(res.ConfirmWork)},
		{"faults", int64(res.Faults), int64(res.FaultsWork)},
	} {
		if p.wall > int64(res.Elapsed) {
			t.Errorf("%s: %d ns of wall clock, more than the test's %d ns", p.name, p.wall, res.Elapsed)
		}
		if p.wall == 0 && p.work > 0 {
			t.Errorf("%s: no wall-clock time, but %d ns of work", p.name, p.work)
		}
	}
	if res.Fuzz <= 0 || res.FuzzWork <= 0 {
		t.Errorf("fuzzing took no time: %v, %v", res.Fuzz, res.FuzzWork)
	}
}
