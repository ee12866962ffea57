package symbolic

import "fmt"

// PosError is an error at a position of a model's source: a policy
// declaration whose file does not load or does not fit, for instance.
// Error() is "FILE:LINE:COL: " followed by Err; a caller that reports the
// error as a diagnostic at Pos takes Err's message instead of cutting the
// position off the text.
type PosError struct {
	Pos Pos
	Err error
}

func (e *PosError) Error() string { return e.Pos.String() + ": " + e.Err.Error() }

// Unwrap returns Err.
func (e *PosError) Unwrap() error { return e.Err }

// ErrorAt returns a *PosError at pos whose Err is fmt.Errorf(format,
// args...) (so a %w verb wraps its argument).
func ErrorAt(pos Pos, format string, args ...any) error {
	return &PosError{Pos: pos, Err: fmt.Errorf(format, args...)}
}
