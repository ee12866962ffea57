package cert

// An adversarial review of deciding small models' checks by evaluation
// (exhaust.go) and of the one-point rewriting it reads (smtlib
// Check.Post): both are held to an oracle that shares nothing with
// either, the certificate's conditions decided state by state in Go from
// the model's own semantics (Cond.Holds, Expr.EvalBig, the rules
// policy's decision), and to the Z3 path (evaluation off, which reads
// the checks' Formula with the successor as constants of its own).

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"vigil/smt"
	"vigil/smt/smtlib"
	"vigil/symbolic"
	"vigil/symbolic/gen"
)

// oracle decides, state by state, whether inv (with facts, for a learned
// policy's script: learned) satisfies the conditions CertScript writes:
// init, consecution (per label outside the regions of the facts that
// exclude it, with learned; under policy's choice otherwise), the facts'
// sure labels, safety (no unsafe state, no range error of an enabled
// outcome). It returns "" when they all hold, else the first that fails.
func oracle(m *symbolic.Model, prop *symbolic.Property, policy *symbolic.PolicyDecl, inv [][]smt.Lit, facts factList, learned bool) string {
	in := func(s symbolic.State, boxes [][]smt.Lit) bool {
		for _, b := range boxes {
			ok := true
			for _, l := range b {
				if !l.Holds(s) {
					ok = false
					break
				}
			}
			if ok {
				return true
			}
		}
		return false
	}
	var pol symbolic.Policy
	if policy != nil && !learned && policy.Kind == symbolic.KindRules {
		pol = symbolic.NewRulesPolicy(policy)
	}
	// a table chooses the label of the state's last row, when applicable
	var rows map[string]symbolic.LabelID
	if policy != nil && !learned && policy.Kind == symbolic.KindTable {
		rows = map[string]symbolic.LabelID{}
		for i, row := range policy.Table.Rows {
			rows[fmt.Sprint(row)] = policy.Table.Labels[i]
		}
	}
	app := make([]bool, len(m.Labels))
	fail := ""
	note := func(what string, s symbolic.State) {
		if fail == "" {
			fail = fmt.Sprintf("%s at %v", what, s)
		}
	}
	gen.EachState(m, func(s symbolic.State) {
		if fail != "" {
			return
		}
		start := prop.Start != nil && prop.Start.Holds(s)
		if prop.Start == nil {
			start = true
			for i := range m.Vars {
				start = start && s[i] == m.Vars[i].Init
			}
		}
		inside := in(s, inv)
		if start && !inside {
			note("init", s)
		}
		m.Applicable(s, app)
		for i, f := range facts {
			region := in(s, [][]smt.Lit{inv[f.Box]}) && (len(f.Within) == 0 || in(s, [][]smt.Lit{f.Within}))
			for _, a := range f.Sure {
				if region && !app[a] {
					note(fmt.Sprintf("sure (fact %d, label %d)", i, a), s)
				}
			}
		}
		if !inside {
			return
		}
		unsafe := prop.Unsafe.Holds(s)
		if unsafe {
			note("safety (unsafe)", s)
		}
		if unsafe || prop.Goal != nil && prop.Goal.Holds(s) {
			return // terminal
		}
		chosen := symbolic.NoLabel
		if l, ok := rows[fmt.Sprint(s)]; ok && app[l] {
			chosen = l
		}
		if pol != nil {
			l, err := symbolic.Decide(pol, s, func(a symbolic.LabelID) bool { return app[a] }, nil)
			if err != nil {
				panic(err)
			}
			chosen = l
		}
		for ci := range m.Commands {
			c := &m.Commands[ci]
			if !c.Guard.Holds(s) || (pol != nil || rows != nil) && c.Label != chosen {
				continue
			}
			excluded := false
			for _, f := range facts {
				if f.Label == c.Label && in(s, [][]smt.Lit{inv[f.Box]}) && (len(f.Within) == 0 || in(s, [][]smt.Lit{f.Within})) {
					excluded = true
				}
			}
			for _, o := range c.Outcomes {
				t := make(symbolic.State, len(s))
				copy(t, s)
				out := false
				for _, a := range o.Assigns {
					v := a.Value.EvalBig(s)
					vr := &m.Vars[a.Var]
					if v.Cmp(big.NewInt(int64(vr.Lo))) < 0 || v.Cmp(big.NewInt(int64(vr.Hi))) > 0 {
						out = true
						continue
					}
					t[a.Var] = int(v.Int64())
				}
				if out {
					note("safety (range error)", s)
					continue
				}
				if !excluded && !in(t, inv) {
					note(fmt.Sprintf("consecution (command %d to %v)", ci, t), s)
				}
			}
		}
	})
	return fail
}

// randomTable returns a table policy of m with rows for random states
// (some listed twice with different labels: the last row counts), some
// labels not applicable where their rows put them.
func randomTable(r *rand.Rand, m *symbolic.Model) *symbolic.PolicyDecl {
	t := &symbolic.Table{}
	var out []symbolic.LabelID
	for l := range m.Labels {
		out = append(out, symbolic.LabelID(l))
	}
	gen.EachState(m, func(s symbolic.State) {
		for r.IntN(3) == 0 {
			t.Rows = append(t.Rows, append(symbolic.State(nil), s...))
			t.Labels = append(t.Labels, symbolic.LabelID(r.IntN(len(m.Labels))))
		}
	})
	return &symbolic.PolicyDecl{Name: "tab", Kind: symbolic.KindTable, Outputs: out, Table: t}
}

// reviewCount is n, or the VIGIL_REVIEW_N environment variable's value
// (a longer run: VIGIL_REVIEW_N=2000 go test ./ic3/cert -run Review).
func reviewCount(n int) int {
	if k, err := strconv.Atoi(os.Getenv("VIGIL_REVIEW_N")); err == nil && k > 0 {
		return k
	}
	if testing.Short() {
		return n / 4
	}
	return n
}

// mutate returns a copy of inv with one literal's bound moved by one or
// dropped, or one box dropped, or a box widened by a random region.
func mutate(r *rand.Rand, m *symbolic.Model, inv [][]smt.Lit) [][]smt.Lit {
	out := make([][]smt.Lit, len(inv))
	for i, b := range inv {
		out[i] = append([]smt.Lit(nil), b...)
	}
	i := r.IntN(len(out))
	switch k := r.IntN(4); {
	case k == 0 && len(out) > 1:
		out = append(out[:i], out[i+1:]...)
	case k == 1 && len(out[i]) > 0:
		j := r.IntN(len(out[i]))
		out[i] = append(out[i][:j], out[i][j+1:]...)
	case k == 2 && len(out[i]) > 0:
		j := r.IntN(len(out[i]))
		out[i][j].K += 1 - 2*r.IntN(2)
	default:
		out = append(out, randomRegions(r, m, 1, r.IntN(2) == 0)...)
	}
	return out
}

// TestReviewOracle holds solve, with evaluation and without it (Z3 on
// the checks' Formula), and evaluate alone (the checks' Post) to the
// oracle on generated models (negative ranges, Booleans, range errors,
// constants near 2^62) with their rules policy, without a policy, and as
// a learned policy's script with random facts (sure labels, sub-regions):
// genuine invariants (the reachable states, and the whole state space
// when safe), and mutated and random ones.
func TestReviewOracle(t *testing.T) {
	defer func() { evaluation = true }()
	n := reviewCount(24)
	r := rand.New(rand.NewPCG(12, 12))
	counts := map[string]int{}
	for seed := uint64(1000); seed < 1000+uint64(n); seed++ {
		o := gen.Options{RangeErrors: seed%2 == 0, Large: seed%7 == 3}
		m := gen.Model(seed, o)
		if seed%3 == 0 {
			o.InitialStart = true
			m = gen.Model(seed, o)
		}
		prop := m.Properties[0]
		for mode := range 4 {
			var policy *symbolic.PolicyDecl
			switch mode {
			case 0:
				policy = m.Policies[0]
			case 3:
				policy = randomTable(r, m)
			}
			var invs [][][]smt.Lit
			if pts := reachablePoints(m, prop, policy); pts != nil {
				invs = append(invs, pts, mutate(r, m, pts))
			}
			invs = append(invs, [][]smt.Lit{{}}, randomRegions(r, m, 1+r.IntN(3), r.IntN(2) == 0))
			invs = append(invs, mutate(r, m, invs[len(invs)-1]))
			for k, inv := range invs {
				var facts factList
				if mode == 2 {
					facts = randomFacts(r, m, len(inv))
				}
				what := fmt.Sprintf("seed %d %+v mode %d invariant %d", seed, o, mode, k)
				q := smtlib.Question{Model: opaque(m), Property: prop, Policy: policy}
				s, err := smtlib.CertScript(q, smtlib.Boxes(inv), facts.exclusions(), mode == 2)
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				want := oracle(m, prop, policy, inv, facts, mode == 2)
				found, decided := evaluate(m, s)
				if decided && (found == nil) != (want == "") {
					t.Errorf("%s: evaluation finds %v, the oracle %q", what, found, want)
				}
				for _, on := range []bool{true, false} {
					evaluation = on
					err := solve(context.Background(), m, s, facts)
					if (err == nil) != (want == "") {
						t.Errorf("%s: solve (evaluation %v): %v; the oracle: %q", what, on, err, want)
					}
					if _, ok := err.(*Failure); err != nil && !ok {
						t.Errorf("%s: solve (evaluation %v) fails without naming a condition: %v", what, on, err)
					}
				}
				evaluation = true
				counts[fmt.Sprintf("decided=%v valid=%v", decided, want == "")]++
			}
		}
	}
	t.Logf("%d models: %v", n, counts)
	if counts["decided=true valid=true"] == 0 || counts["decided=true valid=false"] == 0 {
		t.Errorf("the test decides too little: %v", counts)
	}
}

// boundaryModel is a model of two variables x in 0..w-1, y in lo..lo+h-1
// that steps x up to its top and stays; the property's unsafe condition
// is x > w (never).
func boundaryModel(w, lo, h int) (*symbolic.Model, *symbolic.Property) {
	m := &symbolic.Model{Name: "edge",
		Vars: []symbolic.Var{
			{Name: "x", Lo: 0, Hi: w - 1, HasInit: true},
			{Name: "y", Lo: lo, Hi: lo + h - 1, Init: lo, HasInit: true},
		},
		Labels: []symbolic.Label{{Name: "up"}},
	}
	x := symbolic.V(0)
	m.Commands = []symbolic.Command{{Label: 0,
		Guard:    symbolic.Compare(x, symbolic.Lt, symbolic.Lit(w-1)),
		Outcomes: []symbolic.Outcome{{Assigns: []symbolic.Assign{{Var: 0, Value: &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{x, symbolic.Lit(1)}}}}}}}}
	p := &symbolic.Property{Name: "p", Unsafe: symbolic.Compare(x, symbolic.Gt, symbolic.Lit(w))}
	m.Properties = []*symbolic.Property{p}
	return m, p
}

// TestReviewBoundary checks where evaluation stops deciding: a model of
// exactly maxExhaustStates states is decided (a valid certificate passes,
// a forged one fails, at the state space's last state too), one more
// column is left to Z3, and ranges whose product overflows int (or whose
// width does) are never enumerated.
func TestReviewBoundary(t *testing.T) {
	defer func() { evaluation = true }()
	script := func(m *symbolic.Model, p *symbolic.Property, inv [][]smt.Lit) *smtlib.Script {
		s, err := smtlib.CertScript(smtlib.Question{Model: opaque(m), Property: p}, smtlib.Boxes(inv), nil, false)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	// 128 x 128 = 16,384 states, y in -64..63
	m, p := boundaryModel(128, -64, 128)
	valid := [][]smt.Lit{{{Var: 0, Upper: true, K: 127}}}
	// forged: leaves out the last state (x=127, y=63), which no start
	// state reaches, but the step from x=126, y=63 does
	forged := [][]smt.Lit{{{Var: 0, Upper: true, K: 126}}, {{Var: 0, K: 127}, {Var: 1, Upper: true, K: 62}}}
	if found, decided := evaluate(m, script(m, p, valid)); !decided || found != nil {
		t.Errorf("16,384 states, valid: decided %v, found %v", decided, found)
	}
	found, decided := evaluate(m, script(m, p, forged))
	if !decided || found == nil || found[0] != 126 || found[1] != 63 {
		t.Errorf("16,384 states, forged: decided %v, found %v (want x=126 y=63)", decided, found)
	}
	if err := solve(context.Background(), m, script(m, p, forged), nil); err == nil {
		t.Errorf("16,384 states: the forged certificate passes")
	}
	m, p = boundaryModel(128, -64, 129)
	if _, decided := evaluate(m, script(m, p, valid)); decided {
		t.Errorf("16,512 states: decided by evaluation")
	}
	if err := solve(context.Background(), m, script(m, p, valid), nil); err != nil {
		t.Errorf("16,512 states, valid: %v", err)
	}
	for _, r := range [][2]int{{math.MinInt64, math.MaxInt64}, {-1, math.MaxInt64}, {math.MinInt64 / 2, math.MaxInt64 / 2}, {0, 1 << 62}} {
		m := &symbolic.Model{Vars: []symbolic.Var{{Name: "a", Lo: r[0], Hi: r[1]}, {Name: "b", Lo: 0, Hi: 1}}}
		if n := exhaustible(m, 1); n != 0 {
			t.Errorf("ranges %v: %d states to enumerate", r, n)
		}
	}
	for _, w := range []int{1 << 7, 1 << 8, 1 << 13} {
		// the product overflows int only past many variables; it must stop
		// at maxExhaustStates
		var vs []symbolic.Var
		for range 70 {
			vs = append(vs, symbolic.Var{Name: "v", Lo: 0, Hi: w - 1})
		}
		if n := exhaustible(&symbolic.Model{Vars: vs}, 1); n != 0 {
			t.Errorf("70 variables of %d values: %d states to enumerate", w, n)
		}
	}
}

// refExpr is a random integer expression of the evaluator's language
// with its exact value per state (x, y), computed with big integers: the
// reference the evaluator's int64 arithmetic must match wherever it does
// not give up.
type refExpr struct {
	text string
	val  func(x, y *big.Int) *big.Int // nil result: undefined (division by zero)
}

// randExpr returns a random expression of depth at most d: constants
// (some near 2^62 and 2^63), x, y, +, -, *, div, mod, abs, ite on a
// comparison, and lets that shadow x.
func randExpr(r *rand.Rand, d int) refExpr {
	consts := []int64{0, 1, 2, 3, 7, -1, -3, 1 << 24, -(1 << 24), 1 << 31, 1 << 62, math.MaxInt64, math.MaxInt64 - 1, 4611686018427387903}
	leaf := func() refExpr {
		switch r.IntN(3) {
		case 0:
			return refExpr{"|x|", func(x, y *big.Int) *big.Int { return x }}
		case 1:
			return refExpr{"|y|", func(x, y *big.Int) *big.Int { return y }}
		}
		k := consts[r.IntN(len(consts))]
		if r.IntN(3) == 0 {
			k = int64(r.IntN(11) - 5)
		}
		text := strconv.FormatInt(k, 10)
		if k < 0 {
			text = "(- " + strconv.FormatInt(-k, 10) + ")"
		}
		v := big.NewInt(k)
		return refExpr{text, func(x, y *big.Int) *big.Int { return v }}
	}
	if d == 0 || r.IntN(4) == 0 {
		return leaf()
	}
	a, b := randExpr(r, d-1), randExpr(r, d-1)
	bin := func(op string, f func(p, q *big.Int) *big.Int) refExpr {
		return refExpr{"(" + op + " " + a.text + " " + b.text + ")", func(x, y *big.Int) *big.Int {
			p, q := a.val(x, y), b.val(x, y)
			if p == nil || q == nil {
				return nil
			}
			return f(p, q)
		}}
	}
	switch r.IntN(9) {
	case 0:
		return bin("+", func(p, q *big.Int) *big.Int { return new(big.Int).Add(p, q) })
	case 1:
		return bin("-", func(p, q *big.Int) *big.Int { return new(big.Int).Sub(p, q) })
	case 2:
		return bin("*", func(p, q *big.Int) *big.Int { return new(big.Int).Mul(p, q) })
	case 3, 4:
		// SMT-LIB div and mod: Euclidean (0 <= r < |q|), which is big's
		// Div and Mod
		op := []string{"div", "mod"}[r.IntN(2)]
		return bin(op, func(p, q *big.Int) *big.Int {
			if q.Sign() == 0 {
				return nil
			}
			if op == "div" {
				return new(big.Int).Div(p, q)
			}
			return new(big.Int).Mod(p, q)
		})
	case 5:
		return refExpr{"(abs " + a.text + ")", func(x, y *big.Int) *big.Int {
			if p := a.val(x, y); p != nil {
				return new(big.Int).Abs(p)
			}
			return nil
		}}
	case 6:
		return refExpr{"(- " + a.text + ")", func(x, y *big.Int) *big.Int {
			if p := a.val(x, y); p != nil {
				return new(big.Int).Neg(p)
			}
			return nil
		}}
	case 7:
		c, e := randExpr(r, d-1), randExpr(r, d-1)
		return refExpr{"(ite (<= " + c.text + " " + e.text + ") " + a.text + " " + b.text + ")", func(x, y *big.Int) *big.Int {
			p, q := c.val(x, y), e.val(x, y)
			if p == nil || q == nil {
				return nil
			}
			if p.Cmp(q) <= 0 {
				return a.val(x, y)
			}
			return b.val(x, y)
		}}
	}
	// (let ((|x| a)) b): b with x bound to a's value
	return refExpr{"(let ((|x| " + a.text + ")) " + b.text + ")", func(x, y *big.Int) *big.Int {
		p := a.val(x, y)
		if p == nil {
			return nil
		}
		return b.val(p, y)
	}}
}

// TestReviewArithmetic holds the evaluator's arithmetic to big integers
// on random expressions (reference values checked against Z3 on a
// sample): where it answers, the answer must be the exact one; it may
// give up (overflow, division by zero), and it must give up on a
// division by zero that decides the value.
func TestReviewArithmetic(t *testing.T) {
	n := reviewCount(2000)
	r := rand.New(rand.NewPCG(12, 13))
	decls := "(declare-const |x| Int)\n(declare-const |y| Int)\n"
	answered, gaveUp := 0, 0
	var x *smt.Context
	for i := range n {
		e := randExpr(r, 4)
		k := randExpr(r, 1)
		cmp := []string{"=", "<=", "<", ">=", ">"}[r.IntN(5)]
		text := decls + "(assert (" + cmp + " " + e.text + " " + k.text + "))"
		ev, err := compileScript(text, []string{"|x|", "|y|"})
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		ev.lo, ev.hi, ev.stride, ev.states = []int64{-3, -3}, []int64{3, 3}, []int{7, 1}, 49
		frame := make([]int64, ev.frame+1)
		frame[ev.frame] = -1
		for a := int64(-3); a <= 3; a++ {
			for b := int64(-3); b <= 3; b++ {
				ev.s, ev.idx, ev.err = []int64{a, b}, int((a+3)*7+b+3), nil
				got := ev.eval(ev.formula, frame)
				bx, by := big.NewInt(a), big.NewInt(b)
				p, q := e.val(bx, by), k.val(bx, by)
				if ev.err != nil {
					gaveUp++
					continue
				}
				answered++
				if p == nil || q == nil {
					t.Fatalf("%s at x=%d y=%d: evaluates to %d, but a division by zero decides it", text, a, b, got)
				}
				c := p.Cmp(q)
				want := map[string]bool{"=": c == 0, "<=": c <= 0, "<": c < 0, ">=": c >= 0, ">": c > 0}[cmp]
				if (got != 0) != want {
					t.Fatalf("%s at x=%d y=%d: evaluates to %d, the exact values %v %s %v", text, a, b, got, p, cmp, q)
				}
				if i%50 == 0 && a == b {
					// the reference against Z3 itself
					if x == nil {
						if x, err = smt.NewContext(); err != nil {
							t.Fatal(err)
						}
						defer x.Close()
					}
					fs, err := x.ParseSMTLIB(fmt.Sprintf("%s(assert (and (= |x| %d) (= |y| %d) (%s %s %s)))", decls, a, b, cmp, e.text, k.text))
					if err != nil {
						t.Fatal(err)
					}
					sv, _ := x.NewSolver()
					sv.Assert(fs[0])
					ans, err := sv.Check()
					sv.Close()
					if err != nil || (ans == smt.Sat) != want {
						t.Fatalf("%s at x=%d y=%d: Z3 %v, the reference %v (%v)", text, a, b, ans, want, err)
					}
				}
			}
		}
	}
	t.Logf("%d expressions: %d evaluations answered, %d given up", n, answered, gaveUp)
	if answered == 0 || gaveUp == 0 {
		t.Errorf("answered %d, gave up %d: the test is too narrow", answered, gaveUp)
	}
}

// TestReviewPostMissing: a check whose Post was never set (a writer of a
// new Next check that forgot it) must not drop out of the disjunction
// that evaluation decides: the evaluator must give up (Posts writes the
// check's Formula, which reads the successor) rather than find every
// check unsat.
func TestReviewPostMissing(t *testing.T) {
	m, p := boundaryModel(4, 0, 2)
	// x <= 1 is not closed under up
	s, err := smtlib.CertScript(smtlib.Question{Model: opaque(m), Property: p}, smtlib.Boxes([][]smt.Lit{{{Var: 0, Upper: true, K: 1}}}), nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if found, decided := evaluate(m, s); !decided || found == nil {
		t.Fatalf("the forged invariant: decided %v, found %v", decided, found)
	}
	for i := range s.Checks {
		if s.Checks[i].Next {
			s.Checks[i].Post = ""
		}
	}
	if found, decided := evaluate(m, s); decided && found == nil {
		t.Errorf("a consecution check without Post is left out: evaluation finds every check unsat")
	}
	if err := solve(context.Background(), m, s, nil); err == nil {
		t.Errorf("a consecution check without Post: the forged certificate passes")
	}
}

// boolRef is a random Boolean formula of the evaluator's language with
// its value per (x, y), computed from big integers; ok false: a division
// by zero was evaluated on the way (SMT-LIB leaves its value open, the
// evaluator gives up).
type boolRef struct {
	text string
	val  func(x, y *big.Int) (v, ok bool)
}

// randBool returns a random formula over x and y of depth at most d
// that may apply the definitions defs (each of (x, y)): to x and y
// themselves (the evaluator's remembered applications) or to other
// arguments (in range or not).
func randBool(r *rand.Rand, d int, defs []boolRef, names []string) boolRef {
	if d == 0 || r.IntN(3) == 0 {
		if len(defs) > 0 && r.IntN(2) == 0 {
			i := r.IntN(len(defs))
			a, b := refExpr{"|x|", func(x, y *big.Int) *big.Int { return x }}, refExpr{"|y|", func(x, y *big.Int) *big.Int { return y }}
			if r.IntN(2) == 0 {
				a, b = randExpr(r, 1), randExpr(r, 1)
			}
			f := defs[i]
			return boolRef{"(" + names[i] + " " + a.text + " " + b.text + ")", func(x, y *big.Int) (bool, bool) {
				p, q := a.val(x, y), b.val(x, y)
				if p == nil || q == nil {
					return false, false
				}
				return f.val(p, q)
			}}
		}
		a, b := randExpr(r, 2), randExpr(r, 1)
		op := []string{"=", "<=", "<", ">=", ">"}[r.IntN(5)]
		return boolRef{"(" + op + " " + a.text + " " + b.text + ")", func(x, y *big.Int) (bool, bool) {
			p, q := a.val(x, y), b.val(x, y)
			if p == nil || q == nil {
				return false, false
			}
			c := p.Cmp(q)
			return map[string]bool{"=": c == 0, "<=": c <= 0, "<": c < 0, ">=": c >= 0, ">": c > 0}[op], true
		}}
	}
	a, b := randBool(r, d-1, defs, names), randBool(r, d-1, defs, names)
	switch r.IntN(7) {
	case 0:
		return boolRef{"(not " + a.text + ")", func(x, y *big.Int) (bool, bool) { v, ok := a.val(x, y); return !v, ok }}
	case 1, 2:
		op := []string{"and", "or"}[r.IntN(2)]
		// the evaluator stops at the first operand that decides
		return boolRef{"(" + op + " " + a.text + " " + b.text + ")", func(x, y *big.Int) (bool, bool) {
			v, ok := a.val(x, y)
			if !ok || v == (op == "or") {
				return v, ok
			}
			return b.val(x, y)
		}}
	case 3:
		return boolRef{"(=> " + a.text + " " + b.text + ")", func(x, y *big.Int) (bool, bool) {
			v, ok := a.val(x, y)
			if !ok || !v {
				return true, ok
			}
			return b.val(x, y)
		}}
	case 4:
		c := randBool(r, d-1, defs, names)
		return boolRef{"(ite " + c.text + " " + a.text + " " + b.text + ")", func(x, y *big.Int) (bool, bool) {
			v, ok := c.val(x, y)
			if !ok {
				return false, false
			}
			if v {
				return a.val(x, y)
			}
			return b.val(x, y)
		}}
	case 5:
		return boolRef{"(= " + a.text + " " + b.text + ")", func(x, y *big.Int) (bool, bool) {
			v, ok := a.val(x, y)
			w, ok2 := b.val(x, y)
			return v == w, ok && ok2
		}}
	}
	// a let that shadows y with an integer
	e := randExpr(r, 1)
	return boolRef{"(let ((|y| " + e.text + ")) " + a.text + ")", func(x, y *big.Int) (bool, bool) {
		p := e.val(x, y)
		if p == nil {
			return false, false
		}
		return a.val(x, p)
	}}
}

// TestReviewDefinitions holds the evaluator to big integers on random
// texts of a few Boolean definitions of (x, y), each applying earlier
// ones to its own parameters or to other arguments, and a formula that
// applies them to the state or to other arguments, evaluated over every
// state of x, y in -3..3 in exhaust's order: the remembered values of
// definitions applied to states (onState, passes, arguments in range)
// must be the values computed afresh.
func TestReviewDefinitions(t *testing.T) {
	n := reviewCount(400)
	r := rand.New(rand.NewPCG(12, 14))
	answered, zchecks := 0, 0
	for i := range n {
		var defs []boolRef
		var names []string
		text := "(declare-const |x| Int)\n(declare-const |y| Int)\n"
		for k := range 1 + r.IntN(3) {
			d := randBool(r, 3, defs, names)
			name := fmt.Sprintf("d%d", k)
			text += "(define-fun " + name + " ((|x| Int) (|y| Int)) Bool " + d.text + ")\n"
			defs, names = append(defs, d), append(names, name)
		}
		f := randBool(r, 3, defs, names)
		text += "(assert " + f.text + ")"
		ev, err := compileScript(text, []string{"|x|", "|y|"})
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		ev.lo, ev.hi, ev.stride, ev.states = []int64{-3, -3}, []int64{3, 3}, []int{7, 1}, 49
		ev.s = make([]int64, 2)
		frame := make([]int64, ev.frame+1)
		frame[ev.frame] = -1
		for a := int64(-3); a <= 3; a++ {
			for b := int64(-3); b <= 3; b++ {
				ev.s[0], ev.s[1], ev.idx, ev.err = a, b, int((a+3)*7+b+3), nil
				got := ev.eval(ev.formula, frame)
				if ev.err != nil {
					// given up: the memos may now hold nothing wrong, but
					// exhaust stops here; so does the test
					goto next
				}
				want, ok := f.val(big.NewInt(a), big.NewInt(b))
				if !ok {
					t.Fatalf("case %d: %s at x=%d y=%d: evaluates to %d, but a division by zero decides it", i, text, a, b, got)
				}
				if (got != 0) != want {
					t.Fatalf("case %d: %s\nat x=%d y=%d: evaluates to %d, the exact value is %v", i, text, a, b, got, want)
				}
				if i%40 == 0 && a == -b {
					// the reference against Z3 itself
					zchecks++
					if z3 := z3Holds(t, text, a, b); z3 != want {
						t.Fatalf("case %d: %s\nat x=%d y=%d: Z3 %v, the reference %v", i, text, a, b, z3, want)
					}
				}
				answered++
			}
		}
	next:
	}
	t.Logf("%d texts, %d states answered, %d of them checked against Z3", n, answered, zchecks)
	if answered == 0 {
		t.Error("nothing answered")
	}
}

// z3Holds asks Z3 whether text's assertion holds at x=a, y=b.
func z3Holds(t *testing.T, text string, a, b int64) bool {
	t.Helper()
	x, err := smt.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	fs, err := x.ParseSMTLIB(fmt.Sprintf("%s\n(assert (and (= |x| %d) (= |y| %d)))", text, a, b))
	if err != nil || len(fs) != 2 {
		t.Fatalf("Z3 reads %d assertions: %v", len(fs), err)
	}
	sv, err := x.NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	defer sv.Close()
	for _, f := range fs {
		if err := sv.Assert(f); err != nil {
			t.Fatal(err)
		}
	}
	ans, err := sv.Check()
	if err != nil || ans == smt.Unknown {
		t.Fatalf("Z3: %v %v", ans, err)
	}
	return ans == smt.Sat
}
