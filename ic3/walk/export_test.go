package walk

import (
	"os"
	"path/filepath"
	"testing"

	"vigil/lang"
	"vigil/symbolic/explicit"
)

// LoadTestModel loads the model src of property p and policy pi, for the
// tests of this package and of walk_test.
var LoadTestModel = loadTestModel

func loadTestModel(t *testing.T, src string) (*explicit.Generator, explicit.Decider) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "m.spec")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	m, diags := lang.Load(path, lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	g, err := explicit.New(m, m.Property("p"))
	if err != nil {
		t.Fatal(err)
	}
	dec, err := explicit.NewDecider(m, m.Policy("pi"))
	if err != nil {
		t.Fatal(err)
	}
	return g, dec
}
