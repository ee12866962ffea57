package smt

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestEvalSMTLIB runs SMT-LIB2 text: answers and values come back as
// printed, state persists across calls, a rejected command is an error
// that does not poison the next call, and a cancelled check is an error.
func TestEvalSMTLIB(t *testing.T) {
	x, err := NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	bg := context.Background()
	eval := func(text, want string) {
		t.Helper()
		out, err := x.EvalSMTLIB(bg, text)
		if err != nil || out != want {
			t.Fatalf("EvalSMTLIB(%q) = %q, %v; want %q", text, out, err, want)
		}
	}
	eval("(declare-const |x| Int)(push 1)(assert (> |x| 3))(assert (< |x| 5))(check-sat)", "sat\n")
	eval("(get-value (|x|))(pop 1)", "((|x| 4))\n")
	eval("(push 1)(assert (< |x| |x|))(check-sat)(pop 1)", "unsat\n")
	if _, err := x.EvalSMTLIB(bg, "(assert (< |y| 1))"); err == nil || !strings.Contains(err.Error(), "unknown constant y") {
		t.Errorf("an undeclared constant: got %v, want an error naming it", err)
	}
	eval("(check-sat)", "sat\n") // the earlier error does not stick
	if _, err := x.EvalSMTLIB(bg, "(assert (> |x| 3)"); err == nil {
		t.Errorf("unbalanced parentheses: no error")
	}
	ctx, cancel := context.WithTimeout(bg, 100*time.Millisecond)
	defer cancel()
	hard := "(declare-const a Int)(declare-const b Int)(declare-const c Int)(assert (and (> a 2) (> b 2) (> c 2) (= (+ (* a a a a) (* b b b b)) (* c c c c))))(check-sat)"
	if _, err := x.EvalSMTLIB(ctx, hard); err == nil || !strings.Contains(err.Error(), "deadline") {
		t.Errorf("a check past its deadline: got %v, want the deadline as error", err)
	}
}
