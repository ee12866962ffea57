package nn

import (
	"math"
	"testing"

	"vigil/internal/fuzzseed"
)

// The loaders must reject bad input with an error, never panic; a network
// they accept must validate and evaluate.

func addSeeds(f *testing.F, pattern string) {
	fuzzseed.AddFiles(f, pattern)
	f.Add(fuzzseed.Deep("[", "1", "]"))
}

func checkLoaded(t *testing.T, n *Network, err error) {
	if err != nil {
		return
	}
	if verr := n.validate(); verr != nil {
		t.Fatalf("accepted an invalid network: %v", verr)
	}
	if n.Inputs() > 1000 {
		return
	}
	x := make([]float64, n.Inputs())
	n.Eval(x)
	b := Box{Lo: make([]float64, n.Inputs()), Hi: make([]float64, n.Inputs())}
	for i := range b.Hi {
		b.Lo[i], b.Hi[i] = -1, 1
	}
	if n.Outputs() < 100 && len(n.Layers) < 20 {
		// Networks ending in Softmax are not bounded, by design.
		if _, _, err := n.Bounds(b, nil, Both); err != nil && n.Out == OutNone {
			t.Fatal(err)
		}
	}
}

func FuzzLoadONNX(f *testing.F) {
	addSeeds(f, "testdata/*.onnx")
	f.Add([]byte("\x3a\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		n, err := ParseONNX(b)
		checkLoaded(t, n, err)
	})
}

func FuzzLoadNNet(f *testing.F) {
	addSeeds(f, "testdata/*.nnet")
	f.Add([]byte("1,1,1,1,\n1,1,\n0,\n0,\n1,\n0,0,\n1,1,\n1,\n0,\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		n, err := ParseNNet(b)
		checkLoaded(t, n, err)
	})
}

func FuzzLoadJSON(f *testing.F) {
	addSeeds(f, "testdata/*.json")
	f.Fuzz(func(t *testing.T, b []byte) {
		n, err := ParseJSON(b)
		checkLoaded(t, n, err)
	})
}

func FuzzVNNLIB(f *testing.F) {
	f.Add("(declare-const X_0 Real)\n(declare-const Y_0 Real)\n(assert (<= X_0 1))\n(assert (>= X_0 -1))\n(assert (or (and (<= Y_0 0.5)) (and (>= (+ Y_0 (* 2 X_0)) 1))))\n")
	f.Add("(declare-const X_0 Real)\n(declare-const Y_0 Real)\n(assert " + string(fuzzseed.Deep("(and ", "(<= Y_0 0)", ")")) + ")\n")
	f.Add("(declare-const X_99999999999999999999 Real)\n(assert (<= X_99999999999999999999 1))\n")
	f.Add(string(fuzzseed.Deep("(", "", "")))
	for _, s := range badBoxes {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseVNNLIB(s)
		if err != nil {
			return
		}
		// An accepted property has finite, non-empty boxes and finite
		// constraints: anything else could decide it by accident.
		for _, c := range p.Cases {
			for i := range c.Box.Lo {
				lo, hi := c.Box.Lo[i], c.Box.Hi[i]
				if !(lo <= hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
					t.Fatalf("accepted the box [%v, %v] for X_%d", lo, hi, i)
				}
			}
			for k, row := range c.Cons.Rows {
				for _, v := range append(row, c.Cons.Off[k]) {
					if math.IsNaN(v) || math.IsInf(v, 0) {
						t.Fatalf("accepted the constraint %v + %v", row, c.Cons.Off[k])
					}
				}
			}
		}
	})
}
