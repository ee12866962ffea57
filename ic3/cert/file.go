package cert

import (
	"bufio"
	"context"

	scert "vigil/safety/cert"
	"vigil/symbolic"
)

// WriteFile writes the SMT-LIB2 certificate c of the question (m, prop,
// decl) to the file path (see Cert.Write), as vigil verify --cert writes
// it (safety/cert.File): to a temporary file beside path, renamed over it
// once whole, so that no half-written certificate is ever left under
// path; on an error an older file of that name is kept.
func WriteFile(path string, c *Cert, m *symbolic.Model, prop *symbolic.Property, decl *symbolic.PolicyDecl) error {
	f, err := scert.CreatePlain(context.Background(), path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 64<<10)
	if err := c.Write(w, m, prop, decl); err != nil {
		f.Abort()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Abort()
		return err
	}
	return f.Close()
}
