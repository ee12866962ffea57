package jani

import (
	"testing"

	"vigil/symbolic"
)

// A product of two variables is what .spec cannot say; NonLinear finds
// the assignment that holds it. Relativize makes policy paths relative to
// the .spec's directory.
func TestToSpec(t *testing.T) {
	x := &symbolic.Expr{Op: symbolic.OpVar, Var: 0}
	prod := &symbolic.Expr{Op: symbolic.OpProd, Args: []*symbolic.Expr{x, x}}
	at := symbolic.Pos{File: "m.jani", Line: 7, Col: 3}
	m := &symbolic.Model{Commands: []symbolic.Command{{Outcomes: []symbolic.Outcome{{Assigns: []symbolic.Assign{{Var: 0, Value: x}}}}}}}
	if _, ok := NonLinear(m); ok {
		t.Error("a linear model reported as non-linear")
	}
	m.Commands[0].Outcomes[0].Assigns[0] = symbolic.Assign{Var: 0, Value: prod, Pos: at}
	if pos, ok := NonLinear(m); !ok || pos != at {
		t.Errorf("NonLinear = %v, %v; want %v", pos, ok, at)
	}
	m.Policies = []*symbolic.PolicyDecl{{File: "/a/b/net.onnx"}, {}}
	Relativize(m, "/a/c")
	if m.Policies[0].File != "../b/net.onnx" || m.Policies[1].File != "" {
		t.Errorf("Relativize: %q, %q", m.Policies[0].File, m.Policies[1].File)
	}
}
