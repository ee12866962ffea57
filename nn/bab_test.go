package nn

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"
)

// The ReLU-split branch and bound is checked against an independent exact
// method on tiny random networks: every activation pattern of the hidden
// neurons makes the network affine on a polyhedron, so the least value of
// t with all rows·f(x) + off <= t over the box is the minimum over
// patterns of a linear program (gonum's simplex). t* < 0 means a
// counterexample exists (sat, Refuted), t* > 0 means none does (unsat,
// Proved). Instances within lpEps of the border are skipped, since the
// simplex rounds too.

const lpEps = 1e-6

// tinyNet is a random ReLU network with the given widths (inputs first).
func tinyNet(r *rand.Rand, widths []int, lastReLU bool) *Network {
	n := &Network{}
	for i := 1; i < len(widths); i++ {
		l := Layer{In: widths[i-1], Out: widths[i], W: make([]float64, widths[i-1]*widths[i]), B: make([]float64, widths[i])}
		for j := range l.W {
			l.W[j] = r.NormFloat64() / math.Sqrt(float64(l.In))
		}
		for j := range l.B {
			l.B[j] = 0.5 * r.NormFloat64()
		}
		l.Act = actIf(i < len(widths)-1 || lastReLU, ActReLU)
		n.Layers = append(n.Layers, l)
	}
	return n
}

// lpMin returns min over the box of max_k rows_k·f(x) + off_k by
// enumerating activation patterns, the minimising input, and whether every
// linear program was solved (a numerical failure makes the result only a
// bound from above).
func lpMin(n *Network, box Box, d Disjunction) (best float64, arg []float64, complete bool) {
	nin := n.Inputs()
	var hidden int
	for _, l := range n.Layers {
		if l.Act == ActReLU {
			hidden += l.Out
		}
	}
	best, complete = math.Inf(1), true
	for pat := 0; pat < 1<<hidden; pat++ {
		// Affine form of the current layer's values: rows of [coef..., const].
		cur := make([][]float64, nin)
		for i := range cur {
			cur[i] = make([]float64, nin+1)
			cur[i][i] = 1
		}
		var G [][]float64 // G·[x, t] <= h, stored with the constant as the last entry
		bit := 0
		for _, l := range n.Layers {
			next := make([][]float64, l.Out)
			for o := 0; o < l.Out; o++ {
				z := make([]float64, nin+1)
				z[nin] = l.B[o]
				for i := 0; i < l.In; i++ {
					w := l.W[o*l.In+i]
					for q := range z {
						z[q] += w * cur[i][q]
					}
				}
				if l.Act == ActReLU {
					active := pat>>bit&1 == 1
					bit++
					g := make([]float64, nin+1)
					for q := range z {
						if active {
							g[q] = -z[q] // -z <= 0
						} else {
							g[q] = z[q] // z <= 0
						}
					}
					G = append(G, g)
					if !active {
						z = make([]float64, nin+1)
					}
				}
				next[o] = z
			}
			cur = next
		}
		// Rows: sum_j c_j f_j(x) + off - t <= 0.
		nv := nin + 1
		var gm []float64
		var h []float64
		addRow := func(coef []float64, tcoef, rhs float64) {
			gm = append(gm, coef...)
			gm = append(gm, tcoef)
			h = append(h, rhs)
		}
		for _, g := range G {
			addRow(g[:nin], 0, -g[nin])
		}
		for k, row := range d.Rows {
			coef := make([]float64, nin)
			c := d.Off[k]
			for j, cj := range row {
				for q := 0; q < nin; q++ {
					coef[q] += cj * cur[j][q]
				}
				c += cj * cur[j][nin]
			}
			addRow(coef, -1, -c)
		}
		for i := 0; i < nin; i++ {
			e := make([]float64, nin)
			e[i] = 1
			addRow(e, 0, box.Hi[i])
			e2 := make([]float64, nin)
			e2[i] = -1
			addRow(e2, 0, -box.Lo[i])
		}
		obj := make([]float64, nv)
		obj[nin] = 1
		c, A, b := lp.Convert(obj, mat.NewDense(len(h), nv, gm), h, nil, nil)
		v, x, err := lp.Simplex(c, A, b, 1e-10, nil)
		switch {
		case errors.Is(err, lp.ErrInfeasible):
			continue
		case err != nil:
			complete = false
			continue
		}
		if v < best {
			best = v
			arg = make([]float64, nin)
			for i := range arg {
				arg[i] = x[i] - x[nv+i]
			}
		}
	}
	return best, arg, complete
}

// maxRow is max_k rows_k·f(x) + off_k under exact evaluation.
func maxRow(n *Network, d Disjunction, x []float64) float64 {
	y := n.Eval(x)
	m := math.Inf(-1)
	for k, row := range d.Rows {
		g := d.Off[k]
		for j, c := range row {
			g += c * y[j]
		}
		m = max(m, g)
	}
	return m
}

func TestReLUBranchAgainstLP(t *testing.T) {
	r := rand.New(rand.NewPCG(18, 3))
	shapes := [][]int{{2, 3, 3, 2}, {2, 4, 3}, {3, 3, 3, 2}, {1, 4, 2, 2}, {2, 2, 2, 2, 2}, {3, 5, 2}}
	type config struct {
		name    string
		opt     Options
		combine bool // also bound combinations of the rows, as Verify does
		fsb     bool // try every input split (runInput's second way)
	}
	configs := []config{
		{"relu/both", Options{Branch: BranchReLU}, false, false},
		{"relu/alpha", Options{Branch: BranchReLU, Method: Alpha}, false, false},
		{"relu/ibp", Options{Branch: BranchReLU, Method: IBP}, false, false},
		{"relu/crown", Options{Branch: BranchReLU, Method: CROWN}, false, false},
		{"input/both", Options{Branch: BranchInput}, false, false},
		{"input/both/combined", Options{Branch: BranchInput}, true, false},
		{"relu/both/combined", Options{Branch: BranchReLU}, true, false},
		{"input/fsb/combined", Options{Branch: BranchInput}, true, true},
	}
	instances := 100
	if testing.Short() {
		instances = 40
	}
	var sat, unsat, border, unknown int
	for it := 0; it < instances; it++ {
		shape := shapes[it%len(shapes)]
		n := tinyNet(r, shape, it%7 == 3)
		nin, nout := shape[0], shape[len(shape)-1]
		box := Box{Lo: make([]float64, nin), Hi: make([]float64, nin)}
		for i := range box.Lo {
			a, b := 2*r.Float64()-1, 2*r.Float64()-1
			box.Lo[i], box.Hi[i] = min(a, b), max(a, b)
		}
		var d Disjunction
		for k := 0; k < 1+r.IntN(3); k++ {
			row := make([]float64, nout)
			for j := range row {
				row[j] = r.NormFloat64()
			}
			d.Rows = append(d.Rows, row)
			d.Off = append(d.Off, 0.3*r.NormFloat64())
			d.Strict = append(d.Strict, r.IntN(2) == 0)
		}
		// Shift the offsets so that the true minimum lies near zero,
		// on either side.
		tmin, _, _ := lpMin(n, box, d)
		shift := -tmin + 0.2*(r.Float64()-0.5)
		for k := range d.Off {
			d.Off[k] += shift
		}
		tmin, arg, complete := lpMin(n, box, d)
		if math.Abs(tmin) < lpEps || (tmin > 0 && !complete) {
			border++
			continue
		}
		if tmin < 0 {
			// Confirm the linear program's counterexample by evaluation.
			if v := maxRow(n, d, arg); v > tmin/2 {
				border++
				continue
			}
			sat++
		} else {
			unsat++
		}
		for _, c := range configs {
			opt := c.opt
			opt.MaxNodes = 20000
			opt.Seed = uint64(it)
			var res Result
			var err error
			if c.combine {
				// As Verify bounds, but without its witness search
				// first, so that a wrong proof cannot hide behind it.
				p := newProver(n, d, opt)
				p.combine(func() []float64 { return n.outputMagnitude(box) })
				p.fsb = c.fsb
				if opt.Branch == BranchReLU {
					res = p.runReLU(box)
				} else {
					res = p.run(box)
				}
			} else {
				res, err = n.Prove(box, d, opt)
			}
			if err != nil {
				t.Fatal(err)
			}
			switch res.Verdict {
			case Proved:
				if tmin < 0 {
					t.Errorf("instance %d %s: proved, but the input %v gives max row %v < 0 (LP minimum %v)", it, c.name, arg, maxRow(n, d, arg), tmin)
				}
			case Refuted:
				for i, v := range res.Witness {
					if !(v >= box.Lo[i] && v <= box.Hi[i]) {
						t.Errorf("instance %d %s: witness %v outside the box", it, c.name, res.Witness)
					}
				}
				if v := maxRow(n, d, res.Witness); v > 0 || tmin > 0 {
					t.Errorf("instance %d %s: refuted with %v (max row %v), LP minimum %v", it, c.name, res.Witness, v, tmin)
				}
			default:
				unknown++
				t.Logf("instance %d %s: unknown after %d nodes (LP minimum %v)", it, c.name, res.Nodes, tmin)
			}
		}
	}
	t.Logf("%d sat, %d unsat, %d skipped at the border; %d unknown answers of %d", sat, unsat, border, unknown, (sat+unsat)*len(configs))
	if sat < instances/5 || unsat < instances/5 {
		t.Errorf("the generator is unbalanced: %d sat, %d unsat", sat, unsat)
	}
	if unknown > 0 {
		t.Errorf("%d unknown answers on tiny networks", unknown)
	}
}

// TestVerifyAutoAgainstLP runs Verify with the default (auto) branching,
// which switches between input and ReLU splits by the number of inputs
// and half-way through the time limit, on properties whose answer the
// activation-pattern LP knows.
func TestVerifyAutoAgainstLP(t *testing.T) {
	r := rand.New(rand.NewPCG(18, 4))
	checked, nodes := 0, 0
	for it := 0; it < 14; it++ {
		shape := []int{3, 4, 3, 2}
		if it%2 == 1 {
			shape = []int{11, 3, 3, 2} // more than autoInputs: ReLU splits first
		}
		n := tinyNet(r, shape, false)
		nin := shape[0]
		box := Box{Lo: make([]float64, nin), Hi: make([]float64, nin)}
		for i := range box.Lo {
			c := 2*r.Float64() - 1
			box.Lo[i], box.Hi[i] = c-0.3, c+0.3
		}
		// Counterexample: y0 - y1 + off <= 0 and y1 <= off2.
		d := Disjunction{Rows: [][]float64{{1, -1}, {0, 1}}, Off: []float64{0, r.NormFloat64()}, Strict: []bool{false, false}}
		tmin, _, _ := lpMin(n, box, d)
		shift := -tmin + 0.05*(r.Float64()-0.5)
		d.Off[0] += shift
		d.Off[1] += shift
		tmin, _, complete := lpMin(n, box, d)
		if math.Abs(tmin) < lpEps || (tmin > 0 && !complete) {
			continue
		}
		prop := &Property{Inputs: nin, Outputs: 2, Cases: []Case{{Box: box, Cons: d}}}
		res, err := n.Verify(prop, 2*time.Second, Options{Seed: uint64(it)})
		nodes += res.Nodes
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case res.Answer == Unsat && tmin < 0:
			t.Errorf("instance %d (%d inputs): unsat, but the LP minimum is %v", it, nin, tmin)
		case res.Answer == Sat && (tmin > 0 || !prop.Check(n, res.Case, res.Input)):
			t.Errorf("instance %d (%d inputs): sat with %v, LP minimum %v", it, nin, res.Input, tmin)
		case res.Answer == AnswerUnkn:
			t.Errorf("instance %d (%d inputs): unknown (LP minimum %v, %d nodes)", it, nin, tmin, res.Nodes)
		}
		checked++
	}
	if checked < 10 {
		t.Errorf("only %d instances away from the border", checked)
	}
	t.Logf("%d instances, %d boxes and domains", checked, nodes)
}

// TestVerifyCasesAgainstLP runs Verify on properties of two or three
// cases (disjuncts) over one box, which it decides by input splits in
// turns (vnnlib.go), with both branchings that do so: the property is sat
// exactly when some case's LP minimum is below zero.
func TestVerifyCasesAgainstLP(t *testing.T) {
	r := rand.New(rand.NewPCG(18, 5))
	checked, sat := 0, 0
	for it := 0; it < 24; it++ {
		shape := [][]int{{3, 4, 3, 2}, {2, 3, 3, 3}}[it%2]
		n := tinyNet(r, shape, false)
		nin, nout := shape[0], shape[len(shape)-1]
		box := Box{Lo: make([]float64, nin), Hi: make([]float64, nin)}
		for i := range box.Lo {
			c := 2*r.Float64() - 1
			box.Lo[i], box.Hi[i] = c-0.4, c+0.4
		}
		prop := &Property{Inputs: nin, Outputs: nout}
		for k := 0; k < 2+it%2; k++ {
			var d Disjunction
			for q := 0; q < 1+r.IntN(2); q++ {
				row := make([]float64, nout)
				for j := range row {
					row[j] = r.NormFloat64()
				}
				d.Rows = append(d.Rows, row)
				d.Off = append(d.Off, 0.3*r.NormFloat64())
				d.Strict = append(d.Strict, false)
			}
			prop.Cases = append(prop.Cases, Case{Box: box, Cons: d})
		}
		// Shift every offset by one amount so that the least of the
		// cases' minima lies near zero, on either side.
		least := math.Inf(1)
		for _, c := range prop.Cases {
			m, _, _ := lpMin(n, box, c.Cons)
			least = min(least, m)
		}
		shift := -least + 0.05*(r.Float64()-0.5)
		least, complete := math.Inf(1), true
		for _, c := range prop.Cases {
			for q := range c.Cons.Off {
				c.Cons.Off[q] += shift
			}
			m, _, ok := lpMin(n, box, c.Cons)
			least, complete = min(least, m), complete && ok
		}
		if math.Abs(least) < lpEps || (least > 0 && !complete) {
			continue
		}
		if least < 0 {
			sat++
		}
		for _, br := range []Branch{BranchAuto, BranchInput} {
			res, err := n.Verify(prop, 2*time.Second, Options{Seed: uint64(it), Branch: br})
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case res.Answer == Unsat && least < 0:
				t.Errorf("instance %d %v: unsat, but an LP minimum is %v", it, br, least)
			case res.Answer == Sat && (least > 0 || !prop.Check(n, res.Case, res.Input)):
				t.Errorf("instance %d %v: sat with %v, least LP minimum %v", it, br, res.Input, least)
			case res.Answer == AnswerUnkn:
				t.Errorf("instance %d %v: unknown (least LP minimum %v, %d nodes)", it, br, least, res.Nodes)
			}
		}
		checked++
	}
	if checked < 15 || sat < 3 || checked-sat < 3 {
		t.Errorf("unbalanced: %d instances away from the border, %d sat", checked, sat)
	}
	t.Logf("%d instances, %d sat", checked, sat)
}
