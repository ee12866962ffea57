package nn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"
)

// TestTanhBoundFigures prints nn/FIGURES.md's comparison of bound widths
// on random Tanh networks (as Stable-Baselines3 actors are: Tanh hidden
// layers, a linear head): for each shape and box radius, the mean width
// of the output bounds over 20 networks and boxes by IBP, CROWN, both
// (their intersection) and alpha, the time per bound, and the widest
// sampled range as a lower limit of what any bound can reach. Gated:
//
//	VIGIL_TANH_FIGURES=1 go test ./nn -run TanhBoundFigures -v
//
// Every bound is checked against 500 sampled points.
func TestTanhBoundFigures(t *testing.T) {
	if os.Getenv("VIGIL_TANH_FIGURES") == "" {
		t.Skip("set VIGIL_TANH_FIGURES=1 to measure CROWN against IBP on Tanh networks")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "| shape | radius | sampled range | IBP | CROWN | both | alpha | CROWN / IBP | time IBP | time CROWN | time alpha |\n|---|---|---|---|---|---|---|---|---|---|---|\n")
	shapes := [][]int{{5, 16, 16, 7}, {5, 64, 64, 4}, {10, 32, 32, 32, 5}}
	for _, sh := range shapes {
		for _, eps := range []float64{0.01, 0.1, 0.5} {
			r := rand.New(rand.NewPCG(uint64(len(sh)*100+sh[1]), uint64(eps*1000)))
			methods := []Method{IBP, CROWN, Both, Alpha}
			width := make([]float64, len(methods))
			dur := make([]time.Duration, len(methods))
			sampled := 0.0
			const nets = 20
			for k := 0; k < nets; k++ {
				n := randomNet(r, sh...)
				for i := range n.Layers[:len(n.Layers)-1] {
					n.Layers[i].Act = ActTanh
				}
				box := Box{Lo: make([]float64, sh[0]), Hi: make([]float64, sh[0])}
				for i := range box.Lo {
					c := r.NormFloat64()
					box.Lo[i], box.Hi[i] = c-eps, c+eps
				}
				var los, his [][]float64
				for mi, m := range methods {
					start := time.Now()
					lo, hi, err := n.Bounds(box, nil, m)
					dur[mi] += time.Since(start)
					if err != nil {
						t.Fatal(err)
					}
					for j := range lo {
						width[mi] += (hi[j] - lo[j]) / float64(len(lo)*nets)
					}
					los, his = append(los, lo), append(his, hi)
				}
				x := make([]float64, sh[0])
				y := make([]float64, n.Outputs())
				slo, shi := make([]float64, n.Outputs()), make([]float64, n.Outputs())
				for j := range slo {
					slo[j], shi[j] = math.Inf(1), math.Inf(-1)
				}
				for s := 0; s < 500; s++ {
					samplePoint(r, box, x)
					NewEvaluator(n).Eval(x, y)
					for j, v := range y {
						slo[j], shi[j] = min(slo[j], v), max(shi[j], v)
						for mi := range methods {
							if v < los[mi][j]-1e-12 || v > his[mi][j]+1e-12 {
								t.Fatalf("%v: output %d = %v outside [%v, %v]", methods[mi], j, v, los[mi][j], his[mi][j])
							}
						}
					}
				}
				for j := range slo {
					sampled += (shi[j] - slo[j]) / float64(len(slo)*nets)
				}
			}
			per := func(d time.Duration) string { return fmt.Sprintf("%.0f µs", float64(d.Microseconds())/nets) }
			fmt.Fprintf(&b, "| %s | %g | %.4g | %.4g | %.4g | %.4g | %.4g | %.2f | %s | %s | %s |\n",
				strings.Trim(strings.Join(strings.Fields(fmt.Sprint(sh)), "-"), "[]"), eps, sampled,
				width[0], width[1], width[2], width[3], width[1]/width[0], per(dur[0]), per(dur[1]), per(dur[3]))
		}
	}
	t.Logf("\n%s", b.String())
}
