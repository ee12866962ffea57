package nn

import (
	"fmt"
	"strings"
	"testing"
)

// s32zOrs is a property over one input and ny outputs that asserts n
// two-way ors of output constraints: 2^n cases of n rows each, every row
// with ny coefficients.
func s32zOrs(ny, n int) string {
	var b strings.Builder
	b.WriteString("(declare-const X_0 Real)\n")
	for i := 0; i < ny; i++ {
		fmt.Fprintf(&b, "(declare-const Y_%d Real)\n", i)
	}
	b.WriteString("(assert (<= X_0 1))\n(assert (>= X_0 0))\n")
	for k := 0; k < n; k++ {
		fmt.Fprintf(&b, "(assert (or (<= Y_0 %d) (>= Y_1 %d)))\n", k, k)
	}
	return b.String()
}

// TestS32zRowCells: the output constraints' coefficients over all cases
// are bounded before any case is built. A 3 KB file (16 ors over 100
// outputs: 65536 cases of 16 rows of 100) allocated 3.4 GB in 18 s, and a
// 614 KB one (2000 rows over 20000 outputs) 718 MB; both are refused at
// once, naming the line of the constraint past the bound.
func TestS32zRowCells(t *testing.T) {
	var many strings.Builder
	many.WriteString("(declare-const X_0 Real)\n")
	for i := 0; i < 20000; i++ {
		fmt.Fprintf(&many, "(declare-const Y_%d Real)\n", i)
	}
	many.WriteString("(assert (<= X_0 1))\n(assert (>= X_0 0))\n")
	for k := 0; k < 2000; k++ {
		fmt.Fprintf(&many, "(assert (<= Y_0 %d))\n", k)
	}
	for _, c := range []struct{ name, src, want string }{
		{"ors", s32zOrs(100, 16), "vnnlib line 104: the property's output constraints, one row of 100 coefficients (one per output) for each constraint in each of its 65536 cases"},
		{"rows", many.String(), "vnnlib line 20504: the property's output constraints, one row of 20000 coefficients (one per output) for each constraint in each of its 1 cases"},
	} {
		_, err := ParseVNNLIB(c.src)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "more than vigil's 10000000 coefficients") {
			t.Errorf("%s: got %v; want an error containing %q", c.name, err, c.want)
		}
	}
	// Below the bound: 4096 cases of 12 rows of 100 coefficients.
	p, err := ParseVNNLIB(s32zOrs(100, 12))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Cases) != 4096 || len(p.Cases[0].Cons.Rows) != 12 || len(p.Cases[0].Cons.Rows[0]) != 100 {
		t.Fatalf("%d cases, %d rows of %d; want 4096 of 12 of 100", len(p.Cases), len(p.Cases[0].Cons.Rows), len(p.Cases[0].Cons.Rows[0]))
	}
	// A constraint whose output coefficients are all zero is a constant,
	// not a row: it does not count.
	src := s32zOrs(2, 0) + "(assert (<= (* 0 Y_0) 1))\n"
	if p, err = ParseVNNLIB(src); err != nil || len(p.Cases[0].Cons.Rows) != 0 {
		t.Fatalf("zero row: %v", err)
	}
}

// TestS32zAtomMemo: an atom's facts are computed once and shared by the
// cases that hold it (16 ors: 65536 cases, 2.4 s of big.Rat work before),
// yet each case keeps its own bounds and its own copy of each row.
func TestS32zAtomMemo(t *testing.T) {
	src := "(declare-const X_0 Real)\n(declare-const X_1 Real)\n(declare-const Y_0 Real)\n(declare-const Y_1 Real)\n" +
		"(assert (<= X_0 1))\n(assert (>= X_0 0))\n(assert (< X_1 0.5))\n(assert (> X_1 -0.5))\n" +
		"(assert (or (and (<= X_0 0.25) (<= Y_0 Y_1)) (and (> X_0 0.75) (< (* 3 Y_1) 1))))\n" +
		"(assert (or (>= Y_0 2) (<= X_1 0)))\n"
	p, err := ParseVNNLIB(src)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Cases) != 4 {
		t.Fatalf("%d cases, want 4", len(p.Cases))
	}
	type want struct {
		lo0, hi0, hi1 float64
		rows          int
	}
	for k, w := range []want{{0, 0.25, 0.5, 2}, {0, 0.25, 0, 1}, {0.75, 1, 0.5, 2}, {0.75, 1, 0, 1}} {
		c := p.Cases[k]
		if c.Box.Lo[0] != w.lo0 || c.Box.Hi[0] != w.hi0 || c.Box.Hi[1] != w.hi1 || c.Box.Lo[1] != -0.5 || len(c.Cons.Rows) != w.rows {
			t.Errorf("case %d: box %v..%v, %d rows; want X_0 %v..%v, X_1 -0.5..%v, %d rows", k, c.Box.Lo, c.Box.Hi, len(c.Cons.Rows), w.lo0, w.hi0, w.hi1, w.rows)
		}
	}
	// strict bounds move Points inward, in every case
	for k, c := range p.Cases {
		if !(c.Points.Hi[1] < c.Box.Hi[1] || c.Box.Hi[1] == 0) || !(c.Points.Lo[1] > -0.5) {
			t.Errorf("case %d: points %v..%v inside box %v..%v?", k, c.Points.Lo, c.Points.Hi, c.Box.Lo, c.Box.Hi)
		}
	}
	// the row (<= Y_0 Y_1) of cases 0 and 1 are copies, not one slice
	r0, r1 := p.Cases[0].Cons.Rows[0], p.Cases[1].Cons.Rows[0]
	if &r0[0] == &r1[0] {
		t.Fatal("two cases share one row slice")
	}
}
