package nn_test

import (
	"reflect"
	"testing"

	"vigil/internal/testutil"
	"vigil/nn"
	"vigil/symbolic"
	"vigil/symbolic/gen"
)

func TestRandomIsDeterministic(t *testing.T) {
	m := gen.Model(3, gen.Options{})
	p1, d1, err := nn.Random(m, testutil.LabelsReversed(m), 42, []int{5, 4})
	if err != nil {
		t.Fatal(err)
	}
	p2, d2, err := nn.Random(m, testutil.LabelsReversed(m), 42, []int{5, 4})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p1.Net, p2.Net) || !reflect.DeepEqual(d1, d2) {
		t.Error("the same seed gave two policies")
	}
	p3, _, _ := nn.Random(m, testutil.LabelsReversed(m), 43, []int{5, 4})
	if reflect.DeepEqual(p1.Net, p3.Net) {
		t.Error("seeds 42 and 43 gave the same network")
	}
	if d1.Kind != symbolic.KindNN || d1.Name == "" || len(d1.Inputs) != len(m.Vars) || !reflect.DeepEqual(d1.Outputs, testutil.LabelsReversed(m)) {
		t.Errorf("declaration %+v does not describe the policy", d1)
	}
	if got := len(p1.Net.Layers); got != 3 {
		t.Errorf("%d layers, want 3", got)
	}
}

// TestRandomDecisionsVary checks that random policies are not constant:
// on most generated models with two labels or more, the chosen label
// changes across the states (every label applicable), and the explicit
// engine's decider agrees with symbolic.Decide.
func TestRandomDecisionsVary(t *testing.T) {
	models, varying := 0, 0
	for seed := uint64(0); seed < 60; seed++ {
		m := gen.Model(seed, gen.Options{})
		p, _, err := nn.Random(m, testutil.LabelsReversed(m), seed, []int{8})
		if err != nil {
			t.Fatal(err)
		}
		seen := testutil.DecidersAgree(t, seed, m, p, nil)
		if len(m.Labels) >= 2 && stateCount(m) >= 4 {
			models++
			if len(seen) >= 2 {
				varying++
			}
		}
	}
	if varying*10 < models*8 {
		t.Errorf("decisions vary on %d of %d models; want at least 80%%", varying, models)
	}
	t.Logf("decisions vary on %d of %d models", varying, models)
}

func TestRandomErrors(t *testing.T) {
	m := gen.Model(1, gen.Options{})
	for _, c := range []struct {
		name    string
		m       *symbolic.Model
		outputs []symbolic.LabelID
		hidden  []int
	}{
		{"no outputs", m, nil, []int{3}},
		{"bad width", m, testutil.LabelsReversed(m), []int{3, 0}},
		{"unknown label", m, []symbolic.LabelID{symbolic.LabelID(len(m.Labels))}, nil},
		{"no variables", &symbolic.Model{Name: "empty", Labels: m.Labels}, testutil.LabelsReversed(m), nil},
	} {
		if _, _, err := nn.Random(c.m, c.outputs, 1, c.hidden); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
}

func stateCount(m *symbolic.Model) float64 {
	n, _ := m.StateSpaceSize()
	return n
}

// Params gives the network's own parameters, not a copy: a checker sees
// exactly what evaluation uses, including a later change of the output
// function.
func TestParamsShareTheNetwork(t *testing.T) {
	m := gen.Model(3, gen.Options{})
	p, d, err := nn.RandomWith(m, testutil.LabelsReversed(m), 3, []int{4, 3}, nn.ActTanh)
	if err != nil {
		t.Fatal(err)
	}
	p.Net.Out = nn.OutSoftmax
	par := p.Params()
	if par.Decl != d || par.Network == nil || par.Ensemble != nil {
		t.Fatalf("Params = %+v", par)
	}
	n := par.Network
	if len(n.Layers) != len(p.Net.Layers) || &n.Layers[0] != &p.Net.Layers[0] || n.Out != symbolic.OutSoftmax {
		t.Errorf("Params does not share the network's layers and output function")
	}
	if n.Layers[0].Act != symbolic.ActTanh || n.Inputs() != len(d.Inputs) || n.Outputs() != len(d.Outputs) {
		t.Errorf("layer 0: %v, %d inputs, %d outputs", n.Layers[0].Act, n.Inputs(), n.Outputs())
	}
}
