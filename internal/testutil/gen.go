package testutil

import (
	"testing"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// Generator is explicit.New for a test: the successor generator of m
// under prop (nil: no property), failing t when the model does not
// compile.
func Generator(t testing.TB, m *symbolic.Model, prop *symbolic.Property) *explicit.Generator {
	t.Helper()
	g, err := explicit.New(m, prop)
	if err != nil {
		t.Fatal(err)
	}
	return g
}
