package jani_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"vigil/lang"
	"vigil/lang/jani"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// exportImport loads spec, exports it with property p as JANI and imports
// the JANI text back.
func exportImport(t *testing.T, spec, p string) (m, back *symbolic.Model, text string, notes []jani.Note) {
	t.Helper()
	m, diags := lang.LoadSource("m.spec", []byte(spec), lang.Options{})
	if m == nil {
		t.Fatal(diags.Render())
	}
	var b bytes.Buffer
	if err := jani.Export(&b, m, m.Property(p), nil); err != nil {
		t.Fatal(err)
	}
	back, notes, err := jani.Decode("m.jani", b.Bytes(), nil)
	if err != nil {
		t.Fatalf("the export does not import back: %v\n%s", err, b.String())
	}
	return m, back, b.String(), notes
}

// counts explores m from the start states of property p (m's own when the
// JANI import names it p) over every label.
func counts(t *testing.T, m *symbolic.Model, p string) explicit.Stats {
	t.Helper()
	prop := m.Property(p)
	if prop == nil {
		t.Fatalf("no property %s", p)
	}
	g, err := explicit.New(m, prop)
	if err != nil {
		t.Fatal(err)
	}
	res, err := explicit.Search(context.Background(), g, explicit.Options{MaxStates: 100_000})
	if err != nil {
		t.Fatal(err)
	}
	s := res.Stats
	return explicit.Stats{States: s.States, Transitions: s.Transitions, Depth: s.Depth, Starts: s.Starts, Deadlocks: s.Deadlocks}
}

// TestExportArrays: an array indexed from 0 whose elements the start
// condition (or, without one, the declaration) fixes is a JANI array;
// one that may start with several values, or indexed from 1, is one
// variable per element named as in the IR. Both import back as the same
// array, and explore to the same counts.
func TestExportArrays(t *testing.T) {
	for _, c := range []struct {
		name, spec, prop string
		janiArray        bool
	}{
		{"declared", `
var a : [0 .. 2] of 0 .. 3 = [1, 0, 2]
var f : [0 .. 1] of bool = [true, false]
var i : 0 .. 2 = 0
action step when i < 2 -> i' = i + 1
action dec when a[i] > 0 -> a[i]' = a[i] - 1
action flip when f[0] -> f[1]' = true, f[0]' = false
property p { unsafe a[0] == 0 && f[1] && i == 2 }
`, "p_avoid", true},
		{"fixed by start", `
var a : [0 .. 2] of 0 .. 3
var i : 0 .. 2
action step when i < 2 -> i' = i + 1
action dec when a[i] > 0 -> a[i]' = a[i] - 1
property p { start a[0] == 3 && a[1] == 1 && 2 == a[2] && i <= 1 unsafe false goal a[0] + a[1] + a[2] == 0 }
`, "p", true},
		{"free start", `
var a : [0 .. 2] of 0 .. 3
var i : 0 .. 2
action step when i < 2 -> i' = i + 1
action dec when a[i] > 0 -> a[i]' = a[i] - 1
property p { start a[0] >= 2 && a[1] == 1 unsafe false goal a[0] + a[1] + a[2] == 0 }
`, "p", false},
		{"from 1", `
var on : [1 .. 3] of 0 .. 3 = [1, 2, 3]
var b  : [1 .. 2] of bool = [false, true]
action dec(k in 1 .. 3) when on[k] > 0 -> on[k]' = on[k] - 1
action flip when b[2] -> b[1]' = true, b[2]' = false
property p { unsafe false goal on[1] + on[2] + on[3] == 0 }
`, "p", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, back, text, _ := exportImport(t, c.spec, "p")
			if got := strings.Contains(text, `"kind": "array"`); got != c.janiArray {
				t.Errorf("a JANI array: %v, want %v\n%s", got, c.janiArray, text)
			}
			if len(back.Vars) != len(m.Vars) {
				t.Fatalf("%d variables back, want %d", len(back.Vars), len(m.Vars))
			}
			for i := range m.Vars {
				if back.Vars[i].Name != m.Vars[i].Name || back.Vars[i].Lo != m.Vars[i].Lo || back.Vars[i].Hi != m.Vars[i].Hi {
					t.Errorf("variable %d: %s %d..%d back, want %s %d..%d", i, back.Vars[i].Name, back.Vars[i].Lo,
						back.Vars[i].Hi, m.Vars[i].Name, m.Vars[i].Lo, m.Vars[i].Hi)
				}
			}
			for _, l := range m.Labels {
				if back.LabelIndex(l.Name) == symbolic.NoLabel {
					t.Errorf("label %s does not come back", l.Name)
				}
			}
			if a, b := counts(t, m, "p"), counts(t, back, c.prop); a != b {
				t.Errorf("the spec explores to %+v, its export to %+v", a, b)
			}
		})
	}
}

// TestImportCosts: the reward an export writes for commands' costs comes
// back as the costs; a reward that is not one (here a value that may be
// 0) is ignored with a note.
func TestImportCosts(t *testing.T) {
	const spec = `
var x : 0 .. 4 = 0
action move(d in 1 .. 2) when x + d <= 4 cost 3 * d + x -> x' = x + d | x' = x
action walk when x < 4 -> x' = x + 1
property p { unsafe false goal x == 4 }
`
	m, back, _, _ := exportImport(t, spec, "p")
	if len(back.Commands) != len(m.Commands) {
		t.Fatalf("%d commands back, want %d", len(back.Commands), len(m.Commands))
	}
	for i := range m.Commands {
		c, d := &m.Commands[i], &back.Commands[i]
		for x := 0; x <= 4; x++ {
			s := symbolic.State{x}
			if c.CostIn(s) != d.CostIn(s) {
				t.Errorf("%s at x=%d costs %d back, want %d", m.Labels[c.Label].Name, x, d.CostIn(s), c.CostIn(s))
			}
		}
	}
	zero := `{"jani-version": 1, "name": "z", "type": "mdp", "actions": [{"name": "a"}],
  "variables": [{"name": "x", "type": {"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 2}, "initial-value": 0},
    {"name": "r", "type": "int", "transient": true, "initial-value": 0}],
  "automata": [{"name": "m", "locations": [{"name": "l"}], "initial-locations": ["l"], "edges": [
    {"location": "l", "action": "a", "guard": {"exp": {"op": "<", "left": "x", "right": 2}},
     "destinations": [{"location": "l", "assignments": [{"ref": "x", "value": {"op": "+", "left": "x", "right": 1}}, {"ref": "r", "value": "x"}]}]}]}],
  "system": {"elements": [{"automaton": "m"}]}, "properties": []}`
	zm, notes, err := jani.Decode("z.jani", []byte(zero), nil)
	if err != nil {
		t.Fatal(err)
	}
	if zm.Commands[0].Cost != nil {
		t.Errorf("a reward that may be 0 became a cost")
	}
	found := false
	for _, n := range notes {
		found = found || strings.Contains(n.Msg, `"r" is no cost`)
	}
	if !found {
		t.Errorf("no note that the reward is no cost: %v", notes)
	}
}
