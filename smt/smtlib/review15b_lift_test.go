package smtlib

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"vigil/symbolic/gen"

	"vigil/symbolic"
)

// TestReview15bLiftedEquivalent checks the lifting of lift.go against an
// independent printer that writes min, max, abs, if and conditions as
// numbers with ite terms: z3 must find the lifted atom (a comparison, an
// assignment, a range test) equivalent to the ite form for every integer
// valuation, on random expression DAGs that share subterms, nest
// conditions over lifted operands, divide (floor) negative values, use
// coefficients near 2^62 and exceed maxCases.
func TestReview15bLiftedEquivalent(t *testing.T) {
	needZ3(t)
	nv := 3
	n := &names{}
	for i := 0; i < nv; i++ {
		n.cur = append(n.cur, fmt.Sprintf("|v%d|", i))
	}
	var ps []problem
	fallback, bound := 0, 0
	for seed := uint64(0); seed < 300; seed++ {
		r := rand.New(rand.NewPCG(seed, 15))
		g := &exprGen{r: r, nv: nv}
		p := &printer{n: n}
		var b strings.Builder
		for i := 0; i < nv; i++ {
			fmt.Fprintf(&b, "(declare-const %s Int)\n", n.cur[i])
		}
		b.WriteString("(declare-const |out| Int)\n")
		for k := 0; k < 6; k++ {
			depth := 2 + r.IntN(4)
			e, f := g.expr(depth), g.expr(depth)
			c := g.cond(depth)
			cmp := symbolic.CmpOp(r.IntN(6))
			var lifted, ref string
			switch k % 3 {
			case 0:
				lifted = p.condString(&symbolic.Cond{Op: symbolic.CCmp, Cmp: cmp, L: e, R: f})
				ref = refCond(n, &symbolic.Cond{Op: symbolic.CCmp, Cmp: cmp, L: e, R: f})
			case 1:
				lifted = p.lifted([]*symbolic.Expr{e}, func(v []string) string { return "(= |out| " + v[0] + ")" })
				ref = "(= |out| " + refExpr(n, e) + ")"
			case 2:
				lifted = p.condString(c)
				ref = refCond(n, c)
			}
			if strings.Contains(lifted, "(ite ") {
				fallback++
			}
			if strings.Contains(lifted, "(let (("+letCond(0)+" ") {
				bound++
			}
			fmt.Fprintf(&b, "(push 1)\n(assert (not (= %s %s)))\n(check-sat)\n(pop 1)\n", lifted, ref)
		}
		if p.err != nil {
			t.Fatalf("seed %d: %v", seed, p.err)
		}
		ps = append(ps, problem{fmt.Sprint("s", seed), b.String()})
	}
	got := runBatch(t, ps, 2)
	for _, q := range ps {
		for i, line := range got[q.name] {
			if line != "unsat" {
				t.Errorf("%s: check %d: the lifted atom differs from its ite form (z3: %s)", q.name, i, line)
			}
		}
		if len(got[q.name]) != 6 {
			t.Errorf("%s: z3 printed %q", q.name, got[q.name])
		}
	}
	t.Logf("%d scripts, %d atoms left with ite terms (over maxCases), %d binding conditions with let", len(ps), fallback, bound)
	if bound < 50 {
		t.Errorf("only %d atoms bind conditions with let", bound)
	}
}

// TestReview15bLiftedLinear checks that a condition over an operand with
// an if, nested 40 deep, prints in time and text linear in the nesting
// (each level's condition guards both cases of the level above: written
// out in each, the text doubled per level), and that the printed atom is
// the ite form's (z3, at depth 12).
func TestReview15bLiftedLinear(t *testing.T) {
	n := &names{cur: []string{"|x|"}}
	x := symbolic.V(0)
	e := x
	var ps []problem
	for d := 1; d <= 40; d++ {
		c := &symbolic.Cond{Op: symbolic.CCmp, Cmp: symbolic.Gt, L: e, R: symbolic.Lit(0)}
		e = &symbolic.Expr{Op: symbolic.OpIte, Cond: c, Args: []*symbolic.Expr{x, {Op: symbolic.OpNeg, Args: []*symbolic.Expr{x}}}}
		p := &printer{n: n}
		s := p.lifted([]*symbolic.Expr{e}, func(v []string) string { return "(= |y| " + v[0] + ")" })
		if p.err != nil {
			t.Fatal(p.err)
		}
		if len(s) > 400*d {
			t.Fatalf("depth %d: %d bytes", d, len(s))
		}
		if d == 12 {
			ps = append(ps, problem{"d12", "(declare-const |x| Int)\n(declare-const |y| Int)\n(assert (not (= " + s + " (= |y| " + refExpr(n, e) + "))))\n(check-sat)\n"})
		}
	}
	if _, err := Z3Path(); err != nil {
		return
	}
	if got := runBatch(t, ps, 1)["d12"]; len(got) != 1 || got[0] != "unsat" {
		t.Errorf("depth 12: the lifted atom differs from its ite form (z3: %q)", got)
	}
}

// exprGen builds random expressions, reusing earlier nodes.
type exprGen struct {
	r    *rand.Rand
	nv   int
	pool []*symbolic.Expr
}

func (g *exprGen) expr(d int) *symbolic.Expr {
	r := g.r
	if len(g.pool) > 0 && r.IntN(5) == 0 {
		return g.pool[r.IntN(len(g.pool))] // a shared subterm
	}
	var e *symbolic.Expr
	if d <= 0 || r.IntN(6) == 0 {
		if r.IntN(2) == 0 {
			e = symbolic.V(symbolic.VarID(r.IntN(g.nv)))
		} else {
			e = symbolic.Lit(g.konst())
		}
	} else {
		switch r.IntN(10) {
		case 0:
			e = &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{g.expr(d - 1), g.expr(d - 1)}}
		case 1:
			e = &symbolic.Expr{Op: symbolic.OpSub, Args: []*symbolic.Expr{g.expr(d - 1), g.expr(d - 1)}}
		case 2:
			e = &symbolic.Expr{Op: symbolic.OpNeg, Args: []*symbolic.Expr{g.expr(d - 1)}}
		case 3:
			e = &symbolic.Expr{Op: symbolic.OpMul, K: g.konst(), Args: []*symbolic.Expr{g.expr(d - 1)}}
		case 4:
			e = &symbolic.Expr{Op: symbolic.OpDiv, K: 1 + r.IntN(5), Args: []*symbolic.Expr{g.expr(d - 1)}}
		case 5:
			e = &symbolic.Expr{Op: symbolic.OpMin, Args: []*symbolic.Expr{g.expr(d - 1), g.expr(d - 1)}}
		case 6:
			e = &symbolic.Expr{Op: symbolic.OpMax, Args: []*symbolic.Expr{g.expr(d - 1), g.expr(d - 1)}}
		case 7:
			e = &symbolic.Expr{Op: symbolic.OpAbs, Args: []*symbolic.Expr{g.expr(d - 1)}}
		case 8:
			e = &symbolic.Expr{Op: symbolic.OpIte, Cond: g.cond(d - 1), Args: []*symbolic.Expr{g.expr(d - 1), g.expr(d - 1)}}
		case 9:
			e = &symbolic.Expr{Op: symbolic.OpBool, Cond: g.cond(d - 1)}
		}
	}
	g.pool = append(g.pool, e)
	return e
}

func (g *exprGen) konst() int {
	switch g.r.IntN(6) {
	case 0:
		return 1 << 62
	case 1:
		return -(1 << 62)
	default:
		return g.r.IntN(9) - 4
	}
}

func (g *exprGen) cond(d int) *symbolic.Cond {
	r := g.r
	if d <= 0 {
		switch r.IntN(3) {
		case 0:
			return &symbolic.Cond{Op: symbolic.CVar, Var: symbolic.VarID(r.IntN(g.nv))}
		case 1:
			return &symbolic.Cond{Op: symbolic.CTrue}
		}
		return &symbolic.Cond{Op: symbolic.CCmp, Cmp: symbolic.CmpOp(r.IntN(6)), L: g.expr(0), R: g.expr(0)}
	}
	switch r.IntN(6) {
	case 0:
		return &symbolic.Cond{Op: symbolic.CNot, Args: []*symbolic.Cond{g.cond(d - 1)}}
	case 1:
		return &symbolic.Cond{Op: symbolic.CAnd, Args: []*symbolic.Cond{g.cond(d - 1), g.cond(d - 1)}}
	case 2:
		return &symbolic.Cond{Op: symbolic.COr, Args: []*symbolic.Cond{g.cond(d - 1), g.cond(d - 1)}}
	case 3:
		return &symbolic.Cond{Op: symbolic.CImplies, Args: []*symbolic.Cond{g.cond(d - 1), g.cond(d - 1)}}
	}
	return &symbolic.Cond{Op: symbolic.CCmp, Cmp: symbolic.CmpOp(r.IntN(6)), L: g.expr(d - 1), R: g.expr(d - 1)}
}

// refExpr and refCond print with ite terms, independently of print.go.
func refExpr(n *names, e *symbolic.Expr) string {
	a := func(i int) string { return refExpr(n, e.Args[i]) }
	switch e.Op {
	case symbolic.OpConst:
		return lit(e.K)
	case symbolic.OpVar:
		return n.cur[e.Var]
	case symbolic.OpAdd:
		return "(+ " + a(0) + " " + a(1) + ")"
	case symbolic.OpSub:
		return "(- " + a(0) + " " + a(1) + ")"
	case symbolic.OpNeg:
		return "(- 0 " + a(0) + ")"
	case symbolic.OpMul:
		return "(* " + lit(e.K) + " " + a(0) + ")"
	case symbolic.OpDiv:
		return "(div " + a(0) + " " + lit(e.K) + ")"
	case symbolic.OpMin:
		return "(ite (< " + a(0) + " " + a(1) + ") " + a(0) + " " + a(1) + ")"
	case symbolic.OpMax:
		return "(ite (> " + a(0) + " " + a(1) + ") " + a(0) + " " + a(1) + ")"
	case symbolic.OpAbs:
		return "(ite (< " + a(0) + " 0) (- 0 " + a(0) + ") " + a(0) + ")"
	case symbolic.OpIte:
		return "(ite " + refCond(n, e.Cond) + " " + a(0) + " " + a(1) + ")"
	case symbolic.OpBool:
		return "(ite " + refCond(n, e.Cond) + " 1 0)"
	}
	panic("op")
}

func refCond(n *names, c *symbolic.Cond) string {
	switch c.Op {
	case symbolic.CTrue:
		return "true"
	case symbolic.CFalse:
		return "false"
	case symbolic.CVar:
		return "(distinct " + n.cur[c.Var] + " 0)"
	case symbolic.CCmp:
		l, r := refExpr(n, c.L), refExpr(n, c.R)
		return fmt.Sprintf([...]string{"(= %s %s)", "(distinct %s %s)", "(< %s %s)", "(<= %s %s)", "(> %s %s)", "(>= %s %s)"}[c.Cmp], l, r)
	case symbolic.CNot:
		return "(not " + refCond(n, c.Args[0]) + ")"
	case symbolic.CAnd:
		return "(and " + refCond(n, c.Args[0]) + " " + refCond(n, c.Args[1]) + ")"
	case symbolic.COr:
		return "(or " + refCond(n, c.Args[0]) + " " + refCond(n, c.Args[1]) + ")"
	case symbolic.CImplies:
		return "(=> " + refCond(n, c.Args[0]) + " " + refCond(n, c.Args[1]) + ")"
	}
	panic("cond")
}

// TestReview15bDefinitionsDeep is TestDefinitionsMatchExplicit on models
// whose expressions nest deeper (more lifted cases, conditions over
// lifted operands, the maxCases fallback) and, on every other seed, use
// coefficients near 2^62: vigil.init, vigil.bad and vigil.trans, under
// the model's rules policy, no policy and a table, state by state
// against the explicit engine.
func TestReview15bDefinitionsDeep(t *testing.T) {
	needZ3(t)
	if testing.Short() {
		t.Skip("z3 on a few hundred states")
	}
	var ms []seededModel
	for seed := uint64(0); len(ms) < 40 && seed < 5000; seed++ {
		m := gen.Model(seed, gen.Options{RangeErrors: seed%3 == 0, MaxVars: 2, MaxRange: 4, MaxDepth: 4, Large: seed%2 == 1})
		deep := false
		for _, c := range m.Commands {
			for _, o := range c.Outcomes {
				for _, a := range o.Assigns {
					deep = deep || hasIte(a.Value)
				}
			}
		}
		if widenedSize(m) > 60 || !deep {
			continue
		}
		ms = append(ms, seededModel{m, seed})
	}
	checks, questions := definitionsAgree(t, ms, false)
	t.Logf("%d models (all with lifted assignments), %d questions, %d states checked", len(ms), questions, checks)
	if len(ms) < 20 {
		t.Errorf("only %d models", len(ms))
	}
}

// TestReview15bCHCDeep is TestCHCMatchesBFS on generated models whose
// expressions nest four deep (lifted assignments, guards and range
// errors over nested min, max, abs and if; coefficients near 2^62 on odd
// seeds): Spacer's answer on the CHC export must be bfs's verdict under
// the rules policy, no policy and a table.
func TestReview15bCHCDeep(t *testing.T) {
	needZ3(t)
	if testing.Short() {
		t.Skip("Spacer on a hundred questions")
	}
	want := map[string]string{}
	var ps []problem
	for seed := uint64(0); seed < 40; seed++ {
		m := gen.Model(seed, gen.Options{MaxDepth: 4, RangeErrors: seed%3 == 0, Large: seed%2 == 1})
		for _, pol := range []*symbolic.PolicyDecl{m.Policies[0], nil, randomTable(m, seed)} {
			q := Question{Model: m, Property: m.Properties[0], Policy: pol}
			name := fmt.Sprintf("gen%d/%s", seed, policyName(pol))
			w, err := bfsVerdict(q)
			if err != nil {
				continue
			}
			var b strings.Builder
			if err := WriteCHC(&b, q); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			want[name] = w
			ps = append(ps, problem{name, b.String()})
		}
	}
	got := runBatch(t, ps, 2, "-t:10000")
	unknown := 0
	for _, p := range ps {
		switch lines := got[p.name]; {
		case len(lines) == 1 && lines[0] == want[p.name]:
		case len(lines) == 1 && lines[0] == "unknown":
			unknown++
		default:
			t.Errorf("%s: Spacer printed %q, the explicit engine answers %s", p.name, lines, want[p.name])
		}
	}
	if len(ps) < 60 || unknown*10 > len(ps) {
		t.Errorf("%d questions, %d unknown", len(ps), unknown)
	}
	t.Logf("%d questions, %d unknown", len(ps), unknown)
}
