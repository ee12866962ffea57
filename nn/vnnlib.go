package nn

// VNNLIB, the subset VNN-COMP uses: (declare-const X_i Real) and
// (declare-const Y_j Real), then asserts that together describe a
// counterexample: bounds on single inputs, linear constraints on outputs,
// combined with and/or. The property is violated (sat) if some input
// satisfies every assert.
//
// The asserts are put in disjunctive normal form; each disjunct is an
// input box and a list of output constraints g(y) <= 0 (or < 0), which is
// exactly a Disjunction to prove impossible (some g > 0 everywhere).

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"

	"vigil/internal/inputfile"
	"vigil/internal/vigilerr"
)

// Property is a parsed VNNLIB property: sat iff some Case has an input in
// its box whose outputs satisfy all of its constraints.
type Property struct {
	Inputs, Outputs int
	Cases           []Case
}

// Case is one disjunct of a property.
type Case struct {
	// Box holds every real input the case's input bounds allow; it is
	// what is proved.
	Box Box
	// Points holds the float64 inputs that satisfy the bounds exactly
	// (Box shrunk where a bound is strict or not a float64, possibly
	// empty): a counterexample lies in it. Nil Lo and Hi mean Box.
	Points Box
	// Constraints Rows[k]·y + Off[k] <= 0 (< 0 where Strict[k]) must all
	// hold for a counterexample.
	Cons Disjunction
	// exact holds the constraints as the file wrote them, in rationals
	// (Cons rounds them to float64): a counterexample's outputs must
	// satisfy them exactly. Nil for a Case built in code.
	exact []exactRow
}

// exactRow is sum_j coef[j] y_j + off <= 0 (< 0 when strict), exactly.
type exactRow struct {
	coef   map[int]*big.Rat
	off    *big.Rat
	strict bool
}

// holdsExactly reports whether the outputs y (float64 values, exact as
// rationals) satisfy every constraint of c as written, in exact
// arithmetic: float64 arithmetic rounds 3 * 0.3333333333333333 to 1, so
// that (>= (* 3 Y_0) 1) seemed to hold where it does not. An infinite
// output decides a row by its sign (opposite infinities, or a NaN, make
// the row fail).
func (c *Case) holdsExactly(y []float64) bool {
	for _, r := range c.exact {
		inf := 0
		sum := new(big.Rat).Set(r.off)
		for j, k := range r.coef {
			v := y[j]
			switch {
			case math.IsNaN(v):
				return false
			case math.IsInf(v, 0):
				sgn := k.Sign()
				if v < 0 {
					sgn = -sgn
				}
				if inf != 0 && inf != sgn {
					return false
				}
				inf = sgn
			default:
				sum.Add(sum, new(big.Rat).Mul(k, new(big.Rat).SetFloat64(v)))
			}
		}
		d := sum.Sign()
		if inf != 0 {
			d = inf
		}
		if d > 0 || (d == 0 && r.strict) {
			return false
		}
	}
	return true
}

type sexp struct {
	atom string
	list []*sexp
	line int
}

// maxSexpDepth bounds nesting so that the recursive readers of the tree
// (term, formula) run in bounded stack.
const maxSexpDepth = 1000

func parseSexps(src string) ([]*sexp, error) {
	var stack [][]*sexp
	var top []*sexp
	line := 1
	i := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\n':
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == ';':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '(':
			if len(stack) >= maxSexpDepth {
				return nil, fmt.Errorf("nn: vnnlib line %d: expressions nested more than %d levels deep", line, maxSexpDepth)
			}
			stack = append(stack, top)
			top = nil
			i++
		case c == ')':
			if len(stack) == 0 {
				return nil, fmt.Errorf("nn: vnnlib line %d: unbalanced ')'", line)
			}
			l := &sexp{list: top, line: line}
			if l.list == nil {
				l.list = []*sexp{}
			}
			top = append(stack[len(stack)-1], l)
			stack = stack[:len(stack)-1]
			i++
		default:
			j := i
			for j < len(src) && !strings.ContainsRune(" \t\r\n();", rune(src[j])) {
				j++
			}
			top = append(top, &sexp{atom: src[i:j], line: line})
			i = j
		}
	}
	if len(stack) != 0 {
		return nil, fmt.Errorf("nn: vnnlib: %d unclosed '('; the file is truncated", len(stack))
	}
	return top, nil
}

// linear is sum X[i]*x + sum Y[j]*y + c, in exact rationals: a bound
// such as (<= (+ X_0 0.1) 0.4) is 0.3 exactly, and it becomes float64
// only when the case is built, rounded outward for the box that is proved
// and inward for the inputs a counterexample may take.
type linear struct {
	x, y map[int]*big.Rat
	c    *big.Rat
	// bad is a number that is NaN, infinite or of an exponent too large
	// to read exactly, which
	// ParseVNNLIB refuses, naming the variables it constrains.
	bad string
}

func (l *linear) add(o linear, s *big.Rat) {
	for k, v := range o.x {
		l.x[k] = ratAdd(l.x[k], new(big.Rat).Mul(v, s))
	}
	for k, v := range o.y {
		l.y[k] = ratAdd(l.y[k], new(big.Rat).Mul(v, s))
	}
	l.c.Add(l.c, new(big.Rat).Mul(o.c, s))
	if l.bad == "" {
		l.bad = o.bad
	}
}

// scale multiplies l by k.
func (l *linear) scale(k *big.Rat) {
	for _, v := range l.x {
		v.Mul(v, k)
	}
	for _, v := range l.y {
		v.Mul(v, k)
	}
	l.c.Mul(l.c, k)
}

// maxRatBits bounds the numbers the arithmetic of a term builds
// (numerator and denominator bits), beyond those its operands hold: 16384
// bits are some 4900 decimal digits, five times a number at the exponent
// bound (1e-1000) and eight times the widest float64 (2^-1074 .. 2^1024).
const maxRatBits = 1 << 14

// maxNumberLen bounds the characters of a number (of any atom of a term):
// 100,000 digits are read in some 0.1 s.
const maxNumberLen = 100_000

// bits is the size of l's largest number: numerator and denominator bits.
func (l *linear) bits() int {
	b := ratBits(l.c)
	for _, v := range l.x {
		b = max(b, ratBits(v))
	}
	for _, v := range l.y {
		b = max(b, ratBits(v))
	}
	return b
}

func ratBits(r *big.Rat) int { return r.Num().BitLen() + r.Denom().BitLen() }

func ratAdd(a, b *big.Rat) *big.Rat {
	if a == nil {
		return b
	}
	return a.Add(a, b)
}

var (
	ratOne    = big.NewRat(1, 1)
	ratMinus1 = big.NewRat(-1, 1)
)

func newLinear() linear {
	return linear{x: map[int]*big.Rat{}, y: map[int]*big.Rat{}, c: new(big.Rat)}
}

// maxExponent bounds the decimal exponent of a number read exactly: a
// larger one is beyond float64 (or below its smallest denormal) many times
// over, and 1e-99999999 would take big.Rat minutes to expand. A binary
// exponent (0x1p-1074) is bounded by maxBinExponent, for the same reason.
const (
	maxExponent    = 1000
	maxBinExponent = 4000
)

// number reads s as an exact rational when it is a finite number; ok is
// false when s is not a number at all. A NaN, an infinity or an exponent
// beyond maxExponent (maxBinExponent) gives bad = true. A number beyond
// float64's range is read exactly: it may be a divisor, (/ 1 1e340), or
// cancel out; the bounds, coefficients and offsets it ends up in are
// checked against float64 when the case is built (newCase).
//
// The forms read are SMT-LIB's numerals and decimals (0, 42, 0.5), with
// an optional sign and a decimal exponent as VNN-COMP files write them
// (-0.5, 1e-05); SMT-LIB's #x2A and #b101010, read as the unsigned
// integers they spell; and hexadecimal floats (0x1.8p3, 0x20000000000001).
// Each is read exactly, whatever its number of digits: 0x20000000000001
// is 2^53+1, not the float64 2^53. Underscores, octal and Go's other
// number spellings are not numbers here.
func number(s string) (r *big.Rat, bad, ok bool) {
	switch strings.ToLower(strings.TrimLeft(s, "+-")) {
	case "inf", "infinity", "nan":
		return nil, true, true
	}
	if len(s) > 2 && s[0] == '#' && (s[1] == 'x' || s[1] == 'b') {
		base := 16
		if s[1] == 'b' {
			base = 2
		}
		n, ok := new(big.Int).SetString(s[2:], base)
		if !ok || strings.ContainsAny(s[2:], "_+-") {
			return nil, false, false
		}
		if len(s) > 2+maxBinExponent {
			return nil, true, true
		}
		return new(big.Rat).SetInt(n), false, true
	}
	body, neg := s, false
	if body != "" && (body[0] == '+' || body[0] == '-') {
		body, neg = body[1:], body[0] == '-'
	}
	lower := strings.ToLower(body)
	hex := strings.HasPrefix(lower, "0x")
	digits, expChar, base := "0123456789", "e", 10
	if hex {
		lower, digits, expChar, base = lower[2:], "0123456789abcdef", "p", 16
	}
	mant, exp, hasExp := lower, "", false
	if i := strings.Index(lower, expChar); i >= 0 {
		mant, exp, hasExp = lower[:i], lower[i+1:], true
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	if intPart+frac == "" || strings.Trim(intPart+frac, digits) != "" || strings.Count(mant, ".") > 1 {
		return nil, false, false
	}
	e := 0
	if hasExp {
		t := strings.TrimLeft(exp, "+-")
		if t == "" || len(exp)-len(t) > 1 || strings.Trim(t, "0123456789") != "" {
			return nil, false, false
		}
		if len(t) > 9 {
			t = "999999999"
		}
		e, _ = strconv.Atoi(t)
		if exp[0] == '-' {
			e = -e
		}
	}
	m, _ := new(big.Int).SetString(intPart+frac, base)
	if m.Sign() == 0 {
		return new(big.Rat), false, true
	}
	// value = m * base^-len(frac) * (10^e or 2^e)
	scale := len(frac)
	if hex {
		e -= 4 * scale
		scale = 0
	} else {
		e -= scale
	}
	bound := maxExponent + len(intPart) + len(frac)
	if hex {
		bound = maxBinExponent + 4*(len(intPart)+len(frac))
	}
	if e > bound || e < -bound {
		return nil, true, true
	}
	pow := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(e))), nil)
	if hex {
		pow.Lsh(big.NewInt(1), uint(abs(e)))
	}
	r = new(big.Rat).SetInt(m)
	if e >= 0 {
		r.Mul(r, new(big.Rat).SetInt(pow))
	} else {
		r.Quo(r, new(big.Rat).SetInt(pow))
	}
	if neg {
		r.Neg(r)
	}
	return r, false, true
}

// clipNumber shortens a long number's text for a message: its first and
// last digits and how many characters it has.
func clipNumber(s string) string {
	if len(s) <= 40 {
		return s
	}
	return fmt.Sprintf("%s…%s (%d characters)", s[:16], s[len(s)-8:], len(s))
}

func abs(e int) int {
	if e < 0 {
		return -e
	}
	return e
}

// atom is lin <= 0 (or < 0).
type atom struct {
	lin    linear
	strict bool
	line   int
	// memo holds what newCase reads from the atom, computed once: the
	// atom's copies (one in each case of the DNF) share it.
	memo *atomMemo
}

// atomMemo is an atom's facts, computed by facts on the first case that
// holds the atom. An atom asserted outside the ors stands in every case:
// a 703-byte property of 16 two-way ors (65536 cases) had its 18 atoms'
// bounds computed in big.Rat 1.2 million times, for 2.4 s of CPU.
type atomMemo struct {
	done bool
	f    atomFacts
	err  error
}

// The kinds of atomFacts.
const (
	factBound = iota // a bound on one input
	factConst        // a comparison of constants
	factRow          // a constraint on the outputs
)

// atomFacts is what a case takes from one atom.
type atomFacts struct {
	kind int
	// factBound: X_i <= r (upper) or X_i >= r, Box's side rounded
	// outward to box, Points' inward to point.
	i          int
	r          *big.Rat
	upper      bool
	box, point float64
	// factConst: the comparison is false.
	isFalse bool
	// factRow: the row's float64 coefficients and offset, and the
	// exact row.
	row   []float64
	off   float64
	exact exactRow
}

type parser struct {
	nx, ny int
}

func (p *parser) term(e *sexp) (linear, error) {
	l := newLinear()
	if e.list == nil {
		s := e.atom
		if len(s) > maxNumberLen {
			// big.Int reads decimal digits in time quadratic in their
			// number: a 1.6 MB literal took 6 s, a 16 MB one minutes
			return l, fmt.Errorf("nn: vnnlib line %d: the term %s has more than %d characters; vigil reads a number exactly, in time that grows with the square of its digits: write it with fewer digits (a float64 holds 17 significant ones)", e.line, clipNumber(s), maxNumberLen)
		}
		if v, bad, ok := number(s); ok {
			// NaN and infinities (and exponents beyond
			// maxExponent) are read here and refused by
			// ParseVNNLIB, which can name the variable they
			// constrain.
			if bad {
				l.bad = s
			} else {
				l.c = v
			}
			return l, nil
		}
		var idx int
		switch {
		case strings.HasPrefix(s, "X_"):
			i, err := strconv.Atoi(s[2:])
			if err != nil || i < 0 || i >= p.nx || strconv.Itoa(i) != s[2:] {
				return l, fmt.Errorf("nn: vnnlib line %d: %s is not declared", e.line, s)
			}
			idx = i
			l.x[idx] = big.NewRat(1, 1)
		case strings.HasPrefix(s, "Y_"):
			i, err := strconv.Atoi(s[2:])
			if err != nil || i < 0 || i >= p.ny || strconv.Itoa(i) != s[2:] {
				return l, fmt.Errorf("nn: vnnlib line %d: %s is not declared", e.line, s)
			}
			l.y[i] = big.NewRat(1, 1)
		default:
			return l, fmt.Errorf("nn: vnnlib line %d: unknown term %q; a term is a number, X_i, Y_j or (+ ...), (- ...), (* ...), (/ ...)", e.line, s)
		}
		return l, nil
	}
	if len(e.list) == 0 || e.list[0].list != nil {
		return l, fmt.Errorf("nn: vnnlib line %d: malformed term: want a number, X_i, Y_j or (OP ARGS...) with OP one of +, -, *, /", e.line)
	}
	args := e.list[1:]
	if len(args) == 0 {
		return l, fmt.Errorf("nn: vnnlib line %d: (%s) has no operands; give it at least one", e.line, e.list[0].atom)
	}
	// The exact arithmetic below may grow its numbers with each operand
	// ((* 1e999 1e999 ...), a sum of 1/p over many primes p): a
	// 24 KB product took 29 s of big.Rat multiplication. A result that
	// outgrows maxRatBits and its operands is refused (grown).
	in := 0
	grown := func() error {
		if b := l.bits(); b > maxRatBits && b > in {
			return fmt.Errorf("nn: vnnlib line %d: the (%s ...) term's exact value needs more than %d digits (numbers multiplied or added over and over); vigil computes terms exactly: write the value, or a simpler term, in its place", e.line, e.list[0].atom, maxRatBits*3/10)
		}
		return nil
	}
	switch op := e.list[0].atom; op {
	case "+", "-":
		for i, a := range args {
			t, err := p.term(a)
			if err != nil {
				return l, err
			}
			in = max(in, t.bits())
			s := ratOne
			if op == "-" && (i > 0 || len(args) == 1) {
				s = ratMinus1
			}
			l.add(t, s)
			if err := grown(); err != nil {
				return l, err
			}
		}
	case "*":
		l.c.SetInt64(1)
		nonconst := 0
		for _, a := range args {
			t, err := p.term(a)
			if err != nil {
				return l, err
			}
			if l.bad == "" {
				l.bad = t.bad
			}
			in = max(in, t.bits())
			if len(t.x) == 0 && len(t.y) == 0 {
				l.scale(t.c)
				if err := grown(); err != nil {
					return l, err
				}
				continue
			}
			nonconst++
			if nonconst > 1 {
				return l, fmt.Errorf("nn: vnnlib line %d: product of variables is not linear", e.line)
			}
			k, bad := l.c, l.bad
			l = newLinear()
			l.add(t, k)
			if l.bad == "" {
				l.bad = bad
			}
			if err := grown(); err != nil {
				return l, err
			}
		}
	case "/":
		// SMT-LIB's real division, left-associative: (/ a b c) is
		// (a / b) / c. Dividing by a number is linear and exact in
		// rationals (1/3 stays 1/3); by a variable it is not linear.
		if len(args) == 1 {
			return l, fmt.Errorf("nn: vnnlib line %d: (/ ...) needs a dividend and at least one divisor", e.line)
		}
		for i, a := range args {
			t, err := p.term(a)
			if err != nil {
				return l, err
			}
			in = max(in, t.bits())
			if i == 0 {
				l = t
				continue
			}
			if l.bad == "" {
				l.bad = t.bad
			}
			if len(t.x) > 0 || len(t.y) > 0 {
				return l, fmt.Errorf("nn: vnnlib line %d: division by a variable is not linear; divide by numbers only", e.line)
			}
			if t.bad != "" {
				continue
			}
			if t.c.Sign() == 0 {
				return l, fmt.Errorf("nn: vnnlib line %d: division by zero", e.line)
			}
			l.scale(new(big.Rat).Inv(t.c))
			if err := grown(); err != nil {
				return l, err
			}
		}
	default:
		return l, fmt.Errorf("nn: vnnlib line %d: unsupported operator %q in a term; vigil reads +, -, * and / (by numbers)", e.line, op)
	}
	return l, nil
}

// formula returns the DNF of e: a list of conjunctions of atoms.
func (p *parser) formula(e *sexp) ([][]atom, error) {
	if len(e.list) == 0 || e.list[0].list != nil {
		return nil, fmt.Errorf("nn: vnnlib line %d: expected a constraint: (and ...), (or ...) or a comparison (<= A B), (< A B), (>= A B), (> A B), (= A B)", e.line)
	}
	args := e.list[1:]
	switch op := e.list[0].atom; op {
	case "and":
		out := [][]atom{{}}
		for _, a := range args {
			d, err := p.formula(a)
			if err != nil {
				return nil, err
			}
			if out, err = conjoin(out, d, e.line); err != nil {
				return nil, err
			}
		}
		return out, nil
	case "or":
		if len(args) == 0 {
			// (or) is false: the property would hold vacuously.
			return nil, fmt.Errorf("nn: vnnlib line %d: (or) with no operands is false, and would verify the property vacuously; give the cases it joins", e.line)
		}
		var out [][]atom
		atoms := 0
		for _, a := range args {
			d, err := p.formula(a)
			if err != nil {
				return nil, err
			}
			out = append(out, d...)
			for _, x := range d {
				atoms += len(x)
			}
			if len(out) > maxCases || atoms > maxAtoms {
				return nil, fmt.Errorf("nn: vnnlib line %d: the property has more than %d cases or %d constraints in disjunctive normal form; split it into several files", e.line, maxCases, maxAtoms)
			}
		}
		return out, nil
	case "<=", ">=", "<", ">", "=":
		if len(args) != 2 {
			return nil, fmt.Errorf("nn: vnnlib line %d: %s takes two arguments", e.line, op)
		}
		a, err := p.term(args[0])
		if err != nil {
			return nil, err
		}
		b, err := p.term(args[1])
		if err != nil {
			return nil, err
		}
		diff := newLinear() // a - b
		diff.add(a, ratOne)
		diff.add(b, ratMinus1)
		neg := newLinear()
		neg.add(diff, ratMinus1)
		switch op {
		case "<=":
			return [][]atom{{{lin: diff, line: e.line, memo: new(atomMemo)}}}, nil
		case "<":
			return [][]atom{{{lin: diff, strict: true, line: e.line, memo: new(atomMemo)}}}, nil
		case ">=":
			return [][]atom{{{lin: neg, line: e.line, memo: new(atomMemo)}}}, nil
		case ">":
			return [][]atom{{{lin: neg, strict: true, line: e.line, memo: new(atomMemo)}}}, nil
		default:
			return [][]atom{{{lin: diff, line: e.line, memo: new(atomMemo)}, {lin: neg, line: e.line, memo: new(atomMemo)}}}, nil
		}
	}
	return nil, fmt.Errorf("nn: vnnlib line %d: unsupported constraint %q; vigil reads and, or, <=, <, >=, > and =", e.line, e.list[0].atom)
}

// Limits on the disjunctive normal form, checked before it is built: an
// (and) of 17 two-way (or)s has 131072 cases, and each case repeats the
// atoms of every assert outside the (or)s (the input bounds), then
// allocates a box per case.
const (
	maxCases = 100_000
	maxAtoms = 4_000_000  // atoms over all cases
	maxCells = 10_000_000 // cases times inputs
	// maxRowCells bounds the coefficients of the output constraints over
	// all cases: each row holds one per output, and each case its own
	// rows, so a 3 KB file (16 two-way ors over 100 declared outputs,
	// 65536 cases of 16 rows) asked for 3.4 GB and 18 s.
	maxRowCells = 10_000_000
)

// rowCells checks, before any case is built, that the output constraints
// of the cases of dnf hold at most maxRowCells coefficients (one per
// output in each row), naming the line of the constraint past the bound.
func (p *parser) rowCells(dnf [][]atom) error {
	total := 0
	for _, conj := range dnf {
		for _, a := range conj {
			if !anyNonzero(a.lin.y) {
				continue
			}
			if total += p.ny; total > maxRowCells {
				return fmt.Errorf("nn: vnnlib line %d: the property's output constraints, one row of %d coefficients (one per output) for each constraint in each of its %d cases in disjunctive normal form, hold more than vigil's %d coefficients in all; split it into several files", a.line, p.ny, len(dnf), maxRowCells)
			}
		}
	}
	return nil
}

func anyNonzero(m map[int]*big.Rat) bool {
	for _, v := range m {
		if v.Sign() != 0 {
			return true
		}
	}
	return false
}

// conjoin is the DNF of the conjunction of a and b (each a DNF). It may
// reuse a's storage: the caller replaces a with the result.
func conjoin(a, b [][]atom, line int) ([][]atom, error) {
	if len(a) == 1 && len(b) == 1 {
		// One case and one more atom (a bound asserted on its own, as
		// VNN-COMP writes every input's): append in place, not copy
		// the case for each of a CIFAR property's 6144 bounds.
		if len(a[0])+len(b[0]) > maxAtoms {
			return nil, fmt.Errorf("nn: vnnlib line %d: the property has more than %d constraints; split it into several files", line, maxAtoms)
		}
		a[0] = append(a[0], b[0]...)
		return a, nil
	}
	if len(a) > 0 && len(b) > maxCases/len(a) {
		return nil, fmt.Errorf("nn: vnnlib line %d: the property has more than %d cases in disjunctive normal form (an and of ors multiplies them); split it into several files", line, maxCases)
	}
	atoms := 0
	for _, x := range a {
		atoms += len(x) * len(b)
	}
	for _, y := range b {
		atoms += len(y) * len(a)
	}
	if atoms > maxAtoms {
		return nil, fmt.Errorf("nn: vnnlib line %d: the property has more than %d constraints in disjunctive normal form (each case repeats the constraints outside the ors); split it into several files", line, maxAtoms)
	}
	out := make([][]atom, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			out = append(out, append(append(make([]atom, 0, len(x)+len(y)), x...), y...))
		}
	}
	return out, nil
}

// LoadVNNLIB reads a VNNLIB property file.
func LoadVNNLIB(path string) (*Property, error) {
	b, err := inputfile.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("nn: %v", err)
	}
	p, err := ParseVNNLIB(string(b))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// ParseVNNLIB parses a VNNLIB property.
func ParseVNNLIB(src string) (*Property, error) {
	es, err := parseSexps(src)
	if err != nil {
		return nil, err
	}
	p := &parser{}
	if err := p.declarations(es); err != nil {
		return nil, err
	}
	dnf, err := p.assertions(es)
	if err != nil {
		return nil, err
	}
	if len(dnf)*p.nx > maxCells {
		return nil, fmt.Errorf("nn: vnnlib: the property has %d cases over %d inputs, more than vigil's %d input bounds in all; split it into several files", len(dnf), p.nx, maxCells)
	}
	if err := p.rowCells(dnf); err != nil {
		return nil, err
	}
	prop := &Property{Inputs: p.nx, Outputs: p.ny}
	falseAt := 0
	for _, conj := range dnf {
		c, empty, err := p.newCase(conj)
		if err != nil {
			return nil, err
		}
		if !empty {
			prop.Cases = append(prop.Cases, c)
		} else if falseAt == 0 {
			for _, a := range conj {
				if len(a.lin.x) == 0 && len(a.lin.y) == 0 && (a.lin.c.Sign() > 0 || a.lin.c.Sign() == 0 && a.strict) {
					falseAt = a.line
					break
				}
			}
		}
	}
	if len(prop.Cases) == 0 {
		// As with an empty box, a typo must not verify the property.
		return nil, fmt.Errorf("nn: vnnlib line %d: a comparison of constants is false in every case, so the property would hold vacuously; fix the constraint", falseAt)
	}
	return prop, nil
}

// declarations reads the declare-consts of es (in any order, before the
// assertions are read): the inputs X_i and outputs Y_j, whose numbers it
// sets.
func (p *parser) declarations(es []*sexp) error {
	declared := map[string]int{} // name -> line
	for _, e := range es {
		if len(e.list) == 0 || e.list[0].atom != "declare-const" {
			continue
		}
		if len(e.list) != 3 || e.list[1].list != nil || e.list[2].atom != "Real" {
			return fmt.Errorf("nn: vnnlib line %d: want (declare-const NAME Real)", e.line)
		}
		name := e.list[1].atom
		var i int
		var err error
		switch {
		case strings.HasPrefix(name, "X_"):
			i, err = strconv.Atoi(name[2:])
			if err == nil && i < 1<<20 {
				p.nx = max(p.nx, i+1)
			}
		case strings.HasPrefix(name, "Y_"):
			i, err = strconv.Atoi(name[2:])
			if err == nil && i < 1<<20 {
				p.ny = max(p.ny, i+1)
			}
		default:
			err = fmt.Errorf("not X_i or Y_j")
		}
		if (err == nil && i >= 1<<20) || errors.Is(err, strconv.ErrRange) {
			return fmt.Errorf("nn: vnnlib line %d: variable %q: vigil takes at most %d inputs and outputs (X_0 .. X_%d, Y_0 .. Y_%d)", e.line, name, 1<<20, 1<<20-1, 1<<20-1)
		}
		if err != nil || i < 0 {
			return fmt.Errorf("nn: vnnlib line %d: variable %q: name inputs X_0, X_1 and so on, and outputs Y_0, Y_1 and so on", e.line, name)
		}
		if strconv.Itoa(i) != name[2:] {
			// X_00 is another SMT-LIB name than X_0: reading it as
			// X_0 would merge two variables.
			return fmt.Errorf("nn: vnnlib line %d: variable %q: write %s_%d, without a sign or leading zeros", e.line, name, name[:1], i)
		}
		if l, ok := declared[name]; ok {
			return fmt.Errorf("nn: vnnlib line %d: %s is declared twice (lines %d and %d); declare each variable once", e.line, name, l, e.line)
		}
		declared[name] = e.line
	}
	if p.nx == 0 || p.ny == 0 {
		return fmt.Errorf("nn: vnnlib: no X_i or no Y_j declared")
	}
	for _, v := range []struct {
		prefix string
		n      int
	}{{"X", p.nx}, {"Y", p.ny}} {
		for i := 0; i < v.n; i++ {
			if _, ok := declared[fmt.Sprintf("%s_%d", v.prefix, i)]; !ok {
				last := fmt.Sprintf("%s_%d", v.prefix, v.n-1)
				return fmt.Errorf("nn: vnnlib line %d: %s is declared but %s_%d is not; %s are %s_0 .. %s with no gaps: declare every one", declared[last], last, v.prefix, i, map[string]string{"X": "inputs", "Y": "outputs"}[v.prefix], v.prefix, last)
			}
		}
	}
	return nil
}

// assertions reads the asserts of es as one formula in disjunctive normal
// form: a list of cases, each a conjunction of atoms.
func (p *parser) assertions(es []*sexp) ([][]atom, error) {
	dnf := [][]atom{{}}
	for _, e := range es {
		if len(e.list) == 0 {
			return nil, fmt.Errorf("nn: vnnlib line %d: unexpected %q at top level", e.line, e.atom)
		}
		switch e.list[0].atom {
		case "declare-const":
			continue
		case "assert":
			if len(e.list) != 2 {
				return nil, fmt.Errorf("nn: vnnlib line %d: assert takes one formula", e.line)
			}
			d, err := p.formula(e.list[1])
			if err != nil {
				return nil, err
			}
			if dnf, err = conjoin(dnf, d, e.line); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("nn: vnnlib line %d: unsupported command %q", e.line, e.list[0].atom)
		}
	}
	return dnf, nil
}

// newCase turns a conjunction of atoms into a case: bounds on single
// inputs make its box, linear constraints on the outputs its
// constraints. empty says that a constant atom is false, so that the case
// holds nowhere.
//
// A bound r on an input is exact (a rational); Box takes it rounded
// outward to float64, so that proving over Box covers every real input
// the bound allows, and Points takes it rounded inward, past r where the
// bound is strict, so that every float64 input in Points satisfies the
// bound exactly: (< X_0 1) allows the counterexample X_0 = 1 - 2^-53 but
// not X_0 = 1.
func (p *parser) newCase(conj []atom) (c Case, empty bool, err error) {
	c = Case{Box: Box{Lo: make([]float64, p.nx), Hi: make([]float64, p.nx)},
		Points: Box{Lo: make([]float64, p.nx), Hi: make([]float64, p.nx)}}
	for i := range c.Box.Lo {
		c.Box.Lo[i], c.Box.Hi[i] = math.Inf(-1), math.Inf(1)
		c.Points.Lo[i], c.Points.Hi[i] = math.Inf(-1), math.Inf(1)
	}
	// The exact bounds, for the emptiness test.
	loR, hiR := make([]*big.Rat, p.nx), make([]*big.Rat, p.nx)
	loStrict, hiStrict := make([]bool, p.nx), make([]bool, p.nx)
	loLine, hiLine := make([]int, p.nx), make([]int, p.nx)
	for _, a := range conj {
		f, err := p.facts(a)
		if err != nil {
			return c, false, err
		}
		switch f.kind {
		case factBound:
			i, r := f.i, f.r
			if f.upper {
				if hiR[i] == nil || r.Cmp(hiR[i]) < 0 || (r.Cmp(hiR[i]) == 0 && a.strict) {
					hiR[i], hiStrict[i], hiLine[i] = r, a.strict, a.line
				}
				c.Box.Hi[i] = min(c.Box.Hi[i], f.box)
				c.Points.Hi[i] = min(c.Points.Hi[i], f.point)
			} else {
				if loR[i] == nil || r.Cmp(loR[i]) > 0 || (r.Cmp(loR[i]) == 0 && a.strict) {
					loR[i], loStrict[i], loLine[i] = r, a.strict, a.line
				}
				c.Box.Lo[i] = max(c.Box.Lo[i], f.box)
				c.Points.Lo[i] = max(c.Points.Lo[i], f.point)
			}
		case factConst:
			if f.isFalse {
				empty = true
			}
		default:
			// each case its own copy of the row
			c.Cons.Rows = append(c.Cons.Rows, append([]float64(nil), f.row...))
			c.Cons.Off = append(c.Cons.Off, f.off)
			c.Cons.Strict = append(c.Cons.Strict, a.strict)
			c.exact = append(c.exact, f.exact)
		}
	}
	for i := range c.Box.Lo {
		// An empty box would make the case vacuous and the answer
		// unsat: a typo in a bound must not verify the property.
		if loR[i] != nil && hiR[i] != nil {
			switch d := loR[i].Cmp(hiR[i]); {
			case d > 0:
				return c, false, fmt.Errorf("nn: vnnlib lines %d and %d: X_%d has lower bound %s above its upper bound %s; the input box is empty (swap or fix the bounds)",
					loLine[i], hiLine[i], i, ratString(loR[i]), ratString(hiR[i]))
			case d == 0 && (loStrict[i] || hiStrict[i]):
				return c, false, fmt.Errorf("nn: vnnlib lines %d and %d: X_%d %s and X_%d %s: no input satisfies both, the input box is empty (fix the bounds)",
					loLine[i], hiLine[i], i, boundString(loR[i], loStrict[i], ">"), i, boundString(hiR[i], hiStrict[i], "<"))
			}
		}
	}
	if empty {
		return c, true, nil
	}
	for i := range c.Box.Lo {
		if math.IsInf(c.Box.Lo[i], 0) || math.IsInf(c.Box.Hi[i], 0) {
			return c, false, fmt.Errorf("nn: vnnlib: input X_%d has no lower or upper bound; vigil needs an input box", i)
		}
	}
	return c, false, nil
}

// facts is what a case takes from a: computed on the first call and
// kept in a.memo for the atom's copies in the other cases.
func (p *parser) facts(a atom) (*atomFacts, error) {
	if a.memo != nil && a.memo.done {
		return &a.memo.f, a.memo.err
	}
	f, err := p.computeFacts(a)
	if a.memo == nil {
		return &f, err
	}
	a.memo.f, a.memo.err, a.memo.done = f, err, true
	return &a.memo.f, err
}

func (p *parser) computeFacts(a atom) (f atomFacts, err error) {
	l := a.lin
	if l.bad != "" {
		// NaN or infinite bounds would make comparisons false
		// (or true) and so decide the property by accident.
		return f, fmt.Errorf("nn: vnnlib line %d: the constraint on %s has the number %s, which is not finite (NaN, inf, or an exponent beyond ±1000); give finite bounds", a.line, varNames(l), clipNumber(l.bad))
	}
	for k, v := range l.x {
		if v.Sign() == 0 {
			delete(l.x, k)
		}
	}
	for k, v := range l.y {
		if v.Sign() == 0 {
			delete(l.y, k)
		}
	}
	switch {
	case len(l.x) > 0 && len(l.y) > 0:
		return f, fmt.Errorf("nn: vnnlib line %d: constraints mixing inputs and outputs are not supported", a.line)
	case len(l.x) > 1:
		return f, fmt.Errorf("nn: vnnlib line %d: constraints on several inputs are not supported; vigil reads input boxes", a.line)
	case len(l.x) == 1:
		// k*x + c <= 0
		for i, k := range l.x {
			r := new(big.Rat).Neg(l.c)
			r.Quo(r, k)
			down, up := ratFloor(r), ratCeil(r)
			if math.IsInf(down, 0) || math.IsInf(up, 0) {
				return f, fmt.Errorf("nn: vnnlib line %d: the bound %s on X_%d is beyond float64; give finite bounds", a.line, ratString(r), i)
			}
			f = atomFacts{kind: factBound, i: i, r: r, upper: k.Sign() > 0}
			if f.upper {
				// x <= r, or x < r.
				in := down
				if a.strict && new(big.Rat).SetFloat64(in).Cmp(r) == 0 {
					in = math.Nextafter(in, math.Inf(-1))
				}
				f.box, f.point = up, in
			} else {
				in := up
				if a.strict && new(big.Rat).SetFloat64(in).Cmp(r) == 0 {
					in = math.Nextafter(in, math.Inf(1))
				}
				f.box, f.point = down, in
			}
		}
		return f, nil
	case len(l.y) == 0:
		return atomFacts{kind: factConst, isFalse: l.c.Sign() > 0 || (l.c.Sign() == 0 && a.strict)}, nil
	}
	// A coefficient beyond float64 is scaled away: the row is
	// divided by its largest coefficient (a positive factor,
	// so the constraint is the same), exactly.
	big1 := new(big.Rat)
	for _, v := range l.y {
		if a := new(big.Rat).Abs(v); a.Cmp(big1) > 0 {
			big1 = a
		}
	}
	if fl, _ := big1.Float64(); math.IsInf(fl, 0) {
		y := make(map[int]*big.Rat, len(l.y)) // l shares its maps with the atom
		for j, v := range l.y {
			y[j] = new(big.Rat).Quo(v, big1)
		}
		l.y, l.c = y, new(big.Rat).Quo(l.c, big1)
	}
	row := make([]float64, p.ny)
	for j, v := range l.y {
		row[j], _ = v.Float64()
	}
	// The offset rounds down, so that the row is at most the
	// exact one where its coefficients are float64s; provable
	// lowers it further for the others.
	off := ratFloor(l.c)
	if !finite(row, off) {
		return f, fmt.Errorf("nn: vnnlib line %d: the constraint on %s has coefficients or an offset beyond float64 even when scaled by its largest coefficient; scale it down", a.line, varNames(l))
	}
	return atomFacts{kind: factRow, row: row, off: off, exact: exactRow{coef: l.y, off: l.c, strict: a.strict}}, nil
}

// boundString writes an exact bound for a message: ">= 0.5", or "> 0.5"
// when it is strict (op is ">" or "<").
func boundString(r *big.Rat, strict bool, op string) string {
	s := ratString(r)
	if strict {
		return op + " " + s
	}
	return op + "= " + s
}

// ratString writes r for a message: as a float64 when it is one, else as
// a fraction, or approximately when that is long.
func ratString(r *big.Rat) string {
	f, _ := r.Float64()
	if !math.IsInf(f, 0) && new(big.Rat).SetFloat64(f).Cmp(r) == 0 {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	if s := r.RatString(); len(s) <= 40 {
		return s
	}
	if math.IsInf(f, 0) || f == 0 {
		return "about " + new(big.Float).SetRat(r).Text('g', 6)
	}
	return "about " + strconv.FormatFloat(f, 'g', -1, 64)
}

// ratFloor is the largest float64 at most r (-Inf below float64's range).
func ratFloor(r *big.Rat) float64 {
	f, _ := r.Float64()
	if !math.IsInf(f, 0) && new(big.Rat).SetFloat64(f).Cmp(r) > 0 {
		f = math.Nextafter(f, math.Inf(-1))
	}
	return f
}

// ratCeil is the smallest float64 at least r (+Inf above float64's range).
func ratCeil(r *big.Rat) float64 {
	f, _ := r.Float64()
	if !math.IsInf(f, 0) && new(big.Rat).SetFloat64(f).Cmp(r) < 0 {
		f = math.Nextafter(f, math.Inf(1))
	}
	return f
}

// finite reports whether every value of row and off is finite.
func finite(row []float64, off float64) bool {
	for _, v := range append(row, off) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// varNames lists the variables of l, sorted, for messages.
func varNames(l linear) string {
	var xs, ys []int
	for i := range l.x {
		xs = append(xs, i)
	}
	for j := range l.y {
		ys = append(ys, j)
	}
	slices.Sort(xs)
	slices.Sort(ys)
	var names []string
	for _, i := range xs {
		names = append(names, fmt.Sprintf("X_%d", i))
	}
	for _, j := range ys {
		names = append(names, fmt.Sprintf("Y_%d", j))
	}
	if len(names) == 0 {
		return "no variable"
	}
	return strings.Join(names, ", ")
}

// Answer of Verify: sat (a counterexample exists), unsat, unknown.
type Answer string

const (
	Sat        Answer = "sat"
	Unsat      Answer = "unsat"
	AnswerUnkn Answer = "unknown"
)

// VerifyResult is the answer to a VNNLIB property.
type VerifyResult struct {
	Answer  Answer
	Input   []float64 // counterexample when Sat, checked by Eval
	Output  []float64
	Case    int // the disjunct the counterexample satisfies
	Nodes   int
	Elapsed time.Duration
}

// Verify decides prop on n within timeout (0: none). A sat answer's
// counterexample is checked by evaluating the network (Property.Check);
// one that does not satisfy the property is a *vigilerr.Internal error,
// never an answer.
func (n *Network) Verify(prop *Property, timeout time.Duration, opt Options) (VerifyResult, error) {
	res, err := n.decide(prop, timeout, opt)
	if err == nil && res.Answer == Sat && !prop.Check(n, res.Case, res.Input) {
		return res, vigilerr.Internalf("nn", "the counterexample %v does not satisfy the property", res.Input)
	}
	return res, err
}

// decide is Verify before the check of its counterexample.
func (n *Network) decide(prop *Property, timeout time.Duration, opt Options) (VerifyResult, error) {
	start := time.Now()
	if prop.Inputs != n.Inputs() || prop.Outputs != n.Outputs() {
		return VerifyResult{}, fmt.Errorf("nn: the property declares %d inputs and %d outputs but the network has %d and %d", prop.Inputs, prop.Outputs, n.Inputs(), n.Outputs())
	}
	if timeout > 0 {
		opt.Deadline = start.Add(timeout)
		if opt.MaxNodes == 0 {
			// Let the clock decide, within memory: about 200 bytes per
			// open box of a 5-input network.
			opt.MaxNodes = 2_000_000
		}
	}
	for i, c := range prop.Cases {
		if err := n.checkBox(c.Box); err != nil {
			return VerifyResult{}, fmt.Errorf("nn: case %d of the property: %w", i+1, err)
		}
	}
	res := VerifyResult{Answer: Unsat}
	var undecided []pendingCase // the cases left unknown
	todo, sat := n.falsify(prop, timeout, opt, start)
	if sat != nil {
		return *sat, nil
	}
	if len(todo) > 1 && (opt.Branch == BranchInput || (opt.Branch == BranchAuto && n.Inputs() <= autoInputs)) {
		var left []pendingCase
		if left, sat = n.inputPhase(prop, todo, opt, &res, start); sat != nil {
			return *sat, nil
		}
		if opt.Branch == BranchInput && len(left) > 0 {
			res.Answer = AnswerUnkn
		}
		if opt.Branch == BranchInput {
			undecided = append(undecided, left...)
			left = nil
		}
		todo = left
	}
	for k, t := range todo {
		if t.p.expired() {
			res.Answer = AnswerUnkn
			undecided = append(undecided, todo[k:]...)
			break
		}
		var r Result
		if opt.Branch == BranchAuto && n.Inputs() <= autoInputs && len(prop.Cases) > 1 {
			// The input phase above is over: ReLU splits for the rest
			// of the time.
			t.p.nodes = 0
			r = t.p.runReLU(prop.Cases[t.i].Box)
		} else {
			r = t.p.decide(prop.Cases[t.i].Box)
		}
		res.Nodes += r.Nodes
		switch r.Verdict {
		case Refuted:
			return n.sat(res, r.Witness, t.i, start, res.Nodes), nil
		case Unknown:
			res.Answer = AnswerUnkn
			undecided = append(undecided, t)
		}
	}
	// The corner check (cornerWitness): a counterexample where the
	// constraint's extreme equals its bound at a corner of a box.
	until := time.Now().Add(cornerTime) // for all of them
	for _, t := range undecided {
		if x := t.p.cornerWitness(prop.Cases[t.i].Box, until); x != nil {
			return n.sat(res, x, t.i, start, res.Nodes), nil
		}
	}
	res.Elapsed = time.Since(start)
	return res, nil
}

// pendingCase is a case of a property (its index) that the witness
// searches did not settle, with the prover that is to decide it.
type pendingCase struct {
	i int
	p *prover
}

// falsify tries cheap witness searches on every case of prop before
// proving any: the sampling of each case's prover, then a PGD attack on
// every case within 1/200 of the time limit, which finds counterexamples
// with wide basins fast (narrow ones are left to the branch and bound,
// which checks the centre of every box it splits). It returns the answer
// when one finds a counterexample, else the cases left to decide.
func (n *Network) falsify(prop *Property, timeout time.Duration, opt Options, start time.Time) ([]pendingCase, *VerifyResult) {
	var todo []pendingCase
	for i, c := range prop.Cases {
		p := newProver(n, c.provable(n), opt)
		p.points = c.points()
		if c.exact != nil {
			p.exact = c.holdsExactly
		}
		p.combine(func() []float64 { return n.outputMagnitude(c.Box) })
		if len(c.Cons.Rows) == 0 {
			if x := p.clampPoint(center(c.Box)); x != nil {
				res := n.sat(VerifyResult{}, x, i, start, p.nodes)
				return nil, &res
			}
		}
		if x := p.search(c.Box, p.opt.Samples); x != nil {
			res := n.sat(VerifyResult{}, x, i, start, p.nodes)
			return nil, &res
		}
		todo = append(todo, pendingCase{i, p})
	}
	for _, t := range todo {
		until := time.Time{}
		if timeout > 0 {
			until = time.Now().Add(timeout / 200 / time.Duration(len(todo)))
		}
		if x := t.p.attack(prop.Cases[t.i].Box, attackRestarts, until); x != nil {
			res := n.sat(VerifyResult{}, x, t.i, start, 0)
			return nil, &res
		}
	}
	return todo, nil
}

// inputPhase splits the input boxes of every case in turn, with doubling
// node budgets, so that a hard case does not starve the one with the
// counterexample (ACAS Xu prop_7 has two); with --branch auto it has half
// the time. It adds its nodes to res and returns the answer when it finds
// a counterexample, else the cases it could not decide.
func (n *Network) inputPhase(prop *Property, todo []pendingCase, opt Options, res *VerifyResult, start time.Time) ([]pendingCase, *VerifyResult) {
	var until time.Time
	if !opt.Deadline.IsZero() {
		until = opt.Deadline
		if opt.Branch == BranchAuto {
			until = time.Now().Add(time.Until(opt.Deadline) / 2)
		}
	}
	used := make([]int, len(todo))
	open := slices.Clone(todo)
	var left []pendingCase
	for budget := inputRestart; len(open) > 0; budget *= 2 {
		var next []pendingCase
		for k, t := range open {
			full := t.p.opt.Deadline
			if !until.IsZero() {
				t.p.opt.Deadline = until
			}
			r, done := t.p.inputRound(prop.Cases[t.i].Box, budget, &used[t.i])
			t.p.opt.Deadline = full
			switch {
			case r.Verdict == Refuted:
				sat := n.sat(*res, r.Witness, t.i, start, sum(used))
				return nil, &sat
			case r.Verdict == Proved:
			case done:
				left = append(left, t)
			default:
				next = append(next, t)
			}
			if r.Verdict == Unknown && done && !until.IsZero() && time.Now().After(until) {
				// The input phase is over for the others too: those
				// waiting for the next round and those not yet tried
				// in this one are left to the caller (dropping the
				// first answered unsat without them).
				left = append(append(left, next...), open[k+1:]...)
				next = nil
				break
			}
		}
		open = next
	}
	res.Nodes = sum(used)
	return left, nil
}

func sum(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}

// attackRestarts is the number of PGD starts per case of the
// falsification phase.
const attackRestarts = 10

// autoInputs is the most inputs for which BranchAuto splits inputs
// first: input splitting closes low-dimensional boxes (ACAS Xu's 5,
// control policies' few) fast, while ReLU splits with beta-CROWN do better
// on wider inputs (nn/FIGURES.md).
const autoInputs = 10

// decide runs the branch and bound opt.Branch selects. BranchAuto gives
// the first half of the time left to input splits (ReLU splits when the
// network has more than autoInputs inputs) and the rest to the other.
func (p *prover) decide(box Box) Result {
	first, second := p.runInput, p.runReLU
	switch {
	case p.opt.Branch == BranchInput:
		return p.runInput(box)
	case p.opt.Branch == BranchReLU:
		return p.runReLU(box)
	case p.net.Inputs() > autoInputs:
		first, second = p.runReLU, p.runInput
	}
	if p.opt.Deadline.IsZero() {
		return first(box)
	}
	full := p.opt
	p.opt.Deadline = time.Now().Add(time.Until(full.Deadline) / 2)
	r := first(box)
	p.opt = full
	if r.Verdict != Unknown || p.expired() {
		return r
	}
	// A fresh node budget for the second phase.
	done := p.nodes
	p.nodes = 0
	r2 := second(box)
	p.nodes += done
	r2.Nodes = p.nodes
	return r2
}

func (n *Network) sat(res VerifyResult, x []float64, c int, start time.Time, nodes int) VerifyResult {
	res.Answer, res.Input, res.Output, res.Case = Sat, x, n.Eval(x), c
	res.Nodes = nodes
	res.Elapsed = time.Since(start)
	return res
}

// Check reports whether x is a counterexample of case c: in the case's
// Points, with outputs (float64 evaluation) that satisfy every output
// constraint, as rounded and as written exactly.
func (prop *Property) Check(n *Network, c int, x []float64) bool {
	cs := prop.Cases[c]
	pts := cs.points()
	for i, v := range x {
		if !(v >= pts.Lo[i] && v <= pts.Hi[i]) {
			return false
		}
	}
	p := newProver(n, cs.Cons, Options{})
	if cs.exact != nil {
		p.exact = cs.holdsExactly
	}
	return p.witness(x)
}

// points is c.Points, or c.Box when Points is not set.
func (c *Case) points() Box {
	if c.Points.Lo == nil {
		return c.Box
	}
	return c.Points
}

// provable is c.Cons with each offset lowered so that where a row is
// positive over c.Box (what the prover proves), the constraint as the
// file wrote it is positive too. Cons rounds the coefficients to the
// nearest float64 and the offsets down; a coefficient k_j that is not a
// float64 (0.1, 2^53+1) differs from its rounding f_j by d_j, so the
// exact row is f·y + off + d·y >= f·y + off - sum_j |d_j| M_j, with M_j
// bounding |y_j| over the box (interval arithmetic, rounded outward,
// plus evaluation error). Without such a bound (evaluation might
// overflow) the offset is -MaxFloat64: nothing is proved with that row,
// and a witness is still judged by the exact constraints.
func (c *Case) provable(n *Network) Disjunction {
	if c.exact == nil {
		return c.Cons
	}
	d := Disjunction{Rows: c.Cons.Rows, Off: slices.Clone(c.Cons.Off), Strict: c.Cons.Strict}
	var mag []float64
	for k, r := range c.exact {
		loss := new(big.Rat)
		for j, v := range r.coef {
			dj := new(big.Rat).Sub(v, new(big.Rat).SetFloat64(c.Cons.Rows[k][j]))
			if dj.Sign() == 0 {
				continue
			}
			if mag == nil {
				mag = n.outputMagnitude(c.Box)
			}
			if math.IsInf(mag[j], 0) {
				loss = nil
				break
			}
			loss.Add(loss, dj.Abs(dj).Mul(dj, new(big.Rat).SetFloat64(mag[j])))
		}
		if loss == nil {
			d.Off[k] = -math.MaxFloat64
			continue
		}
		if loss.Sign() > 0 {
			d.Off[k] = max(ratFloor(loss.Sub(r.off, loss)), -math.MaxFloat64)
		}
	}
	return d
}

// outputMagnitude bounds |y_j|, for each output j of n, over every input
// of box, for float64 evaluation as for exact: +Inf where it cannot.
func (n *Network) outputMagnitude(box Box) []float64 {
	nout := n.Outputs()
	m := make([]float64, nout)
	lo, hi, e, ok := n.roundoff(box)
	for j := range m {
		m[j] = math.Inf(1)
		switch {
		case n.Out == OutSoftmax:
			m[j] = 1
		case !ok:
		case n.Out == OutNone:
			m[j] = roundUp(roundUp(max(math.Abs(lo[j]), math.Abs(hi[j]))) + e[j])
		case n.Out == OutLogSoftmax:
			// z_j - max z - log(sum e^(z-m)) lies in
			// [lo_j - max hi - log(nout), 0].
			top := math.Inf(-1)
			for i := range hi {
				top = max(top, hi[i]+e[i])
			}
			m[j] = roundUp(roundUp(top-(lo[j]-e[j])) + math.Log(float64(nout)) + 1)
		}
	}
	return m
}
