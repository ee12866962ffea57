package fuzz

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"vigil/internal/testutil"
	"vigil/lang"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// loadGoalTask loads a .spec file and builds the goal task of its policy
// and property (names "" when the file has one).
func loadGoalTask(t testing.TB, path string, defs map[string]string, policy, prop string) *GoalTask {
	t.Helper()
	m, diags := lang.Load(path, lang.Options{Defines: defs})
	if m == nil {
		t.Fatalf("%s: %v", path, diags)
	}
	pd := m.Policy(policy)
	if pd == nil {
		t.Fatalf("%s: no policy %q", path, policy)
	}
	d, err := explicit.NewDecider(m, pd)
	if err != nil {
		t.Fatal(err)
	}
	task, err := NewGoalTask(m, m.Property(prop), d, pd.Name)
	if err != nil {
		t.Fatal(err)
	}
	return task
}

func goalLineTask(t testing.TB) *GoalTask {
	t.Helper()
	return goalTask(t, testutil.LoadFile(t, "testdata/line.spec")) // goal x == 5; a detour at 1, a loop 7-8
}

// goalTask is the goal-testing task of m's first property and its first
// policy, named pi.
func goalTask(t testing.TB, m *symbolic.Model) *GoalTask {
	t.Helper()
	d, err := explicit.NewDecider(m, m.Policy(""))
	if err != nil {
		t.Fatal(err)
	}
	task, err := NewGoalTask(m, m.Property(""), d, "pi")
	if err != nil {
		t.Fatal(err)
	}
	return task
}

func TestGoalValueLine(t *testing.T) {
	task := goalLineTask(t)
	st := func(x int) symbolic.State { return symbolic.State{x} }
	for _, c := range []struct {
		x    int
		want GoalOutcome
		cost int
		why  string
	}{
		{0, GoalFails, -1, GoalFailLoop},
		{2, GoalReached, 3, ""},
		{7, GoalFails, -1, GoalFailLoop},
		{9, GoalFails, -1, GoalFailStuck},
	} {
		v, err := task.GoalValueOf(st(c.x), nil, 100, 1000)
		if err != nil {
			t.Fatal(err)
		}
		if v.Outcome != c.want || (c.want == GoalReached && v.Cost != c.cost) || v.Why != c.why {
			t.Errorf("x=%d: %v, want %v cost %d %s", c.x, v, c.want, c.cost, c.why)
		}
	}
	// A run longer than the bound is reported as beyond it.
	v, err := task.GoalValueOf(st(2), nil, 2, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if v.Outcome != GoalBeyond || v.Cost != 2 || len(v.Run) != 3 {
		t.Errorf("x=2 bound 2: %v with %d steps, want beyond 2", v, len(v.Run))
	}
}

func TestGoalOraclesLine(t *testing.T) {
	task := goalLineTask(t)
	pool := &Pool{Entries: []PoolEntry{{State: symbolic.State{0}, Parent: -1}, {State: symbolic.State{8}, Parent: -1}}}
	for _, o := range []string{OracleLookahead, OracleOptimal, OracleRelax} {
		// Depth 3: from x=8 the policy loops, and three lefts reach 5.
		res, err := task.Confirm(context.Background(), pool, OracleOptions{Oracles: []string{o}, Depth: 3})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Bugs) != 2 {
			t.Errorf("%s: %d bugs, want 2 (x=0 and x=8 loop)", o, len(res.Bugs))
			continue
		}
		for _, b := range res.Bugs {
			if !b.Qualitative || b.Cost != goalAbs(b.State[0]-5) {
				t.Errorf("%s: bug at %v: cost %d qualitative %v", o, b.State, b.Cost, b.Qualitative)
			}
			if err := task.GoalConfirm(b, 1000); err != nil {
				t.Error(err)
			}
		}
	}
}

func goalAbs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Every bias finds bugs in a network policy for the 2x3 puzzle (its
// pool states are bugs about half the time, GOAL_FIGURES.md).
func TestGoalFuzzSpecs(t *testing.T) {
	task := loadGoalTask(t, "../bench/polic3/npuzzle.spec", map[string]string{"R": "2", "C": "3"}, "np2x3_16x16_safe", "")
	for _, biases := range [][]string{nil, {"polqual", "novelty"}, {"loop"}, {"detour"}, {"surface"}} {
		pool, err := task.Fuzz(context.Background(), PoolOptions{MaxPool: 20, Seed: 3, Biases: biases})
		if err != nil {
			t.Fatal(err)
		}
		res, err := task.Confirm(context.Background(), pool, OracleOptions{Oracles: []string{"undo", "lookahead", "relax"}, Expansions: 1000})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Bugs) == 0 {
			t.Errorf("%v: no bugs in a pool of %d", biases, len(pool.Entries))
		}
		t.Logf("%v: pool %d (%s, %d steps), bugs %d %v", biases, len(pool.Entries), pool.Stop, pool.Steps, len(res.Bugs), goalFoundCounts(res))
	}
}

func goalFoundCounts(r *GoalResult) map[string]int {
	out := map[string]int{}
	for k, v := range r.Found {
		out[k] = len(v)
	}
	return out
}

func TestGoalBadInput(t *testing.T) {
	task := goalLineTask(t)
	for _, c := range []struct {
		opt  PoolOptions
		want string
	}{
		{PoolOptions{MaxPool: -1}, "pool size -1"},
		{PoolOptions{Runtime: -1}, "runtime"},
		{PoolOptions{BState: -3}, "state budget"},
		{PoolOptions{Biases: []string{"loopy"}}, `unknown bias "loopy" (did you mean "loop"?); valid biases: polqual, novelty, loop, detour, surface`},
	} {
		_, err := task.Fuzz(context.Background(), c.opt)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want %q", c.opt, err, c.want)
		}
	}
	_, err := task.Confirm(context.Background(), &Pool{}, OracleOptions{Oracles: []string{"lookahed"}})
	if err == nil || !strings.Contains(err.Error(), "valid oracles: undo, lookahead, relax, optimal") {
		t.Errorf("unknown oracle: %v", err)
	}
	m, _ := lang.LoadSource("nogoal.spec", []byte("model n\nvar x : 0..3 = 0\naction a -> x' = 0\npolicy rules pi { otherwise -> a }\nproperty p { unsafe x == 3 }\n"), lang.Options{})
	d, _ := explicit.NewDecider(m, m.Policy(""))
	if _, err := NewGoalTask(m, m.Property(""), d, "pi"); err == nil || !strings.Contains(err.Error(), "has no goal condition") {
		t.Errorf("no goal: %v", err)
	}
	m, _ = lang.LoadSource("nostart.spec", []byte("model n\nvar x : 0..3 = 0\naction a -> x' = 0\npolicy rules pi { otherwise -> a }\nproperty p { start x > 5 unsafe x == 3 goal x == 1 }\n"), lang.Options{})
	d, _ = explicit.NewDecider(m, m.Policy(""))
	task, err = NewGoalTask(m, m.Property(""), d, "pi")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := task.Fuzz(context.Background(), PoolOptions{}); err == nil || !strings.Contains(err.Error(), "no state satisfies the start condition") {
		t.Errorf("no start: %v", err)
	}
}

// failingDecider cannot evaluate the policy in states with x >= 3, as a
// network with a missing input cannot.
type goalFailingDecider struct{ explicit.Decider }

func (f goalFailingDecider) Decide(s symbolic.State, app []bool) (symbolic.LabelID, error) {
	if s[0] >= 3 {
		return symbolic.NoLabel, fmt.Errorf("input 2 is missing")
	}
	return f.Decider.Decide(s, app)
}

func TestGoalPolicyNotEvaluable(t *testing.T) {
	task := goalLineTask(t)
	task.Policy = goalFailingDecider{task.Policy}
	_, err := task.GoalValueOf(symbolic.State{2}, nil, 100, 100)
	want := "fuzz: policy pi cannot be evaluated in state x=3: input 2 is missing"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
	if _, err := task.Fuzz(context.Background(), PoolOptions{Biases: []string{"polqual"}}); err == nil || !strings.Contains(err.Error(), "cannot be evaluated in state") {
		t.Errorf("fuzz: got %v", err)
	}
}

// Workers merge deterministically: the same seed and worker count give
// the same pool and bugs.
func TestGoalWorkersDeterministic(t *testing.T) {
	run := func() (*Pool, *GoalResult) {
		tasks := []*GoalTask{loadGoalTask(t, "../specs/twoway_line.spec", nil, "shuttle", ""), loadGoalTask(t, "../specs/twoway_line.spec", nil, "shuttle", "")}
		pool, res, err := GoalTest(context.Background(), tasks, PoolOptions{MaxPool: 30, Seed: 7, Biases: []string{"polqual", "novelty"}}, OracleOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return pool, res
	}
	p1, r1 := run()
	p2, r2 := run()
	if fmt.Sprint(p1.Entries) != fmt.Sprint(p2.Entries) || len(r1.Bugs) != len(r2.Bugs) {
		t.Fatalf("two runs differ: %d/%d pool states, %d/%d bugs", len(p1.Entries), len(p2.Entries), len(r1.Bugs), len(r2.Bugs))
	}
	for i := range r1.Bugs {
		if fmt.Sprint(r1.Bugs[i].State, r1.Bugs[i].Patch, r1.Bugs[i].Oracle) != fmt.Sprint(r2.Bugs[i].State, r2.Bugs[i].Patch, r2.Bugs[i].Oracle) {
			t.Errorf("bug %d differs", i)
		}
	}
	if len(r1.Bugs) == 0 {
		t.Error("no bugs on twoway_line: the shuttle policy has some")
	}
	t.Logf("%d pool states, %d bugs", len(p1.Entries), len(r1.Bugs))
}

// Zero options take paper 003's settings.
func TestGoalDefaults(t *testing.T) {
	o, err := PoolOptions{}.withDefaults()
	if err != nil || o.MaxPool != 100 || o.WalkLen != 5 || o.BState != 50 || o.BExpansion != 200 {
		t.Errorf("pool defaults: %+v, %v", o, err)
	}
	oo, err := OracleOptions{}.withDefaults()
	if err != nil || oo.Depth != 2 || len(oo.Oracles) != 4 {
		t.Errorf("oracle defaults: %+v, %v", oo, err)
	}
}

// A state first finished on a short path and met again deeper gives a run
// beyond the bound that must still end in a state that is no goal.
func TestGoalBeyondThroughFinishedState(t *testing.T) {
	task := goalTask(t, testutil.LoadSource(t, "hop.spec", `model hop
var x : 0 .. 8 = 0
action a when x < 6 -> x' = x + 2 | x' = x + 1
policy rules pi { otherwise -> a }
property p { unsafe false goal x >= 6 }
`))
	// The worst run takes 6 steps (+1 each time).
	v, err := task.GoalValueOf(symbolic.State{0}, nil, 100, 100)
	if err != nil || v.Outcome != GoalReached || v.Cost != 6 {
		t.Fatalf("bound 100: %v, %v", v, err)
	}
	v, err = task.GoalValueOf(symbolic.State{0}, nil, 5, 100)
	if err != nil {
		t.Fatal(err)
	}
	last := v.Run[len(v.Run)-1].State
	if v.Outcome != GoalBeyond || v.Cost != 5 || len(v.Run)-1 != 5 || last[0] >= 6 {
		t.Errorf("bound 5: %v, run of %d steps ending in x=%d; want beyond 5, 5 steps, no goal", v, len(v.Run)-1, last[0])
	}
	for i := 0; i+1 < len(v.Run); i++ {
		if d := v.Run[i+1].State[0] - v.Run[i].State[0]; d != 1 && d != 2 {
			t.Errorf("step %d: x %d -> %d", i, v.Run[i].State[0], v.Run[i+1].State[0])
		}
	}
}

// TestGoalBugListsOnlyTakenDecisions: a patch's overrides in states its
// plan never visits are dropped, so that a bug's faults are the decisions
// its better plan takes (h-test, session 20: the count of "decisions the
// better plan changes" could include others). From x = 1 on the line the
// policy detours left; the patch right at 1 is the fault, and an override
// at 8 (the policy's loop, far from the plan to 5) is not one.
func TestGoalBugListsOnlyTakenDecisions(t *testing.T) {
	task := goalLineTask(t)
	right := task.M.LabelIndex("right")
	s := symbolic.State{1}
	pv, err := task.value(s, nil, 100, 1000)
	if err != nil {
		t.Fatal(err)
	}
	patch := goalPatch{}
	patch.set(s, right)
	patch.set(symbolic.State{8}, right) // the policy goes left there; never visited from 1
	patch.set(symbolic.State{3}, right) // agrees with the policy: dropped as before
	b, err := task.newBug(s, "test", pv, patch, nil, 1000)
	if err != nil || b == nil {
		t.Fatalf("no bug: %v", err)
	}
	fs, err := task.Faults(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 1 || fs[0].State[0] != 1 || fs[0].Better != right {
		var got []string
		for _, f := range fs {
			got = append(got, task.M.FormatState(f.State))
		}
		t.Errorf("faults at %v, want the one at x=1", got)
	}
	if err := task.GoalConfirm(b, 1000); err != nil {
		t.Errorf("the pruned bug does not stand: %v", err)
	}
}
