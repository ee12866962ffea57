package load

import (
	"os"
	"path/filepath"
	"testing"

	"vigil/symbolic"
)

// A --policy-file is parsed once for its counts (fileDims, which binds it
// to the model's learned policy) and for the policy bound to it
// (symbolic.Instantiate, as the decider does), and once for a second load
// of the model (vigil faults' two loads): session 31 parsed it twice per
// load, for the counts and again for the policy.
func TestS31oPolicyFileParsedOnce(t *testing.T) {
	for _, tc := range []struct{ spec, file, ext string }{
		{"oneway.spec", "oneway_32x32.onnx", ".onnx"},
		{"lang_oneway_trees.spec", "oneway_trees.json", ".json"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("..", "specs", "policies", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			if tc.ext == ".json" {
				src = append(src, "\n\n\n"...) // a content no other test loaded
			}
			pf := filepath.Join(t.TempDir(), "p"+tc.ext)
			if err := os.WriteFile(pf, src, 0o644); err != nil {
				t.Fatal(err)
			}
			before := parses()
			for i := range 2 {
				l, err := Load(filepath.Join("..", "specs", tc.spec), Options{Files: Files{PolicyFile: pf}, Property: "no_overshoot", PolicyDefault: ThePolicy})
				if err != nil {
					t.Fatal(err)
				}
				if l.Policy == nil || l.Policy.File != pf {
					t.Fatalf("load %d: policy %+v; want the --policy-file's", i+1, l.Policy)
				}
				if _, err := symbolic.Instantiate(l.Model, l.Policy); err != nil {
					t.Fatal(err)
				}
			}
			n := parses() - before
			if n > 1 || (tc.ext == ".json" && n != 1) {
				t.Errorf("two loads, each with the policy bound: %d parses of the file; want 1", n)
			}
		})
	}
}
