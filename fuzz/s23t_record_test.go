package fuzz

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"vigil/internal/testutil"
	"vigil/symbolic/explicit"
)

// s23t: a fair goal test's trap bug was recorded with the ending "trap",
// which run files do not know, so vigil run --replay and vigil faults
// --run refused the evidence --record wrote. And a record into a
// directory an earlier record wrote more files to left those files, which
// then read as this test's evidence.

const s23tTrapSpec = `model trap
var x : 0 .. 3 = 0
action a when x < 2 -> x' = 1 | x' = 0
action c when x == 1 -> x' = 0
action b when x < 3 -> x' = x + 1
policy rules p { when x == 1 -> c
  when x == 0 -> a
  otherwise -> b }
property g { unsafe false
  goal x == 3 }
`

func TestS23tRecordTrapReplays(t *testing.T) {
	m := testutil.LoadSource(t, "trap.spec", s23tTrapSpec)
	task := goalTask(t, m)
	task.Fair = true
	_, res, err := GoalTest(context.Background(), []*GoalTask{task}, PoolOptions{MaxPool: 10, Seed: 1}, OracleOptions{})
	if err != nil {
		t.Fatal(err)
	}
	traps := 0
	for _, b := range res.Bugs {
		if b.Policy.Why == GoalFailTrap {
			traps++
		}
	}
	if traps == 0 {
		t.Fatalf("no trap bug among %d bugs", len(res.Bugs))
	}
	dir := t.TempDir()
	if err := RecordGoal(dir, task, res); err != nil {
		t.Fatal(err)
	}
	for i := range res.Bugs {
		for _, kind := range []string{"policy", "plan"} {
			path := filepath.Join(dir, "bug-"+strconv.Itoa(i+1)+"-"+kind+".json")
			run, _, err := explicit.ReadRunFile(path, m)
			if err != nil {
				t.Fatalf("the recorded %s does not read back: %v", path, err)
			}
			if kind == "policy" && res.Bugs[i].Policy.Why == GoalFailTrap && run.End != GoalFailLoop {
				t.Errorf("%s: a trap run recorded as %q, want loop", path, run.End)
			}
		}
	}
}

func TestS23tRecordRemovesStale(t *testing.T) {
	dir := t.TempDir()
	// An earlier record's files (and files that are not a record's).
	old := []string{"unsafe-1.json", "unsafe-2.json", "unsafe-7.json", "bug-3-policy.json", "bug-3-plan.json", "bug-1-plan.json"}
	keep := []string{"unsafe-01.json", "unsafe-x.json", "notes.txt", "bug-2-other.json"}
	for _, f := range append(slices.Clone(old), keep...) {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := removeStale(dir, safetyFileRE, 1); err != nil {
		t.Fatal(err)
	}
	if err := removeStale(dir, goalFileRE, 2); err != nil {
		t.Fatal(err)
	}
	var left []string
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		left = append(left, e.Name())
	}
	want := append([]string{"unsafe-1.json", "bug-1-plan.json"}, keep...)
	slices.Sort(want)
	if !slices.Equal(left, want) {
		t.Errorf("left %v, want %v", left, want)
	}
}
