package jani_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"vigil/lang"
	"vigil/lang/jani"
)

// TestExportCosts: commands' costs become a reward, a transient variable
// that every destination sets to its edge's cost, and the property with
// a goal gets a second one asking its minimal expected cost.
func TestExportCosts(t *testing.T) {
	const spec = `
var x : 0 .. 4 = 0
action move(d in 1 .. 2) when x + d <= 4 cost 3 * d -> x' = x + d
action walk when x < 4 -> x' = x + 1
property p { unsafe false goal x == 4 }
`
	m, diags := lang.LoadSource("c.spec", []byte(spec), lang.Options{})
	if m == nil {
		t.Fatal(diags)
	}
	var b bytes.Buffer
	if err := jani.Export(&b, m, m.Property("p"), nil); err != nil {
		t.Fatal(err)
	}
	var root struct {
		Variables []struct {
			Name      string `json:"name"`
			Transient bool   `json:"transient"`
		} `json:"variables"`
		Automata []struct {
			Edges []struct {
				Action       string `json:"action"`
				Destinations []struct {
					Assignments []struct {
						Ref   string `json:"ref"`
						Value any    `json:"value"`
					} `json:"assignments"`
				} `json:"destinations"`
			} `json:"edges"`
		} `json:"automata"`
		Properties []struct {
			Name string `json:"name"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(b.Bytes(), &root); err != nil {
		t.Fatal(err)
	}
	last := root.Variables[len(root.Variables)-1]
	if last.Name != "cost" || !last.Transient {
		t.Errorf("variables %+v: want a transient cost last", root.Variables)
	}
	want := map[string]float64{"move[1]": 3, "move[2]": 6, "walk": 1}
	for _, e := range root.Automata[0].Edges {
		as := e.Destinations[0].Assignments
		c := as[len(as)-1]
		if c.Ref != "cost" || c.Value != want[e.Action] {
			t.Errorf("edge %s sets %s = %v, want cost = %v", e.Action, c.Ref, c.Value, want[e.Action])
		}
	}
	if len(root.Properties) != 2 || root.Properties[1].Name != "p_cost" {
		t.Errorf("properties %+v: want p and p_cost", root.Properties)
	}
	if _, _, err := jani.Decode("c.jani", b.Bytes(), nil); err != nil {
		t.Errorf("the export does not import back: %v", err)
	}
}
