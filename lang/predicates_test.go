package lang_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vigil/lang"
)

// Predicates written as .spec declarations over a model load as its
// conditions; a file without any says how to write one.
func TestLoadPredicates(t *testing.T) {
	const model = "../specs/oneway.spec"
	m, diags := lang.LoadFile(model, lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	dir := t.TempDir()
	good := filepath.Join(dir, "p.spec")
	if err := os.WriteFile(good, []byte("pred slow = speed < 2\npred near = pos >= 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ps, err := lang.LoadPredicates(good, model, nil, m)
	if err != nil || len(ps) != 2 {
		t.Fatalf("LoadPredicates = %d predicates, %v; want 2", len(ps), err)
	}
	empty := filepath.Join(dir, "none.spec")
	if err := os.WriteFile(empty, []byte("// nothing\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := lang.LoadPredicates(empty, model, nil, m); err == nil || !strings.Contains(err.Error(), "write one `pred NAME = CONDITION` per line") {
		t.Errorf("LoadPredicates of a file without predicates: %v", err)
	}
}
