package nn

import (
	"testing"
	"time"
)

// s25w: the corner check's time (cornerTime) is one budget for all the
// cases branch and bound left undecided, not a fresh one per case: a
// VNNLIB disjunction of 40 boxes over a 4x300 ReLU network, each case
// given its 200 ms after the deadline, ran nn verify --timeout 2s for 12 s
// (nn/FIGURES.md). A case reached once the budget has passed is not
// tried, even where its corner is a counterexample.
func TestS25wCornerBudgetShared(t *testing.T) {
	net, prop := cornerNet(t, 4, 1), cornerProp(t, 4, "(>= Y_0 1)")
	c := prop.Cases[0]
	p := newProver(net, c.provable(net), Options{})
	p.points = c.points()
	if c.exact != nil {
		p.exact = c.holdsExactly
	}
	if x := p.cornerWitness(c.Box, time.Now().Add(time.Minute)); x == nil {
		t.Fatal("within the budget: no witness at the corner 1, 1, 1, 1")
	}
	if x := p.cornerWitness(c.Box, time.Now().Add(-time.Millisecond)); x != nil {
		t.Fatalf("after the budget: %v, want nothing tried", x)
	}
}
