package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestS23tTestOutputsUnwritable: an --html or --record that could not be
// written after testing cost the whole report (only the error was
// printed). A missing --html directory is now refused before testing; a
// later failure prints the report, then the error.
func TestS23tTestOutputsUnwritable(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "g.spec")
	file := filepath.Join(dir, "afile")
	for path, text := range map[string]string{spec: `model g
var x : 0 .. 9 = 0
action inc when x < 9 -> x' = x + 1
action dec when x > 0 -> x' = x - 1
policy rules p { when x == 5 -> dec  otherwise -> inc }
property r { unsafe x < 0  goal x == 9 }
`, file: "x"} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errs := vigilRun("test", spec, "--html", filepath.Join(dir, "none", "r.html"))
	if code != 2 || out != "" || !strings.Contains(errs, "does not exist") {
		t.Errorf("--html into a missing directory: exit %d, stdout %q, stderr %q; want a usage error before testing", code, out, errs)
	}
	for _, args := range [][]string{{"--record", file}, {"--html", dir}, {"--html", dir, "--json"}} {
		code, out, errs := vigilRun(append([]string{"test", spec}, args...)...)
		if code != 1 || !strings.Contains(out, "bug") || !strings.Contains(errs, "the report is printed above") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want the report, then the error", args, code, out, errs)
		}
	}
}
