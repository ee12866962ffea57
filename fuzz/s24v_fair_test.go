package fuzz

import (
	"strconv"
	"strings"
	"testing"

	"vigil/internal/testutil"
	"vigil/lang/jani"
	"vigil/symbolic"
)

// TestS24vFairCostliest: under fair outcomes an outcome of probability 0
// never happens, in costliest (the costliest command leading to a
// successor) too. When two commands of a label have costs, costliest
// applied every outcome, and the range error of one of probability 0
// stopped fair goal testing (exit 1) where vigil prob gives P=1; and a
// successor that the costliest command makes only by an outcome of
// probability 0 was named by the first command of positive probability
// leading there, not the costliest (x=1 cost 1, not 3: a plan through it
// looked cheaper than it is).
func TestS24vFairCostliest(t *testing.T) {
	m := testutil.LoadSource(t, "c.spec", `model c
var x : 0 .. 3 = 0
action a when x == 0 cost 1 -> 1: x' = 1 | 0: x' = x + 9
action a when x == 0 cost 2 -> x' = 1
action b when x == 1 -> x' = 2
policy rules pi {
    when x == 0 -> a
    otherwise -> b
}
property p { start x == 0  unsafe false  goal x == 2 }
`)
	task := goalTask(t, m)
	task.Fair = true
	v, err := task.GoalValueOf(symbolic.State{0}, nil, 100, 100)
	if err != nil {
		t.Fatalf("fair: %v", err)
	}
	if v.Outcome != GoalReached {
		t.Errorf("fair: %+v; want the goal reached (with probability 1, as vigil prob says)", v)
	}
	task.Fair = false
	if _, err := task.GoalValueOf(symbolic.State{0}, nil, 100, 100); err == nil {
		t.Errorf("adversarial outcomes: no range error (outcome 2 of a's first command sets x to 9)")
	}

	m = testutil.LoadSource(t, "k.spec", `model k
var x : 0 .. 3 = 0
action a when x == 0 cost 1 -> x' = 1
action a when x == 0 cost 5 -> 1: x' = 2 | 0: x' = 1
action a when x == 0 cost 3 -> x' = 1
action b when x >= 1 -> x' = 3
policy rules pi { when x == 0 -> a  otherwise -> b }
property p { start x == 0  unsafe false  goal x == 3 }
`)
	task = goalTask(t, m)
	task.Fair = true
	succ, err := task.succs(symbolic.State{0}, m.LabelIndex("a"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range succ {
		if e.s[0] == 1 && e.cmd != 2 {
			t.Errorf("fair: x=1 is named by command %d; want 2 (cost 3: command 1's outcome to x=1 has probability 0)", e.cmd)
		}
	}
	if len(succ) != 2 {
		t.Errorf("fair successors of a in x=0: %+v; want x=1 and x=2", succ)
	}
}

// takeA takes label a wherever it is applicable.
type takeA struct{ a symbolic.LabelID }

func (d takeA) Decide(s symbolic.State, app []bool) (symbolic.LabelID, error) {
	if app[d.a] {
		return d.a, nil
	}
	return symbolic.NoLabel, nil
}

// stateProbJANI: from y=0, action a goes to y=1..n (the goal) with
// probability (1 - x/2)/n each and to y=trap with probability x/2: 0 in
// x=0 only. n > 8 keeps the edge unsplit (its outcomes in every state).
func stateProbJANI(n, trap int) string {
	px := `{"op":"/","left":"x","right":2}`
	rest := `{"op":"/","left":{"op":"-","left":1,"right":` + px + `},"right":` + strconv.Itoa(n) + `}`
	var ds []string
	for i := 1; i <= n; i++ {
		ds = append(ds, `{"location":"l","probability":{"exp":`+rest+`},"assignments":[{"ref":"y","value":`+strconv.Itoa(i)+`}]}`)
	}
	ds = append(ds, `{"location":"l","probability":{"exp":`+px+`},"assignments":[{"ref":"y","value":`+strconv.Itoa(trap)+`}]}`)
	return `{"jani-version":1,"name":"f","type":"mdp","actions":[{"name":"a"}],
"variables":[{"name":"x","type":{"kind":"bounded","base":"int","lower-bound":0,"upper-bound":2}},
{"name":"y","type":{"kind":"bounded","base":"int","lower-bound":0,"upper-bound":9},"initial-value":0}],
"restrict-initial":{"exp":{"op":"≤","left":"x","right":1}},
"properties":[{"name":"p","expression":{"op":"filter","fun":"min","states":{"op":"initial"},"values":{"op":"Pmin","exp":{"op":"F","exp":{"op":"∧","left":{"op":"≥","left":"y","right":1},"right":{"op":"≤","left":"y","right":8}}}}}}],
"automata":[{"name":"m","locations":[{"name":"l"}],"initial-locations":["l"],"edges":[
{"location":"l","action":"a","guard":{"exp":{"op":"=","left":"y","right":0}},"destinations":[` + strings.Join(ds, ",") + `]}]}],
"system":{"elements":[{"automaton":"m"}]}}`
}

// TestS24vFairStateProb: a JANI probability that reads the state and is
// 0 in some states only (x/2: 0 in x=0), on an edge split by its live
// conditions (one goal destination) and on one kept whole (8, beyond the
// split limit): under fair outcomes the trap (or the range error of y =
// 10) never happens from x=0, and does from x=1, as vigil prob has it
// (Pmin = 1 from x=0, 1/2 from x=1; the range error in x=1 y=0).
func TestS24vFairStateProb(t *testing.T) {
	for _, n := range []int{1, 8} {
		for _, trap := range []int{9, 10} {
			m, _, err := jani.Decode("f.jani", []byte(stateProbJANI(n, trap)), nil)
			if err != nil {
				t.Fatal(err)
			}
			task, err := NewGoalTask(m, m.Property("p"), takeA{m.LabelIndex("a")}, "a")
			if err != nil {
				t.Fatal(err)
			}
			task.Fair = true
			v, err := task.GoalValueOf(symbolic.State{0, 0}, nil, 100, 100)
			if err != nil || v.Outcome != GoalReached {
				t.Errorf("n=%d trap=%d, x=0: %+v, %v; want reached (the trap has probability 0)", n, trap, v, err)
			}
			v, err = task.GoalValueOf(symbolic.State{1, 0}, nil, 100, 100)
			switch {
			case trap == 10 && (err == nil || !strings.Contains(err.Error(), "sets y to 10 outside 0..9 in state x=1 y=0")):
				t.Errorf("n=%d, x=1: %+v, %v; want the range error of y = 10 (probability 1/2)", n, v, err)
			case trap == 9 && (err != nil || v.Outcome != GoalFails):
				t.Errorf("n=%d, x=1: %+v, %v; want the policy failing (the trap has probability 1/2)", n, v, err)
			}
		}
	}
}
