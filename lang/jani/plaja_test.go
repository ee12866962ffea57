package jani

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// plajaDefines are the open constants of the PlaJA blocksworld models:
// the cost bound and failure probability used by the published instances.
var plajaDefines = map[string]map[string]string{
	"blocksworld_4_3.jani": {"item_cost_bound": "4", "failing_probability": "0.1"},
	"blocksworld_8_7.jani": {"item_cost_bound": "4", "failing_probability": "0.1"},
}

// TestPlaJAModels imports every JANI model of the PlaJA corpus: each must
// import or fail with an "unsupported feature" error.
func TestPlaJAModels(t *testing.T) {
	dir := corpus(t, "plaja")
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".jani") {
			return err
		}
		l, root, err := readJSON(path)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			return nil
		}
		_ = l
		if root.get("automata") == nil {
			return nil // a property, condition or predicate file
		}
		rel, _ := filepath.Rel(dir, path)
		t.Run(rel, func(t *testing.T) {
			if testing.Short() && strings.Contains(rel, "8_7") {
				t.Skip("large model in -short mode")
			}
			m, notes, err := LoadNotes(path, plajaDefines[filepath.Base(path)])
			switch {
			case err == nil:
				if os.Getenv("VIGIL_JANI_FIGURES") != "" {
					t.Logf("FIGURE | %s | ok | %d vars | %d labels | %d commands | %d notes |", rel, len(m.Vars), len(m.Labels), len(m.Commands), len(notes))
				}
			case strings.Contains(err.Error(), errUnsupported):
				if os.Getenv("VIGIL_JANI_FIGURES") != "" {
					t.Logf("FIGURE | %s | unsupported | %s |", rel, strings.SplitN(err.Error(), "\n", 2)[0])
				}
			default:
				t.Errorf("%v", err)
			}
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
