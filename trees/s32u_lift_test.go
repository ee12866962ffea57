package trees

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"vigil/internal/testutil"
	"vigil/symbolic"
)

// s32u: the lifted decision query (Policy.lift, excludesLifted) and the
// input-space fallback against enumerating every state of small boxes in
// the explicit float64 semantics (each input the exact affine value
// rounded to float64, Affine.Eval; each split "input < T"), on inputs
// that are affine in a variable with awkward rounding (x/3, 1 - x/7, -x,
// (3x+1)/10, x/2^40 + 5, 123456789x + 1/3 whose values beyond 2^53 make
// neighbouring states share an input), constant inputs, one variable
// read twice, inputs over two variables (some multiples of the atoms'
// form v0 - v1, which the fallback narrows by the atoms), ranges ending at ±(2^53-1),
// ±2^53 and 2^53+2 and negative ranges, thresholds at an input's value
// and one ulp either side (and XGBoost's float32 thresholds with float32
// sums), boxes within and beyond the ranges. VIGIL_S32U_MODELS sets the
// number of policies (default 400).

const s32uTop = 1 << 53

// s32uRanges are the variables' ranges the policies draw from.
var s32uRanges = [][2]int{
	{0, 20}, {-20, 5}, {-15, -3}, {-1, 0}, {7, 7},
	{s32uTop - 12, s32uTop}, {s32uTop - 13, s32uTop - 1}, {-s32uTop, -s32uTop + 12}, {-s32uTop + 1, -s32uTop + 10},
	{s32uTop - 10, s32uTop + 2}, {-s32uTop - 2, -s32uTop + 8}, // beyond ±2^53: not lifted
	{-1 << 62, 1 << 62}, {-1 << 63, 1<<63 - 1}, {-3, 1<<63 - 1}, // wide: small boxes of them are asked
}

// s32uPick returns a value of lo..hi: any, for a narrow range; near an
// end, 0, ±2^53 or anywhere, for a wide one.
func s32uPick(rng *rand.Rand, lo, hi int) int {
	if w := uint64(hi - lo); w < 64 {
		return lo + int(rng.Uint64N(w+1))
	}
	var v int
	switch rng.IntN(5) {
	case 0:
		v = lo + rng.IntN(8)
	case 1:
		v = hi - rng.IntN(8)
	case 2:
		v = rng.IntN(9) - 4
	case 3:
		v = s32uTop + rng.IntN(9) - 4
		if rng.IntN(2) == 0 {
			v = -v
		}
	default:
		v = lo + int(rng.Uint64N(uint64(hi-lo)))
	}
	return min(max(v, lo), hi)
}

func s32uRat(n, d int64) symbolic.Rat { return symbolic.Rat{Num: n, Den: d} }

// s32uInput returns input form k over variable v (and w for the forms
// over two variables).
func s32uInput(k int, v, w symbolic.VarID) (symbolic.Affine, string) {
	term := func(n, d int64, x symbolic.VarID) symbolic.AffineTerm {
		return symbolic.AffineTerm{Coef: s32uRat(n, d), Var: x}
	}
	one := s32uRat(0, 1)
	switch k {
	case 0:
		return symbolic.Affine{Const: one, Terms: []symbolic.AffineTerm{term(1, 1, v)}}, "x"
	case 1:
		return symbolic.Affine{Const: one, Terms: []symbolic.AffineTerm{term(1, 3, v)}}, "x/3"
	case 2:
		return symbolic.Affine{Const: s32uRat(1, 1), Terms: []symbolic.AffineTerm{term(-1, 7, v)}}, "1 - x/7"
	case 3:
		return symbolic.Affine{Const: one, Terms: []symbolic.AffineTerm{term(-1, 1, v)}}, "-x"
	case 4:
		return symbolic.Affine{Const: s32uRat(1, 10), Terms: []symbolic.AffineTerm{term(3, 10, v)}}, "(3x+1)/10"
	case 5:
		return symbolic.Affine{Const: s32uRat(1, 3), Terms: []symbolic.AffineTerm{term(-1, 3, v)}}, "(1-x)/3"
	case 6:
		return symbolic.Affine{Const: s32uRat(5, 1), Terms: []symbolic.AffineTerm{term(1, 1<<40, v)}}, "x/2^40 + 5"
	case 7:
		return symbolic.Affine{Const: s32uRat(1, 3), Terms: []symbolic.AffineTerm{term(123456789, 1, v)}}, "123456789x + 1/3"
	case 8:
		return symbolic.Affine{Const: s32uRat(5, 3), Terms: []symbolic.AffineTerm{term(0, 1, v)}}, "5/3 + 0x"
	case 9:
		return symbolic.Affine{Const: one, Terms: []symbolic.AffineTerm{term(1, 3, v), term(2, 7, v)}}, "x/3 + 2x/7"
	case 10:
		return symbolic.Affine{Const: s32uRat(-7, 2), Terms: []symbolic.AffineTerm{term(-5, 1, v), term(-1, 9, v)}}, "-5x - x/9 - 7/2"
	case 11:
		return symbolic.Affine{Const: one, Terms: []symbolic.AffineTerm{term(1, 1, v), term(1, 1, w)}}, "x + y"
	case 12:
		return symbolic.Affine{Const: s32uRat(1, 2), Terms: []symbolic.AffineTerm{term(1, 3, v), term(-1, 5, w)}}, "x/3 - y/5 + 1/2"
	case 13:
		return symbolic.Affine{Const: one, Terms: []symbolic.AffineTerm{term(-3, 1, v), term(0, 1, w)}}, "-3x + 0y"
	// multiples of the atoms' form v0 - v1 (inputBounds narrows them)
	case 14:
		return symbolic.Affine{Const: s32uRat(1, 7), Terms: []symbolic.AffineTerm{term(1, 3, 0), term(-1, 3, 1)}}, "(v0 - v1)/3 + 1/7"
	case 15:
		return symbolic.Affine{Const: s32uRat(-2, 1), Terms: []symbolic.AffineTerm{term(-1, 5, 0), term(1, 5, 1)}}, "(v1 - v0)/5 - 2"
	default:
		return symbolic.Affine{Const: one, Terms: []symbolic.AffineTerm{term(2, 1, 0), term(-2, 1, 1), term(1, 10, 0), term(-1, 10, 1)}}, "2v0 - 2v1 + (v0 - v1)/10"
	}
}

type s32uCase struct {
	p     *Policy
	desc  string
	lo    []int // the variables' ranges
	hi    []int
	f32   bool
	nvars int
}

// s32uRandom draws a policy: 1 or 2 variables, 1 to 3 inputs, 1 to 5
// trees of depth up to 3, 2 or 3 classes, thresholds at, and an ulp
// around, the inputs' values at states in and just beyond the ranges.
func s32uRandom(t *testing.T, rng *rand.Rand) s32uCase {
	nv := 1 + rng.IntN(2)
	m := &symbolic.Model{Name: "u"}
	c := s32uCase{nvars: nv}
	for v := 0; v < nv; v++ {
		r := s32uRanges[rng.IntN(len(s32uRanges))]
		m.Vars = append(m.Vars, symbolic.Var{Name: fmt.Sprintf("v%d", v), Lo: r[0], Hi: r[1]})
		c.lo, c.hi = append(c.lo, r[0]), append(c.hi, r[1])
	}
	nin := 1 + rng.IntN(3)
	nclass := 2 + rng.IntN(2)
	d := &symbolic.PolicyDecl{Name: "pi", Kind: symbolic.KindTrees}
	for l := 0; l < nclass; l++ {
		m.Labels = append(m.Labels, symbolic.Label{Name: fmt.Sprintf("l%d", l)})
		d.Outputs = append(d.Outputs, symbolic.LabelID(l))
	}
	var names []string
	for i := 0; i < nin; i++ {
		k := rng.IntN(11)
		if nv == 2 && rng.IntN(3) == 0 {
			k = 11 + rng.IntN(6)
		}
		v := symbolic.VarID(rng.IntN(nv))
		a, name := s32uInput(k, v, symbolic.VarID(nv-1-int(v)))
		d.Inputs = append(d.Inputs, a)
		names = append(names, fmt.Sprintf("%s[v%d]", name, v))
	}
	c.f32 = rng.IntN(3) == 0
	format := "veritas"
	if c.f32 {
		format = "xgboost"
	}
	// thresholds: an input's value at a state in or near the ranges
	state := make(symbolic.State, nv)
	threshold := func(f int) float64 {
		for v := range state {
			state[v] = s32uPick(rng, c.lo[v], c.hi[v])
			if d := rng.IntN(5) - 2; (d < 0 && state[v] > math.MinInt+2) || (d > 0 && state[v] < math.MaxInt-2) {
				state[v] += d // just beyond the range, sometimes
			}
		}
		u := d.Inputs[f].Eval(state)
		switch rng.IntN(5) {
		case 1:
			u = math.Nextafter(u, math.Inf(1))
		case 2:
			u = math.Nextafter(u, math.Inf(-1))
		case 3:
			if state[0] < math.MaxInt {
				state[0]++
			}
			u = (u + d.Inputs[f].Eval(state)) / 2
		}
		if c.f32 {
			// XGBoost: float32(x) < t32 as x < xgbThreshold(t32)
			return xgbThreshold(float32(u))
		}
		return u
	}
	leaves := []float64{0, 1, -1, 2, 0.5, 0.1, 0.2, 0.3, 3}
	b := newBuilder(format, nclass)
	ntrees := 1 + rng.IntN(5)
	for ti := 0; ti < ntrees; ti++ {
		tr := Tree{Class: ti % nclass}
		depth := rng.IntN(4)
		var build func(dd int) int
		build = func(dd int) int {
			i := len(tr.Nodes)
			if dd == depth {
				tr.Nodes = append(tr.Nodes, Node{Feature: -1, Leaf: len(tr.Values)})
				tr.Values = append(tr.Values, leaves[rng.IntN(len(leaves))])
				return i
			}
			f := rng.IntN(nin)
			tr.Nodes = append(tr.Nodes, Node{Feature: f, Threshold: threshold(f)})
			l := build(dd + 1)
			r := build(dd + 1)
			tr.Nodes[i].Left, tr.Nodes[i].Right = l, r
			return i
		}
		build(0)
		b.e.Trees = append(b.e.Trees, tr)
	}
	b.e.NumFeatures, b.e.Declared = nin, true
	e, err := b.finish()
	if err != nil {
		t.Fatal(err)
	}
	p := &Policy{Decl: d, Ens: e, vars: m.Vars, x: make([]float64, nin), scores: make([]float64, nclass)}
	p.varEns, p.whyInput = p.lift()
	for i := range d.Inputs {
		p.signs = append(p.signs, d.Inputs[i].Signs(len(m.Vars)))
	}
	c.p = p
	c.desc = fmt.Sprintf("vars %v..%v inputs %v format %s", c.lo, c.hi, names, format)
	return c
}

// s32uWins is the reference: does class a beat every sure class at s,
// by evaluating the policy (Affine.Eval, then the trees)?
func s32uWins(p *Policy, s symbolic.State, a int, sure []int) bool {
	sc := make([]float64, len(p.scores))
	if err := p.Ens.Scores(s32uInputs(p, s), sc); err != nil {
		panic(err)
	}
	for _, c := range sure {
		if c == a {
			continue
		}
		if sc[c] > sc[a] || sc[c] == sc[a] && c < a {
			return false
		}
	}
	return true
}

func s32uInputs(p *Policy, s symbolic.State) []float64 {
	x := make([]float64, len(p.Decl.Inputs))
	for i := range x {
		x[i] = p.Decl.Inputs[i].Eval(s)
	}
	return x
}

func TestS32uLiftAgainstEnumeration(t *testing.T) {
	n := 400
	if e := os.Getenv("VIGIL_S32U_MODELS"); e != "" {
		var err error
		if n, err = strconv.Atoi(e); err != nil {
			t.Fatal(err)
		}
	}
	var lifted, queries, proved, refuted, unknown, beyond, within int
	for seed := 0; seed < n; seed++ {
		rng := rand.New(rand.NewPCG(uint64(seed), 32))
		c := s32uRandom(t, rng)
		p := c.p
		if ok, _ := p.Exact(); ok {
			lifted++
		}
		nclass := len(p.scores)
		for q := 0; q < 12; q++ {
			lo, hi := make([]int, c.nvars), make([]int, c.nvars)
			out := rng.IntN(4) == 0
			for v := range lo {
				a := s32uPick(rng, c.lo[v], c.hi[v])
				b := a
				if uint64(c.hi[v]-c.lo[v]) < 64 {
					b = s32uPick(rng, c.lo[v], c.hi[v])
				} else if a <= c.hi[v]-12 {
					b = a + rng.IntN(12)
				}
				lo[v], hi[v] = min(a, b), max(a, b)
				if out {
					if lo[v] > math.MinInt+3 {
						lo[v] -= rng.IntN(3)
					}
					if hi[v] < math.MaxInt-3 {
						hi[v] += rng.IntN(3)
					}
				}
			}
			if out {
				beyond++
			}
			a := rng.IntN(nclass)
			var sure []int
			for s := 0; s < nclass; s++ {
				if s == a || rng.IntN(3) > 0 {
					sure = append(sure, s)
				}
			}
			// over two variables, half the queries are within an atom
			// v0 - v1 <= k or >= k (ExcludesWithin)
			var atoms []symbolic.Atom
			small := true
			for v := range lo {
				small = small && lo[v] > -1<<60 && hi[v] < 1<<60
			}
			if c.nvars == 2 && small && rng.IntN(2) == 0 {
				k := (lo[0] - hi[1]) + rng.IntN(hi[0]-lo[1]-(lo[0]-hi[1])+1)
				atoms = []symbolic.Atom{{Form: symbolic.NewForm([]symbolic.Term{{Coef: 1, Var: 0}, {Coef: -1, Var: 1}}), Upper: rng.IntN(2) == 0, K: k}}
				within++
			}
			var wit symbolic.State
			testutil.BoxStates(lo, hi, func(s symbolic.State) {
				if wit == nil && (len(atoms) == 0 || atoms[0].Holds(s)) && s32uWins(p, s, a, sure) {
					wit = append(symbolic.State(nil), s...)
				}
			})
			r, err := p.ExcludesWithin(lo, hi, atoms, a, sure, Options{})
			if err != nil {
				t.Fatal(err)
			}
			queries++
			switch r.Verdict {
			case Proved:
				proved++
				if wit != nil {
					t.Fatalf("seed %d: %s: atoms %v: Excludes(%v..%v, a=%d, sure=%v) proved, but a wins at %v (inputs %v)", seed, c.desc, atoms, lo, hi, a, sure, wit, s32uInputs(p, wit))
				}
			case Refuted:
				refuted++
				if wit == nil {
					t.Fatalf("seed %d: %s: atoms %v: Excludes(%v..%v, a=%d, sure=%v) refuted at %v, but a never wins", seed, c.desc, atoms, lo, hi, a, sure, r.Witness)
				}
				for v := range lo {
					if r.Witness[v] < lo[v] || r.Witness[v] > hi[v] {
						t.Fatalf("seed %d: %s: witness %v outside %v..%v", seed, c.desc, r.Witness, lo, hi)
					}
				}
				if !s32uWins(p, r.Witness, a, sure) || len(atoms) > 0 && !atoms[0].Holds(r.Witness) {
					t.Fatalf("seed %d: %s: witness %v does not win", seed, c.desc, r.Witness)
				}
				// the witness box: states with the witness's scores
				wlo, whi := make([]int, len(lo)), make([]int, len(lo))
				for v := range lo {
					wlo[v], whi[v] = max(lo[v], r.WitnessLo[v]), min(hi[v], r.WitnessHi[v])
				}
				want := make([]float64, nclass)
				got := make([]float64, nclass)
				_ = p.Ens.Scores(s32uInputs(p, r.Witness), want)
				testutil.BoxStates(wlo, whi, func(s symbolic.State) {
					_ = p.Ens.Scores(s32uInputs(p, s), got)
					for k := range got {
						if got[k] != want[k] {
							t.Fatalf("seed %d: %s: witness box %v..%v: %v scores %v, the witness %v scores %v", seed, c.desc, r.WitnessLo, r.WitnessHi, s, got, r.Witness, want)
						}
					}
				})
			default:
				unknown++
			}
		}
	}
	t.Logf("%d policies (%d lifted), %d queries (%d with boxes beyond the ranges, %d within an atom): %d proved, %d refuted, %d unknown", n, lifted, queries, beyond, within, proved, refuted, unknown)
	if proved == 0 || refuted == 0 {
		t.Errorf("vacuous: %d proved, %d refuted", proved, refuted)
	}
}
