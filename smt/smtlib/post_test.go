package smtlib

import (
	"math/rand/v2"
	"testing"

	"vigil/smt"
	"vigil/symbolic"
	"vigil/symbolic/gen"
)

// randomBoxes returns n boxes of m, each a random interval per variable
// (sometimes left open), so that invariants are neither empty nor whole.
func randomBoxes(r *rand.Rand, m *symbolic.Model, n int) [][]Lit {
	var inv [][]Lit
	for range n {
		var box []Lit
		for v := range m.Vars {
			lo, hi := m.Vars[v].Lo, m.Vars[v].Hi
			a, b := lo+r.IntN(hi-lo+1), lo+r.IntN(hi-lo+1)
			if a > b {
				a, b = b, a
			}
			if r.IntN(3) > 0 {
				box = append(box, Lit{Var: symbolic.VarID(v), K: a})
			}
			if r.IntN(3) > 0 {
				box = append(box, Lit{Var: symbolic.VarID(v), Upper: true, K: b})
			}
		}
		inv = append(inv, box)
	}
	return inv
}

// sat asks Z3 (in process, its text front end) whether text's single
// assertion is satisfiable.
func sat(t *testing.T, x *smt.Context, text string) smt.Result {
	t.Helper()
	fs, err := x.ParseSMTLIB(text)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	if len(fs) != 1 {
		t.Fatalf("%d assertions, want 1", len(fs))
	}
	sv, err := x.NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	defer sv.Close()
	if err := sv.Assert(fs[0]); err != nil {
		t.Fatal(err)
	}
	ans, err := sv.Check()
	if err != nil {
		t.Fatal(err)
	}
	return ans
}

// TestPostMatchesFormula checks the one-point rewriting of CertScript:
// each check's Post (the successor replaced by each outcome's values,
// over the current state alone, without NextDefs) is satisfiable exactly
// when its Formula (with the successor's constants and the transition
// definitions) is, on generated models with range errors, with their
// rules policy, without a policy, and as a learned policy's certificate
// with random facts; and Posts is satisfiable exactly when some check is.
func TestPostMatchesFormula(t *testing.T) {
	n := 60
	if testing.Short() {
		n = 15
	}
	x, err := smt.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	r := rand.New(rand.NewPCG(27, 1))
	sats, unsats := 0, 0
	for seed := uint64(0); seed < uint64(n); seed++ {
		m := gen.Model(seed, gen.Options{RangeErrors: seed%2 == 0})
		for mode := range 3 {
			q := Question{Model: m, Property: m.Properties[0]}
			var excluded []Exclusion
			inv := randomBoxes(r, m, 1+r.IntN(4))
			switch mode {
			case 0:
				q.Policy = m.Policies[0]
			case 2:
				for range r.IntN(4) {
					e := Exclusion{Box: r.IntN(len(inv)), Label: symbolic.LabelID(r.IntN(len(m.Labels)))}
					if r.IntN(2) == 0 {
						e.Sure = []symbolic.LabelID{symbolic.LabelID(r.IntN(len(m.Labels)))}
					}
					if r.IntN(2) == 0 {
						e.Within = randomBoxes(r, m, 1)[0]
					}
					excluded = append(excluded, e)
				}
			}
			s, err := CertScript(q, inv, excluded, mode == 2)
			if err != nil {
				t.Fatalf("seed %d mode %d: %v", seed, mode, err)
			}
			any := smt.Unsat
			for _, c := range s.Checks {
				want := sat(t, x, s.Defs+s.NextDefs+"\n(assert "+c.Formula+")")
				got := sat(t, x, s.Defs+"\n(assert "+c.Post+")")
				if got != want {
					t.Errorf("seed %d mode %d, check %s: Post is %v, Formula %v", seed, mode, c.Name, got, want)
				}
				if want == smt.Sat {
					any, sats = smt.Sat, sats+1
				} else {
					unsats++
				}
			}
			if got := sat(t, x, s.Defs+"\n(assert "+s.Posts()+")"); got != any {
				t.Errorf("seed %d mode %d: Posts is %v, some check %v", seed, mode, got, any)
			}
		}
	}
	if sats == 0 || unsats == 0 {
		t.Fatalf("%d sat and %d unsat checks: the test decides nothing", sats, unsats)
	}
	t.Logf("%d sat and %d unsat checks agree", sats, unsats)
}
