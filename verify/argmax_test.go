package verify_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"vigil/internal/testutil"
	"vigil/nn"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/explicit/conformance"
	"vigil/symbolic/gen"
	"vigil/trees"
	"vigil/verify"
)

// TestEnginesArgMaxAll: every engine that takes a learned policy (bfs,
// bdd, polic3, ppa and the auto portfolio) agrees with BFS's reference on
// random networks and ensembles read `argmax all` (PlaJA's policy without
// applicability filtering: stuck where the arg-max over all outputs is
// not applicable), on models with one start state out of the unsafe
// ones, where the verdict turns on the policy's choices. verify.Decide
// checks each answer (a counterexample replays, a certificate checks).
func TestEnginesArgMaxAll(t *testing.T) {
	n := 120
	if testing.Short() {
		n = 40
	}
	g := gen.Options{MaxVars: 4, MaxRange: 8, MaxLabels: 5, MaxCommands: 8, InitialStart: true}
	mks := map[string]testutil.MakePolicy{
		"nn": testutil.ArgMaxAll(func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
			return nn.Random(m, outs, seed, []int{6})
		}),
		"trees": testutil.ArgMaxAll(func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
			return trees.Random(m, outs, seed, 4, 3)
		}),
	}
	for kind, mk := range mks {
		for _, engine := range []string{"bfs", "bdd", "polic3", "ppa", "auto"} {
			t.Run(kind+"/"+engine, func(t *testing.T) {
				pols := map[*symbolic.PolicyDecl]symbolic.Policy{}
				v := func(ctx context.Context, m *symbolic.Model, prop *symbolic.Property, pd *symbolic.PolicyDecl) (conformance.Answer, error) {
					res, err := verify.Decide(ctx, &verify.Question{Model: m, Property: prop, Policy: pd, Executable: pols[pd],
						Engine: engine, Limits: verify.Limits{Timeout: 5 * time.Second}})
					if err != nil {
						return conformance.Answer{}, err
					}
					// Every engine decides every question here, ppa
					// included: its refinement used to diverge on a few
					// of these models (seed 41095: 180 spurious paths in
					// 30 s, weakest preconditions repeating a predicate in
					// another form); since predicates are keyed by their
					// truth table it takes at most 6 iterations and 0.1 s
					// on the first 400 seeds under either reading
					// (ppa/FIGURES.md).
					if res.Answer == explicit.Unknown {
						return conformance.Answer{}, fmt.Errorf("unknown: %s", res.Reason)
					}
					return conformance.Answer{Verdict: res.Answer, Trace: res.Trace}, nil
				}
				conformance.Verify(t, v, conformance.Options{Models: n, FirstSeed: 41000, Gen: g,
					Policy: testutil.RecordPolicies(pols, mk)})
			})
		}
	}
}
