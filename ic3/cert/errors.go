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
	}
	return err.Error()
}
