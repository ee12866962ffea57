package jani

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"vigil/symbolic"
)

// Error is one positioned import error. Pos.File is "FILE#JSONPATH" (for
// example "beb.jani#automata[1].edges[12].guard.exp.left"), Pos.Line and
// Pos.Col the place of the offending JSON value in FILE. Errors found while
// reading the JSON text itself have no path.
type Error struct {
	File string // the file as named to Load
	Path string // the JSON path, "" for syntax errors
	Line int
	Col  int
	Msg  string
}

// Pos returns the error's position in the form every IR node uses.
func (e *Error) Pos() symbolic.Pos {
	f := e.File
	if e.Path != "" {
		f += "#" + e.Path
	}
	return symbolic.Pos{File: f, Line: e.Line, Col: e.Col}
}

func (e *Error) Error() string { return "jani: " + e.Pos().String() + ": " + e.Msg }

// PlainError is an import error that has no place in a JSON file: a file
// that cannot be read (the model, or a PlaJA condition, property,
// interface or predicates file), or command-line files that do not go
// together. Msg is its text without the "jani: " that Error puts in front;
// Err, when set, is the underlying error (an *fs.PathError for a file).
type PlainError struct {
	Msg string
	Err error
}

func (e *PlainError) Error() string { return "jani: " + e.Msg }

// Unwrap returns the underlying error.
func (e *PlainError) Unwrap() error { return e.Err }

// plainf makes a *PlainError with a formatted message; an error argument
// (the last one that is an error) becomes its Err.
func plainf(format string, args ...any) *PlainError {
	e := &PlainError{Msg: fmt.Sprintf(format, args...)}
	for _, a := range args {
		if err, ok := a.(error); ok {
			e.Err = err
		}
	}
	return e
}

// Message returns the text of an error of this package without the
// "jani: " in front of it, for a caller that gives its own context (a
// diagnostic at the place that named the file): "POS: MSG" for a
// positioned *Error, its lines for an ErrorList, Msg for a *PlainError,
// and err.Error() for any other error.
func Message(err error) string {
	var list ErrorList
	var one *Error
	var plain *PlainError
	switch {
	case errors.As(err, &list):
		lines := make([]string, len(list))
		for i, e := range list {
			lines[i] = e.Pos().String() + ": " + e.Msg
		}
		return strings.Join(lines, "\n")
	case errors.As(err, &one):
		return one.Pos().String() + ": " + one.Msg
	case errors.As(err, &plain):
		return plain.Msg
	}
	return err.Error()
}

// ErrorList is the list of errors of one import, sorted by position.
type ErrorList []*Error

func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Err returns nil for an empty list, the only error for a list of one, and
// the list otherwise.
func (l ErrorList) Err() error {
	switch len(l) {
	case 0:
		return nil
	case 1:
		return l[0]
	}
	sort.SliceStable(l, func(i, j int) bool {
		if (l[i].Line == 0) != (l[j].Line == 0) {
			return l[j].Line == 0 // "too many errors" and other unpositioned errors last
		}
		if l[i].Line != l[j].Line {
			return l[i].Line < l[j].Line
		}
		return l[i].Col < l[j].Col
	})
	return l
}

// Note is an informational message about something the import ignored or
// approximated (transient variables, rewards, state-dependent probabilities).
type Note struct {
	Pos symbolic.Pos
	Msg string
}

func (n Note) String() string { return fmt.Sprintf("%s: note: %s", n.Pos, n.Msg) }

// maxErrors caps the errors of one import.
const maxErrors = 50

// errUnsupported is the message prefix of every "unsupported feature" error,
// so that callers and tests can tell them from errors in the input.
const errUnsupported = "unsupported feature"

// IsError reports whether err is an error of this package (an *Error, an
// ErrorList or a *PlainError, possibly wrapped): an error of a JANI or
// PlaJA file, whose text starts with "jani: " and names the file, which a
// caller prints as it is.
func IsError(err error) bool {
	var list ErrorList
	var one *Error
	var plain *PlainError
	return errors.As(err, &list) || errors.As(err, &one) || errors.As(err, &plain)
}
