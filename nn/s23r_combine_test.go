package nn

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
	"time"

	"vigil/symbolic"
)

// TestS23rCombineRounding: y = 2^40 x + b with b = 1666414132872151040
// and the rows 7 y - 7b <= 0, -3 y + 3b <= 0, both 0 at x = 0 (y = b
// exactly): sat. The prover's convex combination 0.3 g_0 + 0.7 g_1,
// summed in float64, had the coefficient 4.4e-16 and the offset 0, so it
// "proved" 740 > 0 on the whole box: vigil nn verify answered unsat.
func TestS23rCombineRounding(t *testing.T) {
	n := &Network{Layers: []Layer{{In: 1, Out: 1, W: []float64{1 << 40}, B: []float64{1666414132872151040}}}}
	prop, err := ParseVNNLIB("(declare-const X_0 Real)\n(declare-const Y_0 Real)\n(assert (>= X_0 -1))\n(assert (<= X_0 0.7))\n" +
		"(assert (<= (+ (* 7 Y_0) -11664898930105057280) 0))\n(assert (<= (+ (* -3 Y_0) 4999242398616453120) 0))\n")
	if err != nil {
		t.Fatal(err)
	}
	res, err := n.Verify(prop, 20*time.Second, Options{})
	if err != nil || res.Answer == Unsat {
		t.Fatalf("%v %v, want sat (x = 0 is a counterexample)", res.Answer, err)
	}
	if res.Answer == Sat && !prop.Check(n, res.Case, res.Input) {
		t.Fatalf("witness %v does not check", res.Input)
	}
}

// TestS23rCombinedRowsBelow: every row combine adds is at most the exact
// convex combination of the rows it combines wherever the outputs lie
// within their magnitude bound, whatever the rows' magnitudes; checked in
// rationals at random outputs, for random pairs and triples of rows, by
// finding weights w >= 0 that the added row stays below.
func TestS23rCombinedRowsBelow(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 1))
	mag := []float64{1 << 63, 3, 1e-3}
	n := &Network{Layers: []Layer{{In: 1, Out: 3, W: make([]float64, 3), B: make([]float64, 3)}}}
	for it := 0; it < 200; it++ {
		m := 2 + rng.IntN(2)
		d := Disjunction{}
		b := (1 + rng.Float64()) * math.Ldexp(1, 40+rng.IntN(22))
		for k := 0; k < m; k++ {
			row := make([]float64, 3)
			if it%2 == 0 {
				for j := range row {
					row[j] = (rng.Float64()*20 - 10) * math.Pow(10, float64(rng.IntN(30)-15))
				}
				d.Rows = append(d.Rows, row)
				d.Off = append(d.Off, (rng.Float64()*2-1)*math.Pow(10, float64(rng.IntN(40)-10)))
				continue
			}
			// c (y_0 - b) with small integers c of both signs: the
			// rows cancel in a combination, their offsets round apart
			c := float64(1+rng.IntN(9)) * float64(1-2*(k%2))
			row[0] = c
			d.Rows = append(d.Rows, row)
			d.Off = append(d.Off, -c*b)
		}
		p := newProver(n, d, Options{})
		p.combine(func() []float64 { return mag })
		nout := 3
		for r := m; r < len(p.off); r++ {
			row, off := p.rows[r*nout:(r+1)*nout], p.off[r]
			for s := 0; s < 20; s++ {
				y := make([]float64, 3)
				for j := range y {
					y[j] = (rng.Float64()*2 - 1) * mag[j]
				}
				if it%2 == 1 {
					// near b, where every row is near 0
					y[0] = b
					for range rng.IntN(4) {
						y[0] = math.Nextafter(y[0], math.Inf(1-2*rng.IntN(2)))
					}
				}
				got := ratRow(row, off, y)
				// the added row is below max_k g_k: a combination with
				// nonnegative weights is at most the largest row.
				top := ratRow(d.Rows[0], d.Off[0], y)
				for k := 1; k < m; k++ {
					if v := ratRow(d.Rows[k], d.Off[k], y); v.Cmp(top) > 0 {
						top = v
					}
				}
				if got.Cmp(top) > 0 {
					t.Fatalf("it %d: combined row %d is %s at %v, above every row (max %s)", it, r, got.FloatString(6), y, top.FloatString(6))
				}
			}
		}
	}
}

func ratRow(row []float64, off float64, y []float64) *big.Rat {
	s := new(big.Rat).SetFloat64(off)
	for j, c := range row {
		s.Add(s, new(big.Rat).Mul(new(big.Rat).SetFloat64(c), new(big.Rat).SetFloat64(y[j])))
	}
	return s
}

// TestS23rLongRowSlack: Y_0 = 2^60, Y_1..Y_32 = -63, Y_33 = -2^60 +
// 2^40 |X_0|, and the row sum_j Y_j + 2015 <= 0, exactly -1 at X_0 = 0:
// sat. Summed in float64 each -63 is lost against 2^60, so the bound of
// the row over the box was 2015, above the slack, which did not cover the
// rounding of the bound's last dot product (over the 34 outputs): unsat.
func TestS23rLongRowSlack(t *testing.T) {
	const k = 32
	nout := k + 2
	w2 := make([]float64, 2*nout)
	b2 := make([]float64, nout)
	b2[0], b2[k+1] = 1<<60, -(1 << 60)
	for j := 1; j <= k; j++ {
		b2[j] = -63
	}
	w2[2*(k+1)], w2[2*(k+1)+1] = 1<<40, 1<<40
	n := &Network{Layers: []Layer{
		{In: 1, Out: 2, W: []float64{1, -1}, B: []float64{0, 0}, Act: symbolic.ActReLU},
		{In: 2, Out: nout, W: w2, B: b2},
	}}
	src := "(declare-const X_0 Real)\n"
	sum := ""
	for j := 0; j < nout; j++ {
		src += fmt.Sprintf("(declare-const Y_%d Real)\n", j)
		sum += fmt.Sprintf(" Y_%d", j)
	}
	src += "(assert (>= X_0 -1))\n(assert (<= X_0 0.7))\n(assert (<= (+" + sum + " 2015) 0))\n"
	prop, err := ParseVNNLIB(src)
	if err != nil {
		t.Fatal(err)
	}
	if !prop.Check(n, 0, []float64{0}) {
		t.Fatal("X_0 = 0 should be a counterexample")
	}
	for _, m := range []Method{IBP, CROWN, Both, Alpha} {
		res, err := n.Verify(prop, 20*time.Second, Options{Method: m})
		if err != nil || res.Answer == Unsat {
			t.Errorf("method %v: %v %v, want sat (X_0 = 0 is a counterexample)", m, res.Answer, err)
		}
	}
}
