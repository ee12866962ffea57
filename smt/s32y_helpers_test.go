package smt

import (
	"testing"
	"time"
)

// keepChecks stops CheckContext from giving a check up for the length of
// the test: the tests of an interrupt's effect on the solver go on with
// the context after the stopped check, and under load (or -race) Z3
// sometimes took more than abandonAfter to return from an interrupted
// check, so that the context was given up and the test failed with
// "a check it interrupted still runs in Z3" (TestS29sCancelRace under
// -race, TestS31iInterruptRace in a run of the whole package).
func keepChecks(t testing.TB) {
	old := abandonAfter
	abandonAfter = time.Minute
	t.Cleanup(func() { abandonAfter = old })
}

// quiesce waits until no context handed to another goroutine for its
// deletion is left (pendingDeletes): a count of live contexts taken
// before then dropped when an earlier test's context was deleted
// (TestS29sEdgeTransitions: "1 Z3 contexts and 1 solvers alive before
// the model, 0 and 0 after", TestS32iAbandonCheck likewise).
func quiesce(t testing.TB) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for pendingDeletes.Load() > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d contexts still wait for their deletion after 60 s", pendingDeletes.Load())
		}
		time.Sleep(5 * time.Millisecond)
	}
}
