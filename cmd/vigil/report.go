package main

import (
	"encoding/json"
	"errors"
	"io"
)

// textReport is a command's result: its text, or its JSON.
type textReport interface{ WriteText(io.Writer) error }

// writeReport is how every command prints its report: as JSON with
// asJSON (writeJSON), else as its text. It returns code, or the exit code
// of an error it prints for command cmd.
func writeReport(e *env, cmd string, asJSON bool, rep textReport, code int) int {
	if asJSON {
		return writeJSON(e, cmd, rep, code)
	}
	return reportError(e, cmd, rep.WriteText(e.stdout), code)
}

// writeJSON prints v as indented JSON, or on one line for a command whose
// JSON is one object a line (Command.JSONLines: nn and trees). It returns
// code, or the exit code of an error it prints for command cmd.
func writeJSON(e *env, cmd string, v any, code int) int {
	enc := json.NewEncoder(e.stdout)
	if c := commands[cmd]; c == nil || !c.JSONLines {
		enc.SetIndent("", "  ")
	}
	return reportError(e, cmd, enc.Encode(v), code)
}

// reportError prints err, the error of writing command cmd's report, and
// returns its exit code, or code when err is nil.
func reportError(e *env, cmd string, err error, code int) int {
	if me, ok := errors.AsType[*json.MarshalerError](err); ok {
		err = me.Unwrap() // the report's own error
	}
	if err != nil {
		return fail(e, exitFor(err), "vigil %s: %v", cmd, err)
	}
	return code
}

// lineTo shows a library's status lines on prog; "" clears it.
func lineTo(prog *progress) func(string) {
	return func(line string) {
		if line == "" {
			prog.clear()
			return
		}
		prog.printf("%s", line)
	}
}
