package main

import "testing"

// TestStopped: stop reasons read as English.
func TestStopped(t *testing.T) {
	for in, want := range map[string]string{
		"interrupted":                          "interrupted",
		"canceled":                             "interrupted",
		"timeout":                              "stopped by the timeout",
		"timeout while checking the invariant": "stopped by the timeout while checking the invariant",
		"interrupted while checking the invariant": "interrupted while checking the invariant",
		"state limit 10":              "stopped by the state limit 10",
		"node limit 2000":             "stopped by the node limit 2000",
		"the solver answered unknown": "stopped (the solver answered unknown)",
		"":                            "stopped by a limit",
	} {
		if got := stopped(in); got != want {
			t.Errorf("stopped(%q) = %q, want %q", in, got, want)
		}
	}
}
