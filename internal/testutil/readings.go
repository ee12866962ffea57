package testutil

import (
	"testing"

	"vigil/symbolic"
	"vigil/symbolic/explicit/conformance"
	"vigil/symbolic/gen"
)

// ReadingsDiffer fails t unless the readings give different BFS verdicts
// on some of the questions of a suite of models from seed first on, with
// generator options g and policies from mk (conformance.Readings), so
// that the suite can tell an engine that ignores `argmax all`. The ic3
// and ppa suites of argmax-all policies both ask it.
func ReadingsDiffer(t *testing.T, models int, first uint64, g gen.Options, mk MakePolicy) {
	t.Helper()
	q, d, err := conformance.Readings(conformance.Options{Models: models, FirstSeed: first, Gen: g,
		Policy: RecordPolicies(map[*symbolic.PolicyDecl]symbolic.Policy{}, mk)})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the readings give different BFS verdicts on %d of %d questions", d, q)
	if d == 0 {
		t.Error("the readings never differ: the suite cannot tell an engine that ignores argmax all")
	}
}
