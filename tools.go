//go:build tools

// Package tools pins the project's dependencies before every package that
// uses them exists.
package tools

import (
	_ "github.com/alecthomas/participle/v2"
	_ "github.com/dalzilio/rudd"
	_ "gonum.org/v1/gonum/mat"
	_ "google.golang.org/protobuf/encoding/protowire"
)
