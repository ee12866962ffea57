package testutil

import (
	"bytes"

	"vigil/safety/cert"
	"vigil/symbolic"
)

// RecheckSafetyCert writes the safety certificate c in the file format
// and has the independent checker read it back and check it against the
// model, property and policy (as vigil cert check does).
func RecheckSafetyCert(m *symbolic.Model, prop *symbolic.Property, pol *symbolic.PolicyDecl, c *cert.Certificate) error {
	var buf bytes.Buffer
	if err := cert.Write(&buf, c); err != nil {
		return err
	}
	cc, err := cert.Read(&buf)
	if err != nil {
		return err
	}
	_, err = cert.Check(m, prop, pol, cc)
	return err
}
