package main

// vigil check --bounds and --deadlocks: the two checks that ask Z3 about
// all in-range states at once (package smt decides them, package verify
// describes the answers; this file prints).

import (
	"encoding/json"
	"fmt"

	"vigil/symbolic"
	"vigil/verify"
)

// checkBounds proves with Z3 that no command outcome leaves a variable's
// range from an in-range non-terminal state, or prints each violation with
// a witness state. It returns the number of violations.
func checkBounds(e *env, m *symbolic.Model, jsonOut bool) (violations int, err error) {
	fs, n, err := verify.BoundsFindings(m)
	if fs == nil && err != nil {
		return 0, err
	}
	return n, smtPrint(e, fs, jsonOut, err)
}

// checkDeadlocks reports, per property, an in-range non-terminal state in
// which no action is applicable. It returns the number of properties with
// deadlocks.
func checkDeadlocks(e *env, m *symbolic.Model, jsonOut bool) (deadlocks int, err error) {
	fs, n, err := verify.DeadlockFindings(m)
	if fs == nil && err != nil {
		return 0, err
	}
	return n, smtPrint(e, fs, jsonOut, err)
}

func smtPrint(e *env, fs []verify.Finding, jsonOut bool, err error) error {
	if jsonOut {
		if fs == nil {
			fs = []verify.Finding{}
		}
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if werr := enc.Encode(fs); werr != nil {
			return werr
		}
		return err
	}
	for _, f := range fs {
		fmt.Fprintln(e.stdout, f)
	}
	return err
}
