package fuzz

import (
	"context"
	"testing"
	"time"

	"vigil/internal/testutil"
)

// TestS24tSafetyDuplicateKeepsAnalysis: two workers made the same unsafe
// run; an interrupt stopped the first worker's analysis of it after the
// second had finished its own. The merge kept the first run, unanalysed,
// and dropped the duplicate with its bugs: the test reported no bug and
// the run "not analysed". The run found first now takes the analysis.
func TestS24tSafetyDuplicateKeepsAnalysis(t *testing.T) {
	m := testutil.LoadSource(t, "c.spec", `model c
var x : 0 .. 4 = 0
action inc when x < 4 -> x' = x + 1
action stay -> skip
policy rules p { otherwise -> inc }
property q { start x == 0  unsafe x == 4 }
`)
	task := safetyTaskOf(t, m, "p")
	cfg, err := ParseSafetyConfig("inf-greedy")
	if err != nil {
		t.Fatal(err)
	}
	opt := SafetyOptions{Config: cfg, Runs: 2, Seed: 1, Oracles: []string{"tarjan"}}
	lim, err := opt.Limits.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	r0, err := task.Run(ctx, cfg, lim, opt.Seed, 0)
	if err != nil {
		t.Fatal(err)
	}
	r1, err := task.Run(ctx, cfg, lim, opt.Seed, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !r0.Unsafe() || runKey(r0.Steps) != runKey(r1.Steps) {
		t.Fatal("setup: want two equal unsafe runs")
	}
	ck, err := task.newChecker(opt)
	if err != nil {
		t.Fatal(err)
	}
	c1, err := ck.analyse(ctx, r1)
	if err != nil || !c1.Analysed || len(c1.Bugs) == 0 {
		t.Fatalf("setup: the second worker's analysis: %+v, %v; want analysed, with bugs", c1, err)
	}
	// what analyse returns when the interrupt stops it (the deciders
	// look at ctx every so many states: a model this small is decided
	// before they do)
	c0 := &SafetyCase{Run: r0, Confirm: time.Millisecond}
	outs := []safetyWorker{
		{runs: []*SafetyRun{r0}, cases: map[int]*SafetyCase{0: c0}},
		{runs: []*SafetyRun{r1}, cases: map[int]*SafetyCase{1: c1}},
	}
	res, err := mergeSafety(outs, opt, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Cases) != 1 || res.Duplicates != 1 {
		t.Fatalf("%d cases, %d duplicates; want 1 and 1", len(res.Cases), res.Duplicates)
	}
	c := res.Cases[0]
	if !c.Analysed || len(c.Bugs) != len(c1.Bugs) || c.Run.Index != r0.Index || !res.Complete {
		t.Errorf("the kept run: analysed %v, %d bugs, run %d, complete %v; want analysed, %d bugs, run %d, complete", c.Analysed, len(c.Bugs), c.Run.Index, res.Complete, len(c1.Bugs), r0.Index)
	}
}
