package main

import (
	"fmt"

	"vigil/lang"
	"vigil/symbolic"
)

// loadModel loads a model file (.spec) with -D overrides, printing its
// diagnostics on stderr. It returns nil when the file has errors.
func loadModel(e *env, path string, defs defines) *symbolic.Model {
	m, diags := lang.Load(path, lang.Options{Defines: defs})
	if len(diags) > 0 {
		fmt.Fprint(e.stderr, diags.Render())
	}
	if diags.HasErrors() {
		return nil
	}
	return m
}
