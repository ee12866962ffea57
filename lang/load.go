// Package lang is the .spec front end: a participle grammar, a disposable
// AST, a checker in named stages, a formatter and the lowering to package
// symbolic. The language is specified in spec.md beside this file.
package lang

import (
	"vigil/symbolic"
)

// Options configure loading.
type Options struct {
	// Defines overrides constants: -D NAME=VALUE.
	Defines map[string]string
}

// Load parses, checks and lowers the .spec file at path and the files it
// imports. Diagnostics may hold warnings even when the model is returned;
// the model is nil when there are errors.
func Load(path string, opts Options) (*symbolic.Model, Diagnostics) {
	panic("TODO")
}
