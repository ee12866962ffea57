package testutil

import (
	"os"
	"path/filepath"
	"testing"

	"vigil/lang"
	"vigil/symbolic"
)

// LoadFile reads and lowers the .spec file at path, named by its base
// name in positions, and fails the test if it does not lower.
func LoadFile(t testing.TB, path string) *symbolic.Model {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return LoadSource(t, filepath.Base(path), string(src))
}

// LoadSource lowers the .spec text src, named name in positions, and
// fails the test if it does not lower.
func LoadSource(t testing.TB, name, src string) *symbolic.Model {
	t.Helper()
	m, diags := lang.LoadSource(name, []byte(src), lang.Options{})
	if m == nil {
		t.Fatal(diags)
	}
	return m
}
