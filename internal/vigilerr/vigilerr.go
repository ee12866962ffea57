// Package vigilerr holds the kind of error every vigil package shares:
// Internal, a bug vigil caught in its own work (a counterexample that
// does not replay, a proof step that does not hold, a state a search
// should have found). The vigil command exits 70 on an Internal error and
// 1 on any other, which means the input is wrong; it tells them apart by
// type (errors.As), never by the error's text.
package vigilerr

import (
	"errors"
	"fmt"
)

// Internal is an internal error of package Pkg. Error renders it as
// "PKG: POS: internal error: MSG" (POS only when set), the form vigil's
// messages have always had.
type Internal struct {
	Pkg string // the package that caught the bug: "explicit", "smt", ...
	Pos string // the source position concerned, or ""
	Msg string // what went wrong
	Err error  // the underlying error, or nil
}

func (e *Internal) Error() string {
	s := e.Pkg + ": "
	if e.Pos != "" {
		s += e.Pos + ": "
	}
	return s + "internal error: " + e.Msg
}

func (e *Internal) Unwrap() error { return e.Err }

// Internalf returns an *Internal of package pkg with a formatted message;
// a %w verb in format also sets Err.
func Internalf(pkg, format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	return &Internal{Pkg: pkg, Msg: err.Error(), Err: errors.Unwrap(err)}
}

// InternalAtf is Internalf with a source position (a command, an
// expression) that the message concerns.
func InternalAtf(pkg string, pos fmt.Stringer, format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	return &Internal{Pkg: pkg, Pos: pos.String(), Msg: err.Error(), Err: errors.Unwrap(err)}
}

// IsInternal tells whether err is, or wraps, an *Internal.
func IsInternal(err error) bool {
	_, ok := errors.AsType[*Internal](err)
	return ok
}
