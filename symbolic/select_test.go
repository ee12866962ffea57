package symbolic

import (
	"strings"
	"testing"
)

// SelectProperty and SelectPolicy: by name (a JANI keyword-renamed
// property also by its JANI name), the only one by default, and messages
// that list what the model has.
func TestSelect(t *testing.T) {
	m := &Model{Name: "m", Properties: []*Property{{Name: "p"}, {Name: "goal_", FromModel: true}},
		Policies: []*PolicyDecl{{Name: "a"}, {Name: "b"}}}
	if p, err := m.SelectProperty("goal", true); err != nil || p.Name != "goal_" {
		t.Errorf("goal: %v, %v", p, err)
	}
	if p, err := m.SelectProperty("", false); err != nil || p.Name != "p" {
		t.Errorf("default: %v, %v; want p (the model's own)", p, err)
	}
	if _, err := m.SelectProperty("q", true); err == nil || !strings.Contains(err.Error(), `no property "q"`) || !strings.Contains(err.Error(), "it has: p, goal_") {
		t.Errorf("q: %v", err)
	}
	jani := &Model{Name: "j", Properties: []*Property{{Name: "x", FromModel: true}}}
	if p, err := jani.SelectProperty("", false); p != nil || err != nil {
		t.Errorf("JANI only, not required: %v, %v; want none", p, err)
	}
	if p, err := jani.SelectProperty("", true); err != nil || p.Name != "x" {
		t.Errorf("JANI only, required: %v, %v", p, err)
	}
	if _, err := (&Model{Name: "e"}).SelectProperty("", true); err == nil || !strings.Contains(err.Error(), "has no property; add") {
		t.Errorf("none: %v", err)
	}
	if _, err := m.SelectPolicy("", true); err == nil || !strings.Contains(err.Error(), "several policies; choose one with --policy (a, b)") {
		t.Errorf("several policies: %v", err)
	}
	if d, err := m.SelectPolicy("", false); d != nil || err != nil {
		t.Errorf("not by default: %v, %v", d, err)
	}
	if d, err := m.SelectPolicy("b", false); err != nil || d.Name != "b" {
		t.Errorf("b: %v, %v", d, err)
	}
	if _, err := (&Model{Name: "e"}).SelectPolicy("z", true); err == nil || !strings.Contains(err.Error(), "it has: none") {
		t.Errorf("z: %v", err)
	}
}

// SymbolicPolicies lists the rules and table policies, which an exact
// encoding can inline, and leaves out networks and ensembles.
func TestSymbolicPolicies(t *testing.T) {
	m := &Model{Policies: []*PolicyDecl{{Name: "net", Kind: KindNN}, {Name: "r", Kind: KindRules}, {Name: "forest", Kind: KindTrees}, {Name: "t", Kind: KindTable}}}
	if got := m.SymbolicPolicies(); len(got) != 2 || got[0] != "r" || got[1] != "t" {
		t.Errorf("SymbolicPolicies = %v, want [r t]", got)
	}
	if KindNN.Symbolic() || KindTrees.Symbolic() || !KindRules.Symbolic() || !KindTable.Symbolic() {
		t.Error("Symbolic: rules and table only")
	}
}
