package smt

import (
	"context"
	"fmt"
	"os"
	"os/exec"
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
//
// It runs in a process of its own: Z3's SMT-LIB front end (EvalSMTLIB,
// which other tests call and vigil's commands do not) installs its SIGINT
// handler unconditionally and restores Go's without SA_ONSTACK, after
// which any SIGINT is fatal to the Go runtime.
func TestSIGINTDuringCheckReachesGo(t *testing.T) {
	if os.Getenv("VIGIL_SIGINT_CHILD") == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestSIGINTDuringCheckReachesGo$", "-test.count=1")
		cmd.Env = append(os.Environ(), "VIGIL_SIGINT_CHILD=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("the check in a process of its own: %v\n%s", err, out)
		}
		return
	}
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
