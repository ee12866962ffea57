package trees

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"vigil/internal/testutil"
	"vigil/symbolic"
)

// s29t: the box-constrained search (Ensemble.Excludes, Max, Min and the
// policy's Excludes over integer state boxes, which PolIC3 asks) against
// enumerating every integer point with XGBoost's float32 evaluation,
// written here apart from the package's evaluator, on random small XGBoost
// JSON ensembles built to hit the corners: exact ties between classes
// (lang/spec.md: equal scores go to the output listed first), thresholds
// one float32 ulp either side of an integer or a half (2.5000002), integral
// thresholds (x < 3), integer features near 2^24 where float32(x) rounds
// (16777217 reads as 16777216), random default_left (no integer input is
// missing, so it must not matter), base scores, multi-class ensembles with
// num_parallel_tree > 1, single-leaf trees, leaf values whose float32 sums
// lose low bits (1 + 2^-24 is 1), and up to 40 trees. Inputs are the
// variables themselves (the lifted, exact path) or, in some models, one
// input reads two variables (the input-space fallback). Each query is
// asked over the state box, within a random region of linear atoms
// (ExcludesWithin, PolIC3's facts over regions) and over the real input
// box of the states (Policy.InputBox; bounds included). In a third of the
// other models each input is a rational multiple of its variable plus
// 1/7 (1/3, 2/7, -1/3, 1/10, -3/10), and thresholds lie at and one
// float32 ulp around the inputs' values.
//
// VIGIL_S29T_MODELS sets the number of models (default 250, a few
// seconds).

// xcEns is a generated ensemble as the test evaluates it.
type xcEns struct {
	nclass int
	base   float32
	class  []int
	left   [][]int
	right  [][]int
	feat   [][]int
	cond   [][]float32 // threshold, or the leaf value at a leaf
}

// scores is XGBoost's prediction (output_margin) at x: a split goes left
// iff float32(x) < cond, each class's margin starts at the base score and
// adds each of its trees' leaf values in tree order, in float32.
func (e *xcEns) scores(x []float64) []float32 {
	s := make([]float32, e.nclass)
	for c := range s {
		s[c] = e.base
	}
	for t := range e.class {
		i := 0
		for e.left[t][i] >= 0 {
			if float32(x[e.feat[t][i]]) < e.cond[t][i] {
				i = e.left[t][i]
			} else {
				i = e.right[t][i]
			}
		}
		s[e.class[t]] += e.cond[t][i]
	}
	return s
}

// beats reports whether output s beats output a (lang/spec.md, "The
// arg-max": the higher score, ties to the output listed first).
func xcBeats(sc []float32, s, a int) bool {
	return sc[s] > sc[a] || (sc[s] == sc[a] && s < a)
}

// xcWins: a beats every output of sure other than itself.
func xcWins(sc []float32, a int, sure []int) bool {
	for _, s := range sure {
		if s != a && xcBeats(sc, s, a) {
			return false
		}
	}
	return true
}

// xcMargin is min over sure s != a of f_a - f_s, +Inf when there is none.
func xcMargin(sc []float32, a int, sure []int) float64 {
	m := math.Inf(1)
	for _, s := range sure {
		if s != a {
			m = min(m, float64(sc[a])-float64(sc[s]))
		}
	}
	return m
}

var xcLeaves = []float32{0, 1, -1, 0.5, 2, 0x1p-24, -0x1p-24, 0x1p-25, 16777216, -0.25}

var xcLows = []int{0, -3, 5, 16777214, -16777218, 33554430}

var xcCoefs = []*big.Rat{big.NewRat(1, 3), big.NewRat(2, 7), big.NewRat(-1, 3), big.NewRat(1, 10), big.NewRat(-3, 10)}

// xcConst is the constant of scaled inputs.
var xcConst = big.NewRat(1, 7)

var xcBases = []string{"0", "5E-1", "-1.25E0", "3.3333334E-1", "1E-7", "1.6777216E7"}

// xcModel builds a random ensemble over nf integer features, feature f
// ranging over lo[f]..hi[f], writes it as XGBoost JSON into dir and
// returns its file and the test's evaluator.
func xcModel(dir string, seed uint64, lo, hi []int) (string, *xcEns, error) {
	return xcModelAt(dir, seed, lo, hi, nil)
}

// xcModelAt is xcModel for inputs that are functions of integers: the
// input of feature f at integer k is at(f, k) (nil: k itself), and
// thresholds lie on, between and one float32 ulp around these values.
func xcModelAt(dir string, seed uint64, lo, hi []int, at func(f, k int) float64) (string, *xcEns, error) {
	r := rand.New(rand.NewPCG(seed, 0x5329))
	nf := len(lo)
	nclass := 1 + r.IntN(4)
	npt := 1 + r.IntN(3)
	rounds := 1 + r.IntN(4)
	if r.IntN(8) == 0 {
		rounds = 10 // many trees
	}
	baseText := xcBases[r.IntN(len(xcBases))]
	b64, err := strconv.ParseFloat(baseText, 32)
	if err != nil {
		return "", nil, err
	}
	e := &xcEns{nclass: nclass, base: float32(b64)}
	// thresholds near the integers of a feature's range
	thr := func(f int) float32 {
		k := lo[f] - 1 + r.IntN(hi[f]-lo[f]+3)
		if at != nil {
			x := at(f, k)
			t := float32(x)
			switch r.IntN(5) {
			case 1:
				t = float32((x + at(f, k+1)) / 2)
			case 2:
				t = math.Nextafter32(t, float32(math.Inf(1)))
			case 3:
				t = math.Nextafter32(t, float32(math.Inf(-1)))
			}
			return t
		}
		t := float32(k)
		switch r.IntN(6) {
		case 1:
			t = float32(float64(k) + 0.5)
		case 2:
			t = math.Nextafter32(float32(k), float32(math.Inf(1)))
		case 3:
			t = math.Nextafter32(float32(k), float32(math.Inf(-1)))
		case 4:
			t = math.Nextafter32(float32(float64(k)+0.5), float32(math.Inf(1)))
		}
		return t
	}
	leaf := func() float32 {
		if r.IntN(4) == 0 {
			return float32(r.NormFloat64())
		}
		return xcLeaves[r.IntN(len(xcLeaves))]
	}
	var xtrees []map[string]any
	var info []int
	for round := 0; round < rounds; round++ {
		for c := 0; c < nclass; c++ {
			for p := 0; p < npt; p++ {
				var l, rt, ft []int
				var cd []float32
				var grow func(depth int) int
				grow = func(depth int) int {
					i := len(l)
					l, rt, ft, cd = append(l, -1), append(rt, -1), append(ft, 0), append(cd, 0)
					if depth == 0 || r.IntN(4) == 0 {
						cd[i] = leaf()
						return i
					}
					f := r.IntN(nf)
					ft[i], cd[i] = f, thr(f)
					a := grow(depth - 1)
					b := grow(depth - 1)
					l[i], rt[i] = a, b
					return i
				}
				grow(r.IntN(4))
				e.class = append(e.class, c)
				e.left, e.right, e.feat, e.cond = append(e.left, l), append(e.right, rt), append(e.feat, ft), append(e.cond, cd)
				info = append(info, c)
				conds := make([]json.Number, len(cd))
				dl := make([]int, len(cd))
				for i, v := range cd {
					conds[i] = json.Number(strconv.FormatFloat(float64(v), 'g', -1, 32))
					dl[i] = r.IntN(2)
				}
				xtrees = append(xtrees, map[string]any{
					"tree_param":       map[string]string{"num_nodes": fmt.Sprint(len(l))},
					"left_children":    l,
					"right_children":   rt,
					"split_indices":    ft,
					"split_conditions": conds,
					"default_left":     dl,
				})
			}
		}
	}
	lmp := map[string]string{"base_score": baseText, "num_class": fmt.Sprint(nclass), "num_feature": fmt.Sprint(nf)}
	obj := "multi:softprob"
	if nclass == 1 {
		delete(lmp, "num_class")
		obj = "reg:squarederror"
	}
	doc := map[string]any{"learner": map[string]any{
		"learner_model_param": lmp,
		"objective":           map[string]any{"name": obj},
		"gradient_booster": map[string]any{"name": "gbtree", "model": map[string]any{
			"gbtree_model_param": map[string]string{"num_trees": fmt.Sprint(len(xtrees)), "num_parallel_tree": fmt.Sprint(npt)},
			"tree_info":          info,
			"trees":              xtrees,
		}},
	}}
	data, err := json.Marshal(doc)
	if err != nil {
		return "", nil, err
	}
	file := filepath.Join(dir, fmt.Sprintf("xc%d.json", seed))
	return file, e, os.WriteFile(file, data, 0o644)
}

func xcModels(t *testing.T, def int) int {
	if s := os.Getenv("VIGIL_S29T_MODELS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("VIGIL_S29T_MODELS=%q: want a positive number", s)
		}
		return n
	}
	return def
}

func TestS29tSearchAgainstEnumeration(t *testing.T) {
	dir := t.TempDir()
	n := xcModels(t, 250)
	var queries, refuted, proved, fallback, scaled, inputQueries, regionQueries int
	for seed := uint64(1); seed <= uint64(n); seed++ {
		r := rand.New(rand.NewPCG(seed, 29))
		nv := 1 + r.IntN(3)
		lo, hi := make([]int, nv), make([]int, nv)
		for v := range lo {
			lo[v] = xcLows[r.IntN(len(xcLows))]
			hi[v] = lo[v] + r.IntN(5)
		}
		// input f reads variable f; in some models input 0 reads v0 + v1
		// (not lifted: the input-space fallback decides).
		mixed := nv >= 2 && r.IntN(3) == 0
		inLo, inHi := append([]int(nil), lo...), append([]int(nil), hi...)
		if mixed {
			inLo[0], inHi[0] = lo[0]+lo[1], hi[0]+hi[1]
		}
		// In some other models each input is a rational multiple of its
		// variable plus a constant (pos / (L + VMAX)), maybe decreasing:
		// the lift's binary search meets float32 thresholds at and one
		// ulp around the inputs' float64 values.
		var coef []*big.Rat
		var at func(f, k int) float64
		if !mixed && r.IntN(3) == 0 {
			for v := 0; v < nv; v++ {
				coef = append(coef, xcCoefs[r.IntN(len(xcCoefs))])
			}
			at = func(f, k int) float64 {
				x, _ := new(big.Rat).Add(new(big.Rat).Mul(coef[f], new(big.Rat).SetInt64(int64(k))), xcConst).Float64()
				return x
			}
		}
		if at != nil {
			scaled++
		}
		file, xe, err := xcModelAt(dir, seed, inLo, inHi, at)
		if err != nil {
			t.Fatal(err)
		}
		input := func(s []int) []float64 {
			x := make([]float64, nv)
			for v := range x {
				x[v] = float64(s[v])
				if at != nil {
					x[v] = at(v, s[v]) // the exact value rounded once, as lang/spec.md says
				}
			}
			if mixed {
				x[0] = float64(s[0] + s[1])
			}
			return x
		}
		m := &symbolic.Model{Name: "xc"}
		for v := 0; v < nv; v++ {
			m.Vars = append(m.Vars, symbolic.Var{Name: fmt.Sprintf("v%d", v), Lo: lo[v], Hi: hi[v]})
		}
		d := &symbolic.PolicyDecl{Name: "pi", Kind: symbolic.KindTrees, File: file}
		for c := 0; c < xe.nclass; c++ {
			m.Labels = append(m.Labels, symbolic.Label{Name: fmt.Sprintf("l%d", c)})
			d.Outputs = append(d.Outputs, symbolic.LabelID(c))
		}
		for v := 0; v < nv; v++ {
			a := symbolic.Affine{Terms: []symbolic.AffineTerm{{Coef: symbolic.Rat{Num: 1, Den: 1}, Var: symbolic.VarID(v)}}}
			if coef != nil {
				a.Terms[0].Coef = symbolic.Rat{Num: coef[v].Num().Int64(), Den: coef[v].Denom().Int64()}
				a.Const = symbolic.Rat{Num: xcConst.Num().Int64(), Den: xcConst.Denom().Int64()}
			}
			if v == 0 && mixed {
				a.Terms = append(a.Terms, symbolic.AffineTerm{Coef: symbolic.Rat{Num: 1, Den: 1}, Var: 1})
			}
			d.Inputs = append(d.Inputs, a)
		}
		p, err := NewPolicy(m, d)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		// (a mixed model whose splits never read input 0 is lifted)
		exact, why := p.Exact()
		if !exact && !mixed {
			t.Fatalf("seed %d: not lifted: %s", seed, why)
		}
		if !exact {
			fallback++
		}
		// The package's evaluator agrees with the test's everywhere.
		got := make([]float64, xe.nclass)
		testutil.BoxStates(lo, hi, func(s symbolic.State) {
			want := xe.scores(input(s))
			if err := p.Scores(s, got); err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			for c := range want {
				if got[c] != float64(want[c]) {
					t.Fatalf("seed %d: state %v class %d: score %v, XGBoost's float32 evaluation %v", seed, s, c, got[c], want[c])
				}
			}
		})
		// Max and min of each class over the variables' box: exact over
		// the lifted ensemble, bounds over the real input box.
		for c := 0; c < xe.nclass; c++ {
			imax, imin := math.Inf(-1), math.Inf(1)
			testutil.BoxStates(lo, hi, func(s symbolic.State) {
				v := float64(xe.scores(input(s))[c])
				imax, imin = max(imax, v), min(imin, v)
			})
			// the real input box of the states: every state's input in it
			box := p.InputBox(lo, hi)
			testutil.BoxStates(lo, hi, func(s symbolic.State) {
				if !box.contains(input(s)) {
					t.Fatalf("seed %d: the input %v of state %v is outside the input box %v", seed, input(s), s, box)
				}
			})
			for _, neg := range []bool{false, true} {
				var res Result
				if neg {
					res, err = p.Ens.Min(box, c, Options{})
				} else {
					res, err = p.Ens.Max(box, c, Options{})
				}
				if err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
				if !res.Exact || res.Lower != res.Upper {
					t.Fatalf("seed %d class %d min=%v: not exact on a small ensemble: [%v, %v] %s", seed, c, neg, res.Lower, res.Upper, res.Stopped)
				}
				if !box.contains(res.Witness) {
					t.Fatalf("seed %d class %d min=%v: witness %v outside %v", seed, c, neg, res.Witness, box)
				}
				if w := float64(xe.scores(res.Witness)[c]); w != res.Lower {
					t.Fatalf("seed %d class %d min=%v: optimum %v but the witness %v scores %v", seed, c, neg, res.Lower, res.Witness, w)
				}
				// Over the real input box the optimum may lie between
				// integers; over the integers (mixed inputs aside, whose
				// box holds sums no state has) it is the enumerated one.
				if neg && res.Lower > imin || !neg && res.Lower < imax {
					t.Fatalf("seed %d class %d min=%v: optimum %v, but an integer point scores %v/%v", seed, c, neg, res.Lower, imin, imax)
				}
				if p.varEns != nil {
					vb := make(Box, nv)
					for v := range vb {
						vb[v] = Interval{float64(lo[v]), float64(hi[v])}
					}
					if neg {
						res, err = p.varEns.Min(vb, c, Options{})
					} else {
						res, err = p.varEns.Max(vb, c, Options{})
					}
					if err != nil {
						t.Fatal(err)
					}
					want := imax
					if neg {
						want = imin
					}
					if !res.Exact || res.Lower != want || res.Upper != want {
						t.Fatalf("seed %d class %d min=%v: over the states: [%v, %v] exact=%v, enumeration %v", seed, c, neg, res.Lower, res.Upper, res.Exact, want)
					}
				}
			}
		}
		// Over the states (lifted models): the margin of each class, and
		// anytime bounds under tiny budgets, which must contain the
		// optimum.
		if p.varEns != nil {
			vb := make(Box, nv)
			for v := range vb {
				vb[v] = Interval{float64(lo[v]), float64(hi[v])}
			}
			for c := 0; c < xe.nclass; c++ {
				all := make([]int, xe.nclass)
				for i := range all {
					all[i] = i
				}
				want := map[string]float64{"max": math.Inf(-1), "min": math.Inf(1), "margin": math.Inf(-1)}
				testutil.BoxStates(lo, hi, func(s symbolic.State) {
					sc := xe.scores(input(s))
					want["max"] = max(want["max"], float64(sc[c]))
					want["min"] = min(want["min"], float64(sc[c]))
					want["margin"] = max(want["margin"], xcMargin(sc, c, all))
				})
				for _, obj := range []string{"max", "min", "margin"} {
					if obj == "margin" && xe.nclass < 2 {
						continue
					}
					for _, opt := range []Options{{}, {MaxNodes: 1}, {MaxNodes: 2}, {MaxNodes: 3}, {MaxOpen: 1}, {MaxOpen: 2, MaxNodes: 5}} {
						var res Result
						switch obj {
						case "max":
							res, err = p.varEns.Max(vb, c, opt)
						case "min":
							res, err = p.varEns.Min(vb, c, opt)
						default:
							res, err = p.varEns.Margin(vb, c, opt)
						}
						if err != nil {
							t.Fatal(err)
						}
						w := want[obj]
						if res.Lower > w || res.Upper < w || (res.Exact && res.Lower != w) {
							t.Fatalf("seed %d class %d %s, budget %+v: [%v, %v] exact=%v, enumeration %v", seed, c, obj, opt, res.Lower, res.Upper, res.Exact, w)
						}
						if opt == (Options{}) && !res.Exact {
							t.Fatalf("seed %d class %d %s: not exact on a small ensemble", seed, c, obj)
						}
					}
				}
			}
		}
		// Decision queries over random sub-boxes of the states.
		for q := 0; q < 12; q++ {
			slo, shi := make([]int, nv), make([]int, nv)
			for v := range slo {
				a, b := lo[v]+r.IntN(hi[v]-lo[v]+1), lo[v]+r.IntN(hi[v]-lo[v]+1)
				slo[v], shi[v] = min(a, b), max(a, b)
				if q == 0 {
					slo[v], shi[v] = lo[v], hi[v]
				}
			}
			a := r.IntN(xe.nclass)
			var sure []int
			for c := 0; c < xe.nclass; c++ {
				if r.IntN(3) != 0 {
					sure = append(sure, c)
				}
			}
			if r.IntN(4) == 0 && len(sure) > 0 {
				sure = append(sure, sure[0]) // a repeated class
			}
			possible := false
			best := math.Inf(-1)
			testutil.BoxStates(slo, shi, func(s symbolic.State) {
				sc := xe.scores(input(s))
				possible = possible || xcWins(sc, a, sure)
				best = max(best, xcMargin(sc, a, sure))
			})
			queries++
			sr, err := p.Excludes(slo, shi, a, sure, Options{})
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			what := fmt.Sprintf("seed %d: box %v..%v, class %d vs %v", seed, slo, shi, a, sure)
			switch sr.Verdict {
			case Unknown:
				t.Fatalf("%s: unknown on a small ensemble (%s)", what, sr.Stopped)
			case Proved:
				proved++
				if possible {
					t.Fatalf("%s: proved excluded, but an integer state lets it win", what)
				}
			case Refuted:
				refuted++
				if !possible {
					t.Fatalf("%s: possible, but no state lets it win", what)
				}
				for v := range slo {
					if sr.WitnessLo[v] < slo[v] || sr.WitnessHi[v] > shi[v] || sr.Witness[v] < sr.WitnessLo[v] || sr.Witness[v] > sr.WitnessHi[v] {
						t.Fatalf("%s: witness %v in %v..%v, not in the box", what, sr.Witness, sr.WitnessLo, sr.WitnessHi)
					}
				}
				testutil.BoxStates(sr.WitnessLo, sr.WitnessHi, func(s symbolic.State) {
					if !xcWins(xe.scores(input(s)), a, sure) {
						t.Fatalf("%s: state %v of the witness box %v..%v does not let it win", what, s, sr.WitnessLo, sr.WitnessHi)
					}
				})
			}
			// Under tiny budgets: unknown is allowed, a wrong answer not.
			for _, opt := range []Options{{MaxNodes: 1}, {MaxNodes: 2}, {MaxOpen: 1, MaxNodes: 4}} {
				sb, err := p.Excludes(slo, shi, a, sure, opt)
				if err != nil {
					t.Fatal(err)
				}
				if sb.Verdict == Proved && possible || sb.Verdict == Refuted && (!possible || !xcWins(xe.scores(input(sb.Witness)), a, sure)) {
					t.Fatalf("%s, budget %+v: %v (witness %v), enumeration says possible=%v", what, opt, sb.Verdict, sb.Witness, possible)
				}
			}
			// The same query within a random region: one or two atoms
			// over v0 (+ v1), <= or >= around a state's value (the
			// regions of PolIC3's facts).
			var atoms []symbolic.Atom
			for k := 1 + r.IntN(2); k > 0; k-- {
				ts := []symbolic.Term{{Coef: []int{1, -1, 2}[r.IntN(3)], Var: 0}}
				if nv > 1 && r.IntN(2) == 0 {
					ts = append(ts, symbolic.Term{Coef: []int{1, -1, 3}[r.IntN(3)], Var: 1})
				}
				f := symbolic.NewForm(ts)
				s := make(symbolic.State, nv)
				for v := range s {
					s[v] = slo[v] + r.IntN(shi[v]-slo[v]+1)
				}
				atoms = append(atoms, symbolic.Atom{Form: f, Upper: r.IntN(2) == 0, K: f.Eval(s) + r.IntN(3) - 1})
			}
			inRegion := false
			testutil.BoxStates(slo, shi, func(s symbolic.State) {
				for _, at := range atoms {
					if !at.Holds(s) {
						return
					}
				}
				inRegion = inRegion || xcWins(xe.scores(input(s)), a, sure)
			})
			rr, err := p.ExcludesWithin(slo, shi, atoms, a, sure, Options{})
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			switch rr.Verdict {
			case Unknown:
				t.Fatalf("%s within %v: unknown on a small ensemble", what, atoms)
			case Proved:
				if inRegion {
					t.Fatalf("%s within %v: proved excluded, but a state of the region lets it win", what, atoms)
				}
			case Refuted:
				ok := xcWins(xe.scores(input(rr.Witness)), a, sure)
				for v := range slo {
					ok = ok && rr.Witness[v] >= slo[v] && rr.Witness[v] <= shi[v]
				}
				for _, at := range atoms {
					ok = ok && at.Holds(rr.Witness)
				}
				if !ok {
					t.Fatalf("%s within %v: witness %v is not a winning state of the region", what, atoms, rr.Witness)
				}
				testutil.BoxStates(rr.WitnessLo, rr.WitnessHi, func(s symbolic.State) {
					if !xcWins(xe.scores(input(s)), a, sure) {
						t.Fatalf("%s within %v: state %v of the witness box does not let it win", what, atoms, s)
					}
				})
			}
			if !inRegion && rr.Verdict == Refuted || inRegion && rr.Verdict != Refuted {
				t.Fatalf("%s within %v: %v, enumeration says possible=%v", what, atoms, rr.Verdict, inRegion)
			}
			regionQueries++
			// The same query over the real input box of the states (for
			// mixed inputs a superset of their inputs): sound either
			// way, and the witness and its margin are XGBoost's.
			inputQueries++
			box := p.InputBox(slo, shi)
			dd, err := p.Ens.Excludes(box, a, sure, Options{})
			if err != nil {
				t.Fatal(err)
			}
			switch dd.Verdict {
			case Unknown:
				t.Fatalf("%s: unknown over the input box", what)
			case Proved:
				if possible {
					t.Fatalf("%s: proved excluded over the input box, but an integer input lets it win", what)
				}
			case Refuted:
				if !box.contains(dd.Witness) || !xcWins(xe.scores(dd.Witness), a, sure) {
					t.Fatalf("%s: input-box witness %v does not let it win", what, dd.Witness)
				}
				if m := xcMargin(xe.scores(dd.Witness), a, sure); !math.IsInf(m, 1) && m != dd.Lower {
					t.Fatalf("%s: witness margin %v, reported lower bound %v", what, m, dd.Lower)
				}
			}
			if !math.IsInf(best, 1) && best > dd.Upper {
				t.Fatalf("%s: an integer input has margin %v above the search's bound %v (%v, lower %v, %+v)", what, best, dd.Upper, dd.Verdict, dd.Lower, dd.Stats)
			}
		}
	}
	t.Logf("%d models (%d with scaled inputs, %d through the input-space fallback), %d state-box queries (%d excluded, %d possible), %d within regions, %d input-box queries", n, scaled, fallback, queries, proved, refuted, regionQueries, inputQueries)
}
