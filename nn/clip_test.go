package nn

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// clipBounds are the Clip bounds the tests draw from: ReLU6, Hardtanh,
// one-sided clamps, a point and asymmetric ones.
var clipBounds = [][2]float64{{0, 6}, {-1, 1}, {-0.25, math.Inf(1)}, {math.Inf(-1), 0.75}, {0.5, 0.5}, {-2, 0.3}, {0.1, 0.2}}

// TestClipEval: Clip clamps exactly (no rounding), keeps NaN and the sign
// of a zero within bounds.
func TestClipEval(t *testing.T) {
	l := &Layer{Act: ActClip, Lo: 0, Hi: 6}
	for _, c := range [][2]float64{{-1, 0}, {0, 0}, {6, 6}, {6.000000000000001, 6}, {5.999999999999999, 5.999999999999999}, {math.Inf(1), 6}, {math.Inf(-1), 0}, {1e-310, 1e-310}} {
		if got := applyAct(l, c[0]); got != c[1] {
			t.Errorf("clip[0, 6](%v) = %v, want %v", c[0], got, c[1])
		}
	}
	if v := applyAct(l, math.NaN()); !math.IsNaN(v) {
		t.Errorf("clip(NaN) = %v", v)
	}
	if v := applyAct(&Layer{Act: ActClip, Lo: -1, Hi: 1}, math.Copysign(0, -1)); !math.Signbit(v) {
		t.Errorf("clip[-1, 1](-0) = %v, want -0", v)
	}
	bad := &Network{Layers: []Layer{{In: 1, Out: 1, W: []float64{1}, B: []float64{0}, Act: ActClip, Lo: 1, Hi: 0}}}
	if err := bad.validate(); err == nil || !strings.Contains(err.Error(), "Clip bounds") {
		t.Errorf("Clip with min > max: %v", err)
	}
}

// TestRelaxClipSound: relaxClip's lines enclose Clip over intervals left
// of, right of, between and across one or both kinks, at their ends, at
// the kinks and at points between.
func TestRelaxClipSound(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 3))
	for _, cb := range clipBounds {
		l := &Layer{Act: ActClip, Lo: cb[0], Hi: cb[1]}
		for i := 0; i < 4000; i++ {
			c := r.NormFloat64() * 4
			w := math.Abs(r.NormFloat64()) * []float64{1e-9, 1e-3, 0.5, 3, 30, 1e6}[i%6]
			lo, hi := c-w, c+w
			if i%7 == 0 { // an end on a kink
				lo = max(cb[0], -50)
			}
			lw, up := relax(l, lo, hi)
			pts := []float64{lo, hi, cb[0], cb[1], math.Nextafter(cb[0], -1), math.Nextafter(cb[1], 7)}
			for s := 0; s <= 64; s++ {
				pts = append(pts, lo+(hi-lo)*float64(s)/64)
			}
			for _, x := range pts {
				if !(x >= lo && x <= hi) {
					continue
				}
				v := clip(l, x)
				tol := 4 * unit * (1 + math.Abs(x)) // the lines' own evaluation here
				if vl, vh := lw.k*x+lw.c, up.k*x+up.c; vl > v+tol || vh < v-tol {
					t.Fatalf("clip[%v, %v] on [%v, %v] at %v: lines %v..%v, clip %v", cb[0], cb[1], lo, hi, x, vl, vh, v)
				}
			}
		}
		// Infinite and NaN intervals get constant lines that hold.
		for _, iv := range [][2]float64{{math.Inf(-1), 3}, {-3, math.Inf(1)}, {math.Inf(-1), math.Inf(1)}, {math.NaN(), 1}} {
			lw, up := relax(l, iv[0], iv[1])
			for _, x := range []float64{-1e300, -3, 0, 1, 3, 1e300} {
				if x < iv[0] || x > iv[1] {
					continue
				}
				if v := clip(l, x); lw.k*x+lw.c > v || up.k*x+up.c < v {
					t.Fatalf("clip[%v, %v] on %v at %v: lines %v, %v", cb[0], cb[1], iv, x, lw, up)
				}
			}
		}
	}
}

// randomClipNet is randomNet with Clip hidden layers (and a ReLU or Tanh
// among them), its pre-activations scaled so that boxes straddle both
// kinks of most neurons.
func randomClipNet(r *rand.Rand, sizes ...int) *Network {
	n := randomNet(r, sizes...)
	for i := range n.Layers[:len(n.Layers)-1] {
		l := &n.Layers[i]
		cb := clipBounds[r.IntN(len(clipBounds))]
		l.Act, l.Lo, l.Hi = ActClip, cb[0], cb[1]
		switch r.IntN(6) {
		case 0:
			l.Act = ActReLU
		case 1:
			l.Act = ActTanh
		}
		sc := 1.0
		if !math.IsInf(cb[1], 0) && !math.IsInf(cb[0], 0) {
			sc = max(1, (cb[1]-cb[0])/2)
		}
		for k := range l.W {
			l.W[k] *= sc
		}
		for k := range l.B {
			l.B[k] *= sc
		}
	}
	return n
}

// corners evaluates every corner of box (up to 2^6) against the bounds.
func checkCorners(t *testing.T, n *Network, box Box, C [][]float64, lo, hi []float64, what string) {
	t.Helper()
	nin := n.Inputs()
	x, y := make([]float64, nin), make([]float64, n.Outputs())
	for m := 0; m < 1<<min(nin, 6); m++ {
		for i := range x {
			x[i] = box.Lo[i]
			if m>>i&1 == 1 {
				x[i] = box.Hi[i]
			}
		}
		NewEvaluator(n).Eval(x, y)
		for k, row := range C {
			v := 0.0
			for j, c := range row {
				v += c * y[j]
			}
			if tol := 1e-12 * (1 + math.Abs(v)); v < lo[k]-tol || v > hi[k]+tol {
				t.Fatalf("%s: row %d value %v at corner %v outside [%v, %v]", what, k, v, x, lo[k], hi[k])
			}
		}
	}
}

// TestBoundsSoundClip: every method's bounds hold at sampled points and
// corners of boxes of networks with Clip layers, and CROWN is not looser
// than IBP in total.
func TestBoundsSoundClip(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 19))
	var wIBP, wCROWN float64
	for trial := 0; trial < 120; trial++ {
		nin := 1 + r.IntN(5)
		n := randomClipNet(r, nin, 2+r.IntN(10), 2+r.IntN(10), 1+r.IntN(4))
		if trial%4 == 1 {
			l := &n.Layers[len(n.Layers)-1] // ends in a Clip
			l.Act, l.Lo, l.Hi = ActClip, -0.5, 0.5
		}
		if trial%5 == 2 {
			n.InMin, n.InMax = make([]float64, nin), make([]float64, nin)
			for i := range n.InMin {
				n.InMin[i], n.InMax[i] = -1, 1
			}
		}
		if err := n.validate(); err != nil {
			t.Fatal(err)
		}
		box := randomBox(r, nin, []float64{0.05, 1.5, 6}[trial%3])
		C := randomSpec(r, 3, n.Outputs())
		wi, wc := checkAllMethods(t, r, n, box, C, 1e-12, true, fmt.Sprintf("trial %d", trial))
		wIBP, wCROWN = wIBP+wi, wCROWN+wc
	}
	t.Logf("summed widths: IBP %.4g, CROWN %.4g", wIBP, wCROWN)
	if wCROWN > wIBP {
		t.Errorf("CROWN is looser than IBP on Clip networks: %v > %v", wCROWN, wIBP)
	}
}

// TestRoundoffClip: float64 evaluation of Clip networks stays within
// Roundoff's bound of a 200-bit evaluation.
func TestRoundoffClip(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 7))
	for trial := 0; trial < 40; trial++ {
		nin := 1 + r.IntN(4)
		n := randomClipNet(r, nin, 1+r.IntN(6), 1+r.IntN(6), 1+r.IntN(3))
		for i := range n.Layers {
			if n.Layers[i].Act == ActTanh {
				n.Layers[i].Act = ActReLU // bigEval's Tanh reference is for small sums
			}
		}
		box := randomBox(r, nin, 2)
		e, ok := n.Roundoff(box)
		if !ok {
			t.Fatalf("trial %d: no bound", trial)
		}
		x := make([]float64, nin)
		y := make([]float64, n.Outputs())
		for s := 0; s < 200; s++ {
			samplePoint(r, box, x)
			NewEvaluator(n).Eval(x, y)
			for j, ex := range bigEval(n, x) {
				d, _ := ex.Float64()
				if math.Abs(y[j]-d) > e[j]*(1+1e-9) {
					t.Fatalf("trial %d output %d at %v: error %v beyond bound %v", trial, j, x, y[j]-d, e[j])
				}
			}
		}
	}
}

// TestClipJSONRoundTrip: "clip" layers with either bound left out read
// back as they were written.
func TestClipJSONRoundTrip(t *testing.T) {
	for _, cb := range clipBounds {
		n := &Network{Layers: []Layer{{In: 1, Out: 2, W: []float64{1, -2}, B: []float64{0.5, 0}, Act: ActClip, Lo: cb[0], Hi: cb[1]}, {In: 2, Out: 1, W: []float64{1, 1}, B: []float64{0}}}}
		b, err := n.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		m, err := ParseJSON(b)
		if err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if l := m.Layers[0]; l.Act != ActClip || l.Lo != cb[0] || l.Hi != cb[1] {
			t.Errorf("%s read back as %v [%v, %v]", b, l.Act, l.Lo, l.Hi)
		}
	}
	if _, err := ParseJSON([]byte(`{"format": "vigil-nn", "version": 1, "layers": [{"weights": [[1]], "bias": [0], "activation": "relu", "max": 6}]}`)); err == nil || !strings.Contains(err.Error(), `"clip" layers only`) {
		t.Errorf("max on a relu layer: %v", err)
	}
}

// TestClipONNXMatchesTorch loads torch.onnx.export's ReLU6, Hardtanh,
// one-sided clamps, unsqueeze/squeeze and x.view(x.size(0), -1) networks
// at opsets 9 to 17 with a dynamic batch (testdata/clip/gen.py) and
// compares float64 evaluation with torch's float64 outputs: within 1e-12
// (torch's products sum in another order), and bit for bit for a Clip
// alone.
func TestClipONNXMatchesTorch(t *testing.T) {
	b, err := os.ReadFile("testdata/clip/refs.json")
	if err != nil {
		t.Fatal(err)
	}
	var refs struct {
		Inputs  [][]float64
		Outputs map[string][][]float64
	}
	if err := json.Unmarshal(b, &refs); err != nil {
		t.Fatal(err)
	}
	if len(refs.Outputs) != 28 {
		t.Fatalf("%d exports in refs.json, want 28", len(refs.Outputs))
	}
	wantAct := map[string][2]float64{"relu6": {0, 6}, "hardtanh": {-1, 1}, "clampmin": {-0.25, math.Inf(1)},
		"clampmax": {math.Inf(-1), 0.75}, "view": {0, 6}, "unsq": {-0.5, 0.25}, "exact": {-1.5, 2.5}}
	for f, outs := range refs.Outputs {
		net, err := LoadONNX("testdata/clip/" + f)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		want := wantAct[strings.Split(f, "_")[0]]
		if l := net.Layers[0]; l.Act != ActClip || l.Lo != want[0] || l.Hi != want[1] {
			t.Errorf("%s: first layer %v [%v, %v], want clip %v", f, l.Act, l.Lo, l.Hi, want)
		}
		for i, x := range refs.Inputs {
			y := net.Eval(x)
			for j, w := range outs[i] {
				tol := 1e-12 * (1 + math.Abs(w))
				if strings.HasPrefix(f, "exact") {
					tol = 0
				}
				if !(math.Abs(y[j]-w) <= tol) {
					t.Errorf("%s at %v: output %d is %v, torch %v", f, x, j, y[j], w)
				}
			}
		}
	}
}
