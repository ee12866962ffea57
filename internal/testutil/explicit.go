package testutil

import (
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// Decider is explicit.NewDecider for a policy declaration that may be
// nil: no policy gives a nil Decider (every applicable action).
func Decider(m *symbolic.Model, pd *symbolic.PolicyDecl) (explicit.Decider, error) {
	if pd == nil {
		return nil, nil
	}
	return explicit.NewDecider(m, pd)
}

// Explicit builds the explicit engine's successor generator for prop and
// the decider of the policy pd (nil for none), the reference a test
// compares another engine with.
func Explicit(m *symbolic.Model, prop *symbolic.Property, pd *symbolic.PolicyDecl) (*explicit.Generator, explicit.Decider, error) {
	g, err := explicit.New(m, prop)
	if err != nil {
		return nil, nil, err
	}
	dec, err := Decider(m, pd)
	if err != nil {
		return nil, nil, err
	}
	return g, dec, nil
}
