package nn

import (
	"math"
	"strings"
	"testing"
)

// badBoxes are VNNLIB properties whose input box has a NaN or infinite
// bound or lower > upper; each must be refused (the fuzz seeds use them
// too). Before, NaN bounds answered unsat.
var badBoxes = map[string]string{
	"nan":      "(declare-const X_0 Real)\n(declare-const Y_0 Real)\n(assert (>= X_0 -1))\n(assert (<= X_0 NaN))\n(assert (>= Y_0 5))\n",
	"nan-low":  "(declare-const X_0 Real)\n(declare-const Y_0 Real)\n(assert (>= X_0 nan))\n(assert (<= X_0 1))\n(assert (>= Y_0 5))\n",
	"inf":      "(declare-const X_0 Real)\n(declare-const Y_0 Real)\n(assert (>= X_0 -1))\n(assert (<= X_0 +Inf))\n(assert (>= Y_0 5))\n",
	"neg-inf":  "(declare-const X_0 Real)\n(declare-const Y_0 Real)\n(assert (>= X_0 -infinity))\n(assert (<= X_0 1))\n(assert (>= Y_0 5))\n",
	"overflow": "(declare-const X_0 Real)\n(declare-const Y_0 Real)\n(assert (>= X_0 -1))\n(assert (<= X_0 1e999))\n(assert (>= Y_0 5))\n",
	"product":  "(declare-const X_0 Real)\n(declare-const Y_0 Real)\n(assert (>= X_0 -1))\n(assert (<= (* 1e-300 1e-300 X_0) 1))\n(assert (>= Y_0 5))\n",
	"empty":    "(declare-const X_0 Real)\n(declare-const Y_0 Real)\n(assert (>= X_0 1))\n(assert (<= X_0 -1))\n(assert (>= Y_0 5))\n",
	"or-empty": "(declare-const X_0 Real)\n(declare-const Y_0 Real)\n(assert (or (and (>= X_0 0) (<= X_0 1) (>= Y_0 5)) (and (>= X_0 3) (<= X_0 2) (>= Y_0 5))))\n",
	"nan-out":  "(declare-const X_0 Real)\n(declare-const Y_0 Real)\n(assert (>= X_0 -1))\n(assert (<= X_0 1))\n(assert (>= Y_0 nan))\n",
}

func TestVNNLIBBadBoxes(t *testing.T) {
	for name, src := range badBoxes {
		_, err := ParseVNNLIB(src)
		if err == nil {
			t.Errorf("%s: accepted", name)
			continue
		}
		if !strings.Contains(err.Error(), "X_0") && !strings.Contains(err.Error(), "Y_0") {
			t.Errorf("%s: the error does not name the variable: %v", name, err)
		}
	}
	// A programmatic property with a NaN box is refused by Verify too.
	n := &Network{Layers: []Layer{{In: 1, Out: 1, W: []float64{1}, B: []float64{0}}}}
	prop := &Property{Inputs: 1, Outputs: 1, Cases: []Case{{Box: Box{Lo: []float64{0}, Hi: []float64{math.NaN()}},
		Cons: Disjunction{Rows: [][]float64{{-1}}, Off: []float64{5}, Strict: []bool{false}}}}}
	if r, err := n.Verify(prop, 0, Options{}); err == nil {
		t.Errorf("Verify answered %s on a NaN box", r.Answer)
	}
}

// A variable index beyond vigil's limit says so, and a name that is not
// X_i or Y_j says how to name them.
func TestVNNLIBVariableNames(t *testing.T) {
	for src, want := range map[string]string{
		"(declare-const X_100000000 Real)\n":            `variable "X_100000000": vigil takes at most 1048576 inputs and outputs`,
		"(declare-const Y_99999999999999999999 Real)\n": `variable "Y_99999999999999999999": vigil takes at most 1048576 inputs and outputs`,
		"(declare-const Z_0 Real)\n":                    `variable "Z_0": name inputs X_0, X_1 and so on`,
		"(declare-const X_-1 Real)\n":                   `variable "X_-1": name inputs X_0, X_1 and so on`,
	} {
		if _, err := ParseVNNLIB(src); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", src, err, want)
		}
	}
}
