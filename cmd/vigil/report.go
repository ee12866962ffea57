package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// writeReport prints rep as indented JSON (asJSON) or as text for command
// cmd, and returns code, or the exit code of an error it prints.
func writeReport(e *env, cmd string, asJSON bool, rep textReport, code int) int {
	var err error
	if asJSON {
		err = encodeJSON(e.stdout, rep)
	} else {
		err = rep.WriteText(e.stdout)
	}
	if me, ok := errors.AsType[*json.MarshalerError](err); ok {
		err = me.Unwrap() // the report's own error
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "vigil %s: %v\n", cmd, err)
		return exitFor(err)
	}
	return code
}

// encodeJSON writes v as indented JSON.
func encodeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
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
