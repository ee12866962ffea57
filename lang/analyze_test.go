package lang

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzAnalyze: the editor's analysis never panics, whatever is typed, and
// every reference it records is found at its own position and resolves
// without panicking.
func FuzzAnalyze(f *testing.F) {
	for _, file := range specFiles(f) {
		src, _ := os.ReadFile(file)
		f.Add(src)
	}
	addTestdataSeeds(f)
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, src []byte) {
		a := Analyze(filepath.Join(dir, "fuzz.spec"), src, Options{})
		for _, r := range a.Refs {
			got, ok := a.RefAt(r.Pos.Line, r.Pos.Col)
			if !ok || got.Pos.Line != r.Pos.Line {
				t.Fatalf("reference %s at %s is not found at its position", r.Name, r.Pos)
			}
			a.Resolve(r)
		}
		for _, s := range a.Symbols {
			if s.Name == "" && s.Kind != KindModel {
				t.Fatalf("a %s without a name", s.Kind)
			}
		}
	})
}

// TestAnalyzeSpecs: on every shipped spec, each use of a declared name
// resolves to a declaration, and each declaration is a symbol.
func TestAnalyzeSpecs(t *testing.T) {
	for _, file := range specFiles(t) {
		src, _ := os.ReadFile(file)
		a := Analyze(file, src, Options{})
		if a.File == nil || a.Diags.HasErrors() {
			t.Errorf("%s: %s", file, a.Diags.Render())
			continue
		}
		for _, r := range a.Refs {
			if len(a.Resolve(r)) == 0 {
				t.Errorf("%s:%d:%d: %s resolves to nothing", file, r.Pos.Line, r.Pos.Col, r.Name)
			}
		}
	}
}
