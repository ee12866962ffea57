package nn

import (
	"math"
	"testing"
)

// float32Softmax is what a float32 runtime (torch, onnxruntime) computes
// for a one-input Gemm + Softmax network: every operation in float32.
func float32Softmax(n *Network, x float64) []float32 {
	l := n.Layers[0]
	z := make([]float32, l.Out)
	m := float32(math.Inf(-1))
	for i := range z {
		z[i] = float32(l.B[i]) + float32(l.W[i])*float32(x)
		m = max(m, z[i])
	}
	var s float32
	e := make([]float32, len(z))
	for i := range z {
		e[i] = float32(math.Exp(float64(z[i] - m)))
		s += e[i]
	}
	for i := range e {
		e[i] /= s
	}
	return e
}

func argmaxOf[T float32 | float64](v []T, among []int) int {
	best := -1
	for _, i := range among {
		if best < 0 || v[i] > v[best] {
			best = i
		}
	}
	return best
}

// Two float32 ONNX networks ending in Softmax (testdata/make_s23m_softmax_f32.py)
// whose float32 evaluation ties where vigil's float64 evaluation
// (lang/spec.md, "How a learned policy computes its scores") does not.
// vigil's rule is the float64 one on every path: Eval, and Excludes (the
// question PolIC3 asks, answered from bounds on the scores before the
// Softmax with the margins of softmax.go) prove the same choice, and
// refute the other with a witness Eval confirms. The float32 choice
// differs: that is the documented semantics, a gap a float32 deployment
// must know about, not an engine disagreement.
func TestS23mSoftmaxFloat32TiesFloat64Rule(t *testing.T) {
	for _, tc := range []struct {
		file          string
		among         []int // the applicable outputs
		want, want32  int   // float64 (vigil) and float32 choices
		excluded, won int   // Excludes proves excluded, refutes won
	}{
		{"testdata/s23m_softmax_tie.onnx", []int{0, 1}, 1, 0, 0, 1},
		{"testdata/s23m_softmax_under.onnx", []int{1, 2}, 2, 1, 1, 2},
	} {
		n, err := Load(tc.file)
		if err != nil {
			t.Fatal(err)
		}
		if n.Out != OutSoftmax {
			t.Fatalf("%s: output function %v, want softmax", tc.file, n.Out)
		}
		for _, x := range []float64{0, 0.25, 0.5, 1} {
			y := n.Eval([]float64{x})
			if got := argmaxOf(y, tc.among); got != tc.want {
				t.Errorf("%s x=%v: float64 scores %v choose %d, want %d", tc.file, x, y, got, tc.want)
			}
			y32 := float32Softmax(n, x)
			if got := argmaxOf(y32, tc.among); got != tc.want32 {
				t.Errorf("%s x=%v: float32 scores %v choose %d, want %d (the fixture no longer ties in float32)", tc.file, x, y32, got, tc.want32)
			}
		}
		box := Box{Lo: []float64{0}, Hi: []float64{1}}
		for _, m := range []Method{IBP, CROWN, Both} {
			r, err := n.Excludes(box, tc.excluded, tc.among, Options{Method: m})
			if err != nil || r.Verdict != Proved {
				t.Errorf("%s %v: output %d not proved excluded: %v %v", tc.file, m, tc.excluded, r.Verdict, err)
			}
			r, err = n.Excludes(box, tc.won, tc.among, Options{Method: m})
			if err != nil || r.Verdict != Refuted {
				t.Errorf("%s %v: output %d not refuted: %v %v", tc.file, m, tc.won, r.Verdict, err)
				continue
			}
			if got := argmaxOf(n.Eval(r.Witness), tc.among); got != tc.won {
				t.Errorf("%s %v: witness %v chooses %d, want %d", tc.file, m, r.Witness, got, tc.won)
			}
		}
	}
}
