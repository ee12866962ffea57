package trees_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"vigil/internal/testutil"
	"vigil/safety"
	safetyconf "vigil/safety/conformance"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/explicit/conformance"
	"vigil/symbolic/gen"
	"vigil/trees"
	"vigil/verify"
)

// TestS24yTiesEngines: with XGBoost ensembles whose margins tie exactly on
// many states (TestS24yExactTies checks the choices and box searches
// against the tie rule), every engine that verifies a policy (bfs, bdd,
// polic3, ppa) agrees with BFS on models whose verdict turns on the
// policy's choices, and every safety decider agrees with the safety
// suite's reference at radius 0, 1 and inf; both readings of the arg-max.
func TestS24yTiesEngines(t *testing.T) {
	dir := t.TempDir()
	n := 100
	if testing.Short() {
		n = 40
	}
	policy := func(m *symbolic.Model, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
		d, err := trees.S24yTieXGB(dir, m, seed, seed%3 == 0)
		if err != nil {
			return nil, nil, err
		}
		p, err := symbolic.Instantiate(m, d)
		return p, d, err
	}
	g := gen.Options{MaxVars: 3, MaxRange: 6, MaxLabels: 4, MaxCommands: 6, InitialStart: true}
	for _, engine := range []string{"bfs", "bdd", "polic3", "ppa"} {
		t.Run(engine, func(t *testing.T) {
			v := func(ctx context.Context, m *symbolic.Model, prop *symbolic.Property, pd *symbolic.PolicyDecl) (conformance.Answer, error) {
				res, err := verify.Decide(ctx, &verify.Question{Model: m, Property: prop, Policy: pd,
					Engine: engine, Limits: verify.Limits{Timeout: 5 * time.Second}})
				if err != nil {
					return conformance.Answer{}, err
				}
				if res.Answer == explicit.Unknown {
					return conformance.Answer{}, fmt.Errorf("unknown: %s", res.Reason)
				}
				return conformance.Answer{Verdict: res.Answer, Trace: res.Trace}, nil
			}
			conformance.Verify(t, v, conformance.Options{Models: n, FirstSeed: 24100, Gen: g, Policy: policy})
		})
	}
	for _, algo := range safety.Algorithms {
		t.Run("safe-"+algo, func(t *testing.T) {
			f := func(sp *safety.Space, r safety.Radius) safety.Decider {
				d, err := safety.New(algo, sp, r, safety.Options{Seed: 3})
				if err != nil {
					t.Fatal(err)
				}
				return d
			}
			safetyconf.Run(t, f, safetyconf.Options{Models: n, FirstSeed: 24200, Radii: []safety.Radius{0, 1, safety.Inf}, Check: checkTieCert, CertEvery: 8,
				Gen: gen.Options{MaxVars: 3, MaxRange: 4, MaxLabels: 4},
				Policy: func(m *symbolic.Model, seed uint64) (*symbolic.PolicyDecl, error) {
					return trees.S24yTieXGB(dir, m, seed, seed%3 == 0)
				}})
		})
	}
}

// checkTieCert is the independent checker's answer on c, written and read
// back (testutil.RecheckSafetyCert).
var checkTieCert = testutil.RecheckSafetyCert
