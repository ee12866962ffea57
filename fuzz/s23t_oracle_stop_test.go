package fuzz

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"vigil/internal/testutil"
)

// s23tWideSpec has 40 variables: one expansion of the relax oracle
// sweeps the interval relaxation of 41 successors, and its 5,000
// expansions on the start state took four minutes.
func s23tWideSpec() string {
	var b strings.Builder
	b.WriteString("model wide\n")
	var goal []string
	for i := range 40 {
		fmt.Fprintf(&b, "var v%d : 0 .. 1000000 = 0\naction inc%d when v%d < 1000000 -> v%d' = v%d + 1\n", i, i, i, i, i)
		goal = append(goal, fmt.Sprintf("v%d == 1000000", i))
	}
	b.WriteString("action dec0 when v0 > 0 -> v0' = v0 - 1\n")
	b.WriteString("policy rules p { when v0 - 2 * (v0 / 2) == 1 -> dec0  otherwise -> inc0 }\n")
	fmt.Fprintf(&b, "property g { unsafe false  goal %s }\n", strings.Join(goal, " && "))
	return b.String()
}

// TestS23tRelaxOracleStops: the relax oracle's search looked at no
// context, so Confirm and GoalTest (vigil test --mode goal, --timeout,
// Ctrl-C) went on for minutes after it ended, and then counted the state
// as checked. Now the search stops and the state is not checked.
func TestS23tRelaxOracleStops(t *testing.T) {
	m := testutil.LoadSource(t, "wide.spec", s23tWideSpec())
	task := goalTask(t, m)
	pool := &Pool{Entries: []PoolEntry{{State: make([]int, len(m.Vars)), Parent: -1}}}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	res, err := task.Confirm(ctx, pool, OracleOptions{Oracles: []string{OracleRelax}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Checked != 0 || len(res.Bugs) != 0 {
		t.Errorf("Confirm after its context ended mid-search: %d checked, %d bugs; want none checked", res.Checked, len(res.Bugs))
	}
	for _, workers := range []int{1, 2} {
		tasks := []*GoalTask{task}
		if workers == 2 {
			tasks = append(tasks, goalTask(t, m))
		}
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		p, res, err := GoalTest(ctx, tasks, PoolOptions{MaxPool: 10, Seed: 1}, OracleOptions{Oracles: []string{OracleRelax}})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if res.Checked != 0 || len(res.Values) != len(p.Entries) || res.Elapsed[OracleRelax] <= 0 {
			t.Errorf("%d workers: %d of %d pool states checked, %d values, relax time %v; want none checked, each unknown, the relax oracle's time kept",
				workers, res.Checked, len(p.Entries), len(res.Values), res.Elapsed[OracleRelax])
		}
		for i, v := range res.Values {
			if v.Outcome != GoalUnknown {
				t.Errorf("%d workers: pool state %d: %v; want unknown", workers, i, v.Outcome)
			}
		}
	}
}
