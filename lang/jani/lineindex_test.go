package jani

import (
	"math/rand/v2"
	"testing"
)

// lineCol against counting from the start of the file, on text of long
// lines with multi-byte runes straddling the index's steps.
func TestLineColIndexed(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 1))
	pieces := []string{"a", "\n", "é", "漢", "😀", "\"x\": 1, "}
	for trial := 0; trial < 20; trial++ {
		var b []byte
		for len(b) < 5000+r.IntN(5000) {
			p := pieces[r.IntN(len(pieces))]
			if p == "\n" && r.IntN(20) != 0 {
				continue // long lines
			}
			b = append(b, p...)
		}
		l := &lowerer{data: b}
		for off := 0; off <= len(b)+3; off += 1 + r.IntN(7) {
			line, col := 1, 1
			for _, c := range b[:min(off, len(b))] {
				switch {
				case c == '\n':
					line, col = line+1, 1
				case c&0xC0 != 0x80:
					col++
				}
			}
			if gl, gc := l.lineCol(off); gl != line || gc != col {
				t.Fatalf("trial %d offset %d: %d:%d, want %d:%d", trial, off, gl, gc, line, col)
			}
		}
	}
}
