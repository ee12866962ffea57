package explicit_test

import (
	"strings"
	"testing"

	"vigil/lang"
	"vigil/symbolic/explicit"
)

// TestReview21eRunFileLoop: a goal test records a policy run that
// revisits a state with "end": "loop", its last state one it met before.
// ReadRun accepted "loop" after any open state, so vigil run --replay
// printed "end: loop", exit 0, for a run of a policy that reaches the goal
// and never loops. A loop must now end in a state the run met before,
// with or without a property.
func TestReview21eRunFileLoop(t *testing.T) {
	m, diags := lang.LoadSource("lp.spec", []byte(`model lp
var x : 0 .. 3 = 0
action up when x < 3 -> x' = x + 1
action down when x > 0 -> x' = x - 1
policy rules go { otherwise -> up }
property p { unsafe false goal x == 3 }
`), lang.Options{})
	if m == nil || diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	run := func(property, last string) string {
		return `{"version": 1, "model": "lp", "property": "` + property + `", "policy": "go", "end": "loop", "steps": [
 {"state": {"x": 0}, "label": "up", "command": "lp.spec:3:8", "command_index": 0, "outcome": 0},
 {"state": {"x": 1}, "label": "down", "command": "lp.spec:4:8", "command_index": 1, "outcome": 0},
 {"state": {"x": 0}, "label": "up", "command": "lp.spec:3:8", "command_index": 0, "outcome": 0},
 {"state": {"x": 1}}` + last + `]}`
	}
	for _, property := range []string{"p", ""} {
		// x=1 again: a loop
		if _, _, err := explicit.ReadRun(strings.NewReader(run(property, "")), m); err != nil {
			t.Errorf("property %q: a run back in x=1: %v", property, err)
		}
		// one step further, to x=2, which the run did not meet before
		forged := run(property, `,
 {"state": {"x": 2}}`)
		forged = strings.Replace(forged, `{"state": {"x": 1}},`, `{"state": {"x": 1}, "label": "up", "command": "lp.spec:3:8", "command_index": 0, "outcome": 0},`, 1)
		_, _, err := explicit.ReadRun(strings.NewReader(forged), m)
		if err == nil || !strings.Contains(err.Error(), "the run ends in a loop, but its last state x=2 is not one it met before") {
			t.Errorf("property %q: a loop ending in a new state: got %v\n%s", property, err, forged)
		}
	}
}
