package jani

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestS28rFileCycles: a PA property whose "predicates" names {"file": F}
// where F is a PA property naming the first file again (or itself), and
// a PA property whose policy "file" names itself, were followed for ever:
// the importer died of a Go stack overflow (a fatal error, not even a
// panic, exit 2 with a runtime dump). A cycle is now an error at the
// "file" member that closes it.
func TestS28rFileCycles(t *testing.T) {
	dir := t.TempDir()
	pa := func(extra string) string {
		return `{"properties": [{"name": "p", "expression": {"op": "PA",
  "start": {"op": "state-condition", "exp": {"op": "=", "left": "x", "right": 0}},
  "reach": {"op": "state-condition", "exp": {"op": ">", "left": "x", "right": 2}}` + extra + `}}]}`
	}
	files := map[string]string{
		"self.jani":   pa(`, "predicates": {"file": "self.jani"}`),
		"a.jani":      pa(`, "predicates": {"file": "sub/b.jani"}`),
		"sub/b.jani":  pa(`, "predicates": {"file": "../a.jani"}`),
		"pol.jani":    pa(`, "file": "pol.jani"`),
		"pola.jani":   pa(`, "file": "polb.jani"`),
		"polb.jani":   pa(`, "file": "pola.jani"`),
		"chain.jani":  pa(`, "predicates": {"file": "list.jani"}`),
		"list.jani":   `[{"op": "<", "left": "x", "right": 2}]`,
		"chain2.jani": pa(`, "predicates": {"file": "chain.jani"}`),
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m := counterModel(t)
	for _, tc := range []struct{ file, want string }{
		{"self.jani", `self.jani#properties[0].expression.predicates.file:`},
		{"a.jani", `b.jani#properties[0].expression.predicates.file:`},
	} {
		_, err := LoadPredicates(filepath.Join(dir, tc.file), m)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "cycle") {
			t.Errorf("predicates %s: %v, want an error at %s naming the cycle", tc.file, err, tc.want)
		}
	}
	for _, f := range []string{"pol.jani", "pola.jani"} {
		_, err := LoadPolicyFile(m, filepath.Join(dir, f))
		if err == nil || !strings.Contains(err.Error(), "cycle") || !strings.Contains(err.Error(), "#properties[0].expression.file:") {
			t.Errorf("policy %s: %v, want an error at the PA property's \"file\" naming the cycle", f, err)
		}
	}
	// A chain without a cycle is still followed (two PA properties, then
	// a list).
	ps, err := LoadPredicates(filepath.Join(dir, "chain2.jani"), m)
	if err != nil || len(ps) != 1 {
		t.Errorf("chain2.jani: %d predicates, %v; want 1", len(ps), err)
	}
}

// TestS28rPredicatesChoose: --predicates FILE with several PA properties
// said "choose one with --property NAME" even when --property chose one
// (LoadPredicates always passed no choice); LoadPredicatesNamed reads the
// chosen one's predicates.
func TestS28rPredicatesChoose(t *testing.T) {
	dir := t.TempDir()
	prop := func(name, bound string) string {
		return `{"name": "` + name + `", "expression": {"op": "PA",
  "start": {"op": "state-condition", "exp": {"op": "=", "left": "x", "right": 0}},
  "reach": {"op": "state-condition", "exp": {"op": ">", "left": "x", "right": 2}},
  "predicates": [{"op": "<", "left": "x", "right": ` + bound + `}]}}`
	}
	path := filepath.Join(dir, "two.jani")
	text := `{"properties": [` + prop("p", "1") + `, ` + prop("q", "2") + `]}`
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	m := counterModel(t)
	if _, err := LoadPredicates(path, m); err == nil || !strings.Contains(err.Error(), "choose one with --property") {
		t.Errorf("no choice: %v, want the names to choose from", err)
	}
	ps, err := LoadPredicatesNamed(path, m, "q")
	if err != nil || len(ps) != 1 || !strings.Contains(m.CondString(ps[0]), "2") {
		t.Errorf("--property q: %v, %v; want q's predicate x < 2", ps, err)
	}
	if _, err := LoadPredicatesNamed(path, m, "zz"); err == nil || !strings.Contains(err.Error(), `no PA property "zz"`) {
		t.Errorf("--property zz: %v", err)
	}
}
