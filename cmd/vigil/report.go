package main

import (
	"encoding/json"
	"fmt"
	"io"
)

// A textReport is a library's report: WriteText prints it, and the value
// itself is the --json shape.
type textReport interface{ WriteText(io.Writer) error }

// writeReport prints rep as indented JSON (asJSON) or as text, and returns
// code; a failed write is exit 1.
func writeReport(e *env, asJSON bool, rep textReport, code int) int {
	var err error
	if asJSON {
		err = encodeJSON(e.stdout, rep)
	} else {
		err = rep.WriteText(e.stdout)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "vigil: %v\n", err)
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
