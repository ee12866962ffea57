package cert

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"vigil/smt"
	"vigil/smt/smtlib"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/gen"
)

// reachablePoints returns the reachable states of m under policy (nil:
// every label) as point boxes, or nil when the question is not safe.
func reachablePoints(m *symbolic.Model, prop *symbolic.Property, policy *symbolic.PolicyDecl) [][]smt.Lit {
	g, err := explicit.New(m, prop)
	if err != nil {
		return nil
	}
	var dec explicit.Decider
	if policy != nil {
		if dec, err = explicit.NewDecider(m, policy); err != nil {
			return nil
		}
	}
	res, err := explicit.Search(context.Background(), g, explicit.Options{Policy: dec, StopAtUnsafe: true})
	if err != nil || res.Verdict != explicit.Safe {
		return nil
	}
	vars := make([]symbolic.VarID, len(m.Vars))
	for i := range vars {
		vars[i] = symbolic.VarID(i)
	}
	var inv [][]smt.Lit
	for id := 0; id < res.Store.Len(); id++ {
		s := make(symbolic.State, len(m.Vars))
		g.L.Unpack(res.Store.Get(uint32(id)), s)
		inv = append(inv, smt.Point(vars, s))
	}
	return inv
}

// randomRegions returns n regions of m: random bounds, and with relational
// set a linear atom over two variables.
func randomRegions(r *rand.Rand, m *symbolic.Model, n int, relational bool) [][]smt.Lit {
	var inv [][]smt.Lit
	for range n {
		var box []smt.Lit
		for v := range m.Vars {
			lo, hi := m.Vars[v].Lo, m.Vars[v].Hi
			a, b := lo+r.IntN(hi-lo+1), lo+r.IntN(hi-lo+1)
			if a > b {
				a, b = b, a
			}
			if r.IntN(3) > 0 {
				box = append(box, smt.Lit{Var: symbolic.VarID(v), K: a})
			}
			if r.IntN(3) > 0 {
				box = append(box, smt.Lit{Var: symbolic.VarID(v), Upper: true, K: b})
			}
		}
		if relational && len(m.Vars) >= 2 {
			f := symbolic.NewForm([]symbolic.Term{{Var: 0, Coef: 1 + r.IntN(3)}, {Var: 1, Coef: -1 - r.IntN(2)}})
			box = append(box, smt.Lit{Var: 0, Upper: r.IntN(2) == 0, K: r.IntN(7) - 3, Form: f})
		}
		inv = append(inv, box)
	}
	return inv
}

// z3Posts asks Z3 whether the script's Posts formula, conjoined with
// extra (a formula over the state, or ""), is satisfiable.
func z3Posts(t *testing.T, s *smtlib.Script, extra string) smt.Result {
	t.Helper()
	x, err := smt.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	fs, err := x.ParseSMTLIB(s.Defs + "\n(assert (and " + s.Posts() + " " + extra + "))")
	if err != nil || len(fs) != 1 {
		t.Fatalf("%d assertions, %v", len(fs), err)
	}
	sv, ans, err := askOnce(context.Background(), x, fs[0])
	if err != nil {
		t.Fatal(err)
	}
	sv.Close()
	return ans
}

// TestEvaluationMatchesZ3 is the differential test of the evaluator
// (exhaust.go): on generated models (with range errors, and with
// constants near 2^62 whose intermediate values leave int64), with their
// rules policy, without a policy and as a learned policy's certificate
// with random facts, for valid invariants (the reachable states) and
// forged ones (random regions, with and without linear atoms; the
// reachable states less one), evaluation and Z3 must give the same
// answer wherever evaluation decides, a state it finds must satisfy the
// formula in Z3 too, and evaluation must decide every model without
// large constants.
func TestEvaluationMatchesZ3(t *testing.T) {
	n := 80
	if testing.Short() {
		n = 20
	}
	r := rand.New(rand.NewPCG(27, 2))
	counts := map[string]int{}
	for seed := uint64(0); seed < uint64(n); seed++ {
		opts := []gen.Options{{RangeErrors: seed%2 == 0}}
		if seed%5 == 0 {
			opts = append(opts, gen.Options{Large: true})
		}
		for _, o := range opts {
			m := gen.Model(seed, o)
			prop := m.Properties[0]
			for mode := range 3 {
				var policy *symbolic.PolicyDecl
				if mode == 0 {
					policy = m.Policies[0]
				}
				type named struct {
					name string
					inv  [][]smt.Lit
				}
				invs := []named{
					{"random", randomRegions(r, m, 1+r.IntN(4), false)},
					{"relational", randomRegions(r, m, 1+r.IntN(4), true)},
				}
				if pts := reachablePoints(m, prop, policy); pts != nil {
					invs = append(invs, named{"reachable", pts})
					if len(pts) > 1 {
						invs = append(invs, named{"less one", pts[:len(pts)-1]})
					}
				}
				for _, ni := range invs {
					name, inv := ni.name, ni.inv
					var facts factList
					if mode == 2 {
						facts = randomFacts(r, m, len(inv))
					}
					q := smtlib.Question{Model: opaque(m), Property: prop, Policy: policy}
					s, err := smtlib.CertScript(q, smtlib.Boxes(inv), facts.exclusions(), mode == 2)
					if err != nil {
						t.Fatalf("seed %d %s mode %d: %v", seed, name, mode, err)
					}
					what := fmt.Sprintf("seed %d (large %v) mode %d, %s invariant", seed, o.Large, mode, name)
					found, decided := evaluate(m, s)
					if !decided {
						if !o.Large {
							t.Errorf("%s: evaluation does not decide", what)
						}
						counts["undecided"]++
						continue
					}
					want := z3Posts(t, s, "true")
					got := smt.Unsat
					if found != nil {
						got = smt.Sat
						// Z3 must agree that the state found satisfies the formula.
						var b strings.Builder
						for i, c := range s.Cur {
							fmt.Fprintf(&b, " (= %s %d)", c, found[i])
						}
						if z3Posts(t, s, "(and"+b.String()+")") != smt.Sat {
							t.Errorf("%s: evaluation finds state %v, where Z3 finds no check satisfiable", what, found)
						}
					}
					if got != want {
						t.Errorf("%s: evaluation %v, Z3 %v", what, got, want)
					}
					counts[fmt.Sprint(got)]++
				}
			}
		}
	}
	t.Logf("answers: %v", counts)
	if counts["sat"] == 0 || counts["unsat"] == 0 {
		t.Errorf("the test decides too little: %v", counts)
	}
}

// TestSolveAgrees checks solve end to end with and without evaluation:
// the same certificates pass, and a failing one fails on the same
// condition.
func TestSolveAgrees(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 3))
	defer func() { evaluation = true }()
	for seed := uint64(0); seed < 30; seed++ {
		m := gen.Model(seed, gen.Options{RangeErrors: true})
		prop := m.Properties[0]
		for _, policy := range []*symbolic.PolicyDecl{m.Policies[0], nil} {
			invs := [][][]smt.Lit{randomRegions(r, m, 2, true)}
			if pts := reachablePoints(m, prop, policy); pts != nil {
				invs = append(invs, pts)
			}
			for k, inv := range invs {
				q := smtlib.Question{Model: opaque(m), Property: prop, Policy: policy}
				s, err := smtlib.CertScript(q, smtlib.Boxes(inv), nil, false)
				if err != nil {
					t.Fatal(err)
				}
				var errs [2]error
				for i, on := range []bool{true, false} {
					evaluation = on
					errs[i] = solve(context.Background(), m, s, nil)
				}
				cond := func(err error) string {
					if f, ok := err.(*Failure); ok {
						return f.Condition
					}
					return fmt.Sprint(err)
				}
				if (errs[0] == nil) != (errs[1] == nil) || cond(errs[0]) != cond(errs[1]) {
					t.Errorf("seed %d invariant %d: with evaluation %v, without %v", seed, k, errs[0], errs[1])
				}
			}
		}
	}
}

// BenchmarkEvaluate measures evaluate (compiling the text and trying
// every state) on valid certificates (so that every state is tried) of
// generated models of 4 variables: the reachable states as point boxes,
// with the rules policy and without one.
func BenchmarkEvaluate(b *testing.B) {
	var scripts []*smtlib.Script
	var models []*symbolic.Model
	states, bytes := 0, 0
	for seed := uint64(0); len(scripts) < 4; seed++ {
		m := gen.Model(seed, gen.Options{MaxVars: 4, MaxRange: 7})
		n := 1
		for _, v := range m.Vars {
			n *= v.Hi - v.Lo + 1
		}
		if len(m.Vars) < 4 || n < 500 {
			continue
		}
		for _, policy := range []*symbolic.PolicyDecl{m.Policies[0], nil} {
			inv := reachablePoints(m, m.Properties[0], policy)
			if len(inv) < 20 {
				continue
			}
			q := smtlib.Question{Model: opaque(m), Property: m.Properties[0], Policy: policy}
			s, err := smtlib.CertScript(q, smtlib.Boxes(inv), nil, false)
			if err != nil {
				b.Fatal(err)
			}
			scripts, models = append(scripts, s), append(models, m)
			states, bytes = states+n, bytes+len(s.Defs)+len(s.Posts())
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for k, s := range scripts {
			if found, decided := evaluate(models[k], s); !decided || found != nil {
				b.Fatalf("not decided (%v), or the valid certificate fails at %v", decided, found)
			}
		}
	}
	b.ReportMetric(float64(states), "states")
	b.ReportMetric(float64(bytes), "bytes")
}

// TestEvaluatorSemantics holds the evaluator to Z3 on hand-written
// formulas over x, y in -4..4: floor div and mod with negative operands
// and divisors, chained comparisons, lets that shadow a parameter and
// each other, Boolean ite and =, implication, n-ary minus, abs, negative
// numerals, linear atoms (fused, and with values too large for the fused
// sum); and checks that what it must not decide (an overflow, a
// division by zero, an operator or symbol it does not know, a sort
// error) is given up rather than answered.
func TestEvaluatorSemantics(t *testing.T) {
	defs := "(declare-const |x| Int)\n(declare-const |y| Int)\n" +
		"(define-fun f ((|x| Int) (|y| Int)) Int (let ((a (+ |x| |y|)) (b (- |x| |y|))) (let ((a (* a 2)) (b a)) (- a b 1))))\n" +
		"(define-fun g ((|x| Int) (|y| Int)) Bool (and (<= (+ (* 2 |x|) (* (- 1) |y|)) 1) (> 3 (* (- 2) |y|))))\n" +
		"(define-fun h ((|x| Int) (|y| Int)) Bool (>= (+ (* 20000000 |x|) (* (- 3) |y|) |x|) 5))\n"
	for _, form := range []string{
		"(= (div |x| 3) (- 1))",
		"(= (mod |x| 3) 2)",
		"(= (div |x| (- 3)) 1)",
		"(= (mod |x| (- 3)) 1)",
		"(<= (- 2) |x| |y| 3)",
		"(< |x| |y| 2)",
		"(>= |x| |y| (- 1))",
		"(> 3 |x| |y|)",
		"(= |x| |y| 0)",
		"(= (f |x| |y|) 3)",
		"(= (ite (> |x| 0) (< |y| 0) (= |y| 0)) (>= |x| |y|))",
		"(=> (> |x| 1) (< |y| 0))",
		"(= (- |x| |y| 1) 2)",
		"(= (abs (- |x|)) 3)",
		"(= (* 3 |x| (- 2)) (- 12))",
		"(not (or (= |x| 1) (and (> |y| 2) (< |x| 0))))",
		"(= (let ((|x| |y|)) (+ |x| 1)) |x|)",
		"(g |x| |y|)",
		"(h |x| |y|)",
		"(g (* 10000000 |x|) (- |y|))",
	} {
		text := defs + "(assert " + form + ")"
		ev, err := compileScript(text, []string{"|x|", "|y|"})
		if err != nil {
			t.Errorf("%s: %v", form, err)
			continue
		}
		x, err := smt.NewContext()
		if err != nil {
			t.Fatal(err)
		}
		fs, err := x.ParseSMTLIB(text)
		if err != nil || len(fs) != 1 {
			t.Fatalf("%s: Z3 reads %d assertions: %v", form, len(fs), err)
		}
		// the state space exhaust would set up, x and y in -4..4
		ev.s, ev.lo, ev.hi, ev.stride, ev.states = make([]int64, 2), []int64{-4, -4}, []int64{4, 4}, []int{9, 1}, 81
		frame := make([]int64, ev.frame+1)
		frame[ev.frame] = -1
		for a := -4; a <= 4; a++ {
			for b := -4; b <= 4; b++ {
				ev.s[0], ev.s[1], ev.idx = int64(a), int64(b), (a+4)*9+b+4
				got := ev.eval(ev.formula, frame)
				if ev.err != nil {
					t.Fatalf("%s at x=%d y=%d: %v", form, a, b, ev.err)
				}
				sv, err := x.NewSolver()
				if err != nil {
					t.Fatal(err)
				}
				pin, _ := x.ParseSMTLIB(fmt.Sprintf("(declare-const |x| Int)(declare-const |y| Int)(assert (and (= |x| %d) (= |y| %d)))", a, b))
				if err := sv.Assert(fs[0]); err != nil {
					t.Fatal(err)
				}
				if err := sv.Assert(pin[0]); err != nil {
					t.Fatal(err)
				}
				ans, err := sv.Check()
				sv.Close()
				if err != nil {
					t.Fatal(err)
				}
				if want := map[smt.Result]int64{smt.Sat: 1, smt.Unsat: 0}[ans]; got != want {
					t.Errorf("%s at x=%d y=%d: evaluation %d, Z3 %v", form, a, b, got, ans)
				}
			}
		}
		x.Close()
	}
	// Given up, not answered: at compile time ...
	for _, form := range []string{
		"(distinct |x| |y|)",       // an operator it does not know
		"(= |z| 1)",                // a constant that is not the state's
		"(and |x| true)",           // a sort error
		"(= (ite true 1 false) 1)", // a sort error
		"(= |x| 01)",               // not a numeral
		"(= |x| 99999999999999999999)",
		"(= (f |x|) 1)", // arity
	} {
		if _, err := compileScript(defs+"(assert "+form+")", []string{"|x|", "|y|"}); err == nil {
			t.Errorf("%s: compiled", form)
		}
	}
	// ... and at run time.
	for _, form := range []string{
		"(= (* |x| 4611686018427387904 4) 0)",
		"(= (+ 9223372036854775807 |x|) 0)",
		"(= (- (- 9223372036854775807) |x| 2) 0)",
		"(= (div 1 (- |x| |x|)) 0)",
	} {
		ev, err := compileScript(defs+"(assert "+form+")", []string{"|x|", "|y|"})
		if err != nil {
			t.Errorf("%s: %v", form, err)
			continue
		}
		ev.s, ev.lo, ev.hi, ev.stride, ev.states = []int64{4, 0}, []int64{-4, -4}, []int64{4, 4}, []int{9, 1}, 81
		ev.idx = 8*9 + 4
		frame := make([]int64, ev.frame+1)
		ev.eval(ev.formula, frame)
		if !errors.Is(ev.err, errGiveUp) {
			t.Errorf("%s at x=4: evaluated (%v)", form, ev.err)
		}
	}
}

// randomFacts returns up to three random policy facts over an invariant
// of boxes boxes: a box, a label, maybe a sure label and maybe a region.
func randomFacts(r *rand.Rand, m *symbolic.Model, boxes int) factList {
	var facts factList
	for range r.IntN(4) {
		f := resolvedFact{Box: r.IntN(boxes), Label: symbolic.LabelID(r.IntN(len(m.Labels)))}
		if r.IntN(2) == 0 {
			f.Sure = []symbolic.LabelID{symbolic.LabelID(r.IntN(len(m.Labels)))}
		}
		if r.IntN(2) == 0 {
			f.Within = randomRegions(r, m, 1, r.IntN(2) == 0)[0]
		}
		facts = append(facts, f)
	}
	return facts
}
