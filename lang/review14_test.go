package lang

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Review (session 14): a table policy that lists one state twice with two
// labels is refused (E0505) at the second row, naming both lines: the
// engines read such a table differently (bfs, bdd and ppa by its last row,
// ic3's encoder by either). The same state listed twice with one label is
// kept once.
func TestReview14TableDuplicateRows(t *testing.T) {
	dir := t.TempDir()
	spec := "model t\nvar x : 0 .. 3 = 0\nvar b : bool = false\n" +
		"action inc when x < 3 -> x' = x + 1\naction dec when x > 0 -> x' = x - 1\n" +
		"policy table tb \"t.csv\" { outputs inc, dec }\nproperty p { unsafe x == 3 }\n"
	for _, c := range []struct{ csv, err string }{
		{"x,b,label\n1,false,inc\n# a comment\n1,0,dec\n", "table t.csv: line 4: state x=1 b=false is listed on line 2 with label inc and here with dec; list each state once"},
		{"b,x,label\ntrue,2,dec\n0,1,inc\n1,2,dec\n", ""},
	} {
		if err := os.WriteFile(filepath.Join(dir, "t.csv"), []byte(c.csv), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "t.spec"), []byte(spec), 0o644); err != nil {
			t.Fatal(err)
		}
		m, diags := Load(filepath.Join(dir, "t.spec"), Options{})
		got := diags.Render()
		if c.err == "" {
			if diags.HasErrors() {
				t.Errorf("%q: %s", c.csv, got)
				continue
			}
			if n := len(m.Policies[0].Table.Rows); n != 2 {
				t.Errorf("%q: %d rows, want 2 (the repeated row kept once)", c.csv, n)
			}
			continue
		}
		if !diags.HasErrors() || !strings.Contains(got, "E0505") || !strings.Contains(got, c.err) {
			t.Errorf("%q: diagnostics %q, want E0505 with %q", c.csv, got, c.err)
		}
	}
}
