package smt

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"
)

// TestParseSMTLIBContext gives up a slow parse (testdata/slowparse.smt2:
// five of the six commands of a certificate's transition definition, 0.16
// s in Z3 4.8.12, whose parser does not heed Z3_interrupt; with the sixth,
// 3.4 KB, it takes 9 s) when its context ends: the call returns the context's error at once, later
// calls on the Context fail with it, and Close leaves the deletion to the
// parse's end. A context that does not end parses as ParseSMTLIB does.
// (Why Z3 4.8.12 is slow there: smtlib/lift.go. vigil's writers no longer
// put ite terms in definitions; the text stays as a slow parse.)
func TestParseSMTLIBContext(t *testing.T) {
	slow, err := os.ReadFile("testdata/slowparse.smt2")
	if err != nil {
		t.Fatal(err)
	}
	x, err := NewContext()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = x.ParseSMTLIBContext(ctx, string(slow)+"(assert true)")
	took := time.Since(start)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the deadline (the parse took %v)", err, took)
	}
	if took > 5*time.Second {
		t.Errorf("the call took %v after a 10 ms deadline", took)
	}
	if _, err := x.ParseSMTLIB("(assert true)"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a later call: err = %v, want the deadline", err)
	}
	x.Close() // while the parse may still run: deleted when it ends
	x.Close()

	y := newCtx(t)
	done, cancel2 := context.WithCancel(context.Background())
	defer cancel2()
	fs, err := y.ParseSMTLIBContext(done, "(declare-const a Int)(assert (> a 1))(assert (< a 0))")
	if err != nil || len(fs) != 2 {
		t.Fatalf("ParseSMTLIBContext = %d terms, %v; want 2", len(fs), err)
	}
	if _, err := y.ParseSMTLIBContext(done, "(assert (> b 1))"); err == nil {
		t.Error("an undeclared constant was accepted")
	}
	if fs, err := y.ParseSMTLIB("(assert true)"); err != nil || len(fs) != 1 {
		t.Errorf("after a rejected text: %d terms, %v", len(fs), err)
	}
}
