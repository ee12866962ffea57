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
	f.Add("(declare-const X_0 Real)\n(declare-const Y_0 Real)\n(assert (> X_0 -0.0))\n(assert (< (+ X_0 1e9) (+ 0x1p-1 1e9)))\n(assert (< Y_0 1e-320))\n")
	f.Add("(declare-const X_0 Real)\n(declare-const Y_0 Real)\n(assert (= X_0 0.1))\n(assert (>= (* 3 Y_0) 1e-99999999))\n")
	f.Add("(declare-const X_0 Real)\n(declare-const Y_0 Real)\n(declare-const Y_1 Real)\n(assert (>= X_0 #b0))\n(assert (<= X_0 (/ #x20000000000001 0x20000000000000p0)))\n(assert (<= (+ (* 0.1 Y_0) (/ Y_1 3)) (- 18446744073709551617)))\n")
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
				// The inputs a counterexample may take lie in the box.
				if pl, ph := c.Points.Lo[i], c.Points.Hi[i]; pl <= ph && (pl < lo || ph > hi) {
					t.Fatalf("X_%d: points [%v, %v] outside the box [%v, %v]", i, pl, ph, lo, hi)
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
		// Small properties are decided on a fixed small network: no
		// panic, and a sat answer's input passes Check (Verify returns
		// an internal error otherwise).
		if p.Inputs > 4 || p.Outputs > 4 || len(p.Cases) > 8 {
			return
		}
		n := fuzzNet(p.Inputs, p.Outputs)
		res, err := n.Verify(p, 0, Options{MaxNodes: 100, Samples: 4, PGDSteps: 2})
		if err != nil {
			t.Fatal(err)
		}
		if res.Answer == Sat && !p.Check(n, res.Case, res.Input) {
			t.Fatalf("sat with %v, which Check refuses", res.Input)
		}
	})
}

// fuzzNet is a fixed ReLU network with nin inputs and nout outputs and
// weights in {-1, -1/2, 0, 1/2, 1}, which tie at box corners.
func fuzzNet(nin, nout int) *Network {
	w := func(i int) float64 { return float64(i%5-2) / 2 }
	l1 := Layer{In: nin, Out: 3, W: make([]float64, 3*nin), B: make([]float64, 3), Act: ActReLU}
	for i := range l1.W {
		l1.W[i] = w(i * 7)
	}
	for i := range l1.B {
		l1.B[i] = w(i + 1)
	}
	l2 := Layer{In: 3, Out: nout, W: make([]float64, 3*nout), B: make([]float64, nout)}
	for i := range l2.W {
		l2.W[i] = w(i*3 + 1)
	}
	return &Network{Layers: []Layer{l1, l2}}
}

// FuzzBound reads arbitrary text as vigil nn eval's --input and vigil nn
// bound's --box for the oneway network (specs/policies, four inputs) and
// bounds it with every method: nothing panics; the bounds of an accepted
// box are numbers (not NaN) with lower <= upper, and they hold the
// outputs at the box's corners and centre wherever those are finite.
func FuzzBound(f *testing.F) {
	for _, s := range []string{"0:20,0:3,0:3,0:1", "0:1,0:1,0:1,0:1", "0:1e308,0:1,0:1,0:1", "-1e308:1e308,0:1,0:1,0:1", "1,0,3,0", "0:1", "1:0,0:1,0:1,0:1", "nan:1,0:1,0:1,0:1"} {
		f.Add(s)
	}
	net, err := LoadONNX("../specs/policies/oneway_32x32.onnx")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ParseVector(s)
		box, err := ParseBox(s)
		if err != nil || net.checkBox(box) != nil {
			return
		}
		var points [][]float64
		for _, pick := range []func(lo, hi float64) float64{
			func(lo, _ float64) float64 { return lo },
			func(_, hi float64) float64 { return hi },
			func(lo, hi float64) float64 { return lo/2 + hi/2 },
		} {
			x := make([]float64, len(box.Lo))
			for i := range x {
				x[i] = pick(box.Lo[i], box.Hi[i])
			}
			points = append(points, x)
		}
		for _, m := range []Method{IBP, CROWN, Both, Alpha} {
			lo, hi, err := net.Bounds(box, nil, m)
			if err != nil {
				t.Fatalf("%v: %v", m, err)
			}
			for i := range lo {
				if !(lo[i] <= hi[i]) {
					t.Fatalf("%v: output %d bounds [%v, %v]", m, i, lo[i], hi[i])
				}
			}
			for _, x := range points {
				for i, y := range net.Eval(append([]float64(nil), x...)) {
					tol := 1e-9 * (1 + math.Abs(y))
					if !math.IsNaN(y) && !math.IsInf(y, 0) && (y < lo[i]-tol || y > hi[i]+tol) {
						t.Fatalf("%v: output %d at %v is %v, outside [%v, %v]", m, i, x, y, lo[i], hi[i])
					}
				}
			}
		}
	})
}
