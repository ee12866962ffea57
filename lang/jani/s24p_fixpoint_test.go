package jani_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"vigil/lang"
	"vigil/lang/jani"
	"vigil/symbolic"
)

// TestExportImportFixpoint: vigil export --jani then vigil import, again
// and again, reaches a fixed point after the first round: the second
// round's JANI is byte for byte the first's, the .spec text of every
// later round is the first's, the number of edges never changes after
// round 1, and every round explores to the counts of the original
// .spec. Before, the imported property read ¬left ∧ ¬right for unsafe
// and the export added ¬unsafe to the goal again, so each round doubled
// the property (a 3x3 puzzle's JANI grew from 88 KB to 174 KB in three
// rounds, and on).
func TestExportImportFixpoint(t *testing.T) {
	for _, c := range []struct{ name, spec, prop string }{
		{"grid", `model grid3
var pos : 0 .. 8 = 0
var c : [0 .. 8] of 0 .. 2 = 0
action paint when c[pos] < 2 -> c[pos]' = c[pos] + 1
action paint2 when c[pos] < 2 -> 1: c[pos]' = c[pos] + 1 | 3: c[pos]' = c[8 - pos]
action right when pos < 8 -> pos' = pos + 1
action left when pos > 0 -> pos' = pos - 1
property p {
  start pos == 0 && (forall k in 0 .. 8: c[k] == 0)
  unsafe c[4] == 2 && c[0] == 2
  goal c[8] == 2 || c[4] == 2
}
`, "p"},
		{"goal only", `model g
var x : 0 .. 5 = 0
action up when x < 5 -> 1: x' = x + 1 | 1: x' = 0
property p {
  start x == 0
  unsafe false
  goal x == 5
}
`, "p"},
		{"unsafe only", `model u
var x : 0 .. 5 = 0
var y : bool = false
action up when x < 5 -> 1: x' = x + 1 | 1: y' = !y
property p {
  start x == 0 && !y
  unsafe x == 5 && y
}
`, "p"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, diags := lang.LoadSource("m.spec", []byte(c.spec), lang.Options{})
			if m == nil {
				t.Fatal(diags.Render())
			}
			want := counts(t, m, c.prop)
			prop := c.prop
			var janis, specs []string
			var edges []int
			for round := 1; round <= 4; round++ {
				var b bytes.Buffer
				if err := jani.Export(&b, m, m.Property(prop), nil); err != nil {
					t.Fatalf("round %d: %v", round, err)
				}
				janis = append(janis, b.String())
				back, _, err := jani.Decode("m.jani", b.Bytes(), nil)
				if err != nil {
					t.Fatalf("round %d: %v\n%s", round, err, b.String())
				}
				edges = append(edges, len(back.Commands))
				var text bytes.Buffer
				if err := symbolic.Print(&text, back); err != nil {
					t.Fatal(err)
				}
				specs = append(specs, text.String())
				m, diags = lang.LoadSource("m.spec", text.Bytes(), lang.Options{})
				if m == nil {
					t.Fatalf("round %d: the imported .spec does not load:\n%s\n%s", round, diags.Render(), text.String())
				}
				if round == 1 && m.Property(prop) == nil {
					prop += "_avoid" // F unsafe comes back as NAME (goal) and NAME_avoid (unsafe)
				}
				if got := counts(t, m, prop); got != want {
					t.Errorf("round %d: explores to %+v, the original to %+v", round, got, want)
				}
			}
			for i := 1; i < len(specs); i++ {
				if specs[i] != specs[0] {
					t.Errorf("round %d's .spec differs from round 1's:\n%s\n---\n%s", i+1, specs[0], specs[i])
				}
				if edges[i] != edges[0] {
					t.Errorf("edges per round %v: no fixed point", edges)
				}
			}
			for i := 2; i < len(janis); i++ {
				if janis[i] != janis[1] {
					t.Errorf("round %d's JANI (%d bytes) differs from round 2's (%d bytes)", i+1, len(janis[i]), len(janis[1]))
				}
			}
			if len(janis[3]) > 2*len(janis[0]) || strings.Count(specs[3], "!(") > strings.Count(specs[0], "!(") {
				t.Errorf("the model grows: JANI %d -> %d bytes", len(janis[0]), len(janis[3]))
			}
		})
	}
}

// stateDepJANI is one edge of 8 destinations whose probabilities read the
// state (x/(4(x+y)) four times, y/(4(x+y)) four times) on a 3x3 grid.
func stateDepJANI() []byte {
	var dests []string
	for k := 0; k < 8; k++ {
		v := "x"
		if k >= 4 {
			v = "y"
		}
		dests = append(dests, fmt.Sprintf(`{"location": "l", "probability": {"exp": {"op": "/", "left": %q, "right": {"op": "*", "left": 4, "right": {"op": "+", "left": "x", "right": "y"}}}},
 "assignments": [{"ref": "x", "value": %d}, {"ref": "y", "value": %d}]}`, v, k%3, (k/3)%3))
	}
	return []byte(`{"jani-version": 1, "name": "sd", "type": "mdp", "actions": [{"name": "move"}],
 "variables": [{"name": "x", "type": {"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 2}, "initial-value": 1},
  {"name": "y", "type": {"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 2}, "initial-value": 1}],
 "properties": [{"name": "g", "expression": {"op": "filter", "fun": "max", "states": {"op": "initial"},
  "values": {"op": "Pmax", "exp": {"op": "F", "exp": {"op": "∧", "left": {"op": "=", "left": "x", "right": 1}, "right": {"op": "=", "left": "y", "right": 2}}}}}}],
 "automata": [{"name": "a", "locations": [{"name": "l"}], "initial-locations": ["l"], "edges": [
  {"location": "l", "action": "move", "guard": {"exp": {"op": ">", "left": {"op": "+", "left": "x", "right": "y"}, "right": 0}},
   "destinations": [` + strings.Join(dests, ",\n") + `]}]}],
 "system": {"elements": [{"automaton": "a"}], "syncs": [{"synchronise": ["move"], "result": "move"}]}}`)
}

// TestExportStateProbFixpoint: a JANI edge whose destinations'
// probabilities read the state is split on import by which of them are
// positive (255 commands for 8 destinations); vigil export writes each
// command as an edge guarded by those conditions, and read back each
// was split again on every destination: 255 edges, then 6,491, then
// 63,801 (1.4 GB of JANI). Now every round has the first round's 255
// edges, byte for byte the same JANI, and the same state space.
func TestExportStateProbFixpoint(t *testing.T) {
	m, _, err := jani.Decode("sd.jani", stateDepJANI(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := counts(t, m, "g")
	var prev string
	for round := 1; round <= 3; round++ {
		var b bytes.Buffer
		if err := jani.Export(&b, m, m.Property("g"), nil); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		back, _, err := jani.Decode("m.jani", b.Bytes(), nil)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if len(back.Commands) != len(m.Commands) {
			t.Errorf("round %d: %d edges exported, %d read back", round, len(m.Commands), len(back.Commands))
		}
		if round > 1 && b.String() != prev {
			t.Errorf("round %d: the JANI (%d bytes) differs from round %d's (%d bytes)", round, b.Len(), round-1, len(prev))
		}
		prev = b.String()
		m = back
		if got := counts(t, m, "g"); got != want {
			t.Errorf("round %d: explores to %+v, the original to %+v", round, got, want)
		}
	}
	if len(m.Commands) != 255 {
		t.Errorf("%d commands, want 255 (the 2^8 combinations of live destinations but the empty one)", len(m.Commands))
	}
}
