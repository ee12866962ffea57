package nn

import (
	"strings"
	"testing"
)

// review20rNet: 2 inputs clipped to [-1, 1] and [0, 4], normalised with
// means 0.5, 2 and ranges 2, 4; a ReLU layer W1 = [[1, -1], [2, 1]],
// b1 = [0, -1]; a linear layer W2 = [[1, 1], [-1, 2]], b2 = [0.5, 0];
// outputs de-normalised with mean 1 and range 3. PlaJA's files end lines
// without a comma, which the last line shows.
const review20rNet = `// hand-checked NNet
2,2,2,2,
2,2,2,
0,
-1,0,
1,4,
0.5,2,1,
2,4,3,
1,-1,
2,1,
0,
-1,
1,1,
-1,2,
0.5,
0
`

// TestReview20rNNetByHand compares evaluation with a hand computation:
// x = (3, -2) clips to (1, 0), normalises to (0.25, -0.5); the hidden
// layer gives relu(0.25 + 0.5) = 0.75 and relu(-1 + 0.5 - 0.5) = 0; the
// outputs 0.5 + 0.75 = 1.25 and -0.75 de-normalise to 4.75 and -1.25.
// All of it is exact in binary, so the comparison is exact.
func TestReview20rNNetByHand(t *testing.T) {
	n, err := ParseNNet([]byte(review20rNet))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ x, want []float64 }{
		{[]float64{3, -2}, []float64{4.75, -1.25}},
		// x = (0.5, 2) normalises to (0, 0): hidden (0, relu(-1)) = 0,
		// outputs (0.5, 0) -> (2.5, 1).
		{[]float64{0.5, 2}, []float64{2.5, 1}},
		// x = (-5, 9) clips to (-1, 4) -> (-0.75, 0.5): hidden
		// relu(-1.25) = 0, relu(-1 - 1.5 + 0.5) = 0 -> outputs (0.5, 0).
		{[]float64{-5, 9}, []float64{2.5, 1}},
		// x = (1, 4) -> (0.25, 0.5): hidden relu(-0.25) = 0, relu(0) = 0.
		{[]float64{1, 4}, []float64{2.5, 1}},
		// x = (1, 1) -> (0.25, -0.25): hidden 0.5, relu(-1.25) = 0 ->
		// outputs (1, -0.5) -> (4, -0.5).
		{[]float64{1, 1}, []float64{4, -0.5}},
	} {
		got := n.Eval(c.x)
		if got[0] != c.want[0] || got[1] != c.want[1] {
			t.Errorf("Eval(%v) = %v, by hand %v", c.x, got, c.want)
		}
	}
	// Bounds over a box reaching beyond the clipping range contain every
	// evaluation in it.
	lo, hi, err := n.Bounds(Box{Lo: []float64{-5, -3}, Hi: []float64{5, 9}}, nil, Both)
	if err != nil {
		t.Fatal(err)
	}
	for a := -5.0; a <= 5; a += 0.5 {
		for b := -3.0; b <= 9; b += 0.5 {
			y := n.Eval([]float64{a, b})
			for k := range y {
				if y[k] < lo[k]-1e-9 || y[k] > hi[k]+1e-9 {
					t.Errorf("output %d at (%v, %v) = %v outside bounds [%v, %v]", k, a, b, y[k], lo[k], hi[k])
				}
			}
		}
	}
}

// TestReview20rNNetLines: NNet's readers (nnet.py, Marabou, PlaJA) read a
// row per line, so a file whose values are right in number but not in
// lines is another network to them; vigil read the values as one stream
// and evaluated a network no reader sees. It is refused now, naming the
// line; malformed values name their line too.
func TestReview20rNNetLines(t *testing.T) {
	for _, c := range []struct{ name, old, new, want string }{
		{"weight rows regrouped", "1,-1,\n2,1,\n", "1,-1,2,\n1,\n", "line 9: the weights of layer 1 neuron 1 (2 values) must fill a line of its own"},
		{"biases on one line", "0,\n-1,\n1,1,", "0,-1,\n1,1,", "line 11: the bias of layer 1 neuron 1"},
		{"means and ranges joined", "0.5,2,1,\n2,4,3,\n", "0.5,2,1,2,4,3,\n", "line 7: the means (3 values) must fill a line of its own"},
		{"symmetric flag on the sizes line", "2,2,2,\n0,\n", "2,2,2,0,\n", "line 3: the layer sizes"},
		{"infinite mean", "0.5,2,1,", "inf,2,1,", "nnet line 7: value 1 of the means is +Inf"},
		{"zero range", "2,4,3,", "2,0,3,", "nnet line 8: value 2 of the ranges is 0"},
		{"NaN minimum", "-1,0,\n", "nan,0,\n", "nnet line 5: value 1 of the input minimums is NaN"},
		{"NaN weight", "-1,2,", "-1,nan,", "weight NaN is not finite (nnet line 14, neuron 2)"},
		{"minimum above maximum", "-1,0,\n1,4,", "-1,5,\n1,4,", "nnet line 5: input 2's minimum 5 exceeds its maximum 4 (line 6)"},
		{"fractional size", "2,2,2,\n0", "2,2.5,2,\n0", "layer size 2.5 is not a positive integer (line 3)"},
	} {
		src := strings.Replace(review20rNet, c.old, c.new, 1)
		if src == review20rNet {
			t.Fatalf("%s: %q not in the network", c.name, c.old)
		}
		_, err := ParseNNet([]byte(src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want %q", c.name, err, c.want)
		}
	}
	// A UTF-8 byte-order mark before the first comment is no value.
	if _, err := ParseNNet([]byte("\ufeff" + review20rNet)); err != nil {
		t.Errorf("with a byte-order mark: %v", err)
	}
}
