package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestS23tRunReplaySimFlags: vigil run --replay accepted the flags that
// shape a simulation and ignored them: --record out.json wrote nothing,
// --steps 1 printed the whole run, --from another state printed the
// file's, each with exit 0. They are now a usage error naming them.
func TestS23tRunReplaySimFlags(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "c.spec")
	if err := os.WriteFile(spec, []byte(`model c
var x : 0 .. 9 = 0
action inc when x < 9 -> x' = x + 1
policy rules p { otherwise -> inc }
property q { unsafe false  goal x == 9 }
`), 0o644); err != nil {
		t.Fatal(err)
	}
	run := filepath.Join(dir, "r.json")
	if code, _, errs := vigilRun("run", spec, "--steps", "3", "--record", run); code != 0 {
		t.Fatalf("record: exit %d: %s", code, errs)
	}
	out := filepath.Join(dir, "out.json")
	for _, flags := range [][]string{
		{"--record", out}, {"--steps", "1"}, {"--from", "x=4"}, {"--start-index", "0"},
		{"--seed", "2"}, {"--runs", "2"}, {"--outcomes", "first"}, {"--steps", "1", "--record", out},
	} {
		code, stdout, errs := vigilRun(append([]string{"run", spec, "--replay", run}, flags...)...)
		if code != 2 || !strings.Contains(errs, flags[0]) || !strings.Contains(errs, "only shape") || stdout != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want a usage error naming %s", flags, code, stdout, errs, flags[0])
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: wrote %s", flags, out)
		}
	}
	for _, flags := range [][]string{nil, {"--json"}, {"--policy", "p", "--property", "q"}} {
		if code, stdout, errs := vigilRun(append([]string{"run", spec, "--replay", run}, flags...)...); code != 0 || !strings.Contains(stdout, "x=3") && !strings.Contains(stdout, `"x": 3`) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want the replay", flags, code, stdout, errs)
		}
	}
}
