package fuzz

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"vigil/lang"
	"vigil/safety"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

func loadSafetyTask(t testing.TB, path string, defs map[string]string, policy string) *SafetyTask {
	t.Helper()
	m, diags := lang.Load(path, lang.Options{Defines: defs})
	if m == nil {
		t.Fatalf("%s: %v", path, diags)
	}
	return safetyTaskOf(t, m, policy)
}

func safetyTaskOf(t testing.TB, m *symbolic.Model, policy string) *SafetyTask {
	t.Helper()
	pd := m.Policy(policy)
	if pd == nil {
		t.Fatalf("no policy %q", policy)
	}
	d, err := explicit.NewDecider(m, pd)
	if err != nil {
		t.Fatal(err)
	}
	task, err := NewSafetyTask(m, m.Property(""), d, pd.Name)
	if err != nil {
		t.Fatal(err)
	}
	return task
}

func TestUnsafeDistance(t *testing.T) {
	const src = `
model d
var x : 0 .. 20 = 0
var y : 0 .. 20 = 0
var b : bool = false
action a -> x' = x
policy rules p { otherwise -> a }
property p { unsafe UNSAFE }
`
	for _, tc := range []struct {
		unsafe string
		x, y   int
		b      bool
		want   int
	}{
		{"x >= 10", 3, 0, false, 7},
		{"x >= 10", 12, 0, false, 0},
		{"x > 10", 3, 0, false, 8},
		{"x <= 2", 7, 0, false, 5},
		{"x < 2", 7, 0, false, 6},
		{"x == 5", 9, 0, false, 4},
		{"x != 5", 5, 0, false, 1},
		{"2 * x + y >= 20", 3, 4, false, 10},
		{"x >= 10 && y >= 10", 3, 4, false, 13},                        // conjunction: sum
		{"x >= 10 || y >= 10", 3, 4, false, 6},                         // disjunction: min
		{"!(x < 10 || y < 10)", 3, 4, false, 13},                       // De Morgan
		{"!(x < 10 && y < 10)", 3, 4, false, 6},                        //
		{"b", 0, 0, false, 1},                                          //
		{"!b && x >= 1", 0, 0, true, 2},                                //
		{"(x >= 1 => y >= 5) && x >= 2", 0, 0, false, 2},               // x >= 1 => ... holds
		{"!(x >= 1 => y >= 5)", 0, 0, false, 1 + 0},                    // x >= 1 && y < 5: 1 + 0
		{"x >= 4 && (y == 1 || y == 9)", 1, 6, false, 6},               // 3 + min(5, 3)
		{"false || x >= 4", 1, 6, false, 3},                            //
		{"x >= 4 && true", 1, 6, false, 3},                             //
		{"min(x, y) >= 4", 1, 6, false, 3},                             // non-linear sides: their values
		{"x >= 4 || false", 1, 6, false, 3},                            //
		{"x + y <= 3 && x - y >= 0 && x >= 2", 1, 6, false, 4 + 5 + 1}, //
	} {
		m, diags := lang.LoadSource("d.spec", []byte(strings.Replace(src, "UNSAFE", tc.unsafe, 1)), lang.Options{})
		if m == nil {
			t.Fatalf("%s: %v", tc.unsafe, diags)
		}
		h := newUnsafeDist(m.Properties[0].Unsafe)
		b := 0
		if tc.b {
			b = 1
		}
		s := symbolic.State{tc.x, tc.y, b}
		if got := h.dist(s); got != tc.want {
			t.Errorf("h_u(%s) at x=%d y=%d b=%v = %d, want %d", tc.unsafe, tc.x, tc.y, tc.b, got, tc.want)
		}
		if holds := m.Properties[0].Unsafe.Holds(s); holds != (h.dist(s) == 0) {
			t.Errorf("%s: holds %v but h_u = %d", tc.unsafe, holds, h.dist(s))
		}
	}
}

func TestParseSafetyConfig(t *testing.T) {
	for _, n := range SafetyConfigNames {
		c, err := ParseSafetyConfig(n)
		if err != nil || c.Name() != n {
			t.Errorf("%s: %v %v", n, c.Name(), err)
		}
	}
	for in, want := range map[string]string{"∞-greedy": "inf-greedy", "1-weighted": "1-sampling", "3-greedy": "3-greedy", "1-uniform": "uniform", "inf-uniform": "inf-uniform"} {
		c, err := ParseSafetyConfig(in)
		if err != nil || c.Name() != want {
			t.Errorf("%s: got %s, %v; want %s", in, c.Name(), err, want)
		}
	}
	_, err := ParseSafetyConfig("inf-gready")
	if err == nil || !strings.Contains(err.Error(), `did you mean "inf-greedy"`) || !strings.Contains(err.Error(), "uniform, 1-greedy, 1-sampling, inf-greedy, inf-sampling") {
		t.Errorf("bad name: %v", err)
	}
	for _, bad := range []string{"0-greedy", "greedy", "x-sampling", ""} {
		if _, err := ParseSafetyConfig(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// On the one-way line, careful overshoots only after a slipping brake near
// the end: every configuration finds unsafe runs, each replays as a
// counterexample of the policy, and its bugs and faults are confirmed.
func TestSafetyFuzzOneway(t *testing.T) {
	task := loadSafetyTask(t, "../specs/oneway_line.spec", nil, "careful")
	for _, c := range SafetyConfigs {
		res, err := SafetyTest(context.Background(), []*SafetyTask{task}, SafetyOptions{Config: c, Runs: 100, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if res.Runs != 100 || !res.Complete {
			t.Fatalf("%s: %d runs, complete %v", c.Name(), res.Runs, res.Complete)
		}
		t.Logf("%s: %d unsafe runs of 100, %d distinct, ends %v", c.Name(), res.Unsafe(), len(res.Cases), res.Ends)
		if c.Strategy != Uniform && res.Unsafe() == 0 {
			t.Errorf("%s found no unsafe run", c.Name())
		}
		bugs := 0
		for _, cs := range res.Cases {
			if err := task.Gen.CheckCounterexample(task.Policy, cs.Run.Steps); err != nil {
				t.Fatalf("%s: run %d: %v", c.Name(), cs.Run.Index, err)
			}
			if !cs.Analysed {
				t.Fatalf("run %d not analysed", cs.Run.Index)
			}
			if len(cs.Bugs) > 0 && len(cs.Faults) == 0 {
				t.Errorf("%s: run %d has bugs %v but no fault", c.Name(), cs.Run.Index, cs.Bugs)
			}
			bugs += len(cs.Bugs)
		}
		if len(res.Cases) > 0 && bugs == 0 {
			t.Errorf("%s: no bug on %d unsafe runs (careful's overshoots are avoidable)", c.Name(), len(res.Cases))
		}
	}
}

// The same seed gives the same unsafe runs, whatever the worker count; and
// with a cross-checking second oracle the same bugs.
func TestSafetyDeterministic(t *testing.T) {
	summary := func(k int, oracles []string) string {
		var tasks []*SafetyTask
		for i := 0; i < k; i++ {
			tasks = append(tasks, loadSafetyTask(t, "../specs/oneway_line.spec", nil, "careful"))
		}
		c, _ := ParseSafetyConfig("1-sampling")
		res, err := SafetyTest(context.Background(), tasks, SafetyOptions{Config: c, Runs: 60, Seed: 7, Oracles: oracles})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, cs := range res.Cases {
			fmt.Fprintf(&b, "run %d len %d bugs %v faults %d\n", cs.Run.Index, len(cs.Run.Steps), cs.Bugs, len(cs.Faults))
		}
		return b.String()
	}
	a := summary(1, nil)
	if a == "" {
		t.Fatal("no unsafe runs")
	}
	for _, k := range []int{2, 3} {
		if b := summary(k, []string{"tarjan", "lrtdp"}); b != a {
			t.Errorf("%d workers:\n%s\nwant\n%s", k, b, a)
		}
	}
}

// A policy whose graph holds no unsafe state: every run is exhausted.
func TestSafetyFuzzSafePolicy(t *testing.T) {
	task := loadSafetyTask(t, "../specs/oneway_line.spec", nil, "slow")
	c, _ := ParseSafetyConfig("inf-greedy")
	res, err := SafetyTest(context.Background(), []*SafetyTask{task}, SafetyOptions{Config: c, Runs: 20, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Unsafe() != 0 || res.Ends[SafetyEndExhausted] != 20 {
		t.Errorf("ends %v, want 20 exhausted", res.Ends)
	}
}

func TestSafetyOptionsErrors(t *testing.T) {
	task := loadSafetyTask(t, "../specs/oneway_line.spec", nil, "careful")
	_, err := SafetyTest(context.Background(), []*SafetyTask{task}, SafetyOptions{Oracles: []string{"tarjann"}})
	if err == nil || !strings.Contains(err.Error(), `unknown oracle "tarjann" (did you mean "tarjan"?)`) {
		t.Errorf("got %v", err)
	}
	if _, err := SafetyTest(context.Background(), []*SafetyTask{task}, SafetyOptions{Runs: -1}); err == nil {
		t.Error("negative runs accepted")
	}
	// r-safety with radius 1 works as an oracle too.
	c, _ := ParseSafetyConfig("inf-greedy")
	one := safety.Radius(1)
	res, err := SafetyTest(context.Background(), []*SafetyTask{task}, SafetyOptions{Config: c, Runs: 10, Radius: &one})
	if err != nil || len(res.Cases) == 0 {
		t.Fatalf("radius 1: %v, %d cases", err, len(res.Cases))
	}
}

// An interrupt keeps what was found: ending the context after the first
// bug returns its unsafe run, analysed, and an incomplete result.
func TestSafetyInterrupt(t *testing.T) {
	task := loadSafetyTask(t, "../specs/oneway_line.spec", nil, "careful")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c, _ := ParseSafetyConfig("inf-greedy")
	res, err := SafetyTest(ctx, []*SafetyTask{task}, SafetyOptions{Config: c, Runs: 1000, Seed: 1, OnRun: func(t SafetyTally) {
		if t.Bugs > 0 {
			cancel()
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Complete || res.Runs == 1000 || len(res.Cases) == 0 {
		t.Fatalf("complete %v, %d runs, %d unsafe runs", res.Complete, res.Runs, len(res.Cases))
	}
	last := res.Cases[len(res.Cases)-1]
	if !last.Analysed || len(last.Bugs) == 0 || len(last.Faults) == 0 {
		t.Errorf("the unsafe run found before the interrupt was not kept with its bugs and faults: %+v", last)
	}
}

// The expansion budget counts the states a run's lookahead searches, over
// the whole run: a run ends as failed when it would exceed it, and not
// before.
func TestSafetyExpansionBudget(t *testing.T) {
	task := loadSafetyTask(t, "../specs/oneway_line.spec", map[string]string{"L": "100"}, "careful")
	c, _ := ParseSafetyConfig("inf-sampling")
	for _, budget := range []int{5, 40, 200} {
		for i := 0; i < 20; i++ {
			r, err := task.Run(context.Background(), c, SafetyLimits{Expansions: budget}, 1, i)
			if err != nil {
				t.Fatal(err)
			}
			if r.Expanded > budget || (r.End == SafetyEndBudget && r.Expanded != budget) {
				t.Errorf("budget %d, run %d: %d expanded, end %s", budget, i, r.Expanded, r.End)
			}
		}
	}
}
