package cert

import (
	"context"
	"errors"
	"strings"
	"testing"

	"vigil/symbolic"
)

// A policy fact whose re-check passes one of the checker's own bounds
// (here the differ enumeration's, lowered to 4 states) is no verdict,
// an *Inconclusive, not a *FactFailure or a *Failure: no state refuted
// it. It was reported "invalid" (exit 1, failed_condition "fact"), as if
// refuted, and vigil verify's own check of such an invariant an internal
// error (exit 70). The same fact within the bound still holds, and a
// false one is still a *FactFailure.
func TestS32cBudgetIsInconclusive(t *testing.T) {
	m := &symbolic.Model{Name: "d", Vars: []symbolic.Var{{Name: "a", Lo: 0, Hi: 2}, {Name: "b", Lo: 0, Hi: 2}}, Labels: []symbolic.Label{{Name: "x"}, {Name: "y"}}}
	fc := NewFactChecker(m, &diagPolicy{})
	pairs := [][2]symbolic.VarID{{0, 1}}
	f := Fact{Lo: []int{0, 0}, Hi: []int{2, 2}, Label: 0, Sure: []symbolic.LabelID{1}, Differ: pairs}
	if err := fc.Check(context.Background(), f); err != nil {
		t.Fatalf("within the bound: %v", err)
	}
	defer func() { differLimit = MaxDifferStates }()
	differLimit = 4
	err := fc.Check(context.Background(), f)
	u, ok := errors.AsType[*Inconclusive](err)
	if !ok || u.Budget == "" || !strings.Contains(Message(err), "cannot re-check the policy fact within the checker's bounds: within the disequalities: its region holds more than 4 states") {
		t.Errorf("beyond the bound: %v (%T), want an *Inconclusive naming the bound", err, err)
	}
	if _, failed := errors.AsType[*FactFailure](err); failed {
		t.Errorf("beyond the bound: a *FactFailure: %v", err)
	}
	bad := Fact{Lo: f.Lo, Hi: f.Hi, Label: 1, Sure: []symbolic.LabelID{0}, Differ: pairs}
	if _, failed := errors.AsType[*FactFailure](fc.Check(context.Background(), bad)); !failed {
		t.Errorf("a false fact is no longer refuted")
	}
}
