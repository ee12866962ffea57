package jani_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"vigil/lang"
	"vigil/lang/jani"
	"vigil/symbolic"
)

// TestRoundTrip checks that `vigil import` output lowers to the same model:
// JANI -> IR -> .spec text -> IR -> .spec text gives the same text twice.
// (Labels that no command uses are not printed, so they do not survive.)
func TestRoundTrip(t *testing.T) {
	type tc struct {
		path    string
		defines map[string]string
	}
	cases := []tc{
		{"testdata/counter.jani", map[string]string{"N": "3"}},
		{"testdata/sync.jani", nil},
		{"testdata/derived.jani", nil},
		{"testdata/array.jani", nil},
	}
	qvbs := "../../../shared/corpus/jani/qvbs"
	for f, defs := range map[string]map[string]string{
		"beb.3-4.jani": {"N": "3"}, "cdrive.2.jani": nil, "consensus.2.jani": {"K": "2"},
		"elevators.a-3-3.jani": nil, "ij.3.jani": nil, "tireworld.17.jani": nil, "triangle-tireworld.9.jani": nil,
	} {
		if p := filepath.Join(qvbs, f); fileExists(p) {
			cases = append(cases, tc{p, defs})
		}
	}
	bw := "../../../shared/corpus/jani/plaja/blocksworld/cost_terminal/models/legacy_enc/"
	for _, f := range []string{"blocksworld_4_3.jani", "blocksworld_8_7.jani"} {
		if p := bw + f; fileExists(p) {
			cases = append(cases, tc{p, map[string]string{"item_cost_bound": "4", "failing_probability": "0.1"}})
		}
	}
	for _, c := range cases {
		t.Run(filepath.Base(c.path), func(t *testing.T) {
			m, err := jani.Load(c.path, c.defines)
			if err != nil {
				t.Fatal(err)
			}
			var first bytes.Buffer
			if err := symbolic.Print(&first, m); err != nil {
				t.Fatal(err)
			}
			spec := filepath.Join(t.TempDir(), "model.spec")
			if err := os.WriteFile(spec, first.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			m2, diags := lang.Load(spec, lang.Options{})
			if diags.HasErrors() {
				t.Fatalf("printed model does not load:\n%s\n%s", diags.Render(), first.String())
			}
			var second bytes.Buffer
			if err := symbolic.Print(&second, m2); err != nil {
				t.Fatal(err)
			}
			if first.String() != second.String() {
				t.Errorf("round trip differs:\n--- imported\n%s\n--- reloaded\n%s", first.String(), second.String())
			}
			if len(m.Vars) != len(m2.Vars) || len(m.Commands) != len(m2.Commands) {
				t.Errorf("vars %d/%d, commands %d/%d", len(m.Vars), len(m2.Vars), len(m.Commands), len(m2.Commands))
			}
		})
	}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
