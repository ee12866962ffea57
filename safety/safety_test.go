package safety_test

import (
	"testing"

	"vigil/internal/testutil"
	"vigil/safety"
	"vigil/safety/conformance"
	"vigil/symbolic/gen"
)

func models(t *testing.T) int {
	if testing.Short() {
		return 100
	}
	return 1000
}

// checkCert is the independent checker's answer on c, written and read
// back (testutil.RecheckSafetyCert).
var checkCert = testutil.RecheckSafetyCert

func TestConformance(t *testing.T) {
	for _, algo := range safety.Algorithms {
		for _, ord := range []safety.Order{safety.OrderApp, safety.OrderLearn, safety.OrderRand} {
			if ord != safety.OrderApp && algo != "ipi" && algo != "npi" {
				continue
			}
			name := algo + "/" + ord.String()
			opt := conformance.Options{Models: models(t), Check: checkCert}
			if algo == "tarjan-path" {
				// Exponential by design (paper 002, Theorem 2): smaller models.
				opt.Models /= 4
				opt.Gen = gen.Options{MaxVars: 3, MaxRange: 4}
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				conformance.Run(t, decider(t, algo, safety.Options{Order: ord, Seed: 7}), opt)
			})
		}
	}
}

// TestConformanceLarger runs the suite on fewer, larger models (more
// variables, wider ranges, more labels and outcomes), where runs are
// longer and faults more frequent.
func TestConformanceLarger(t *testing.T) {
	runLarge(t, 3, conformance.Options{Models: models(t) / 5, FirstSeed: 100000, Check: checkCert, CertEvery: 3,
		Gen: gen.Options{MaxVars: 5, MaxRange: 8, MaxLabels: 4, MaxCommands: 7, MaxOutcomes: 3}})
}

// decider returns the suite's factory of algo's deciders with options o.
func decider(t *testing.T, algo string, o safety.Options) func(*safety.Space, safety.Radius) safety.Decider {
	return func(sp *safety.Space, r safety.Radius) safety.Decider {
		d, err := safety.New(algo, sp, r, o)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
}

// runLarge runs the suite with opt for every algorithm but tarjan-path
// (exponential: kept to the small models), in parallel, ordering by
// learned values with the given seed.
func runLarge(t *testing.T, seed uint64, opt conformance.Options) {
	for _, algo := range safety.Algorithms {
		if algo == "tarjan-path" {
			continue
		}
		t.Run(algo, func(t *testing.T) {
			t.Parallel()
			conformance.Run(t, decider(t, algo, safety.Options{Order: safety.OrderLearn, Seed: seed}), opt)
		})
	}
}
