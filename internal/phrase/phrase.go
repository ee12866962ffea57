// Package phrase holds the few phrases that the text reports of several
// packages (safety, fuzz/report, prob, and the vigil command) share, so
// that a stop, a count or a radius reads the same in every report.
package phrase

import (
	"fmt"
	"strings"
)

// Plural writes n and what, with an s when n is not 1: "1 step", "3 steps".
func Plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// Stopped turns a stop reason ("timeout", "interrupted", "state limit
// 10", "timeout while checking the invariant", "the solver answered
// unknown", ...) into a phrase that says what happened: "stopped by the
// timeout", "interrupted", "stopped by the state limit 10", "stopped (the
// solver answered unknown)".
func Stopped(reason string) string {
	for _, p := range []struct{ word, say string }{
		{"interrupted", "interrupted"}, {"canceled", "interrupted"}, {"cancelled", "interrupted"},
		{"timeout", "stopped by the timeout"},
	} {
		if rest, ok := strings.CutPrefix(reason, p.word); ok {
			return p.say + rest
		}
	}
	switch {
	case reason == "":
		return "stopped by a limit"
	case strings.Contains(reason, "limit"):
		return "stopped by the " + strings.TrimPrefix(reason, "the ")
	}
	return "stopped (" + reason + ")"
}

// Capitalize makes the first letter of s upper case.
func Capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// OrNone is s, or "none" when s is empty.
func OrNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// Safe is the adjective for a radius as safety.Radius.String writes it:
// "safe" for inf, "2-safe" for 2.
func Safe(radius string) string {
	if radius == "inf" {
		return "safe"
	}
	return radius + "-safe"
}
