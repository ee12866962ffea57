package smt

import (
	"context"
	"strings"
	"testing"
	"time"
)

// maxTestContexts bounds the Z3 contexts alive at once in this package's
// tests: each costs some 16 MB resident (malloc.go), and t.Cleanup runs
// only when the test ends, so a test that makes a context per model in a
// loop must Close it in the loop (TestS29sEdgeTransitions over 3,000
// models held 3,000 contexts: 24 GB resident before session 29's fix).
const maxTestContexts = 8

func newCtx(t testing.TB) *Context {
	t.Helper()
	if n, _ := LiveContexts(); n >= maxTestContexts {
		t.Fatalf("%d Z3 contexts are alive: close each context in the loop that makes it (16 MB each)", n)
	}
	x, err := NewContext()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(x.Close)
	return x
}

func newSolver(t testing.TB, x *Context) *Solver {
	t.Helper()
	s, err := x.NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestVersion(t *testing.T) {
	if v := Version(); !strings.HasPrefix(v, "4.") {
		t.Errorf("Version() = %q", v)
	}
}

func TestSatModelCore(t *testing.T) {
	x := newCtx(t)
	s := newSolver(t, x)
	a, b := x.IntConst("a"), x.IntConst("b")
	p := x.BoolConst("p")
	must(t, s.Assert(x.Eq(x.Add(a, x.MulK(3, b)), x.Int(10))))
	must(t, s.Assert(x.Implies(p, x.Gt(b, x.Int(2)))))
	must(t, s.Assert(x.Ge(a, x.Int(0))))
	r, err := s.Check(p)
	must(t, err)
	if r != Sat {
		t.Fatalf("check = %v, want sat", r)
	}
	var v [3]int64
	must(t, s.Eval([]Term{a, b, p}, v[:]))
	if v[0]+3*v[1] != 10 || v[1] <= 2 || v[0] < 0 || v[2] != 1 {
		t.Errorf("model a=%d b=%d p=%d violates the assertions", v[0], v[1], v[2])
	}
	// Assumptions p, q (b < 0), r (a < 100): {p, q} is a core.
	q, rr := x.BoolConst("q"), x.BoolConst("r")
	must(t, s.Assert(x.Implies(q, x.Lt(b, x.Int(0)))))
	must(t, s.Assert(x.Implies(rr, x.Lt(a, x.Int(100)))))
	r, err = s.Check(rr, p, q)
	must(t, err)
	if r != Unsat {
		t.Fatalf("check = %v, want unsat", r)
	}
	core, err := s.Core()
	must(t, err)
	if len(core) != 2 || !(core[0] == 1 && core[1] == 2 || core[0] == 2 && core[1] == 1) {
		t.Errorf("core = %v, want [1 2]", core)
	}
	if _, err := s.Core(); err != nil {
		t.Error(err)
	}
	must(t, s.Push())
	must(t, s.Assert(x.Lt(a, x.Int(0))))
	if r, _ := s.Check(); r != Unsat {
		t.Errorf("after push: %v, want unsat", r)
	}
	must(t, s.Pop(1))
	if r, _ := s.Check(); r != Sat {
		t.Errorf("after pop: %v, want sat", r)
	}
	if err := s.Pop(1); err == nil {
		t.Error("pop below scope 0: no error")
	}
}

func TestFloorDiv(t *testing.T) {
	x := newCtx(t)
	s := newSolver(t, x)
	a := x.IntConst("a")
	for _, c := range []struct{ a, k, q int64 }{{7, 2, 3}, {-7, 2, -4}, {-1, 3, -1}, {-6, 3, -2}, {0, 5, 0}} {
		m := x.Mark()
		must(t, s.Push())
		must(t, s.Assert(x.Eq(a, x.Int(c.a))))
		q := x.DivK(a, c.k)
		if r, _ := s.Check(); r != Sat {
			t.Fatal("unsat")
		}
		var v [1]int64
		must(t, s.Eval([]Term{q}, v[:]))
		if v[0] != c.q {
			t.Errorf("%d div %d = %d, want %d", c.a, c.k, v[0], c.q)
		}
		must(t, s.Pop(1))
		x.Release(m)
	}
	if x.DivK(a, 0); x.Err() == nil {
		t.Error("div by 0: no error")
	}
}

func TestErrorsAreValues(t *testing.T) {
	x := newCtx(t)
	s := newSolver(t, x)
	// Sort mismatch: Z3 reports an error code; nothing panics.
	bad := x.Add(x.IntConst("a"), x.BoolConst("p"))
	if !bad.IsZero() || x.Err() == nil {
		t.Fatalf("int + bool: term %v, err %v", bad, x.Err())
	}
	if !strings.HasPrefix(x.Err().Error(), "smt: ") {
		t.Errorf("error %q lacks the smt: prefix", x.Err())
	}
	if err := s.Assert(bad); err == nil {
		t.Error("assert of an invalid term: no error")
	}
	// A fresh context is unaffected.
	y := newCtx(t)
	if y.Err() != nil || y.Int(1).IsZero() {
		t.Error("second context is broken")
	}
}

func TestCloseTwice(t *testing.T) {
	x, err := NewContext()
	must(t, err)
	s, err := x.NewSolver()
	must(t, err)
	x.Close()
	x.Close()
	s.Close()
	if _, err := s.Check(); err == nil {
		t.Error("check on a closed context: no error")
	}
	x.Interrupt()
}

// hard returns a pigeonhole-like problem Z3 cannot solve quickly.
func hard(x *Context, n int) Term {
	var cs []Term
	v := make([]Term, n)
	for i := range v {
		v[i] = x.IntConst("h" + string(rune('a'+i%26)) + string(rune('a'+i/26)))
		cs = append(cs, x.Ge(v[i], x.Int(0)), x.Lt(v[i], x.Int(int64(n-1))))
	}
	for i := range v {
		for j := i + 1; j < len(v); j++ {
			cs = append(cs, x.Ne(v[i], v[j]))
		}
	}
	return x.And(cs...)
}

func TestTimeoutIsUnknown(t *testing.T) {
	x := newCtx(t)
	s := newSolver(t, x)
	must(t, s.Assert(hard(x, 40)))
	must(t, s.SetLimits(Limits{Timeout: 50 * time.Millisecond}))
	r, err := s.Check()
	must(t, err)
	if r != Unknown {
		t.Fatalf("timeout: %v, want unknown", r)
	}
	if s.ReasonUnknown() == "" {
		t.Error("no reason for unknown")
	}
	must(t, s.SetLimits(Limits{Rlimit: 1000}))
	r, err = s.Check()
	must(t, err)
	if r != Unknown {
		t.Fatalf("rlimit: %v, want unknown", r)
	}
	t.Logf("reason: %s", s.ReasonUnknown())
	// Lifting the limits makes easy problems answerable again.
	must(t, s.SetLimits(Limits{}))
	s2 := newSolver(t, x)
	must(t, s2.Assert(x.Gt(x.IntConst("z"), x.Int(3))))
	if r, _ := s2.Check(); r != Sat {
		t.Errorf("easy check after limits: %v", r)
	}
}

func TestInterrupt(t *testing.T) {
	x := newCtx(t)
	s := newSolver(t, x)
	must(t, s.Assert(hard(x, 40)))
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	r, err := s.CheckContext(ctx)
	must(t, err)
	if r != Unknown {
		t.Fatalf("interrupted check: %v, want unknown", r)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("interrupt took %v", d)
	}
	// The next check is not spoiled by the old interrupt, nor by one that
	// arrives while no check runs.
	x.Interrupt()
	must(t, s.Reset())
	must(t, s.Assert(x.Gt(x.IntConst("z"), x.Int(3))))
	if r, _ := s.Check(); r != Sat {
		t.Errorf("check after interrupt: %v (%s)", r, s.ReasonUnknown())
	}
}

func TestReleaseKeepsOlderTerms(t *testing.T) {
	x := newCtx(t)
	s := newSolver(t, x)
	a := x.IntConst("a")
	keep := x.Gt(a, x.Int(5))
	for i := 0; i < 1000; i++ {
		m := x.Mark()
		tmp := x.And(x.Gt(a, x.Int(5)), x.Lt(a, x.Int(int64(7+i))))
		_ = tmp
		x.Release(m)
	}
	must(t, s.Assert(keep))
	must(t, s.Assert(x.Lt(a, x.Int(7))))
	var v [1]int64
	if r, _ := s.Check(); r != Sat {
		t.Fatal("unsat")
	}
	must(t, s.Eval([]Term{a}, v[:]))
	if v[0] != 6 {
		t.Errorf("a = %d", v[0])
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestRecycleKeepsAssertions(t *testing.T) {
	x := newCtx(t)
	s := newSolver(t, x)
	s.SetRecycle(2)
	must(t, s.SetLimits(Limits{Timeout: time.Minute}))
	a := x.IntConst("a")
	p := x.BoolConst("p")
	must(t, s.Assert(x.Gt(a, x.Int(3))))
	must(t, s.Assert(x.Implies(p, x.Lt(a, x.Int(3)))))
	for i := 0; i < 7; i++ {
		if r, _ := s.Check(); r != Sat {
			t.Fatalf("check %d: %v", i, r)
		}
		if r, _ := s.Check(p); r != Unsat {
			t.Fatalf("check %d under p: %v", i, r)
		}
		if core, err := s.Core(); err != nil || len(core) != 1 {
			t.Fatalf("core %v, %v", core, err)
		}
		// Inside a scope the solver is never rebuilt.
		must(t, s.Push())
		must(t, s.Assert(x.Lt(a, x.Int(10))))
		s.Check()
		s.Check()
		if r, _ := s.Check(x.Not(p)); r != Sat {
			t.Fatalf("check %d in scope: %v", i, r)
		}
		must(t, s.Pop(1))
	}
	if s.Recycles == 0 {
		t.Error("never recycled")
	}
}

// TestOneShotSolver: the solver of Z3's "smt" tactic answers as the
// simple solver does, with a model to read, and takes parameters.
func TestOneShotSolver(t *testing.T) {
	x := newCtx(t)
	a, b := x.IntConst("a"), x.IntConst("b")
	for _, c := range []struct {
		f    Term
		want Result
	}{
		{x.And(x.Eq(x.Add(a, x.MulK(3, b)), x.Int(10)), x.Gt(b, x.Int(2)), x.Ge(a, x.Int(0))), Sat},
		{x.And(x.Eq(x.Add(a, x.MulK(3, b)), x.Int(10)), x.Gt(b, x.Int(3)), x.Ge(a, x.Int(0))), Unsat},
		{x.And(x.Eq(x.MulK(2, a), x.Int(7))), Unsat},
	} {
		s, err := x.NewOneShotSolver()
		must(t, err)
		must(t, s.SetParams(Param{Name: "arith.solver", Value: "2"}, Param{Name: "relevancy", Value: "0"}))
		must(t, s.Assert(c.f))
		r, err := s.Check()
		must(t, err)
		if r != c.want {
			t.Fatalf("%s: check = %v, want %v", x.String(c.f), r, c.want)
		}
		if r == Sat {
			var v [2]int64
			must(t, s.Eval([]Term{a, b}, v[:]))
			if v[0]+3*v[1] != 10 || v[1] <= 2 || v[0] < 0 {
				t.Errorf("model a=%d b=%d violates the assertions", v[0], v[1])
			}
		}
		s.Close()
	}
}
