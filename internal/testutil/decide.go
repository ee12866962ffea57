package testutil

import (
	"testing"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// DecidersAgree checks on every state of m, every label applicable, that
// the explicit engine's decider for p (explicit.PolicyDecider) chooses
// what symbolic.Decide chooses, and returns the labels chosen. visit, if
// not nil, is called with each state and its label (and must not keep
// the state). seed names the model in messages.
func DecidersAgree(t *testing.T, seed uint64, m *symbolic.Model, p symbolic.Policy, visit func(s symbolic.State, l symbolic.LabelID)) map[symbolic.LabelID]bool {
	t.Helper()
	dec, err := explicit.PolicyDecider(m, p)
	if err != nil {
		t.Fatal(err)
	}
	all := make([]bool, len(m.Labels))
	for i := range all {
		all[i] = true
	}
	seen := map[symbolic.LabelID]bool{}
	ModelStates(m, func(s symbolic.State) {
		want, err := symbolic.Decide(p, s, func(symbolic.LabelID) bool { return true }, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := dec.Decide(s, all); err != nil || got != want {
			t.Fatalf("seed %d state %v: explicit decider %v (%v), symbolic.Decide %v", seed, s, got, err, want)
		}
		seen[want] = true
		if visit != nil {
			visit(s, want)
		}
	})
	return seen
}
