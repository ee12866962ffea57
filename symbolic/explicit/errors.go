package explicit

import "fmt"

// StateError is a mistake in the text of a state given to ParseState:
// the variable it concerns ("" when none does, as for a field that is not
// NAME=VALUE) and what is wrong. Its Error has the package's prefix; a
// command that names the flag or file itself prints Msg.
type StateError struct {
	Var string // the variable, or ""
	Msg string // what is wrong, without the "explicit: state: " prefix
}

func (e *StateError) Error() string { return "explicit: state: " + e.Msg }

func stateErrorf(v, format string, args ...any) error {
	return &StateError{Var: v, Msg: fmt.Sprintf(format, args...)}
}

// RunFileError is a mistake in a run file read by ReadRun: the step it
// concerns (-1 for the file as a whole) and what is wrong.
type RunFileError struct {
	Step int    // the step's index in the file, or -1
	Msg  string // what is wrong, without the prefixes
	Err  error  // the underlying error (a read error), or nil
}

// Detail is the error without the package's prefix: "step 3: ..." or
// the message alone. A command that names the run file prints it after
// the file's name.
func (e *RunFileError) Detail() string {
	if e.Step >= 0 {
		return fmt.Sprintf("step %d: %s", e.Step, e.Msg)
	}
	return e.Msg
}

func (e *RunFileError) Error() string { return "explicit: run file: " + e.Detail() }

func (e *RunFileError) Unwrap() error { return e.Err }

func runFileErrorf(step int, format string, args ...any) error {
	return &RunFileError{Step: step, Msg: fmt.Sprintf(format, args...)}
}
