package smt

import (
	"strings"
	"testing"
)

func TestParseSMTLIB(t *testing.T) {
	x, err := NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	fs, err := x.ParseSMTLIB("(declare-const |a'| Int)\n(define-fun f ((v Int)) Bool (> v 3))\n(assert (f |a'|))\n(assert (and (f |a'|) (< |a'| 2)))")
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 2 {
		t.Fatalf("got %d assertions, want 2", len(fs))
	}
	s, err := x.NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []Result{Sat, Unsat} {
		if err := s.Push(); err != nil {
			t.Fatal(err)
		}
		if err := s.Assert(fs[i]); err != nil {
			t.Fatal(err)
		}
		r, err := s.Check()
		if err != nil || r != want {
			t.Fatalf("assertion %d: %v, %v; want %v", i, r, err, want)
		}
		if r == Sat {
			// The declared constant is the same term as IntConst's.
			out := make([]int64, 1)
			if err := s.Eval([]Term{x.IntConst("a'")}, out); err != nil || out[0] <= 3 {
				t.Fatalf("a' = %d (%v), want > 3", out[0], err)
			}
		}
		if err := s.Pop(1); err != nil {
			t.Fatal(err)
		}
	}
	// Bad text is an error, and the context stays usable.
	_, err = x.ParseSMTLIB("(assert (> b 1))")
	t.Log(err)
	if err == nil || !strings.Contains(err.Error(), "rejects") {
		t.Fatalf("undeclared constant: err = %v", err)
	}
	if _, err := x.ParseSMTLIB("(assert true)"); err != nil {
		t.Fatalf("after an error: %v", err)
	}
	if err := x.Err(); err != nil {
		t.Fatalf("the parse error stuck to the context: %v", err)
	}
}
