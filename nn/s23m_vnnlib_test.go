package nn

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// Every numeric literal form is read exactly, whatever its number of
// bits: hexadecimal floats were read through strconv.ParseFloat, so
// 0x20000000000001 (2^53+1) became the float64 2^53.
func TestS23mNumberExact(t *testing.T) {
	p53, p63, p64 := new(big.Int).Lsh(big.NewInt(1), 53), new(big.Int).Lsh(big.NewInt(1), 63), new(big.Int).Lsh(big.NewInt(1), 64)
	plus := func(a *big.Int, d int64) string { return new(big.Int).Add(a, big.NewInt(d)).String() }
	for s, want := range map[string]string{
		"9007199254740993":                    plus(p53, 1),
		"0x20000000000001":                    plus(p53, 1),
		"0x20000000000001p0":                  plus(p53, 1),
		"#x20000000000001":                    plus(p53, 1),
		"#b1" + strings.Repeat("0", 52) + "1": plus(p53, 1),
		"-0x8000000000000401":                 "-" + plus(p63, 1025),
		"#x8000000000000401":                  plus(p63, 1025),
		"9223372036854775807":                 plus(p63, -1),
		"18446744073709551615":                plus(p64, -1),
		"#xFFFFFFFFFFFFFFFF":                  plus(p64, -1),
		"0x1.00000000000001p0":                "72057594037927937/72057594037927936",
		"0x1.8p3":                             "12",
		"0x.8":                                "1/2",
		"0x1p-1074":                           "1/" + new(big.Int).Lsh(big.NewInt(1), 1074).String(),
		"1.00000000000000011102230246251565404236316680908203125": "9007199254740993/9007199254740992",
		"1e-05": "1/100000",
		"-.5":   "-1/2",
		"5.":    "5",
		"0E+00": "0",
		"0123":  "123", // decimal, not octal
	} {
		r, bad, ok := number(s)
		if !ok || bad {
			t.Errorf("%q: bad=%v ok=%v", s, bad, ok)
			continue
		}
		if r.RatString() != want {
			t.Errorf("%q = %s, want %s", s, r.RatString(), want)
		}
	}
	for _, s := range []string{"1_000", "0x_1p0", "0b101", "0o17", "#x", "#xg", "#b102", "#x-1", "+#x1", "1e", "1e+-2", "--1", ".", "0x", "0x1p", "1.2.3", "1/3", "x1", "1e5e5", "0x1.8e3p"} {
		if _, _, ok := number(s); ok {
			t.Errorf("%q was read as a number", s)
		}
	}
	// Beyond float64's range but of a bounded exponent: read exactly (a
	// divisor, or a coefficient a row is scaled by); newCase checks
	// what must be a float64 (s24l_vnnlib_beyond_float64.txtar).
	for _, s := range []string{"1e309", "0x1p1024", "#x1" + strings.Repeat("0", 300), "1e-400"} {
		if r, bad, ok := number(s); !ok || bad || r.Sign() <= 0 {
			t.Errorf("%q: bad=%v ok=%v, want an exact positive number", s, bad, ok)
		}
	}
	for _, s := range []string{"inf", "-Infinity", "NaN", "1e1999", "#x1" + strings.Repeat("0", 4001), "1e-99999999", "0x1p-99999"} {
		if _, bad, ok := number(s); !ok || !bad {
			t.Errorf("%q: bad=%v ok=%v, want a refused number", s, bad, ok)
		}
	}
}

// An input bound beyond 53 bits widens the proved box outward and
// narrows the witness box inward, around the exact value.
func TestS23mInputBoundsBeyond53Bits(t *testing.T) {
	for _, tc := range []struct {
		lo, hi                           string
		boxLo, boxHi, pointsLo, pointsHi float64
	}{
		// 2^53+1 .. 2^53+3: floats 2^53, 2^53+2, 2^53+4.
		{"0x20000000000001", "#x20000000000003", 1 << 53, 1<<53 + 4, 1<<53 + 2, 1<<53 + 2},
		// 2^63+1025 .. 2^63+3071: the float64 spacing is 2048.
		{"#x8000000000000401", "(/ 0x100000000000017fe 2)", 1 << 63, 1<<63 + 4096, 1<<63 + 2048, 1<<63 + 2048},
		// 2^64-1 .. 2^64+1: floats 2^64-2048, 2^64, 2^64+4096.
		{"18446744073709551615", "(- #x10000000000000001 0)", 1<<64 - 2048, 1<<64 + 4096, 1 << 64, 1 << 64},
	} {
		prop, err := ParseVNNLIB("(declare-const X_0 Real)\n(declare-const Y_0 Real)\n(assert (>= X_0 " + tc.lo + "))\n(assert (<= X_0 " + tc.hi + "))\n(assert (<= Y_0 0))\n")
		if err != nil {
			t.Fatal(err)
		}
		c := prop.Cases[0]
		if c.Box.Lo[0] != tc.boxLo || c.Box.Hi[0] != tc.boxHi || c.Points.Lo[0] != tc.pointsLo || c.Points.Hi[0] != tc.pointsHi {
			t.Errorf("%s..%s: box [%v, %v] points [%v, %v], want [%v, %v] and [%v, %v]", tc.lo, tc.hi,
				c.Box.Lo[0], c.Box.Hi[0], c.Points.Lo[0], c.Points.Hi[0], tc.boxLo, tc.boxHi, tc.pointsLo, tc.pointsHi)
		}
	}
}

// constOut is a network whose outputs are the constants b, whatever its
// one input.
func constOut(b ...float64) *Network {
	return &Network{Layers: []Layer{{In: 1, Out: len(b), W: make([]float64, len(b)), B: b}}}
}

// A constant beyond 53 bits decides the answer: Y_0 + Y_1 = 2^53 + 0.5
// is at most 0x20000000000001 = 2^53 + 1, a counterexample; read as the
// float64 2^53 it was not one, and the answer was unknown.
func TestS23mHexOutputConstant(t *testing.T) {
	n := constOut(1<<53, 0.5)
	for _, k := range []string{"0x20000000000001", "#x20000000000001", "9007199254740993", "(/ 18014398509481986 2)"} {
		prop, err := ParseVNNLIB("(declare-const X_0 Real)\n(declare-const Y_0 Real)\n(declare-const Y_1 Real)\n(assert (>= X_0 0))\n(assert (<= X_0 1))\n(assert (<= (+ Y_0 Y_1) " + k + "))\n")
		if err != nil {
			t.Fatal(err)
		}
		res, err := n.Verify(prop, 5*time.Second, Options{})
		if err != nil || res.Answer != Sat {
			t.Errorf("%s: %v %v, want sat", k, res.Answer, err)
		}
	}
}

// The rows the prover proves are below the exact rows wherever the
// outputs can be: the offset rounds down and pays for the rounding of
// each coefficient times a bound on its output. Checked in rationals at
// random outputs within the bound.
func TestS23mProvableRowsBelowExact(t *testing.T) {
	n := &Network{Layers: []Layer{{In: 1, Out: 3, W: []float64{1e6, -3, 0.1}, B: []float64{1 << 40, 0.5, -7}}}}
	prop, err := ParseVNNLIB("(declare-const X_0 Real)\n(declare-const Y_0 Real)\n(declare-const Y_1 Real)\n(declare-const Y_2 Real)\n" +
		"(assert (>= X_0 -2))\n(assert (<= X_0 3))\n" +
		"(assert (<= (+ (* 0.1 Y_0) (* 1.00000000000000011102230246251565404236316680908203125 Y_1) (/ Y_2 3)) 0x20000000000001))\n" +
		"(assert (>= (- (* #x20000000000001 Y_0) Y_1) 0.3))\n")
	if err != nil {
		t.Fatal(err)
	}
	c := prop.Cases[0]
	d := c.provable(n)
	mag := n.outputMagnitude(c.Box)
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		y := make([]float64, 3)
		for j := range y {
			y[j] = (2*rng.Float64() - 1) * mag[j]
			if rng.IntN(4) == 0 {
				y[j] = math.Copysign(mag[j], y[j])
			}
		}
		for k, r := range c.exact {
			exact := new(big.Rat).Set(r.off)
			got := new(big.Rat).SetFloat64(d.Off[k])
			for j, v := range r.coef {
				exact.Add(exact, new(big.Rat).Mul(v, new(big.Rat).SetFloat64(y[j])))
			}
			for j, v := range d.Rows[k] {
				got.Add(got, new(big.Rat).Mul(new(big.Rat).SetFloat64(v), new(big.Rat).SetFloat64(y[j])))
			}
			if got.Cmp(exact) > 0 {
				t.Fatalf("row %d at %v: proved row %s above the exact %s", k, y, got.FloatString(6), exact.FloatString(6))
			}
		}
	}
	// Evaluated outputs lie within the magnitudes.
	for x := -2.0; x <= 3; x += 0.25 {
		for j, v := range n.Eval([]float64{x}) {
			if math.Abs(v) > mag[j] {
				t.Fatalf("output %d = %v at %v beyond its bound %v", j, v, x, mag[j])
			}
		}
	}
}

// Where the outputs cannot be bounded (evaluation might overflow), a row
// with an inexact coefficient proves nothing, and a witness is judged by
// the exact constraints alone.
func TestS23mProvableUnbounded(t *testing.T) {
	n := &Network{Layers: []Layer{{In: 1, Out: 1, W: []float64{1e300}, B: []float64{0}}}}
	prop, err := ParseVNNLIB("(declare-const X_0 Real)\n(declare-const Y_0 Real)\n(assert (>= X_0 0))\n(assert (<= X_0 1e10))\n(assert (<= (* 0.1 Y_0) 5))\n")
	if err != nil {
		t.Fatal(err)
	}
	c := prop.Cases[0]
	if d := c.provable(n); d.Off[0] != -math.MaxFloat64 {
		t.Errorf("offset %v, want -MaxFloat64", d.Off[0])
	}
	res, err := n.Verify(prop, 5*time.Second, Options{})
	if err != nil || res.Answer != Sat || res.Input[0]*1e300*0.1 > 5 {
		t.Errorf("%v %v %v, want sat with 1e300 X_0 <= 50", res.Answer, res.Input, err)
	}
}
