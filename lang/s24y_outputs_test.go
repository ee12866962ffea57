package lang_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vigil/lang"
)

// TestS24yEmptyFamilyInOutputs: a policy's outputs naming a family whose
// schemas make no command (under a -D value) is warning W0702 at the
// name, once, and the model still loads with the other outputs; with
// commands, or for a family never named in outputs, there is no W0702.
func TestS24yEmptyFamilyInOutputs(t *testing.T) {
	src := `model m
const N = 2
var x : 0 .. 5 = 0
action move(d in 1 .. N) when x + d <= 5 -> x' = x + d
action stay -> x' = x
policy table t "t.csv" {
    outputs move, stay
}
policy rules r {
    otherwise -> stay
}
property p {
    unsafe x > 4
}
`
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "t.csv"), []byte("x,label\n0,stay\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		n    string
		want int
	}{{"2", 0}, {"0", 1}, {"-3", 1}} {
		m, diags := lang.LoadSource(filepath.Join(dir, "m.spec"), []byte(src), lang.Options{Defines: map[string]string{"N": c.n}})
		if diags.HasErrors() || m == nil {
			t.Fatalf("N=%s: %s", c.n, diags.Render())
		}
		got := 0
		for _, d := range diags {
			if d.Code != "W0702" {
				continue
			}
			got++
			if d.Severity != lang.Warning || d.Pos.Line != 7 || d.Pos.Col != 13 || d.End != 17 || !strings.Contains(d.Msg, "policy t names move") {
				t.Errorf("N=%s: %+v", c.n, d)
			}
		}
		if got != c.want {
			t.Errorf("N=%s: %d W0702 warnings, want %d: %s", c.n, got, c.want, diags.Render())
		}
		var outs []string
		for _, l := range m.Policies[0].Outputs {
			outs = append(outs, m.Labels[l].Name)
		}
		if want := map[bool]string{true: "stay", false: "move[1] move[2] stay"}[c.want > 0]; strings.Join(outs, " ") != want {
			t.Errorf("N=%s: outputs %v, want %s", c.n, outs, want)
		}
	}
}

// TestS24yEmptyForLabelInOutputs: a label without indices whose only
// action's `for` range is empty is no label of the model; naming it in
// outputs stays error E0501, whose message now says why (the empty range)
// rather than that no action declares it.
func TestS24yEmptyForLabelInOutputs(t *testing.T) {
	src := `model m
const N = 2
var x : 0 .. 5 = 0
action put for k in 1 .. N when x + k <= 5 -> x' = x + k
action stay -> x' = x
policy rules r {
    when x == 0 -> put
    otherwise -> stay
}
property p {
    unsafe x > 4
}
`
	_, diags := lang.LoadSource("m.spec", []byte(src), lang.Options{Defines: map[string]string{"N": "0"}})
	found := false
	for _, d := range diags {
		if d.Code == "E0501" {
			found = true
			if !strings.Contains(d.Msg, "whose actions make no command (the empty range at m.spec:4:21, W0701)") || d.Pos.Line != 7 {
				t.Errorf("%+v", d)
			}
		}
	}
	if !found {
		t.Errorf("no E0501: %s", diags.Render())
	}
	if _, diags := lang.LoadSource("m.spec", []byte(src), lang.Options{}); diags.HasErrors() {
		t.Errorf("N=2: %s", diags.Render())
	}
}
