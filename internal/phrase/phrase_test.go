package phrase

import "testing"

func TestPhrases(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Plural(1, "step"), "1 step"},
		{Plural(0, "step"), "0 steps"},
		{Stopped("timeout"), "stopped by the timeout"},
		{Stopped("timeout while checking the invariant"), "stopped by the timeout while checking the invariant"},
		{Stopped("canceled"), "interrupted"},
		{Stopped("interrupted"), "interrupted"},
		{Stopped("interrupted while checking the invariant"), "interrupted while checking the invariant"},
		{Stopped("node limit 2000"), "stopped by the node limit 2000"},
		{Stopped("state limit 10"), "stopped by the state limit 10"},
		{Stopped("the solver answered unknown"), "stopped (the solver answered unknown)"},
		{Stopped(""), "stopped by a limit"},
		{Capitalize("interrupted"), "Interrupted"},
		{Capitalize(""), ""},
		{OrNone(""), "none"},
		{OrNone("x"), "x"},
		{Safe("inf"), "safe"},
		{Safe("2"), "2-safe"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
