package nn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"vigil/symbolic"
)

// Figures: go test ./nn -run XXX -bench . -benchtime 2s

func batchNets() map[string]*Network {
	r := rand.New(rand.NewPCG(7, 8))
	return map[string]*Network{
		"2x64":  randomNet(r, 4, 64, 64, 6),
		"3x256": randomNet(r, 4, 256, 256, 256, 6),
	}
}

// BenchmarkBatch compares hand-written loops with gonum's matrix product
// for evaluating 1024 inputs.
func BenchmarkBatch(b *testing.B) {
	const k = 1024
	for _, name := range []string{"2x64", "3x256"} {
		n := batchNets()[name]
		r := rand.New(rand.NewPCG(1, 1))
		xs := make([]float64, k*n.Inputs())
		for i := range xs {
			xs[i] = r.NormFloat64()
		}
		out := make([]float64, k*n.Outputs())
		b.Run(name+"/loops", func(b *testing.B) {
			e := &batchLoops{net: n}
			for b.Loop() {
				e.Eval(xs, out)
			}
			b.ReportMetric(float64(b.N*k)/b.Elapsed().Seconds(), "inputs/s")
		})
		b.Run(name+"/gonum", func(b *testing.B) {
			ws := gonumWeights(n)
			for b.Loop() {
				evalBatchGonum(n, ws, xs, out)
			}
			b.ReportMetric(float64(b.N*k)/b.Elapsed().Seconds(), "inputs/s")
		})
		b.Run(name+"/single", func(b *testing.B) {
			e := NewEvaluator(n)
			y := make([]float64, n.Outputs())
			for b.Loop() {
				for s := 0; s < k; s++ {
					e.Eval(xs[s*n.Inputs():(s+1)*n.Inputs()], y)
				}
			}
			b.ReportMetric(float64(b.N*k)/b.Elapsed().Seconds(), "inputs/s")
		})
	}
}

func TestBatchAgrees(t *testing.T) {
	for name, n := range batchNets() {
		r := rand.New(rand.NewPCG(2, 2))
		k := 17
		xs := make([]float64, k*n.Inputs())
		for i := range xs {
			xs[i] = r.NormFloat64()
		}
		a, g := make([]float64, k*n.Outputs()), make([]float64, k*n.Outputs())
		(&batchLoops{net: n}).Eval(xs, a)
		NewBatchEvaluator(n).Eval(xs, g)
		for s := 0; s < k; s++ {
			y := n.Eval(xs[s*n.Inputs() : (s+1)*n.Inputs()])
			for j := range y {
				if y[j] != a[s*n.Outputs()+j] || math.Abs(y[j]-g[s*n.Outputs()+j]) > 1e-9 {
					t.Fatalf("%s: sample %d output %d: single %v, batch %v, gonum %v", name, s, j, y[j], a[s*n.Outputs()+j], g[s*n.Outputs()+j])
				}
			}
		}
	}
}

// figureNets are the networks of the CROWN/IBP and throughput figures:
// the example policy and, when the corpus is present, ACAS Xu.
func figureNets(b *testing.B) map[string]*Network {
	nets := map[string]*Network{}
	if n, err := Load("../specs/policies/oneway_32x32.onnx"); err == nil {
		nets["oneway_32x32"] = n
	} else {
		b.Logf("example policy: %v", err)
	}
	if n, err := Load("../../shared/corpus/nn/vnncomp/onnx/ACASXU_run2a_1_1_batch_2000.onnx"); err == nil {
		nets["acasxu_1_1"] = n
	} else {
		b.Logf("corpus absent, ACAS Xu skipped: %v", err)
	}
	r := rand.New(rand.NewPCG(9, 9))
	nets["random_3x256"] = randomNet(r, 4, 256, 256, 256, 6)
	return nets
}

// BenchmarkCrownVsIBP reports, over random boxes (in the [0,1]-scaled
// input space, widths up to 0.2 of a unit range), the mean output width of
// IBP, CROWN and both, and the time per bound computation of each.
func BenchmarkCrownVsIBP(b *testing.B) {
	for name, n := range figureNets(b) {
		r := rand.New(rand.NewPCG(3, 3))
		var boxes []Box
		for i := 0; i < 50; i++ {
			bx := Box{Lo: make([]float64, n.Inputs()), Hi: make([]float64, n.Inputs())}
			for j := range bx.Lo {
				c, w := r.Float64(), r.Float64()*0.1
				bx.Lo[j], bx.Hi[j] = c-w, c+w
				if name == "acasxu_1_1" { // the VNN-COMP input box is about [-0.33, 0.68] x [-0.5, 0.5]^4
					c = -0.3 + r.Float64()*0.6
					bx.Lo[j], bx.Hi[j] = c-w, c+w
				}
			}
			boxes = append(boxes, bx)
		}
		width := map[Method]float64{}
		for _, m := range []Method{IBP, CROWN, Both} {
			b.Run(name+"/"+m.String(), func(b *testing.B) {
				w := 0.0
				cnt := 0
				for i := 0; b.Loop(); i++ {
					lo, hi, _ := n.Bounds(boxes[i%len(boxes)], nil, m)
					for j := range lo {
						w += hi[j] - lo[j]
						cnt++
					}
				}
				width[m] = w / float64(cnt)
				b.ReportMetric(width[m], "mean-width")
			})
		}
		if width[IBP] > 0 {
			fmt.Fprintf(os.Stderr, "%s: mean width IBP %.4g, CROWN %.4g, both %.4g (CROWN/IBP %.3f)\n", name, width[IBP], width[CROWN], width[Both], width[CROWN]/width[IBP])
		}
	}
}

// BenchmarkExcludes measures decision-query throughput on the example
// policy over state boxes: single states, and boxes spanning the full range
// of one, two or three variables.
func BenchmarkExcludes(b *testing.B) {
	n, err := Load("../specs/policies/oneway_32x32.onnx")
	if err != nil {
		b.Skip(err)
	}
	m, p := onewayPolicy(b, n)
	r := rand.New(rand.NewPCG(4, 4))
	for _, span := range []int{0, 1, 2, 3} {
		b.Run(fmt.Sprintf("full-range-vars=%d", span), func(b *testing.B) {
			verdicts := map[Verdict]int{}
			lo, hi := make([]int, len(m.vars)), make([]int, len(m.vars))
			start := time.Now()
			q := 0
			for b.Loop() {
				for v := range lo {
					lo[v] = m.vars[v][0] + r.IntN(m.vars[v][1]-m.vars[v][0]+1)
					hi[v] = lo[v]
				}
				for _, v := range r.Perm(len(lo))[:span] {
					lo[v], hi[v] = m.vars[v][0], m.vars[v][1]
				}
				a := r.IntN(6)
				sure := []int{(a + 1 + r.IntN(5)) % 6}
				res, err := p.Excludes(lo, hi, a, sure, Options{MaxNodes: 1000})
				if err != nil {
					b.Fatal(err)
				}
				verdicts[res.Verdict]++
				q++
			}
			b.ReportMetric(float64(q)/time.Since(start).Seconds(), "queries/s")
			b.Logf("verdicts %v", verdicts)
		})
	}
}

type onewayModel struct {
	vars [][2]int
}

// onewayPolicy binds n to the one-way line model's variables (pos 0..15,
// speed 0..3, load 0..3, parked) with the inputs of spec-language.md.
func onewayPolicy(tb testing.TB, n *Network) (onewayModel, *Policy) {
	m := &symbolic.Model{
		Vars: []symbolic.Var{{Name: "pos", Lo: 0, Hi: 15}, {Name: "speed", Lo: 0, Hi: 3},
			{Name: "load", Lo: 0, Hi: 3}, {Name: "parked", Lo: 0, Hi: 1, Bool: true}},
	}
	for _, l := range []string{"accelerate", "decelerate", "pickup", "drop", "park", "cruise"} {
		m.Labels = append(m.Labels, symbolic.Label{Name: l})
	}
	in := func(v symbolic.VarID, den int64) symbolic.Affine {
		return symbolic.Affine{Terms: []symbolic.AffineTerm{{Coef: symbolic.Rat{Num: 1, Den: den}, Var: v}}}
	}
	d := &symbolic.PolicyDecl{Name: "driver", Kind: symbolic.KindNN, File: "oneway_32x32.onnx",
		Inputs:  []symbolic.Affine{in(0, 15), in(1, 3), in(2, 3), in(3, 1)},
		Outputs: []symbolic.LabelID{0, 1, 2, 3, 4, 5}}
	p, err := NewPolicyFromNetwork(m, d, n)
	if err != nil {
		tb.Fatal(err)
	}
	om := onewayModel{}
	for _, v := range m.Vars {
		om.vars = append(om.vars, [2]int{v.Lo, v.Hi})
	}
	return om, p
}
