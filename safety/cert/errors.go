package cert

import (
	"errors"
	"fmt"
)

// Error is why a certificate could not be read or does not hold: Msg says
// what is wrong with it (naming the entry, state or field concerned), as
// the person who wrote or moved the certificate can act on. Error adds
// the package prefix; a command that names the certificate itself prints
// Msg. Every error of Read, Validate and Check is an *Error, except an
// internal error of the decider whose answer is being checked.
type Error struct {
	Msg string
	Err error // the underlying error, if any
}

func (e *Error) Error() string { return "cert: " + e.Msg }

func (e *Error) Unwrap() error { return e.Err }

// errorf returns an *Error; a %w verb in format also sets Err.
func errorf(format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	return &Error{Msg: err.Error(), Err: errors.Unwrap(err)}
}
