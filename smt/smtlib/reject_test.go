package smtlib

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"vigil/symbolic"
)

// base returns a small valid question: x in 0..3 counts up, unsafe at 3.
func base() Question {
	pos := func(l int) symbolic.Pos { return symbolic.Pos{File: "t.spec", Line: l, Col: 1} }
	m := &symbolic.Model{
		Name:   "t",
		Vars:   []symbolic.Var{{Name: "x", Hi: 3, HasInit: true, Pos: pos(2)}, {Name: "b", Hi: 1, Bool: true, HasInit: true, Pos: pos(3)}},
		Labels: []symbolic.Label{{Name: "inc", Pos: pos(4)}, {Name: "flip", Pos: pos(5)}},
		Commands: []symbolic.Command{
			{Label: 0, Guard: symbolic.Compare(symbolic.V(0), symbolic.Lt, symbolic.Lit(3)), Pos: pos(4),
				Outcomes: []symbolic.Outcome{{Assigns: []symbolic.Assign{{Var: 0, Value: &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{symbolic.V(0), symbolic.Lit(1)}}}}}}},
			{Label: 1, Guard: symbolic.True(), Pos: pos(5),
				Outcomes: []symbolic.Outcome{{Assigns: []symbolic.Assign{{Var: 1, Value: &symbolic.Expr{Op: symbolic.OpBool, Cond: symbolic.Not(&symbolic.Cond{Op: symbolic.CVar, Var: 1})}}}}}},
		},
		Policies:   []*symbolic.PolicyDecl{{Name: "pi", Kind: symbolic.KindRules, Pos: pos(6), Rules: []symbolic.Rule{{Cond: &symbolic.Cond{Op: symbolic.CVar, Var: 1}, Label: 0, Pos: pos(7)}, {Cond: symbolic.True(), Label: 1, Pos: pos(8)}}}},
		Properties: []*symbolic.Property{{Name: "p", Unsafe: symbolic.Compare(symbolic.V(0), symbolic.Eq, symbolic.Lit(3)), Pos: pos(9)}},
	}
	return Question{Model: m, Property: m.Properties[0], Policy: m.Policies[0]}
}

// TestRejects checks that malformed or unprintable questions are errors
// naming the problem, from Validate and from every writer, which then
// write nothing, and that nothing panics.
func TestRejects(t *testing.T) {
	bad := &symbolic.Expr{Op: 99, Pos: symbolic.Pos{File: "t.spec", Line: 42, Col: 7}}
	badCond := &symbolic.Cond{Op: 99, Pos: symbolic.Pos{File: "t.spec", Line: 43, Col: 2}}
	setExpr := func(e *symbolic.Expr) func(*Question) {
		return func(q *Question) { q.Model.Commands[0].Outcomes[0].Assigns[0].Value = e }
	}
	setGuard := func(c *symbolic.Cond) func(*Question) {
		return func(q *Question) { q.Model.Commands[0].Guard = c }
	}
	rename := func(name string) func(*Question) {
		return func(q *Question) { q.Model.Vars[1].Name = name }
	}
	cases := []struct {
		name   string
		change func(*Question)
		want   string
	}{
		{"no model", func(q *Question) { q.Model = nil }, "smtlib: no model"},
		{"no property", func(q *Question) { q.Property = nil }, "no property"},
		{"no unsafe", func(q *Question) { q.Property.Unsafe = nil }, "property p has no unsafe condition"},
		{"bar in name", rename("a|b"), `variable a|b (t.spec:3:1): cannot name it in SMT-LIB: it contains '|'`},
		{"backslash in name", rename(`a\b`), `it contains '\\'`},
		{"empty name", rename(""), "it is empty"},
		{"newline in name", rename("a\nb"), "control character"},
		{"reserved name", rename("and"), "and is an SMT-LIB reserved word or theory symbol"},
		{"reserved div", rename("div"), "reserved word or theory symbol"},
		{"reserved _", rename("_"), "reserved word or theory symbol"},
		{"primed collision", rename("x'"), "the next-state copy of variable x (t.spec:2:1) and variable x' (t.spec:3:1) would both be the SMT-LIB symbol x'"},
		{"duplicate variable", rename("x"), "would both be the SMT-LIB symbol x"},
		{"function collision", rename("vigil.init"), "the function vigil.init and variable vigil.init"},
		{"let collision", rename("vigil.a"), "symbol vigil.a"},
		{"label collision", func(q *Question) { q.Model.Labels[1].Name = "inc" }, "would both be the SMT-LIB symbol vigil.app.inc"},
		{"bar in label", func(q *Question) { q.Model.Labels[1].Name = "f|g" }, "label f|g (t.spec:5:1): cannot name it in SMT-LIB"},
		{"empty range", func(q *Question) { q.Model.Vars[0].Lo = 4 }, "empty range 4..3"},
		{"no initial value", func(q *Question) { q.Model.Vars[0].HasInit = false }, "variable x (t.spec:2:1) has no initial value and property p has no start condition"},
		{"initial value out of range", func(q *Question) { q.Model.Vars[0].Init = 9 }, "initial value 9 outside 0..3"},
		{"label out of range", func(q *Question) { q.Model.Commands[1].Label = 5 }, "command 2 (t.spec:5:1): label 5 does not exist"},
		{"nil guard", setGuard(nil), "command 1 (t.spec:4:1) guard: missing condition"},
		{"unknown condition op", setGuard(badCond), "t.spec:43:2: command 1 (t.spec:4:1) guard: unknown condition op 99"},
		{"unknown comparison", setGuard(&symbolic.Cond{Op: symbolic.CCmp, Cmp: 17, L: symbolic.Lit(0), R: symbolic.Lit(0)}), "unknown comparison 17"},
		{"empty conjunction", setGuard(&symbolic.Cond{Op: symbolic.CAnd}), "empty conjunction"},
		{"implication arity", setGuard(&symbolic.Cond{Op: symbolic.CImplies, Args: []*symbolic.Cond{symbolic.True()}}), "condition wants 2 operands, has 1"},
		{"condition variable", setGuard(&symbolic.Cond{Op: symbolic.CVar, Var: 7}), "variable 7 does not exist"},
		{"unknown expression op", setExpr(bad), "t.spec:42:7: command 1 (t.spec:4:1) outcome 1: unknown expression op 99"},
		{"nil expression", setExpr(nil), "missing expression"},
		{"division by zero", setExpr(&symbolic.Expr{Op: symbolic.OpDiv, K: 0, Args: []*symbolic.Expr{symbolic.V(0)}}), "division by 0"},
		{"min arity", setExpr(&symbolic.Expr{Op: symbolic.OpMin, Args: []*symbolic.Expr{symbolic.V(0)}}), "min wants 2 operands, has 1"},
		{"empty sum", setExpr(&symbolic.Expr{Op: symbolic.OpAdd}), "empty sum"},
		{"expression variable", setExpr(symbolic.V(-1)), "variable -1 does not exist"},
		{"nested bad op", setExpr(&symbolic.Expr{Op: symbolic.OpIte, Cond: badCond, Args: []*symbolic.Expr{symbolic.Lit(0), symbolic.Lit(1)}}), "t.spec:43:2"},
		{"assignment out of range", func(q *Question) { q.Model.Commands[0].Outcomes[0].Assigns[0].Var = 2 }, "assignment to variable 2, which does not exist"},
		{"assigned twice", func(q *Question) {
			o := &q.Model.Commands[0].Outcomes[0]
			o.Assigns = append(o.Assigns, o.Assigns[0])
		}, "x assigned twice"},
		{"bad start", func(q *Question) { q.Property.Start = badCond }, "start condition of property p: unknown condition op 99"},
		{"bad goal", func(q *Question) { q.Property.Goal = &symbolic.Cond{Op: symbolic.CNot} }, "goal condition of property p: condition wants 1 operands, has 0"},
		{"nn policy", func(q *Question) {
			q.Policy = &symbolic.PolicyDecl{Name: "net", Kind: symbolic.KindNN, Pos: symbolic.Pos{File: "t.spec", Line: 11}}
		},
			"smtlib: t.spec:11: policy net is a nn policy; only rules and table policies can be encoded exactly"},
		{"trees policy", func(q *Question) { q.Policy = &symbolic.PolicyDecl{Name: "forest", Kind: symbolic.KindTrees} }, "policy forest is a trees policy"},
		{"rule label", func(q *Question) { q.Policy.Rules[0].Label = 9 }, "policy pi names label 9, which model t lacks"},
		{"rule condition", func(q *Question) { q.Policy.Rules[1].Cond = nil }, "policy pi rule 2: missing condition"},
		{"table row length", func(q *Question) {
			q.Policy = &symbolic.PolicyDecl{Name: "tab", Kind: symbolic.KindTable, Table: &symbolic.Table{Rows: []symbolic.State{{1}}, Labels: []symbolic.LabelID{0}}}
		}, "table row 1 has 1 values, model t has 2 variables"},
		{"table labels", func(q *Question) {
			q.Policy = &symbolic.PolicyDecl{Name: "tab", Kind: symbolic.KindTable, Table: &symbolic.Table{Rows: []symbolic.State{{1, 0}}}}
		}, "1 table rows but 0 labels"},
		{"table label", func(q *Question) {
			q.Policy = &symbolic.PolicyDecl{Name: "tab", Kind: symbolic.KindTable, Table: &symbolic.Table{Rows: []symbolic.State{{1, 0}}, Labels: []symbolic.LabelID{-1}}}
		}, "policy tab names label -1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q := base()
			c.change(&q)
			check := func(what string, f func(*bytes.Buffer) error) {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("%s panics: %v", what, r)
					}
				}()
				var b bytes.Buffer
				err := f(&b)
				if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "smtlib: ") {
					t.Errorf("%s: got error %v, want one containing %q", what, err, c.want)
				}
				if b.Len() > 0 {
					t.Errorf("%s wrote %d bytes along with its error", what, b.Len())
				}
			}
			check("Validate", func(*bytes.Buffer) error { return q.Validate() })
			check("WriteSystem", func(b *bytes.Buffer) error { return WriteSystem(b, q) })
			check("WriteCHC", func(b *bytes.Buffer) error { return WriteCHC(b, q) })
			check("WriteCert", func(b *bytes.Buffer) error { return WriteCert(b, q, nil, nil) })
		})
	}
}

// TestAccepts checks questions at the edges that must print: a label
// that needs quoting without a policy (it only appears in comments), the
// base question, and a certificate's literals on every variable.
func TestAccepts(t *testing.T) {
	q := base()
	if err := q.Validate(); err != nil {
		t.Fatal(err)
	}
	q.Policy = nil
	q.Model.Labels[0].Name = "in|c"
	var b bytes.Buffer
	if err := WriteCHC(&b, q); err != nil {
		t.Errorf("a label that cannot be quoted, without a policy: %v", err)
	}
	q = base()
	b.Reset()
	err := WriteCert(&b, q, []string{"two\nlines"}, [][]Lit{{{Var: 0, K: -2}, {Var: 1, Upper: true, K: 0}}, {}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"; two\n; lines\n", "\n(or\n(and (>= |x| (- 2)) (<= |b| 0))\ntrue\n))\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("certificate lacks %q:\n%s", want, b.String())
		}
	}
	if err := WriteCert(&b, q, nil, [][]Lit{{{Var: 2}}}); err == nil || !strings.Contains(err.Error(), "invariant box 1: literal on variable 2, which model t lacks") {
		t.Errorf("a literal on a missing variable: got %v", err)
	}
}

// TestPrinterErrors feeds the printer unvalidated nodes: every malformed
// node is an error naming its position, never a panic.
func TestPrinterErrors(t *testing.T) {
	q := base()
	p := &printer{q: q, m: q.Model, n: newNames(q.Model)}
	at := symbolic.Pos{File: "t.spec", Line: 5, Col: 3}
	exprs := []*symbolic.Expr{
		{Op: 99, Pos: at},
		{Op: symbolic.OpVar, Var: 9, Pos: at},
		{Op: symbolic.OpSub, Args: []*symbolic.Expr{symbolic.Lit(1)}, Pos: at},
		{Op: symbolic.OpDiv, K: -1, Args: []*symbolic.Expr{symbolic.Lit(1)}, Pos: at},
		{Op: symbolic.OpAbs, Pos: at},
		{Op: symbolic.OpBool, Cond: &symbolic.Cond{Op: 77, Pos: at}},
		{Op: symbolic.OpIte, Cond: symbolic.True(), Args: []*symbolic.Expr{{Op: 99, Pos: at}, symbolic.Lit(0)}},
	}
	for i, e := range exprs {
		p.err = nil
		s := p.exprString(e)
		if p.err == nil || !strings.Contains(p.err.Error(), "t.spec:5:3") {
			t.Errorf("expression %d: printed %q with error %v, want an error at t.spec:5:3", i, s, p.err)
		}
	}
	conds := []*symbolic.Cond{
		{Op: 77, Pos: at},
		{Op: symbolic.CVar, Var: -3, Pos: at},
		{Op: symbolic.CCmp, Cmp: 9, Pos: at},
		{Op: symbolic.CNot, Pos: at},
		{Op: symbolic.COr, Pos: at},
		{Op: symbolic.CImplies, Args: []*symbolic.Cond{symbolic.True()}, Pos: at},
	}
	for i, c := range conds {
		p.err = nil
		s := p.condString(c)
		if p.err == nil || !strings.Contains(p.err.Error(), "t.spec:5:3") {
			t.Errorf("condition %d: printed %q with error %v, want an error at t.spec:5:3", i, s, p.err)
		}
	}
	p.err = nil
	p.condString(nil)
	p.exprString(nil)
	if p.err == nil {
		t.Error("nil nodes: no error")
	}
}

// TestNoVariables writes a model without variables, whose functions are
// applied by name alone and whose clauses have no quantifier, and checks
// z3's answers: safe when unsafe is false, unsafe when it is true.
func TestNoVariables(t *testing.T) {
	needZ3(t)
	var ps []problem
	for _, unsafe := range []bool{false, true} {
		u := symbolic.False()
		if unsafe {
			u = symbolic.True()
		}
		m := &symbolic.Model{
			Name:       "empty",
			Labels:     []symbolic.Label{{Name: "tick"}},
			Commands:   []symbolic.Command{{Label: 0, Guard: symbolic.True(), Outcomes: []symbolic.Outcome{{}}}},
			Policies:   []*symbolic.PolicyDecl{{Name: "pi", Kind: symbolic.KindRules, Rules: []symbolic.Rule{{Cond: symbolic.True()}}}},
			Properties: []*symbolic.Property{{Name: "p", Unsafe: u}},
		}
		q := Question{Model: m, Property: m.Properties[0], Policy: m.Policies[0]}
		var chc, cert strings.Builder
		if err := WriteCHC(&chc, q); err != nil {
			t.Fatal(err)
		}
		if err := WriteCert(&cert, q, nil, [][]Lit{{}}); err != nil {
			t.Fatal(err)
		}
		ps = append(ps, problem{fmt.Sprintf("chc/%t", unsafe), chc.String()}, problem{fmt.Sprintf("cert/%t", unsafe), cert.String()})
	}
	got := runBatch(t, ps, 1)
	want := map[string]string{
		"chc/false":  "sat",
		"chc/true":   "unsat",
		"cert/false": "init unsat consecution unsat safety unsat",
		"cert/true":  "init unsat consecution unsat safety sat",
	}
	for name, w := range want {
		if g := strings.Join(got[name], " "); g != w {
			t.Errorf("%s: z3 printed %q, want %q", name, g, w)
		}
	}
}

// TestQuotedLabels runs Spacer on labels that need quoted function names.
func TestQuotedLabels(t *testing.T) {
	needZ3(t)
	q := base()
	q.Model.Labels[0].Name = "go up"
	q.Model.Labels[1].Name = "flip()"
	var b strings.Builder
	if err := WriteCHC(&b, q); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "(define-fun |vigil.chosen.go up| ((|x| Int) (|b| Int)) Bool") {
		t.Errorf("no quoted vigil.chosen.go up:\n%s", b.String())
	}
	want, err := bfsVerdict(q)
	if err != nil {
		t.Fatal(err)
	}
	got := runBatch(t, []problem{{"q", b.String()}}, 1)
	if g := strings.Join(got["q"], " "); g != want {
		t.Errorf("z3 printed %q, the explicit engine answers %s\n%s", g, want, b.String())
	}
}
