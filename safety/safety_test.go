package safety_test

import (
	"testing"

	"vigil/safety"
	"vigil/safety/conformance"
)

func models(t *testing.T) int {
	if testing.Short() {
		return 100
	}
	return 1000
}

func TestConformance(t *testing.T) {
	for _, algo := range []string{"tarjan", "ipi", "npi", "propu", "vi", "lrtdp", "lao"} {
		for _, ord := range []safety.Order{safety.OrderApp, safety.OrderLearn, safety.OrderRand} {
			if ord != safety.OrderApp && algo != "ipi" && algo != "npi" {
				continue
			}
			name := algo + "/" + ord.String()
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				conformance.Run(t, func(sp *safety.Space, r safety.Radius) safety.Decider {
					d, err := safety.New(algo, sp, r, safety.Options{Order: ord, Seed: 7})
					if err != nil {
						t.Fatal(err)
					}
					return d
				}, conformance.Options{Models: models(t)})
			})
		}
	}
}
