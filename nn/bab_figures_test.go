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
// random point, one query per other output, 4 s each; also ReLU splits
// without the beta-CROWN multipliers (method crown). Gated like
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
	// The third column is ReLU splits with --method crown, which skips
	// the beta-CROWN optimisation: what splits give without it.
	branches := []Branch{BranchInput, BranchReLU, BranchReLU}
	methods := []Method{Both, Both, CROWN}
	names := []string{"input", "relu", "relu, no beta"}
	var b strings.Builder
	fmt.Fprintf(&b, "| inputs | seed | eps | input: answers | time | nodes | relu: answers | time | nodes | relu, no beta: answers | time | nodes |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	decided := make([]int, len(branches))
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
				verdicts := make([][]Verdict, len(branches))
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
						res, err := n.Prove(box, d, Options{Branch: br, Method: methods[bi], Deadline: time.Now().Add(limit), MaxNodes: 1 << 30})
						if err != nil {
							t.Fatal(err)
						}
						if res.Verdict == Refuted && maxRow(n, d, res.Witness) > 0 {
							t.Errorf("%d inputs seed %d eps %v %s: the witness does not check", nin, seed, eps, names[bi])
						}
						verdicts[bi] = append(verdicts[bi], res.Verdict)
						ans += res.Verdict.String()[:1]
						nodes += res.Nodes
						if bi == 0 {
							total++
						}
						if res.Verdict != Unknown {
							decided[bi]++
						}
					}
					fmt.Fprintf(&b, " %s | %.3f s | %d |", ans, time.Since(st).Seconds(), nodes)
				}
				b.WriteString("\n")
				for k := range verdicts[0] {
					for bi := 1; bi < len(branches); bi++ {
						u, v := verdicts[0][k], verdicts[bi][k]
						if u != Unknown && v != Unknown && u != v {
							t.Errorf("%d inputs seed %d eps %v: input splits say %s, %s %s", nin, seed, eps, u, names[bi], v)
						}
					}
				}
			}
		}
	}
	fmt.Fprintf(&b, "\nDecided within %v per query, of %d: input splits %d, ReLU splits %d, ReLU splits without beta %d (p = proved, r = refuted, u = unknown).\n",
		limit, total, decided[0], decided[1], decided[2])
	fmt.Print(b.String())
}
