package jani

import (
	"path/filepath"
	"strings"
	"testing"

	"vigil/symbolic"
)

// countStates counts the states within the ranges that satisfy c.
func countStates(m *symbolic.Model, c *symbolic.Cond) int {
	s := make(symbolic.State, len(m.Vars))
	for i := range s {
		s[i] = m.Vars[i].Lo
	}
	n := 0
	for {
		if c.Holds(s) {
			n++
		}
		i := 0
		for ; i < len(s); i++ {
			if s[i] < m.Vars[i].Hi {
				s[i]++
				break
			}
			s[i] = m.Vars[i].Lo
		}
		if i == len(s) {
			return n
		}
	}
}

func TestConditions(t *testing.T) {
	m, _ := load(t, "counter.jani", map[string]string{"N": "3"})
	for _, tc := range []struct {
		file string
		want int
	}{
		{"start.jani", 2},  // x <= 1, !done, at run
		{"reach.jani", 4},  // x == N, any done, any location
		{"states.jani", 2}, // x=2 (others initial), and x=3 done at stop
	} {
		c, err := LoadCondition(filepath.Join("testdata/plaja", tc.file), m)
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		if n := countStates(m, c); n != tc.want {
			t.Errorf("%s: %d states satisfy %s, want %d", tc.file, n, m.CondString(c), tc.want)
		}
	}
}

func TestAddProperty(t *testing.T) {
	m, _ := load(t, "counter.jani", map[string]string{"N": "3"})
	if err := AddProperty(m, "testdata/plaja/start.jani", "testdata/plaja/reach.jani"); err != nil {
		t.Fatal(err)
	}
	// A PA property file gives both conditions; the name is the property's.
	if err := AddProperty(m, "testdata/plaja/pa.jani", "testdata/plaja/pa.jani"); err != nil {
		t.Fatal(err)
	}
	if len(m.Properties) != 2 || m.Properties[0].Name != "safety" || m.Properties[1].Name != "pa_counter" {
		t.Fatalf("properties %+v", m.Properties)
	}
	p := m.Properties[1]
	if got := m.CondString(p.Start) + " / " + m.CondString(p.Unsafe); got != "x == 0 / x == 3" {
		t.Errorf("PA property: %s", got)
	}
	if err := AddProperty(m, "", ""); err == nil {
		t.Error("no unsafe file: no error")
	}
}

func TestPolicyFile(t *testing.T) {
	m, _ := load(t, "counter.jani", map[string]string{"N": "3"})
	for _, path := range []string{"testdata/plaja/net/counter.jani2nnet", "testdata/plaja/pa.jani"} {
		d, err := LoadPolicyFile(m, path)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if d.Kind != symbolic.KindNN || d.Name != "counter" || d.File != filepath.Join("testdata/plaja/net", "counter.nnet") ||
			d.Interface != filepath.Join("testdata/plaja/net", "counter.jani2nnet") {
			t.Errorf("%s: %+v", path, d)
		}
		var ins []string
		for _, a := range d.Inputs {
			if len(a.Terms) != 1 || a.Terms[0].Coef != (symbolic.Rat{Num: 1, Den: 1}) {
				t.Errorf("input %+v", a)
				continue
			}
			ins = append(ins, m.Vars[a.Terms[0].Var].Name)
		}
		if got := strings.Join(ins, " "); got != "x done loc_main" {
			t.Errorf("inputs %s", got)
		}
		if len(d.Outputs) != 2 || m.Labels[d.Outputs[0]].Name != "inc" || m.Labels[d.Outputs[1]].Name != "reset" {
			t.Errorf("outputs %v", d.Outputs)
		}
	}
	for file, msg := range map[string]string{
		"bad_interface.jani2nnet": "bad_interface.jani2nnet#input[0]:1:30: unsupported feature: arrays (input A[0])",
		"bad_output.jani2nnet":    `bad_output.jani2nnet#output[1]:1:83: output "jump" is not an action of the model`,
		"reach.jani":              `missing "file"`,
	} {
		_, err := LoadPolicyFile(m, filepath.Join("testdata/plaja", file))
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: err = %v, want %q", file, err, msg)
		}
	}
}

func TestAttach(t *testing.T) {
	m, _ := load(t, "counter.jani", map[string]string{"N": "3"})
	prop, pol, err := Attach(m, "testdata/plaja/start.jani", "testdata/plaja/reach.jani", "testdata/plaja/pa.jani", "")
	if err != nil {
		t.Fatal(err)
	}
	if prop != "safety" || pol != "counter" || m.Property(prop) == nil || m.Policy(pol) == nil {
		t.Errorf("Attach = %q, %q; model has %d properties, %d policies", prop, pol, len(m.Properties), len(m.Policies))
	}
	if _, _, err := Attach(m, "testdata/plaja/start.jani", "", "", ""); err == nil {
		t.Error("--start without --unsafe: no error")
	}
	if prop, pol, err := Attach(m, "", "", "", ""); prop != "" || pol != "" || err != nil {
		t.Errorf("no flags: %q %q %v", prop, pol, err)
	}
}
