package ppa

// s32t: ppa (and PolIC3's certifier questions through ppa's region
// search) against bfs on .spec models whose tree-ensemble policy is read
// from a real file, XGBoost JSON (float32 thresholds and float32 sums) or
// Veritas JSON (float64), built to hit what trees.Random leaves out:
// thresholds exactly at the inputs' values at integer states and one
// ulp (float64, or float32 for XGBoost) either side of them, inputs that
// round (x / 3, 1 - x / 7, x / 10), inputs over two variables ((x + y) /
// 2, x - y: ppa's free split Booleans), exact ties between classes
// (dyadic leaves, so the encoding is exact and the tie goes to the
// earlier output, listed in a random order), inexact sums (0.1 + 0.2,
// float32 sums that lose 1 against 2^24: the relaxed encoding), and
// `argmax all`. Each model is asked with ppa's defaults (small cubes
// enumerated), with NoEnumeration (every cube through the SMT encoding
// of the ensemble) and with a cube limit of 8 (the region search, which
// asks the trees certifier). A safe ppa answer where bfs reaches an
// unsafe state is the worst bug; any disagreement fails.
// VIGIL_S32T_PPA_MODELS sets the number of models (default 6), and
// VIGIL_S32T_PPA_FIRST the first seed (1). A third of the models read a
// small network instead (ReLU, Tanh, Sigmoid or linear, integer and half
// weights, exact ties, saturating biases); ppa refuses Tanh and Sigmoid
// networks, which it cannot encode in SMT, with an error that says so.

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"vigil/internal/testutil"
	_ "vigil/nn"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	_ "vigil/trees"
)

// s32tInput is an input expression and its float64 value at (x, y): the
// exact rational num/den rounded once.
type s32tInput struct {
	text string
	num  func(x, y int) int
	den  int
}

var s32tInputs = []s32tInput{
	{"x", func(x, y int) int { return x }, 1},
	{"y", func(x, y int) int { return y }, 1},
	{"x / 3", func(x, y int) int { return x }, 3},
	{"1 - x / 7", func(x, y int) int { return 7 - x }, 7},
	{"x / 10", func(x, y int) int { return x }, 10},
	{"-y", func(x, y int) int { return -y }, 1},
	{"2 * y + 1 / 2", func(x, y int) int { return 4*y + 1 }, 2},
	{"(x + y) / 2", func(x, y int) int { return x + y }, 2},
	{"x - y", func(x, y int) int { return x - y }, 1},
	{"(x - y) / 3", func(x, y int) int { return x - y }, 3},
}

func (in s32tInput) at(x, y int) float64 { return float64(in.num(x, y)) / float64(in.den) }

type s32tNode struct {
	feat        int
	thr         float64 // threshold (float32 value for XGBoost)
	left, right int
	leaf        []float64 // one value (per-class tree) or one per class
}

type s32tTree struct {
	class int // -1: vector leaves (Veritas only)
	nodes []s32tNode
}

type s32tSpec struct {
	src, ens string
	xgb      bool
}

// S32tGen is s32tGen for the external tests (s32t_polic3_diff_test.go):
// the .spec text and the ensemble file's text, which the .spec names as
// dir/e<seed>.json.
func S32tGen(seed uint64, dir string) (src, ens string) {
	sp := s32tGen(seed, dir)
	return sp.src, sp.ens
}

func s32tGen(seed uint64, dir string) s32tSpec {
	r := rand.New(rand.NewPCG(seed, 0x733332)) // "s32"
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	xhi := []int{6, 12, 40, 300}[r.IntN(4)]
	const ylo, yhi = -4, 4
	nl := 2 + r.IntN(2)
	labels := []string{"inc", "dec", "crash"}[:nl]
	xgb := r.IntN(2) == 0
	nf := 1 + r.IntN(3)
	ins := make([]s32tInput, nf)
	for f := range ins {
		ins[f] = s32tInputs[r.IntN(len(s32tInputs))]
	}
	// thresholds near the inputs' values at the states
	thr := func(f int) float64 {
		in := ins[f]
		v := in.at(r.IntN(xhi+1), ylo+r.IntN(yhi-ylo+1))
		if xgb {
			t := float32(v)
			switch r.IntN(4) {
			case 1:
				t = math.Nextafter32(t, float32(math.Inf(1)))
			case 2:
				t = math.Nextafter32(t, float32(math.Inf(-1)))
			case 3:
				t = float32(math.Floor(v) + 0.5)
			}
			return float64(t)
		}
		switch r.IntN(4) {
		case 1:
			return math.Nextafter(v, math.Inf(1))
		case 2:
			return math.Nextafter(v, math.Inf(-1))
		case 3:
			return math.Floor(v) + 0.5
		}
		return v
	}
	mode := r.IntN(3) // 0: dyadic (exact ties), 1: inexact float64, 2: large and small (float32 rounding)
	leafVal := func() float64 {
		var v float64
		switch mode {
		case 0:
			v = []float64{0, 0.5, 1, -1, 2, 0.25}[r.IntN(6)]
		case 1:
			v = []float64{0.1, 0.2, 0.3, -0.1, 1.0 / 3, 1, 0}[r.IntN(7)]
		default:
			v = []float64{16777216, -16777216, 1, 0.5, 1e8, -1e8, 3}[r.IntN(7)]
		}
		if xgb {
			v = float64(float32(v))
		}
		return v
	}
	nclass := nl
	vector := !xgb && r.IntN(3) == 0
	var ts []s32tTree
	for ti := 0; ti < 1+r.IntN(6); ti++ {
		t := s32tTree{class: ti % nclass}
		if vector {
			t.class = -1
		}
		var grow func(d int) int
		grow = func(d int) int {
			me := len(t.nodes)
			t.nodes = append(t.nodes, s32tNode{})
			if d == 0 || r.IntN(4) == 0 {
				w := 1
				if vector {
					w = nclass
				}
				leaf := make([]float64, w)
				for k := range leaf {
					leaf[k] = leafVal()
				}
				t.nodes[me] = s32tNode{feat: -1, leaf: leaf}
				return me
			}
			f := r.IntN(nf)
			th := thr(f)
			l := grow(d - 1)
			rr := grow(d - 1)
			t.nodes[me] = s32tNode{feat: f, thr: th, left: l, right: rr}
			return me
		}
		grow(1 + r.IntN(3))
		ts = append(ts, t)
	}
	var ens string
	kind := "trees"
	if r.IntN(3) == 0 {
		kind = "nn"
		ens = s32tNet(r, nf, nclass)
	} else if xgb {
		ens = s32tXGB(ts, nclass, nf, pick("0", "0.5"))
	} else {
		ens = s32tVeritas(ts, nclass, r)
	}
	file := filepath.Join(dir, fmt.Sprintf("e%d.json", seed))
	// outputs in a random order
	outs := append([]string(nil), labels...)
	r.Shuffle(len(outs), func(i, j int) { outs[i], outs[j] = outs[j], outs[i] })
	var sb strings.Builder
	w := func(f string, a ...any) { fmt.Fprintf(&sb, f+"\n", a...) }
	w("model s32t%d", seed)
	w("var x : 0 .. %d = 0", xhi)
	w("var y : %d .. %d = 0", ylo, yhi)
	w("var f : bool = false")
	guard := func(g string) string {
		if r.IntN(3) == 0 {
			return ""
		}
		return " when " + g
	}
	w("action inc%s -> x' = min(x + %d, %d)%s", guard("!f && x < "+strconv.Itoa(xhi)), 1+r.IntN(2), xhi, pick("", ", y' = max(y - 1, -4)", " | y' = min(y + 1, 4)"))
	w("action dec%s -> y' = max(y - 1, %d)%s", guard("!f"), ylo, pick("", ", x' = max(x - 1, 0)", " | x' = x / 2"))
	if nl == 3 {
		w("action crash%s -> f' = true", guard("!f && y "+pick("<", ">=", "!=")+" "+strconv.Itoa(r.IntN(5)-2)))
	}
	w("policy %s pi %q {", kind, file)
	texts := make([]string, nf)
	for f := range ins {
		texts[f] = ins[f].text
	}
	w("    inputs %s", strings.Join(texts, ", "))
	w("    outputs %s", strings.Join(outs, ", "))
	if r.IntN(4) == 0 {
		w("    argmax all")
	}
	w("}")
	w("property p {")
	w("    start %s", pick("!f && x == 0 && y == 0", "!f && x <= 2 && y >= -1", "!f && y == "+strconv.Itoa(r.IntN(9)-4)))
	unsafe := pick("f", "f", fmt.Sprintf("x >= %d && y <= %d", 1+r.IntN(xhi), r.IntN(9)-4), fmt.Sprintf("f || y == %d", ylo), fmt.Sprintf("x == %d", 1+r.IntN(xhi)),
		fmt.Sprintf("x == %d && y == %d", xhi, ylo), fmt.Sprintf("x > %d && y >= %d", xhi/2, 3))
	if nl == 2 && unsafe == "f" {
		unsafe = fmt.Sprintf("y <= %d", r.IntN(5)-4)
	}
	w("    unsafe %s", unsafe)
	w("}")
	return s32tSpec{src: sb.String(), ens: ens, xgb: xgb}
}

func s32tNum(v float64, xgb bool) string {
	if xgb {
		return strconv.FormatFloat(v, 'g', -1, 32)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// s32tXGB writes XGBoost JSON: one tree per class in turn (tree_info),
// split_conditions holding thresholds and leaf values as float32.
func s32tXGB(ts []s32tTree, nclass, nf int, base string) string {
	var trees, info []string
	for _, t := range ts {
		var lc, rc, si, sc []string
		for _, n := range t.nodes {
			if n.feat < 0 {
				lc, rc, si = append(lc, "-1"), append(rc, "-1"), append(si, "0")
				sc = append(sc, s32tNum(n.leaf[0], true))
				continue
			}
			lc, rc, si = append(lc, strconv.Itoa(n.left)), append(rc, strconv.Itoa(n.right)), append(si, strconv.Itoa(n.feat))
			sc = append(sc, s32tNum(n.thr, true))
		}
		trees = append(trees, fmt.Sprintf(`{"tree_param": {"num_nodes": "%d"}, "left_children": [%s], "right_children": [%s], "split_indices": [%s], "split_conditions": [%s]}`,
			len(t.nodes), strings.Join(lc, ", "), strings.Join(rc, ", "), strings.Join(si, ", "), strings.Join(sc, ", ")))
		info = append(info, strconv.Itoa(t.class))
	}
	return fmt.Sprintf(`{"learner": {"learner_model_param": {"base_score": "%s", "num_class": "%d", "num_feature": "%d"}, "objective": {"name": "multi:softprob"}, "gradient_booster": {"name": "gbtree", "model": {"gbtree_model_param": {"num_trees": "%d"}, "tree_info": [%s], "trees": [%s]}}}}`,
		base, nclass, nf, len(ts), strings.Join(info, ", "), strings.Join(trees, ",\n"))
}

// s32tNet writes a vigil JSON network: one hidden layer (ReLU, Tanh,
// Sigmoid, LeakyReLU or linear) with small integer and half weights, so
// that scores tie exactly (the earlier output wins), and sometimes a bias
// of 20 that saturates tanh and sigmoid to ties that exact arithmetic
// does not have.
func s32tNet(r *rand.Rand, nf, nclass int) string {
	act := []string{"relu", "tanh", "sigmoid", "linear"}[r.IntN(4)]
	width := 1 + r.IntN(3)
	w := func() string { return []string{"0", "1", "-1", "0.5", "-0.5", "2", "3"}[r.IntN(7)] }
	b := func() string {
		if r.IntN(5) == 0 {
			return "20"
		}
		return []string{"0", "1", "-1", "0.5", "-2"}[r.IntN(5)]
	}
	layer := func(in, out int, act string) string {
		rows := make([]string, out)
		bias := make([]string, out)
		for i := range rows {
			ws := make([]string, in)
			for j := range ws {
				ws[j] = w()
			}
			rows[i] = "[" + strings.Join(ws, ", ") + "]"
			bias[i] = b()
		}
		return fmt.Sprintf(`{"weights": [%s], "bias": [%s], "activation": %q}`, strings.Join(rows, ", "), strings.Join(bias, ", "), act)
	}
	return fmt.Sprintf(`{"format": "vigil-nn", "version": 1, "layers": [%s, %s]}`, layer(nf, width, act), layer(width, nclass, "linear"))
}

// s32tVeritas writes Veritas JSON (x < split_value, float64 sums).
func s32tVeritas(ts []s32tTree, nclass int, r *rand.Rand) string {
	base := make([]string, nclass)
	for c := range base {
		base[c] = []string{"0", "0.5", "-0.5", "0.1"}[r.IntN(4)]
	}
	var out []string
	for _, t := range ts {
		var node func(i int) string
		node = func(i int) string {
			n := t.nodes[i]
			if n.feat < 0 {
				vals := make([]string, nclass)
				for c := range vals {
					vals[c] = "0"
					if t.class < 0 {
						vals[c] = s32tNum(n.leaf[c], false)
					} else if c == t.class {
						vals[c] = s32tNum(n.leaf[0], false)
					}
				}
				return fmt.Sprintf(`{"leaf_value": [%s]}`, strings.Join(vals, ", "))
			}
			return fmt.Sprintf(`{"feat_id": %d, "split_value": %s, "left": %s, "right": %s}`, n.feat, s32tNum(n.thr, false), node(n.left), node(n.right))
		}
		out = append(out, fmt.Sprintf(`{"num_leaf_values": %d, "split_type": "LtSplit", "structure": %s}`, nclass, node(0)))
	}
	return fmt.Sprintf(`{"at_type": "RAW", "base_scores": [%s], "trees": [%s]}`, strings.Join(base, ", "), strings.Join(out, ",\n"))
}

func TestS32tTreesPPAAgainstBFS(t *testing.T) {
	n := 6
	if v := os.Getenv("VIGIL_S32T_PPA_MODELS"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil {
			t.Fatal(err)
		}
	}
	first := uint64(1)
	if v := os.Getenv("VIGIL_S32T_PPA_FIRST"); v != "" {
		k, err := strconv.Atoi(v)
		if err != nil {
			t.Fatal(err)
		}
		first = uint64(k)
	}
	dir := t.TempDir()
	tally := map[string]int{}
	for seed := first; seed < first+uint64(n); seed++ {
		sp := s32tGen(seed, dir)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("e%d.json", seed)), []byte(sp.ens), 0o644); err != nil {
			t.Fatal(err)
		}
		m := testutil.LoadSource(t, fmt.Sprintf("s32t%d.spec", seed), sp.src)
		prop := m.Properties[0]
		pd := m.Policies[0]
		pol, err := symbolic.Instantiate(m, pd)
		if err != nil {
			t.Fatalf("seed %d: %v\n%s\n%s", seed, err, sp.src, sp.ens)
		}
		gg := testutil.Generator(t, m, prop)
		dec, err := explicit.PolicyDecider(m, pol)
		if err != nil {
			t.Fatal(err)
		}
		want, err := explicit.Search(context.Background(), gg, explicit.Options{Policy: dec, StopAtUnsafe: true})
		if err != nil {
			tally["bfs error"]++
			continue
		}
		tally["bfs "+want.Verdict.String()]++
		for _, o := range []Options{{}, {NoEnumeration: true}, {cubeLimit: 8}, {cubeLimit: 8, leafLimit: 1}} {
			name := fmt.Sprintf("noenum=%v cube=%d leaf=%d", o.NoEnumeration, o.cubeLimit, o.leafLimit)
			o.Policy = pol
			o.MaxIterations = 60
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			res, err := Check(ctx, m, prop, pd, o)
			cancel()
			if err != nil {
				if strings.Contains(err.Error(), "--engine polic3 or bfs") && strings.Contains(sp.ens, "vigil-nn") {
					tally["refused (network)"]++ // Tanh, Sigmoid: no SMT encoding
					continue
				}
				t.Errorf("seed %d, %s: %v\n%s\n%s", seed, name, err, sp.src, sp.ens)
				continue
			}
			tally[res.Verdict.String()]++
			if res.Verdict == explicit.Unknown {
				continue
			}
			if res.Verdict != want.Verdict {
				t.Errorf("seed %d, %s: ppa %v, bfs %v (exact encoding %v)\n%s\n%s", seed, name, res.Verdict, want.Verdict, res.Exact, sp.src, sp.ens)
			}
		}
	}
	t.Logf("%d models: %v", n, tally)
}
