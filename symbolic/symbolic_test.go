package symbolic

import (
	"math"
	"testing"
)

func TestFloorDiv(t *testing.T) {
	for _, c := range []struct{ a, k, want int }{{7, 2, 3}, {-7, 2, -4}, {-8, 2, -4}, {0, 3, 0}, {-1, 5, -1}, {5, 5, 1}} {
		if got := FloorDiv(c.a, c.k); got != c.want {
			t.Errorf("FloorDiv(%d, %d) = %d, want %d", c.a, c.k, got, c.want)
		}
	}
}

func TestChooseTieBreakAndStuck(t *testing.T) {
	outs := []LabelID{4, 2, 7}
	all := func(LabelID) bool { return true }
	if got := Choose(outs, []float64{1, 1, 0}, all); got != 4 {
		t.Errorf("tie: got %d, want the earliest output 4", got)
	}
	if got := Choose(outs, []float64{1, 3, 5}, func(l LabelID) bool { return l != 7 }); got != 2 {
		t.Errorf("inapplicable best: got %d, want 2", got)
	}
	if got := Choose(outs, []float64{math.Inf(-1), math.NaN(), 9}, func(l LabelID) bool { return l != 7 }); got != NoLabel {
		t.Errorf("stuck: got %d, want NoLabel", got)
	}
}

// The rules policy, written as scores, picks the first rule whose condition
// holds and whose label is applicable.
func TestRulesPolicyIsADecisionList(t *testing.T) {
	x := V(0)
	d := &PolicyDecl{Kind: KindRules, Rules: []Rule{
		{Cond: Compare(x, Gt, Lit(5)), Label: 1},
		{Cond: Compare(x, Gt, Lit(2)), Label: 0},
		{Cond: Compare(x, Gt, Lit(0)), Label: 1},
		{Cond: True(), Label: 2},
	}}
	p := NewRulesPolicy(d)
	for _, c := range []struct {
		x    int
		app  map[LabelID]bool
		want LabelID
	}{
		{7, map[LabelID]bool{0: true, 1: true, 2: true}, 1},
		{7, map[LabelID]bool{0: true, 2: true}, 0},
		{3, map[LabelID]bool{1: true, 2: true}, 1},
		{0, map[LabelID]bool{0: true, 1: true, 2: true}, 2},
		{0, map[LabelID]bool{0: true, 1: true}, NoLabel},
	} {
		got, err := Decide(p, State{c.x}, func(l LabelID) bool { return c.app[l] }, nil)
		if err != nil || got != c.want {
			t.Errorf("x=%d app=%v: got %d, want %d", c.x, c.app, got, c.want)
		}
	}
}

func TestEvalAndBounds(t *testing.T) {
	m := &Model{Vars: []Var{{Name: "a", Lo: -3, Hi: 4}, {Name: "b", Lo: 0, Hi: 1, Bool: true}}}
	e := &Expr{Op: OpAdd, Args: []*Expr{
		{Op: OpAbs, Args: []*Expr{V(0)}},
		{Op: OpDiv, K: 2, Args: []*Expr{V(0)}},
		{Op: OpIte, Cond: &Cond{Op: CVar, Var: 1}, Args: []*Expr{Lit(10), {Op: OpMul, K: -2, Args: []*Expr{V(0)}}}},
	}}
	lo, hi := m.Bounds(e)
	for a := -3; a <= 4; a++ {
		for b := 0; b <= 1; b++ {
			v := e.Eval(State{a, b})
			if v < lo || v > hi {
				t.Errorf("a=%d b=%d: %d outside bounds [%d, %d]", a, b, v, lo, hi)
			}
		}
	}
	if got := m.CondString(&Cond{Op: CNot, Args: []*Cond{Compare(V(0), Lt, Lit(1))}}); got != "!(a < 1)" {
		t.Errorf("printed %q", got)
	}
}
