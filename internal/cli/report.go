package cli

import (
	"encoding/json"
	"errors"
	"io"
)

// TextReport is a command's result: its text, or its JSON.
type TextReport interface{ WriteText(io.Writer) error }

// WriteReport is how every command prints its report: as JSON with
// asJSON (writeJSON), else as its text. It returns code, or the exit code
// of an error it prints for command cmd.
func (e *Env) WriteReport(cmd string, asJSON bool, rep TextReport, code int) int {
	if asJSON {
		return e.WriteJSON(cmd, rep, code)
	}
	return reportError(e, cmd, rep.WriteText(e.Stdout), code)
}

// WriteJSON prints v as indented JSON, or on one line for a command whose
// JSON is one object a line (Command.JSONLines: nn and trees). It returns
// code, or the exit code of an error it prints for command cmd.
func (e *Env) WriteJSON(cmd string, v any, code int) int {
	enc := json.NewEncoder(e.Stdout)
	if c := Commands[cmd]; c == nil || !c.JSONLines {
		enc.SetIndent("", "  ")
	}
	return reportError(e, cmd, enc.Encode(v), code)
}

// reportError prints err, the error of writing command cmd's report, and
// returns its exit code, or code when err is nil.
func reportError(e *Env, cmd string, err error, code int) int {
	if me, ok := errors.AsType[*json.MarshalerError](err); ok {
		err = me.Unwrap() // the report's own error
	}
	if err != nil {
		return e.Fail(ExitFor(err), "vigil %s: %v", cmd, err)
	}
	return code
}

// LineTo shows a library's status lines on prog; "" clears it.
func LineTo(prog *Progress) func(string) {
	return func(line string) {
		if line == "" {
			prog.Clear()
			return
		}
		prog.Printf("%s", line)
	}
}
