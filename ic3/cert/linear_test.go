package cert

import (
	"context"
	"strings"
	"testing"

	"vigil/smt"
	"vigil/symbolic"
)

// yx is x := x + 1 below 5 (label a) and y := y + 1 below x (label b),
// over x, y in 0..5, with y > x unsafe: its invariant is y <= x, a
// linear atom over two variables.
func yx() (*symbolic.Model, *symbolic.Property) {
	x := &symbolic.Expr{Op: symbolic.OpVar, Var: 0}
	y := &symbolic.Expr{Op: symbolic.OpVar, Var: 1}
	k := func(v int) *symbolic.Expr { return &symbolic.Expr{Op: symbolic.OpConst, K: v} }
	inc := func(v symbolic.VarID, e *symbolic.Expr) []symbolic.Outcome {
		return []symbolic.Outcome{{Assigns: []symbolic.Assign{{Var: v, Value: &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{e, k(1)}}}}}}
	}
	m := &symbolic.Model{
		Name:   "yx",
		Vars:   []symbolic.Var{{Name: "x", Lo: 0, Hi: 5, HasInit: true}, {Name: "y", Lo: 0, Hi: 5, HasInit: true}},
		Labels: []symbolic.Label{{Name: "a"}, {Name: "b"}},
		Commands: []symbolic.Command{
			{Label: 0, Guard: &symbolic.Cond{Op: symbolic.CCmp, Cmp: symbolic.Lt, L: x, R: k(5)}, Outcomes: inc(0, x)},
			{Label: 1, Guard: &symbolic.Cond{Op: symbolic.CCmp, Cmp: symbolic.Lt, L: y, R: x}, Outcomes: inc(1, y)},
		},
	}
	prop := &symbolic.Property{Name: "p", Unsafe: &symbolic.Cond{Op: symbolic.CCmp, Cmp: symbolic.Gt, L: y, R: x}}
	m.Properties = []*symbolic.Property{prop}
	return m, prop
}

func TestLinearAtoms(t *testing.T) {
	m, prop := yx()
	ctx := context.Background()
	f := symbolic.NewForm([]symbolic.Term{{Coef: -1, Var: 0}, {Coef: 1, Var: 1}}) // y - x
	mk := func(inv [][]smt.Lit) *Cert {
		c := &Cert{Inv: inv, Vars: []string{"x", "y"}}
		c.Model, c.Property, c.Boxes = "yx", "p", len(inv)
		c.Hash, _ = ModelHash(m, "p", "")
		return c
	}
	// Written, parsed back exactly, and checked.
	good := mk([][]smt.Lit{{smt.FormLit(f, true, 0)}})
	var b strings.Builder
	if err := good.Write(&b, m, prop, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "(<= (+ (* (- 1) |x|) |y|) 0)") {
		t.Errorf("the atom y - x <= 0 is not written exactly:\n%s", b.String())
	}
	back, err := Parse(strings.NewReader(b.String()), "yx.smt2")
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Inv) != 1 || len(back.Inv[0]) != 1 || back.Inv[0][0] != good.Inv[0][0] {
		t.Fatalf("parsed back %v, want %v", back.Inv, good.Inv)
	}
	if err := Check(ctx, back, m, prop, nil); err != nil {
		t.Errorf("y - x <= 0: %v", err)
	}
	// y - x <= 1 contains unsafe states; y - x <= -1 misses the start.
	err = Check(ctx, mk([][]smt.Lit{{smt.FormLit(f, true, 1)}}), m, prop, nil)
	if fl, ok := err.(*Failure); !ok || fl.Condition != "safety" {
		t.Errorf("y - x <= 1: got %v, want safety to fail", err)
	}
	err = Check(ctx, mk([][]smt.Lit{{smt.FormLit(f, true, -1)}}), m, prop, nil)
	if fl, ok := err.(*Failure); !ok || fl.Condition != "init" {
		t.Errorf("y - x <= -1: got %v, want init to fail", err)
	}
	// y - x <= 0 and x <= 3 is not closed: a goes from x = 3 to 4.
	err = Check(ctx, mk([][]smt.Lit{{{Var: 0, Upper: true, K: 3}, smt.FormLit(f, true, 0)}}), m, prop, nil)
	if fl, ok := err.(*Failure); !ok || fl.Condition != "consecution" {
		t.Errorf("y - x <= 0, x <= 3: got %v, want consecution to fail", err)
	}
}

func TestLinearAtomsParse(t *testing.T) {
	head := "; " + Magic + "\n; model: yx\n; property: p\n; model-sha256: 00\n; boxes: 1\n(define-fun vigil.inv ((|x| Int) (|y| Int)) Bool\n(or\n"
	for body, want := range map[string]string{
		"(and (>= (+ (* 2 |x|) (* (- 3) |y|)) (- 4)))": "",
		"(<= (+ |x| |y|) 7)":                           "",
		"(>= (* 1 |y|) 2)":                             "",
		"(>= (+ |x| |z|) 0)":                           `bound on "z", which is not a parameter`,
		"(>= (+ |x| (* -1 (* 3 |y|))) 0)":              `want a term |x| or (* K |x|) of a linear atom (a constant times a parameter)`,
		"(>= (+ |x|) 0)":                               "want a sum of at least two terms",
		"(>= (+ |x| (* (- 1) |x|)) 0)":                 "coefficients cancel out",
		"(>= (+ |x| (* |y| 2)) 0)":                     "want an integer constant",
		"(>= (+ |x| (- |y|)) 0)":                       "want a term |x| or (* K |x|)",
		"(= (+ |x| |y|) 0)":                            `want >= or <=, got "="`,
		// 2 (2^63 - 1) + 3 is 2^64 + 1, which wraps to 1 in int64:
		// read exactly it is another atom, so it is refused.
		"(<= (+ (* 9223372036854775807 |x|) (* 9223372036854775807 |x|) (* 3 |x|) (* (- 1) |y|)) 0)": "sum beyond the 64-bit integers",
		"(<= (+ (* (- 9223372036854775807) |x|) (* (- 2) |x|) |y|) 0)":                               "sum beyond the 64-bit integers",
		"(<= (+ (* 9223372036854775807 |x|) (* (- 9223372036854775807) |x|) |y|) 0)":                 "",
		"(>= (+ |x| (* (- 9223372036854775808) |y|)) 0)":                                             "want an integer constant",
	} {
		c, err := Parse(strings.NewReader(head+body+"\n))\n"), "t.smt2")
		switch {
		case want == "" && err != nil:
			t.Errorf("%s: %v", body, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%s: got %v, want an error with %q", body, err, want)
		case want == "" && body == "(>= (* 1 |y|) 2)" && (c.Inv[0][0].Form != nil || c.Inv[0][0].Var != 1):
			t.Errorf("%s: got %v, want the plain bound y >= 2", body, c.Inv[0][0])
		}
	}
}
