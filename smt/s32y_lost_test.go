package smt

import (
	"fmt"
	"strings"
	"testing"

	"vigil/lang"
)

// TestS32yLimitLosesAssertions: a check that runs out of its resource
// limit while Z3 4.8.12 preprocesses the assertions it has not yet
// internalized drops some of them (asserted_formulas stops half-way),
// and the next check of the same solver, without a limit, answered sat
// on a chain v0 = v1 + 1, ..., v(n-1) = vn + 1 with v0 < vn, which is
// unsat (rlimit 10..2000, n 5..300: 13 of 30 cases). Since then a
// solver whose check gave no answer answers Unknown, with that check's
// reason, until Reset; Reset gives a fresh core that decides again.
func TestS32yLimitLosesAssertions(t *testing.T) {
	for _, rl := range []uint32{10, 100, 1000} {
		for _, n := range []int{5, 50, 300} {
			x := newCtx(t)
			s := newSolver(t, x)
			chain := func() Term {
				var vs []Term
				for i := 0; i <= n; i++ {
					vs = append(vs, x.IntConst(fmt.Sprint("v", i)))
				}
				for i := 0; i < n; i++ {
					must(t, s.Assert(x.Eq(vs[i], x.Add(vs[i+1], x.Int(1)))))
				}
				a := x.BoolConst("a")
				must(t, s.Assert(x.Implies(a, x.Lt(vs[0], vs[n]))))
				return a
			}
			a := chain()
			must(t, s.SetLimits(Limits{Rlimit: rl}))
			r1, err := s.Check(a)
			must(t, err)
			must(t, s.SetLimits(Limits{}))
			r2, err := s.Check(a)
			must(t, err)
			if r2 == Sat || r1 == Unknown && r2 != Unknown {
				t.Errorf("rlimit %d, n %d: %v (%q), then without a limit %v: want unsat, or unknown after unknown", rl, n, r1, s.ReasonUnknown(), r2)
			}
			if r1 == Unknown && !strings.Contains(s.ReasonUnknown(), fmt.Sprintf("rlimit %d", rl)) {
				t.Errorf("rlimit %d, n %d: a check after the lost one says %q, want the limit's reason", rl, n, s.ReasonUnknown())
			}
			must(t, s.Reset())
			a = chain()
			if r, err := s.Check(a); err != nil || r != Unsat {
				t.Errorf("rlimit %d, n %d: after Reset: %v %v, want unsat", rl, n, r, err)
			}
			x.Close()
		}
	}
}

// TestS32yBoundsFreshAfterUnknown: CheckBounds asks every query of a
// property on one solver; one that ran out of its resource limit left
// the solver lost (every later check unknown), so each later query of
// the property would have been undecided too. It now asks the next
// query on a fresh solver: under a limit that the large query exceeds
// and the small one does not, only the large one is undecided.
func TestS32yBoundsFreshAfterUnknown(t *testing.T) {
	var b strings.Builder
	b.WriteString("model fresh\nvar a : [0 .. 299] of 0 .. 1000\nvar y : 0 .. 3\naction big when ")
	for i := 0; i < 299; i++ {
		if i > 0 {
			b.WriteString(" && ")
		}
		fmt.Fprintf(&b, "a[%d] == a[%d] + 1", i, i+1)
	}
	b.WriteString(" -> y' = y + 1\naction small when y == 3 -> y' = y + 1\n")
	m, diags := lang.LoadSource("fresh.spec", []byte(b.String()), lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	full, err := CheckBounds(m, CheckOptions{})
	if err != nil || len(full.Violations) != 2 {
		t.Fatalf("without a limit: %+v %v, want two violations", full, err)
	}
	for _, n := range []uint32{s32yFreshRlimit} {
		res, err := CheckBounds(m, CheckOptions{Limits: Limits{Rlimit: n}})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Undecided) != 1 || res.Undecided[0].Command != 0 || len(res.Violations) != 1 || res.Violations[0].Command != 1 {
			t.Fatalf("rlimit %d: %d violations, %d undecided (%+v), want the large query undecided and the small one's violation", n, len(res.Violations), len(res.Undecided), res.Undecided)
		}
	}
}

// s32yFreshRlimit exceeds the large query of
// TestS32yBoundsFreshAfterUnknown, not the small one.
const s32yFreshRlimit = 3000
