package main

import "testing"

// TestJSONErrorSkipsNotices: the "error" of a --json error object is the
// error, not a warning or note the command printed before it.
func TestJSONErrorSkipsNotices(t *testing.T) {
	for _, c := range []struct{ stderr, want string }{
		{"m.jani#properties[3]:19:5: warning[W0901]: property \"soon\" not imported\n 19 |   {\n    |   ^\nvigil prob: model m has no property \"x\"\n", `vigil prob: model m has no property "x"`},
		{"warning: the name \"\\u0430\" has characters outside ASCII\nvigil verify: no policy\n", "vigil verify: no policy"},
		{"vigil prob: note: at most 2^40 states\nvigil prob: out of memory\n", "vigil prob: out of memory"},
		{"a.spec:2:1: warning: deadlock: no action is applicable\na.spec:3:4: error[E0101]: undeclared name y\n", "undeclared name y"},
		{"vigil prob: note: only a note\n", "vigil prob: note: only a note"},
		{"", "failed with exit code 1"},
	} {
		if got := newJSONError(c.stderr, 1).Error; got != c.want {
			t.Errorf("newJSONError(%q).Error = %q, want %q", c.stderr, got, c.want)
		}
	}
}
