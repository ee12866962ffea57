package cert

import (
	"context"
	"strings"
	"testing"

	"vigil/smt"
	"vigil/symbolic"
)

// counter is x := x + 1 below 3 (label a), then x := 0 (label b), over
// x in 0..5, with x >= 4 unsafe; its variable and labels are named as
// SMT-LIB cannot write them, which the checker must not mind.
func counter() (*symbolic.Model, *symbolic.Property) {
	x := &symbolic.Expr{Op: symbolic.OpVar, Var: 0}
	k := func(v int) *symbolic.Expr { return &symbolic.Expr{Op: symbolic.OpConst, K: v} }
	cmp := func(op symbolic.CmpOp, v int) *symbolic.Cond {
		return &symbolic.Cond{Op: symbolic.CCmp, Cmp: op, L: x, R: k(v)}
	}
	m := &symbolic.Model{
		Name:   "counter",
		Vars:   []symbolic.Var{{Name: "mod", Lo: 0, Hi: 5, Init: 0, HasInit: true}},
		Labels: []symbolic.Label{{Name: "and"}, {Name: "b|c"}},
		Commands: []symbolic.Command{
			{Label: 0, Guard: cmp(symbolic.Lt, 3), Outcomes: []symbolic.Outcome{{Assigns: []symbolic.Assign{{Var: 0, Value: &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{x, k(1)}}}}}}},
			{Label: 1, Guard: cmp(symbolic.Ge, 3), Outcomes: []symbolic.Outcome{{Assigns: []symbolic.Assign{{Var: 0, Value: k(0)}}}}},
		},
	}
	prop := &symbolic.Property{Name: "p", Unsafe: cmp(symbolic.Ge, 4)}
	m.Properties = []*symbolic.Property{prop}
	return m, prop
}

func TestCheckNames(t *testing.T) {
	m, prop := counter()
	mk := func(inv [][]smt.Lit) *Cert {
		c := &Cert{Inv: inv, Vars: []string{"mod"}}
		c.Property, c.Boxes = "p", len(inv)
		c.Hash, _ = ModelHash(m, "p", "")
		return c
	}
	ctx := context.Background()
	if err := Check(ctx, mk([][]smt.Lit{{{Var: 0, Upper: true, K: 3}}}), m, prop, nil); err != nil {
		t.Errorf("x <= 3: %v", err)
	}
	err := Check(ctx, mk([][]smt.Lit{{{Var: 0, Upper: true, K: 2}}}), m, prop, nil)
	f, ok := err.(*Failure)
	if !ok || f.Condition != "consecution" || !strings.Contains(err.Error(), "state mod=2 is inside the invariant, its successor mod=3 is not") {
		t.Errorf("x <= 2: got %v, want consecution to fail from mod=2", err)
	}
	err = Check(ctx, mk([][]smt.Lit{{{Var: 0, Upper: true, K: 4}}}), m, prop, nil)
	if f, ok := err.(*Failure); !ok || f.Condition != "safety" || f.State[0] != 4 {
		t.Errorf("x <= 4: got %v, want safety to fail at mod=4", err)
	}
}

func TestQuote(t *testing.T) {
	for in, want := range map[string]string{
		"careful":      "careful",
		"c\u0430reful": `"c\u0430reful"`,
		"a b":          `"a b"`,
		"":             `""`,
		"p\u200b":      `"p\u200b"`,
		`a"b`:          `"a\"b"`,
	} {
		if got := Quote(in); got != want {
			t.Errorf("Quote(%+q) = %s, want %s", in, got, want)
		}
	}
	if Skeleton("c\u0430reful") != "careful" || Skeleton("p\u200b") != "p" || Skeleton("ｃareful") != "careful" {
		t.Errorf("Skeleton misses a look-alike")
	}
}
