package jani_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"vigil/lang"
	"vigil/lang/jani"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// loadText writes text to a .jani file in a temporary directory and
// loads it.
func loadText(t *testing.T, text string) (*symbolic.Model, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "m.jani")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return jani.Load(path, nil)
}

// TestS26jModuloTruncated: JANI's a % b is Storm's, the remainder of
// division truncated toward zero (C++ %, as Go's %), with the sign of a,
// for every sign of a and of the constant b, over a variable whose range
// has either sign only or both, and folded on constants too. vigil read
// the floor modulo (-7 % 3 = 2 where Storm has -1) and refused b < 0.
func TestS26jModuloTruncated(t *testing.T) {
	for _, rng := range [][2]int{{-9, 9}, {-9, -1}, {0, 9}, {-9, 0}} {
		for _, b := range []int{1, 2, 3, 5, -1, -4, 7} {
			src := fmt.Sprintf(`{"jani-version": 1, "name": "m", "type": "lts",
 "constants": [{"name": "K", "type": "int", "value": {"op": "%%", "left": -7, "right": %d}}],
 "variables": [{"name": "x", "type": {"kind": "bounded", "base": "int", "lower-bound": %d, "upper-bound": %d}, "initial-value": %d},
               {"name": "y", "type": {"kind": "bounded", "base": "int", "lower-bound": -20, "upper-bound": 20}, "initial-value": 0}],
 "automata": [{"name": "a", "locations": [{"name": "l"}], "initial-locations": ["l"],
   "edges": [{"location": "l", "destinations": [{"location": "l", "assignments": [{"ref": "y", "value": {"op": "+", "left": {"op": "%%", "left": "x", "right": %d}, "right": {"op": "*", "left": 10, "right": "K"}}}]}]}]}],
 "system": {"elements": [{"automaton": "a"}]}}`, b, rng[0], rng[1], rng[0], b)
			m, err := loadText(t, src)
			if err != nil {
				t.Fatalf("range %v, b=%d: %v", rng, b, err)
			}
			y := m.Commands[0].Outcomes[0].Assigns[0].Value
			for x := rng[0]; x <= rng[1]; x++ {
				want := x%b + 10*(-7%b)
				if got := y.Eval(symbolic.State{x, 0}); got != want {
					t.Errorf("range %v: %d %% %d + 10*(-7 %% %d) = %d, want %d", rng, x, b, b, got, want)
				}
			}
		}
	}
}

// TestS26jModuloZero: a modulus of 0 is an error at the operator, on a
// variable and on constants alike.
func TestS26jModuloZero(t *testing.T) {
	for _, left := range []string{`"x"`, `5`} {
		src := `{"jani-version": 1, "name": "m", "type": "lts",
 "variables": [{"name": "x", "type": {"kind": "bounded", "base": "int", "lower-bound": -3, "upper-bound": 3}, "initial-value": 0}],
 "automata": [{"name": "a", "locations": [{"name": "l"}], "initial-locations": ["l"],
   "edges": [{"location": "l", "destinations": [{"location": "l", "assignments": [{"ref": "x", "value": {"op": "%", "left": ` + left + `, "right": 0}}]}]}]}],
 "system": {"elements": [{"automaton": "a"}]}}`
		if _, err := loadText(t, src); err == nil {
			t.Errorf("%s %% 0 loaded", left)
		}
	}
}

// riJANI restricts its initial states to y <= 1 || x >= 2, with x = 0
// initially and y without an initial value.
const riJANI = `{"jani-version": 1, "name": "ri2", "type": "mdp", "actions": [{"name": "inc"}, {"name": "bump"}],
 "variables": [{"name": "x", "type": {"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 3}, "initial-value": 0},
               {"name": "y", "type": {"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 2}}],
 "automata": [{"name": "a", "locations": [{"name": "l"}], "initial-locations": ["l"],
   "edges": [{"location": "l", "action": "inc", "guard": {"exp": {"op": "<", "left": "x", "right": 3}}, "destinations": [{"location": "l", "assignments": [{"ref": "x", "value": {"op": "+", "left": "x", "right": 1}}]}]},
             {"location": "l", "action": "bump", "guard": {"exp": {"op": "∧", "left": {"op": "=", "left": "x", "right": 3}, "right": {"op": "<", "left": "y", "right": 2}}}, "destinations": [{"location": "l", "assignments": [{"ref": "y", "value": {"op": "+", "left": "y", "right": 1}}]}]}]}],
 "system": {"elements": [{"automaton": "a"}]},
 "restrict-initial": {"exp": {"op": "∨", "left": {"op": "≤", "left": "y", "right": 1}, "right": {"op": "≥", "left": "x", "right": 2}}}}`

// TestS26jSpecKeepsRestrictInitial: the .spec text of a JANI model with a
// restrict-initial (CarryRestrictInitial, as vigil import writes it)
// starts from the same states as the model, with a PlaJA start condition
// (restrict-initial ∧ start: 10), with an unsafe file alone (restrict-
// initial ∧ initial values: 2) and with its property initial (2). The
// .spec had the restrict-initial only in that property: --start started
// from all 12 states, and the unsafe file alone was refused (y has no
// initial value).
func TestS26jSpecKeepsRestrictInitial(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	model := write("ri.jani", riJANI)
	start := write("s.json", `{"op": "≥", "left": "x", "right": 0}`)
	unsafe := write("u.json", `{"op": "∧", "left": {"op": "=", "left": "x", "right": 1}, "right": {"op": "=", "left": "y", "right": 2}}`)
	load := func() (jm, sm *symbolic.Model) {
		jm, err := jani.Load(model, nil)
		if err != nil {
			t.Fatal(err)
		}
		spec, err := jani.Load(model, nil)
		if err != nil {
			t.Fatal(err)
		}
		if n := jani.CarryRestrictInitial(spec); n != "" {
			t.Fatal(n)
		}
		var b bytes.Buffer
		if err := symbolic.Print(&b, spec); err != nil {
			t.Fatal(err)
		}
		sm, diags := lang.LoadSource(filepath.Join(dir, "ri.spec"), b.Bytes(), lang.Options{})
		if diags.HasErrors() {
			t.Fatalf("%v\n%s", diags, b.String())
		}
		return jm, sm
	}
	starts := func(m *symbolic.Model, p *symbolic.Property) int {
		t.Helper()
		g, err := explicit.New(m, p)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		if err := g.StartsContext(context.Background(), func(symbolic.State) bool { n++; return true }); err != nil {
			t.Fatal(err)
		}
		return n
	}
	for _, c := range []struct {
		start string
		want  int
	}{{"", 2}, {start, 10}} {
		jm, sm := load()
		for _, m := range []*symbolic.Model{jm, sm} {
			if err := jani.AddProperty(m, c.start, unsafe); err != nil {
				t.Fatal(err)
			}
		}
		last := func(m *symbolic.Model) *symbolic.Property { return m.Properties[len(m.Properties)-1] }
		if j, s := starts(jm, last(jm)), starts(sm, last(sm)); j != c.want || s != c.want {
			t.Errorf("--start %q: %d start states on the .jani, %d on the .spec; want %d", c.start, j, s, c.want)
		}
		if j, s := starts(jm, jm.Property("initial")), starts(sm, sm.Property("initial")); j != 2 || s != 2 {
			t.Errorf("property initial: %d start states on the .jani, %d on the .spec; want 2", j, s)
		}
	}
}

// TestS26jModuloReal: % of real constants is Storm's fmod, the sign of
// the left operand (-7.5 % 2 = -1.5, 7.5 % -2 = 1.5, 2.5 % 2 = 0.5); it
// was refused as needing integer operands.
func TestS26jModuloReal(t *testing.T) {
	fl := func(l, r string) string {
		return `{"op": "floor", "exp": {"op": "*", "left": 2, "right": {"op": "%", "left": ` + l + `, "right": ` + r + `}}}`
	}
	src := `{"jani-version": 1, "name": "m", "type": "lts",
 "constants": [{"name": "A", "type": "int", "value": ` + fl("-7.5", "2") + `},
               {"name": "B", "type": "int", "value": ` + fl("7.5", "-2") + `},
               {"name": "C", "type": "int", "value": ` + fl("2.5", "2") + `}],
 "variables": [{"name": "y", "type": {"kind": "bounded", "base": "int", "lower-bound": -1000, "upper-bound": 1000}, "initial-value": 0}],
 "automata": [{"name": "a", "locations": [{"name": "l"}], "initial-locations": ["l"],
   "edges": [{"location": "l", "destinations": [{"location": "l", "assignments": [{"ref": "y", "value": {"op": "+", "left": {"op": "*", "left": 100, "right": "A"}, "right": {"op": "+", "left": {"op": "*", "left": 10, "right": "B"}, "right": "C"}}}]}]}]}],
 "system": {"elements": [{"automaton": "a"}]}}`
	m, err := loadText(t, src)
	if err != nil {
		t.Fatal(err)
	}
	// A = floor(2 * -1.5) = -3, B = floor(2 * 1.5) = 3, C = floor(2 * 0.5) = 1
	if got := m.Commands[0].Outcomes[0].Assigns[0].Value.Eval(symbolic.State{0}); got != -300+30+1 {
		t.Errorf("100*A + 10*B + C = %d, want %d", got, -300+30+1)
	}
}
