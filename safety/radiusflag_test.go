package safety_test

import (
	"flag"
	"testing"

	"vigil/safety"
)

// A *Radius is a flag.Value.
func TestRadiusFlag(t *testing.T) {
	r := safety.Inf
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.Var(&r, "radius", "")
	if err := fs.Parse([]string{"--radius", "2"}); err != nil || r != 2 {
		t.Fatalf("--radius 2: %v, %v", r, err)
	}
	if err := r.Set("-1"); err == nil || r != 2 {
		t.Errorf("Set(-1) = %v, radius %v; want an error and no change", err, r)
	}
	if err := r.Set("inf"); err != nil || r != safety.Inf {
		t.Errorf("Set(inf) = %v, radius %v", err, r)
	}
}
