package cert

import (
	"os"

	"vigil/symbolic"
)

// WriteFile writes the SMT-LIB2 certificate c of the question (m, prop,
// decl) to the file path (see Cert.Write).
func WriteFile(path string, c *Cert, m *symbolic.Model, prop *symbolic.Property, decl *symbolic.PolicyDecl) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := c.Write(f, m, prop, decl); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
