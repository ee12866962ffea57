package ppa

// s33g (review of s33d's solver.go): a solver rebuilt after a lost check
// must hold exactly its base and its open scopes' assertions: none
// missing (a wrong "safe" could follow), none of a popped scope. The
// fuzz drives one solver and a reference (a plain smt.Solver that is
// never lost) through the same random Push, Assert and Pop, loses the
// solver at random points (a check under a resource limit of 1) and
// rebuilds it, and compares their answers on random checks.

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"vigil/smt"
)

func TestS33gRebuildFuzzAgainstReference(t *testing.T) {
	rounds := 40
	if testing.Short() {
		rounds = 12
	}
	lost, compared := 0, 0
	for seed := uint64(1); seed <= uint64(rounds); seed++ {
		for _, cancelable := range []bool{false, true} {
			l, c := s33gRebuildRound(t, seed, cancelable)
			lost += l
			compared += c
		}
	}
	t.Logf("%d rounds: %d losses rebuilt, %d answers compared", 2*rounds, lost, compared)
	if lost == 0 || compared == 0 {
		t.Fatalf("the fuzz lost no solver or compared nothing (%d, %d)", lost, compared)
	}
}

func s33gRebuildRound(t *testing.T, seed uint64, cancelable bool) (lost, compared int) {
	t.Helper()
	r0 := rand.New(rand.NewPCG(seed, 0x733367))
	x, err := smt.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	ctx := context.Background()
	if cancelable {
		// assertAll's goroutine path (a context that can end)
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		defer cancel()
	}
	r := &engine{ctx: ctx, x: x}
	const nv = 4
	var vs []smt.Term
	for i := 0; i < nv; i++ {
		vs = append(vs, x.IntConst(fmt.Sprint("v", i)))
	}
	lits := []smt.Term{x.BoolConst("p"), x.BoolConst("q")}
	atom := func() smt.Term {
		a, b := vs[r0.IntN(nv)], vs[r0.IntN(nv)]
		k := x.Int(int64(r0.IntN(9) - 4))
		var t smt.Term
		switch r0.IntN(5) {
		case 0:
			t = x.Le(a, k)
		case 1:
			t = x.Ge(a, k)
		case 2:
			t = x.Le(x.Add(a, b), k)
		case 3:
			t = x.Eq(a, x.Add(b, k))
		default:
			t = x.Not(x.Eq(a, k))
		}
		if r0.IntN(3) == 0 {
			t = x.Implies(lits[r0.IntN(2)], t)
		}
		return t
	}
	var base []smt.Term
	for i := 0; i < nv; i++ {
		base = append(base, x.Ge(vs[i], x.Int(-6)), x.Le(vs[i], x.Int(6)))
	}
	for i := 0; i < 1+r0.IntN(3); i++ {
		base = append(base, atom())
	}
	ref, err := x.NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Close()
	for _, b := range base {
		if err := ref.Assert(b); err != nil {
			t.Fatal(err)
		}
	}
	warm := r0.IntN(2) == 0
	var assume []smt.Term
	if warm && r0.IntN(2) == 0 {
		assume = []smt.Term{x.Not(lits[0])}
	}
	s, err := r.newSolver(base, warm, assume...)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.ensure(); err != nil { // built at its first Push otherwise
		t.Fatal(err)
	}
	depth := 0
	for step := 0; step < 80; step++ {
		switch k := r0.IntN(10); {
		case k < 2:
			if err := s.Push(); err != nil {
				t.Fatal(err)
			}
			if err := ref.Push(); err != nil {
				t.Fatal(err)
			}
			depth++
		case k < 5:
			a := atom()
			if err := s.Assert(a); err != nil {
				t.Fatal(err)
			}
			if err := ref.Assert(a); err != nil {
				t.Fatal(err)
			}
		case k < 6 && depth > 0:
			n := 1 + r0.IntN(depth)
			if err := s.Pop(n); err != nil {
				t.Fatal(err)
			}
			if err := ref.Pop(n); err != nil {
				t.Fatal(err)
			}
			depth -= n
		case k < 7:
			// lose the solver as a bounded query does, and rebuild
			if err := s.SetLimits(smt.Limits{Rlimit: 1}); err != nil {
				t.Fatal(err)
			}
			res, err := r.check(s.Solver, lits[0])
			if err != nil {
				t.Fatal(err)
			}
			if res != smt.Unknown {
				// answered within the limit: not lost
				if err := s.SetLimits(smt.Limits{}); err != nil {
					t.Fatal(err)
				}
				continue
			}
			if s.Lost() == "" {
				t.Fatalf("seed %d: unknown under rlimit 1, yet not lost", seed)
			}
			if err := s.rebuild(); err != nil {
				t.Fatal(err)
			}
			lost++
			if s.Scopes() != depth || len(s.scopes) != depth {
				t.Fatalf("seed %d: rebuilt with %d scopes (%d recorded), want %d", seed, s.Scopes(), len(s.scopes), depth)
			}
		default:
			var as []smt.Term
			for i := 0; i < r0.IntN(3); i++ {
				if r0.IntN(2) == 0 {
					as = append(as, lits[r0.IntN(2)])
				} else {
					as = append(as, atom())
				}
			}
			got, err := r.check(s.Solver, as...)
			if err != nil {
				t.Fatal(err)
			}
			want, err := ref.Check(as...)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Fatalf("seed %d (cancelable %v) step %d: rebuilt solver %v, reference %v (depth %d, %d rebuilds)", seed, cancelable, step, got, want, depth, lost)
			}
			compared++
		}
	}
	return lost, compared
}
