//go:build !cgo

package smt

// Package smt binds Z3 through cgo. This file is compiled only when cgo is
// off, and stops the build with a message that says what to do.
var _ = smt_needs_cgo_and_the_Z3_library__set_CGO_ENABLED_1_and_install_libz3_dev
