package smt

import (
	"context"
	"fmt"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A SIGINT that arrives during a check reaches the Go program (Ctrl-C
// stops vigil within a second, as the README promises), and the check
// stops with Unknown through the context. Z3's default, ctrl_c=true,
// installed its own handler for the length of every check, so the signal
// only interrupted that check and the program's context never ended.
func TestSIGINTDuringCheckReachesGo(t *testing.T) {
	x := newCtx(t)
	// 11 pigeons in 10 holes: z3 needs far more than 20 s for it.
	var b strings.Builder
	var names []string
	for i := range 11 {
		fmt.Fprintf(&b, "(declare-const p%d Int)(assert (and (>= p%d 1) (<= p%d 10)))", i, i, i)
		names = append(names, fmt.Sprintf("p%d", i))
	}
	fmt.Fprintf(&b, "(assert (distinct %s))", strings.Join(names, " "))
	asserts, err := x.ParseSMTLIB(b.String())
	if err != nil {
		t.Fatal(err)
	}
	s, err := x.NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range asserts {
		if err := s.Assert(a); err != nil {
			t.Fatal(err)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	time.AfterFunc(300*time.Millisecond, func() { syscall.Kill(syscall.Getpid(), syscall.SIGINT) })
	t0 := time.Now()
	r, err := s.CheckContext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if r != Unknown {
		t.Fatalf("the check answered %v; want Unknown after the interrupt", r)
	}
	if ctx.Err() == nil || context.Cause(ctx) == context.DeadlineExceeded {
		t.Fatalf("SIGINT did not reach the program's context (%v after %v)", context.Cause(ctx), time.Since(t0))
	}
}
