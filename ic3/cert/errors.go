package cert

import (
	"errors"
	"fmt"
)

// Error is an error of package cert: a certificate that cannot be read, a
// question it does not answer, a condition that could not be decided.
// Error() is "cert: " followed by Msg; a caller that prints the message
// under its own heading uses Message instead of cutting the prefix off the
// text (as with safety/cert.Error). *Failure and *FactFailure are the
// errors that say the certificate is wrong.
type Error struct {
	Msg string
	Err error // the error Msg wraps with %w, if any
}

func (e *Error) Error() string { return "cert: " + e.Msg }

// Unwrap returns the error the message wraps (a context's cause, an
// encoder's error), or nil.
func (e *Error) Unwrap() error { return e.Err }

// errorf makes an *Error whose message is fmt.Sprintf(format, args...);
// a %w verb wraps its argument as with fmt.Errorf.
func errorf(format string, args ...any) *Error {
	w := fmt.Errorf(format, args...)
	return &Error{Msg: w.Error(), Err: errors.Unwrap(w)}
}

// Message returns the message of err without the "cert: " heading when
// err is an error of this package (*Error, *Failure or *FactFailure), and
// err.Error() otherwise. An error that wraps a cert error under another
// heading keeps its whole text: only the heading "cert: " is cert's.
func Message(err error) string {
	switch e := err.(type) {
	case nil:
		return ""
	case *Error:
		return e.Msg
	case *Failure:
		return e.msg
	case *FactFailure:
		return e.msg
	case *Inconclusive:
		return e.Message()
	}
	return err.Error()
}

// Inconclusive is the error of a check that Z3 answered "unknown" while
// the check's context had not ended (an incomplete theory, a resource
// limit, nonlinear arithmetic): the certificate could not be checked, it
// is neither valid nor invalid. It is not a bug of vigil: a caller
// answers unknown (errors.AsType[*Inconclusive]), never safe and never an
// internal error. A check stopped by its context's end is an *Error
// wrapping the context's cause instead.
type Inconclusive struct {
	Condition string // the condition Z3 could not decide: init, consecution, safety, sure, policy fact, ...
	Reason    string // Z3's reason for "unknown" (a resource limit's: what was reached, and how to raise it)
	// Rlimit is the resource limit (WithRlimit) of the query that reached
	// it: 0 when the reason was no resource limit of the caller's.
	Rlimit uint32
	// Budget, when not empty, says which of the checker's own bounds a
	// policy fact's re-check passed before it was decided (more states
	// than it enumerates, more leaf regions, more weights than it
	// encodes): not Z3's unknown, but no more a refutation than it
	// (tooLarge). Reason is then empty.
	Budget string
}

// Message is the text of e without the "cert: " heading.
func (e *Inconclusive) Message() string {
	if e.Budget != "" {
		return fmt.Sprintf("cannot re-check the %s within the checker's bounds: %s", e.Condition, e.Budget)
	}
	return fmt.Sprintf("Z3 answered unknown on the %s condition: %s", e.Condition, e.Reason)
}

// tooLarge is the *Inconclusive of a policy fact whose re-check passed
// one of the checker's bounds (format and args say which) before a
// verdict. Such a fact was made "invalid" (a *Failure, exit 1, and
// vigil verify's own check of its invariant an internal error), as if a
// state refuted it, though none did; it is now no verdict, as Z3's
// unknown is (exit 4, and verify answers unknown). Never valid either.
func tooLarge(format string, args ...any) *Inconclusive {
	return &Inconclusive{Condition: "policy fact", Budget: fmt.Sprintf(format, args...)}
}

func (e *Inconclusive) Error() string { return "cert: " + e.Message() }

// inconclusive is the error of a check Z3 left undecided (reason is its
// ReasonUnknown).
func inconclusive(condition, reason string) *Inconclusive {
	if reason == "" {
		reason = "no reason given"
	}
	return &Inconclusive{Condition: condition, Reason: reason}
}
