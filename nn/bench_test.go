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
// for evaluating 1024 inputs, and the evaluator (single) with the vector
// kernel against the evaluator without it (scalar).
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
		b.Run(name+"/scalar", func(b *testing.B) {
			vector := hasAffine16
			hasAffine16 = false
			e := NewEvaluator(n)
			hasAffine16 = vector
			y := make([]float64, n.Outputs())
			for b.Loop() {
				for s := 0; s < k; s++ {
					e.Eval(xs[s*n.Inputs():(s+1)*n.Inputs()], y)
				}
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
		evalBatchGonum(n, gonumWeights(n), xs, g)
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
	for _, e := range examplePolicies {
		if n, err := Load("../specs/policies/" + e.file); err == nil {
			nets[e.name] = n
		} else {
			b.Logf("example policy: %v", err)
		}
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
		for _, m := range []Method{IBP, CROWN, Both, Alpha} {
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
			fmt.Fprintf(os.Stderr, "%s: mean width IBP %.4g, CROWN %.4g, both %.4g, alpha %.4g (CROWN/IBP %.3f)\n", name, width[IBP], width[CROWN], width[Both], width[Alpha], width[CROWN]/width[IBP])
		}
	}
}

// BenchmarkExcludes measures decision-query throughput on the example
// policies over state boxes: single states, and boxes spanning the full
// range of one, two or three variables. The queried label and one surely
// applicable competitor are random.
func BenchmarkExcludes(b *testing.B) {
	for _, e := range examplePolicies {
		p := e.bind(b)
		nout := p.Net.Outputs()
		r := rand.New(rand.NewPCG(4, 4))
		for _, span := range []int{0, 1, 2, 3} {
			b.Run(fmt.Sprintf("%s/full-range-vars=%d", e.name, span), func(b *testing.B) {
				verdicts := map[Verdict]int{}
				lo, hi := make([]int, len(e.vars)), make([]int, len(e.vars))
				start := time.Now()
				q := 0
				for b.Loop() {
					for v := range lo {
						lo[v] = e.vars[v][0] + r.IntN(e.vars[v][1]-e.vars[v][0]+1)
						hi[v] = lo[v]
					}
					for _, v := range r.Perm(len(lo))[:span] {
						lo[v], hi[v] = e.vars[v][0], e.vars[v][1]
					}
					a := r.IntN(nout)
					sure := []int{(a + 1 + r.IntN(nout-1)) % nout}
					res, err := p.Excludes(lo, hi, a, sure, Options{MaxNodes: 1000})
					if err != nil {
						b.Fatal(err)
					}
					verdicts[res.Verdict]++
					q++
				}
				b.ReportMetric(float64(q)/time.Since(start).Seconds(), "queries/s")
				b.ReportMetric(float64(verdicts[Unknown])/float64(q), "unknown-frac")
			})
		}
	}
}

type exampleModel struct {
	name  string
	file  string
	vars  [][2]int // ranges
	scale []int64  // input i = var i / scale[i]
}

// examplePolicies are the example network policies of specs/policies with
// the variables and inputs of their .spec models.
var examplePolicies = []exampleModel{
	{"oneway", "oneway_32x32.onnx", [][2]int{{0, 15}, {0, 3}, {0, 3}, {0, 1}}, []int64{15, 3, 3, 1}},
	{"transport", "transport_32x32.onnx", [][2]int{{0, 12}, {-2, 2}, {0, 4}, {0, 4}, {0, 4}}, []int64{12, 2, 4, 4, 4}},
	{"twoway", "twoway_32x32.onnx", [][2]int{{-2, 18}, {-2, 2}, {0, 2}, {0, 2}, {0, 2}, {0, 1}}, []int64{16, 2, 2, 2, 2, 1}},
}

// bind makes a policy of the example's network over a model with the
// example's variables.
func (e exampleModel) bind(tb testing.TB) *Policy {
	n, err := Load("../specs/policies/" + e.file)
	if err != nil {
		tb.Skip(err)
	}
	m := &symbolic.Model{}
	d := &symbolic.PolicyDecl{Name: e.name, Kind: symbolic.KindNN, File: e.file}
	for i, r := range e.vars {
		m.Vars = append(m.Vars, symbolic.Var{Name: fmt.Sprint("v", i), Lo: r[0], Hi: r[1]})
		d.Inputs = append(d.Inputs, symbolic.Affine{Terms: []symbolic.AffineTerm{{Coef: symbolic.Rat{Num: 1, Den: e.scale[i]}, Var: symbolic.VarID(i)}}})
	}
	for i := 0; i < n.Outputs(); i++ {
		m.Labels = append(m.Labels, symbolic.Label{Name: fmt.Sprint("l", i)})
		d.Outputs = append(d.Outputs, symbolic.LabelID(i))
	}
	p, err := NewPolicyFromNetwork(m, d, n)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}
