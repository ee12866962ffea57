package nn

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// Review (session 21): VNNLIB input bounds are read exactly. Before, a
// strict bound (< X_0 1) was read as X_0 <= 1, so X_0 = 1 came back as a
// counterexample, and a bound was computed in float64 from the numbers
// of its term, so (<= (+ X_0 1000000000.05) 1000000000.06), which is
// X_0 <= 0.01, became X_0 <= 0.009999990463..., and inputs up to 0.01
// were never looked at: a wrong unsat.

var identityNet = &Network{Layers: []Layer{{In: 1, Out: 1, W: []float64{1}, B: []float64{0}}}}

func TestReview21nStrictInputBound(t *testing.T) {
	// X_0 in [0, 1), Y_0 = X_0 >= 1: no input; X_0 = 1 is not one.
	prop, err := ParseVNNLIB("(declare-const X_0 Real)\n(declare-const Y_0 Real)\n(assert (< X_0 1))\n(assert (>= X_0 0))\n(assert (>= Y_0 1))\n")
	if err != nil {
		t.Fatal(err)
	}
	res, err := identityNet.Verify(prop, 2*time.Second, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Answer == Sat {
		t.Fatalf("sat with the input %v, outside X_0 < 1", res.Input)
	}
	// X_0 in (0.5, 1] with Y_0 <= 0.5 + 2^-52: the only counterexample
	// is the float just above 0.5.
	prop, err = ParseVNNLIB("(declare-const X_0 Real)\n(declare-const Y_0 Real)\n(assert (> X_0 0.5))\n(assert (<= X_0 1))\n(assert (<= Y_0 0.5000000000000002220446049250313))\n")
	if err != nil {
		t.Fatal(err)
	}
	res, err = identityNet.Verify(prop, 2*time.Second, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Answer == Unsat || (res.Answer == Sat && !(res.Input[0] > 0.5)) {
		t.Fatalf("%s with the input %v; want sat with X_0 > 0.5", res.Answer, res.Input)
	}
	// (> X_0 0) and (<= X_0 0) leave no input: refused, naming both lines.
	_, err = ParseVNNLIB("(declare-const X_0 Real)\n(declare-const Y_0 Real)\n(assert (> X_0 0))\n(assert (<= X_0 0))\n(assert (>= Y_0 -1))\n")
	if err == nil || !strings.Contains(err.Error(), "lines 3 and 4: X_0 > 0 and X_0 <= 0: no input satisfies both") {
		t.Fatalf("got %v, want the empty box refused", err)
	}
	// A point that is no float64 (X_0 = 0.1) is a non-empty box over the
	// reals: accepted, and no counterexample can be given.
	prop, err = ParseVNNLIB("(declare-const X_0 Real)\n(declare-const Y_0 Real)\n(assert (= X_0 0.1))\n(assert (>= Y_0 0))\n")
	if err != nil {
		t.Fatal(err)
	}
	res, err = identityNet.Verify(prop, 500*time.Millisecond, Options{})
	if err != nil || res.Answer != AnswerUnkn {
		t.Fatalf("%s, %v; want unknown (X_0 = 0.1 satisfies Y_0 >= 0, but is no float64)", res.Answer, err)
	}
}

func TestReview21nExactInputBound(t *testing.T) {
	prop, err := ParseVNNLIB("(declare-const X_0 Real)\n(declare-const Y_0 Real)\n(assert (>= X_0 0))\n(assert (<= (+ X_0 1000000000.05) 1000000000.06))\n(assert (>= Y_0 0.009999999))\n")
	if err != nil {
		t.Fatal(err)
	}
	if hi := prop.Cases[0].Box.Hi[0]; hi < 0.01 {
		t.Errorf("the box ends at %v, below 0.01", hi)
	}
	res, err := identityNet.Verify(prop, 2*time.Second, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Answer != Sat || !exactlyAtMost(res.Input[0], "0.01") {
		t.Fatalf("%s with %v; want sat with X_0 <= 0.01", res.Answer, res.Input)
	}
}

func exactlyAtMost(x float64, r string) bool {
	q, _ := new(big.Rat).SetString(r)
	return new(big.Rat).SetFloat64(x).Cmp(q) <= 0
}

// TestReview21nBruteForce checks every unsat answer on random small
// networks and random VNNLIB properties (strict and non-strict bounds,
// points, -0.0, hexadecimal and scientific numbers, bounds given twice,
// or-cases, constraints mixing outputs) against every corner and a
// dense grid of each case's input box, evaluated in float64 with the
// constraints checked exactly; every sat answer's input must satisfy the
// written constraints exactly.
func TestReview21nBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 14))
	trials := 400
	if testing.Short() {
		trials = 100
	}
	nums := []string{"0", "-0.0", "0.1", "-0.1", "0.5", "1", "-1", "0x1p-1", "2.5e-1", "1e-3", "-3E-1", "0.3", "0.7"}
	count := map[Answer]int{}
	defer func() { t.Logf("answers: %v", count) }()
	for trial := 0; trial < trials; trial++ {
		nin, nout := 1+rng.IntN(3), 2+rng.IntN(2)
		n := randomSmallNet(rng, nin, nout, 1+rng.IntN(2))
		if k := rng.IntN(6); k < 2 {
			// Softmax rounds close probabilities to ties.
			n.Out = []OutAct{OutSoftmax, OutLogSoftmax}[k]
		}
		var b strings.Builder
		for i := 0; i < nin; i++ {
			fmt.Fprintf(&b, "(declare-const X_%d Real)\n", i)
		}
		for j := 0; j < nout; j++ {
			fmt.Fprintf(&b, "(declare-const Y_%d Real)\n", j)
		}
		type bound struct{ op, v string }
		var ins [][]bound
		for i := 0; i < nin; i++ {
			lo, hi := nums[rng.IntN(len(nums))], nums[rng.IntN(len(nums))]
			if ratOf(lo).Cmp(ratOf(hi)) > 0 {
				lo, hi = hi, lo
			}
			lop, hop := ">=", "<="
			if rng.IntN(3) == 0 && ratOf(lo).Cmp(ratOf(hi)) < 0 {
				lop = ">"
			}
			if rng.IntN(3) == 0 && ratOf(lo).Cmp(ratOf(hi)) < 0 {
				hop = "<"
			}
			bs := []bound{{lop, lo}, {hop, hi}}
			if rng.IntN(4) == 0 {
				bs = append(bs, bound{"<=", "1"}) // a bound given twice
			}
			ins = append(ins, bs)
			for _, bd := range bs {
				if rng.IntN(2) == 0 {
					// The same bound written as a sum.
					fmt.Fprintf(&b, "(assert (%s (+ X_%d 1000000000.05) (+ %s 1000000000.05)))\n", bd.op, i, bd.v)
				} else {
					fmt.Fprintf(&b, "(assert (%s X_%d %s))\n", bd.op, i, bd.v)
				}
			}
		}
		// Output constraints: one or two or-cases of one or two
		// comparisons between outputs or with a constant.
		type cmp struct {
			op   string
			a, b int // outputs; b < 0: the constant c
			c    string
		}
		var cases [][]cmp
		ops := []string{"<=", "<", ">=", ">"}
		for k := 1 + rng.IntN(2); k > 0; k-- {
			var cs []cmp
			for m := 1 + rng.IntN(2); m > 0; m-- {
				c := cmp{op: ops[rng.IntN(4)], a: rng.IntN(nout), b: rng.IntN(nout + 1)}
				if c.b == nout || c.b == c.a {
					c.b, c.c = -1, nums[rng.IntN(len(nums))]
				}
				cs = append(cs, c)
			}
			cases = append(cases, cs)
		}
		b.WriteString("(assert (or")
		for _, cs := range cases {
			b.WriteString(" (and")
			for _, c := range cs {
				if c.b < 0 {
					fmt.Fprintf(&b, " (%s Y_%d %s)", c.op, c.a, c.c)
				} else {
					fmt.Fprintf(&b, " (%s Y_%d Y_%d)", c.op, c.a, c.b)
				}
			}
			b.WriteString(")")
		}
		b.WriteString("))\n")
		src := b.String()
		prop, err := ParseVNNLIB(src)
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		inBox := func(x []float64) bool {
			for i, bs := range ins {
				for _, bd := range bs {
					if !holds(new(big.Rat).SetFloat64(x[i]), bd.op, ratOf(bd.v)) {
						return false
					}
				}
			}
			return true
		}
		violates := func(x []float64) bool {
			if !inBox(x) {
				return false
			}
			y := n.Eval(x)
		next:
			for _, cs := range cases {
				for _, c := range cs {
					r := ratOf(c.c)
					if c.b >= 0 {
						r = new(big.Rat).SetFloat64(y[c.b])
					}
					if !holds(new(big.Rat).SetFloat64(y[c.a]), c.op, r) {
						continue next
					}
				}
				return true
			}
			return false
		}
		opt := []Options{{}, {Method: Alpha, Branch: BranchReLU}, {Method: IBP, Branch: BranchInput}, {Method: CROWN, Branch: BranchReLU}}[trial%4]
		opt.Seed = uint64(trial)
		res, err := n.Verify(prop, 100*time.Millisecond, opt)
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		count[res.Answer]++
		switch res.Answer {
		case Sat:
			if !violates(res.Input) {
				t.Fatalf("sat with %v, which does not violate\n%s", res.Input, src)
			}
		case Unsat:
			if x := bruteForce(prop, violates); x != nil {
				t.Fatalf("unsat, but %v (outputs %v) violates\n%s", x, n.Eval(x), src)
			}
		}
	}
}

// bruteForce tries the corners, the floats next to them, zero and a
// grid per input (60 steps, 16 for three inputs) of every case's box, and
// returns a point violates accepts.
func bruteForce(prop *Property, violates func([]float64) bool) []float64 {
	for _, c := range prop.Cases {
		var axes [][]float64
		for i := range c.Box.Lo {
			lo, hi := c.Box.Lo[i], c.Box.Hi[i]
			ax := []float64{lo, hi, math.Nextafter(lo, hi), math.Nextafter(hi, lo), 0, math.Copysign(0, -1)}
			steps := 60
			if len(c.Box.Lo) > 2 {
				steps = 16
			}
			for k := 0; k <= steps; k++ {
				ax = append(ax, lo+(hi-lo)*float64(k)/float64(steps))
			}
			axes = append(axes, ax)
		}
		x := make([]float64, len(axes))
		var rec func(i int) []float64
		rec = func(i int) []float64 {
			if i == len(axes) {
				if violates(x) {
					return append([]float64(nil), x...)
				}
				return nil
			}
			for _, v := range axes[i] {
				x[i] = v
				if r := rec(i + 1); r != nil {
					return r
				}
			}
			return nil
		}
		if r := rec(0); r != nil {
			return r
		}
	}
	return nil
}

func ratOf(s string) *big.Rat {
	if s == "" {
		return new(big.Rat)
	}
	r, _, ok := number(s)
	if !ok || r == nil {
		panic(s)
	}
	return r
}

func holds(a *big.Rat, op string, b *big.Rat) bool {
	d := a.Cmp(b)
	switch op {
	case "<=":
		return d <= 0
	case "<":
		return d < 0
	case ">=":
		return d >= 0
	}
	return d > 0
}

// randomSmallNet is a ReLU network with hidden layers of 4 whose weights
// are small multiples of 1/4, so that scores tie and ReLUs sit exactly
// at 0 at box corners.
func randomSmallNet(rng *rand.Rand, nin, nout, hidden int) *Network {
	q := func() float64 { return float64(rng.IntN(9)-4) / 4 }
	layer := func(in, out int, act Activation) Layer {
		l := Layer{In: in, Out: out, W: make([]float64, in*out), B: make([]float64, out), Act: act}
		for i := range l.W {
			l.W[i] = q()
		}
		for i := range l.B {
			l.B[i] = q()
		}
		return l
	}
	n := &Network{}
	in := nin
	for k := 0; k < hidden; k++ {
		n.Layers = append(n.Layers, layer(in, 4, ActReLU))
		in = 4
	}
	n.Layers = append(n.Layers, layer(in, nout, ActLinear))
	return n
}

// A property that holds only because a constant comparison or (or) is
// false is refused, as an empty box is: a typo must not verify it. So
// are operators without operands, which SMT-LIB rejects; every message
// names the line and says what to do.
func TestReview21nVacuousAndMalformed(t *testing.T) {
	const head = "(declare-const X_0 Real)\n(declare-const Y_0 Real)\n(assert (>= X_0 0))\n(assert (<= X_0 1))\n"
	for body, want := range map[string]string{
		"(assert (or))\n":                                       "line 5: (or) with no operands is false",
		"(assert (<= 1 0))\n":                                   "line 5: a comparison of constants is false in every case",
		"(assert (or (< 0 0) (and (>= 1 2))))\n":                "line 5: a comparison of constants is false in every case",
		"(assert (<= (-) Y_0))\n":                               "line 5: (-) has no operands; give it at least one",
		"(assert (<= (*) Y_0))\n":                               "line 5: (*) has no operands",
		"(assert (not (<= Y_0 1)))\n":                           `line 5: unsupported constraint "not"; vigil reads and, or`,
		"(assert (<= Y_0 (/ 1 2)))\n":                           "", // SMT-LIB division by a number: read exactly
		"(assert (<= Y_0 (/ 1 Y_0)))\n":                         "line 5: division by a variable is not linear",
		"(assert (<= Y_0 (/ 1 0)))\n":                           "line 5: division by zero",
		"(assert (<= Y_0 (^ 1 2)))\n":                           `line 5: unsupported operator "^" in a term; vigil reads +, -, * and /`,
		"(assert (<= Y_0 1e-99999999))\n":                       "line 5: the constraint on Y_0 has the number 1e-99999999",
		"(assert (<= (* 1e-300 1e-300 Y_0) 1))\n":               "", // tiny but exact: accepted
		"(assert (<= (* 1e-300 1e-300 X_0) 1))\n":               "line 5: the bound",
		"(assert (<= (- (+ X_0 1e308 1e308) 1e308 1e308) 1))\n": "", // exact: X_0 <= 1
	} {
		_, err := ParseVNNLIB(head + body)
		switch {
		case want == "" && err != nil:
			t.Errorf("%q: %v", body, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%q: %v, want %q", body, err, want)
		}
	}
}

// An output that overflows to +Inf satisfies Y_0 >= 5. Before, the row
// of Y_0 >= 5 multiplied the other output's +Inf by its 0 (NaN), so no
// input was a counterexample (unknown), and once one was, --json failed
// on the +Inf output.
func TestReview21nInfiniteOutput(t *testing.T) {
	n := &Network{Layers: []Layer{{In: 1, Out: 2, W: []float64{1e308, 1e308}, B: []float64{0, 0}}}}
	prop, err := ParseVNNLIB("(declare-const X_0 Real)\n(declare-const Y_0 Real)\n(declare-const Y_1 Real)\n(assert (>= X_0 2))\n(assert (<= X_0 3))\n(assert (>= Y_0 5))\n")
	if err != nil {
		t.Fatal(err)
	}
	res, err := n.Verify(prop, time.Second, Options{})
	if err != nil || res.Answer != Sat {
		t.Fatalf("%s, %v; want sat", res.Answer, err)
	}
	b, err := json.Marshal(res.Report())
	if err != nil {
		t.Fatal(err)
	}
	if want := `"output":["inf","inf"],"seconds"`; !strings.Contains(string(b), want) {
		t.Errorf("%s, want %s", b, want)
	}
}

// Output constraints are checked exactly on the float64 outputs. At the
// one input X_0 = Y_0 = 0.3333333333333333 (the float64 nearest 1/3),
// 3 Y_0 is 0.99999999999999994449 exactly but 1 in float64: before,
// (>= (* 3 Y_0) 1) answered sat there and (< (* 3 Y_0) 1) unsat.
func TestReview21nExactOutputConstraint(t *testing.T) {
	const head = "(declare-const X_0 Real)\n(declare-const Y_0 Real)\n(assert (>= X_0 0x1.5555555555555p-2))\n(assert (<= X_0 0x1.5555555555555p-2))\n"
	for cons, want := range map[string]Answer{"(>= (* 3 Y_0) 1)": Unsat, "(< (* 3 Y_0) 1)": Sat, "(<= (* 3 Y_0) 1)": Sat, "(> (* 3 Y_0) 1)": Unsat} {
		prop, err := ParseVNNLIB(head + "(assert " + cons + ")\n")
		if err != nil {
			t.Fatal(err)
		}
		res, err := identityNet.Verify(prop, time.Second, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Answer != want {
			t.Errorf("%s: %s, want %s", cons, res.Answer, want)
		}
	}
}

// VNNLIB names are SMT-LIB symbols: X_00 is not X_0, and a property that
// declares X_0 and X_7 has no X_1. Before, X_00 and X_+0 were read as
// X_0 (merging two variables), and the gap was reported as a missing
// bound on X_1.
func TestReview21nDeclarations(t *testing.T) {
	for src, want := range map[string]string{
		"(declare-const X_00 Real)\n(declare-const Y_0 Real)\n":                          `variable "X_00": write X_0, without a sign or leading zeros`,
		"(declare-const X_+1 Real)\n(declare-const Y_0 Real)\n":                          `variable "X_+1": write X_1`,
		"(declare-const X_0 Real)\n(declare-const X_7 Real)\n(declare-const Y_0 Real)\n": "line 2: X_7 is declared but X_1 is not; inputs are X_0 .. X_7 with no gaps",
		"(declare-const X_0 Real)\n(declare-const Y_0 Real)\n(declare-const Y_0 Real)\n": "line 3: Y_0 is declared twice (lines 2 and 3)",
		"(declare-const X_0 Real)\n(declare-const Y_0 Real)\n(assert (<= X_00 1))\n":     "line 3: X_00 is not declared",
		"(declare-const X_0 Real)\n(declare-const Y_0 Real)\n(assert (<= Y_+0 1))\n":     "line 3: Y_+0 is not declared",
	} {
		if _, err := ParseVNNLIB(src); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", src, err, want)
		}
	}
}

// When the input phase ran out of time in one case, the cases before it
// in the same round that were still open (waiting for the next round)
// were dropped: neither proved nor handed on, so the ReLU phase never
// looked at them and Verify could answer unsat on the strength of the
// others. Here case 0 (Y_0 > Y_1 where the outputs are equal: never
// proved, never refuted) uses its 2000-box budget at once, and case 1
// spends the phase's time in its first witness search.
func TestReview21nInputPhaseKeepsOpenCases(t *testing.T) {
	n := &Network{Layers: []Layer{{In: 1, Out: 2, W: []float64{1, 1}, B: []float64{0, 0}}}}
	c := Case{Box: Box{Lo: []float64{0}, Hi: []float64{1}},
		Cons: Disjunction{Rows: [][]float64{{-1, 1}}, Off: []float64{0}, Strict: []bool{true}}}
	prop := &Property{Inputs: 1, Outputs: 2, Cases: []Case{c, c}}
	opt := Options{Branch: BranchInput, Deadline: time.Now().Add(300 * time.Millisecond)}
	slow := opt
	slow.Samples = 5_000_000
	todo := []pendingCase{{0, newProver(n, c.Cons, opt)}, {1, newProver(n, c.Cons, slow)}}
	var res VerifyResult
	left, sat := n.inputPhase(prop, todo, opt, &res, time.Now())
	if sat != nil {
		t.Fatalf("sat: %+v", sat)
	}
	got := map[int]bool{}
	for _, l := range left {
		got[l.i] = true
	}
	if !got[0] || !got[1] {
		t.Fatalf("the input phase hands on cases %v; want 0 and 1 (neither is proved)", got)
	}
}

// The centre of [-1.7e308, 1.7e308] was -1.7e308 + (+Inf)/2 = +Inf,
// outside the box; on the identity it satisfied Y_0 >= 1.75e308, and
// Verify failed with an internal error (the counterexample check caught
// it). Points in a box are now taken within it.
func TestReview21nHugeBox(t *testing.T) {
	prop, err := ParseVNNLIB("(declare-const X_0 Real)\n(declare-const Y_0 Real)\n(assert (>= X_0 -1.7e308))\n(assert (<= X_0 1.7e308))\n(assert (>= Y_0 1.75e308))\n")
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range []Branch{BranchAuto, BranchInput, BranchReLU} {
		res, err := identityNet.Verify(prop, 300*time.Millisecond, Options{Branch: b})
		if err != nil || res.Answer == Sat {
			t.Fatalf("%v: %s %v, %v", b, res.Answer, res.Input, err)
		}
	}
	for _, tt := range []float64{0, 0.25, 0.5, 1} {
		if x := lerp(-math.MaxFloat64, math.MaxFloat64, tt); math.IsInf(x, 0) || math.IsNaN(x) {
			t.Errorf("lerp at %v: %v", tt, x)
		}
	}
}

// An (and) of 16 two-way (or)s over 1000 bounded inputs is a 71 KB file
// whose disjunctive normal form has 65536 cases of 2016 constraints
// each: vigil ran out of memory (4 GB) building it. The size is now
// checked before the form is built.
func TestReview21nDNFBomb(t *testing.T) {
	var b strings.Builder
	const n = 1000
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "(declare-const X_%d Real)\n", i)
	}
	b.WriteString("(declare-const Y_0 Real)\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "(assert (>= X_%d 0))\n(assert (<= X_%d 1))\n", i, i)
	}
	for k := 0; k < 16; k++ {
		fmt.Fprintf(&b, "(assert (or (<= Y_0 %d) (>= Y_0 %d)))\n", k, k+100)
	}
	_, err := ParseVNNLIB(b.String())
	if err == nil || !strings.Contains(err.Error(), "line 3012: the property has more than 4000000 constraints in disjunctive normal form") {
		t.Fatalf("%v", err)
	}
	// 17 (or)s of two: 131072 cases, refused before they are built.
	src := "(declare-const X_0 Real)\n(declare-const Y_0 Real)\n(assert (>= X_0 0))\n(assert (<= X_0 1))\n" + strings.Repeat("(assert (or (<= Y_0 0) (>= Y_0 1)))\n", 17)
	if _, err := ParseVNNLIB(src); err == nil || !strings.Contains(err.Error(), "line 21: the property has more than 100000 cases") {
		t.Fatalf("%v", err)
	}
}
