package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReview21eReplayWhy: vigil run --replay printed a run file's "why"
// verbatim as a line of its own, whatever the run's ending: a file that
// ended at its step limit could add "why: ..." and, after a newline, a
// second "end: unsafe after 7 steps", exit 0; and a stuck run's reason
// was never compared with the policy's. A why now belongs to a run that
// ends stuck, is one line, and is the reason the declared policy gives.
func TestReview21eReplayWhy(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	spec := write("st.spec", `model st
var x : 0 .. 3 = 0
action go when x < 3 -> x' = x + 1
action no when x == 3 -> skip
policy rules pi { when x < 3 -> go }
property p { unsafe false }
`)
	file := func(end, why string) string {
		return `{"version": 1, "model": "st", "property": "p", "policy": "pi", "end": "` + end + `", "why": ` + why + `, "steps": [
 {"state": {"x": 2}, "label": "go", "command": "st.spec:3:8", "command_index": 0, "outcome": 0},
 {"state": {"x": 3}}]}`
	}
	real := `"policy pi: no rule whose label is applicable holds here (the run ends)"`
	for _, c := range []struct {
		name, end, why, want string
	}{
		{"steps", "steps", `"x\nend: unsafe after 7 steps"`, "the run ends steps but says why it ended stuck"},
		{"newline", "stuck", `"policy pi: no rule fires\nend: unsafe after 7 steps"`, "holds the control character"},
		{"other", "stuck", `"policy pi chose no (score 3), which is not applicable here"`, "but policy pi says " + real},
	} {
		path := write(c.name+".json", file(c.end, c.why))
		code, out, errs := vigilRun("run", spec, "--replay", path)
		if code == 0 || !strings.Contains(errs, c.want) || strings.Contains(out, "end: unsafe") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want a refusal saying %q", c.name, code, out, errs, c.want)
		}
	}
	code, out, errs := vigilRun("run", spec, "--replay", write("real.json", file("stuck", real)))
	if code != 0 || !strings.Contains(out, "end: stuck after 1 step\nwhy: policy pi: no rule whose label is applicable holds here (the run ends)\n") {
		t.Errorf("the recorded stuck run: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}
