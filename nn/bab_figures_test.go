package nn

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"
)

// TestBranchFigures prints nn/FIGURES.md's comparison of input splits and
// ReLU splits (with beta-CROWN) on generated local-robustness queries:
// random networks of 5 and 40 inputs and two 32-neuron hidden layers,
// "output top stays above output j" over a box of radius eps around a
// random point, one query per other output, 4 s each. Gated like
// TestVNNFigures:
//
//	VIGIL_VNN_FIGURES=1 go test ./nn -run BranchFigures -v
//
// Every answer is checked: a refutation's witness by evaluation, and
// input and ReLU splits may not contradict each other.
func TestBranchFigures(t *testing.T) {
	if os.Getenv("VIGIL_VNN_FIGURES") == "" {
		t.Skip("set VIGIL_VNN_FIGURES=1 to measure input against ReLU splits (minutes)")
	}
	const limit = 4 * time.Second
	branches := []Branch{BranchInput, BranchReLU}
	var b strings.Builder
	fmt.Fprintf(&b, "| inputs | seed | eps | input: answers | time | nodes | relu: answers | time | nodes |\n|---|---|---|---|---|---|---|---|---|\n")
	decided := map[Branch]int{}
	total := 0
	for _, nin := range []int{5, 40} {
		for seed := uint64(3); seed <= 6; seed++ {
			r := rand.New(rand.NewPCG(seed, 7))
			n := tinyNet(r, []int{nin, 32, 32, 3}, false)
			x0 := make([]float64, nin)
			for i := range x0 {
				x0[i] = r.Float64()
			}
			y := n.Eval(x0)
			top := 0
			for j := range y {
				if y[j] > y[top] {
					top = j
				}
			}
			for _, eps := range []float64{0.1, 0.3} {
				box := Box{Lo: make([]float64, nin), Hi: make([]float64, nin)}
				for i := range box.Lo {
					box.Lo[i], box.Hi[i] = x0[i]-eps, x0[i]+eps
				}
				fmt.Fprintf(&b, "| %d | %d | %.1f |", nin, seed, eps)
				var verdicts [2][]Verdict
				for bi, br := range branches {
					st := time.Now()
					var ans string
					nodes := 0
					for j := range y {
						if j == top {
							continue
						}
						row := make([]float64, 3)
						row[top], row[j] = 1, -1
						d := Disjunction{Rows: [][]float64{row}, Off: []float64{0}, Strict: []bool{false}}
						res, err := n.Prove(box, d, Options{Branch: br, Deadline: time.Now().Add(limit), MaxNodes: 1 << 30})
						if err != nil {
							t.Fatal(err)
						}
						if res.Verdict == Refuted && maxRow(n, d, res.Witness) > 0 {
							t.Errorf("%d inputs seed %d eps %v %s: the witness does not check", nin, seed, eps, br)
						}
						verdicts[bi] = append(verdicts[bi], res.Verdict)
						ans += res.Verdict.String()[:1]
						nodes += res.Nodes
						total += bi // count queries once
						if res.Verdict != Unknown {
							decided[br]++
						}
					}
					fmt.Fprintf(&b, " %s | %.3f s | %d |", ans, time.Since(st).Seconds(), nodes)
				}
				b.WriteString("\n")
				for k := range verdicts[0] {
					u, v := verdicts[0][k], verdicts[1][k]
					if u != Unknown && v != Unknown && u != v {
						t.Errorf("%d inputs seed %d eps %v: input splits say %s, ReLU splits %s", nin, seed, eps, u, v)
					}
				}
			}
		}
	}
	fmt.Fprintf(&b, "\nDecided within %v per query: input splits %d of %d, ReLU splits %d of %d (p = proved, r = refuted, u = unknown).\n",
		limit, decided[BranchInput], total, decided[BranchReLU], total)
	fmt.Print(b.String())
}
