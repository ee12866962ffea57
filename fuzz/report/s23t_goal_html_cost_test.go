package report

import (
	"context"
	"strings"
	"testing"
	"time"

	"vigil/fuzz"
	"vigil/internal/testutil"
	"vigil/symbolic/explicit"
)

// TestS23tGoalHTMLPlanCost: the goal page said "better: a plan of 4
// steps" of a plan of 2 steps at cost 4 (it printed the cost as steps),
// where the text report says "reaches the goal at cost 4 (2 steps)".
func TestS23tGoalHTMLPlanCost(t *testing.T) {
	m := testutil.LoadSource(t, "cost.spec", `model g
var x : 0 .. 4 = 0
action step when x < 2 cost 2 -> x' = x + 1
action jump when x == 0 cost 5 -> x' = 2
policy rules hop {
    when x == 0 -> jump
    otherwise -> step
}
property p { unsafe false  goal x == 2 }
`)
	pd := m.Policy("hop")
	d, err := explicit.NewDecider(m, pd)
	if err != nil {
		t.Fatal(err)
	}
	g, err := RunGoal(context.Background(), Subject{Model: m, Property: m.Property("p"), Policy: pd, Decider: d, Workers: 1},
		GoalOptions{Budget: time.Minute, Seed: 1, Pool: fuzz.PoolOptions{MaxPool: 10, WalkLen: 5, BState: 50, BExpansion: 200, MaxSteps: 10_000},
			Oracles: []string{fuzz.OracleOptimal}, Depth: 2})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := g.HTML(&b); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if len(g.Result.Bugs) != 1 || !strings.Contains(page, "better: reaches the goal at cost 4 (2 steps) on every run") || strings.Contains(page, "a plan of 4 steps") {
		t.Errorf("%d bugs; the page says %q; want the plan at cost 4 (2 steps)", len(g.Result.Bugs), page[strings.Index(page, "better:"):][:80])
	}
}
