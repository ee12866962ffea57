package smt

import "testing"

// BenchmarkCgoCall is the floor under every term construction: one cgo
// crossing that does nothing in C.
func BenchmarkCgoCall(b *testing.B) {
	x, err := NewContext()
	if err != nil {
		b.Fatal(err)
	}
	defer x.Close()
	for b.Loop() {
		x.nop()
	}
}
