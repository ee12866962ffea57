package gen

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
)

// EdgeSpec returns the .spec source of a small random model built to
// meet the edges of vigil's integer semantics through the front end, for
// differential tests of the explicit engines against the SMT encoding
// (session 29's adversarial review of the semantics layer):
//
//   - variables whose ranges sit next to ±2^53 (the widest ranges the
//     SMT engines take) or next to ±2^63 (wide: only with wide set), or
//     hold one value;
//   - constants at -2^63 and 2^63-1 inside sums, negations, abs, min,
//     max, products and divisions, so that intermediate values leave the
//     64-bit integers in either direction (abs(x - 2^63), -(x + MinInt),
//     ((x * B) / B));
//   - arrays read and written at variable indices (an index out of range
//     is a range error; two writes of one element too), enum variables,
//     Boolean variables assigned conditions;
//   - commands with overlapping guards, outcomes that repeat each other
//     (with weights), swaps (simultaneous assignment), and assignments
//     left unclamped so that some leave their range (range errors on any
//     assignment of an outcome);
//   - if/&&/||/=> whose unselected operand would read an array out of
//     range.
//
// Every model has initial values and one property p; the source may fail
// to load (a folded constant beyond 64 bits, E0303): the caller skips it.
func EdgeSpec(seed uint64, wide bool) string {
	g := &specGen{r: rand.New(rand.NewPCG(seed, 0x73323973)), wide: wide}
	return g.model(seed)
}

type specVar struct {
	name   string
	lo, hi int
}

type specGen struct {
	r       *rand.Rand
	wide    bool
	ints    []specVar // integer variables (not arrays)
	bools   []string
	enum    string   // the enum variable, "" when none
	arr     *specVar // the array (elements lo..hi of range 0..elemHi), nil when none
	elemHi  int
	arrBool bool
	sb      strings.Builder
}

func (g *specGen) line(format string, args ...any) {
	fmt.Fprintf(&g.sb, format, args...)
	g.sb.WriteByte('\n')
}

const (
	maxI = math.MaxInt64
	minI = math.MinInt64
	p53  = 1 << 53
)

func (g *specGen) model(seed uint64) string {
	r := g.r
	g.line("model edge%d", seed)
	if r.IntN(3) == 0 {
		g.line("type col = { red, green, blue }")
		g.enum = "c"
	}
	g.line("const BIG = %d", maxI)
	g.line("const NEG = %d", minI)
	g.line("const B = %d", g.pick(1<<62, 3037000500, 1<<53, maxI/3))
	nv := 1 + r.IntN(3)
	for i := 0; i < nv; i++ {
		v := specVar{name: fmt.Sprintf("x%d", i)}
		switch k := r.IntN(8); {
		case k == 0: // one value
			v.lo = r.IntN(5) - 2
			v.hi = v.lo
		case k == 1 && g.wide: // next to the ends of int64
			w := r.IntN(4)
			if r.IntN(2) == 0 {
				v.lo = minI + 1 + r.IntN(2)
			} else {
				v.lo = maxI - 1 - w - r.IntN(2)
			}
			v.hi = v.lo + w
		case k == 1 || k == 2: // next to ±2^53
			w := r.IntN(4)
			if r.IntN(2) == 0 {
				v.lo = -p53 + r.IntN(2)
			} else {
				v.lo = p53 - w - r.IntN(2)
			}
			v.hi = v.lo + w
		default:
			v.lo = r.IntN(5) - 3
			v.hi = v.lo + 1 + r.IntN(4)
		}
		g.ints = append(g.ints, v)
		g.line("var %s : %d .. %d = %d", v.name, v.lo, v.hi, v.lo+r.IntN(v.hi-v.lo+1))
	}
	if r.IntN(2) == 0 {
		g.bools = append(g.bools, "b0")
		g.line("var b0 : bool = %v", r.IntN(2) == 0)
	}
	if g.enum != "" {
		g.line("var c : col = %s", g.pick3("red", "green", "blue"))
	}
	if r.IntN(2) == 0 {
		n := 2 + r.IntN(2)
		g.arr = &specVar{name: "a", lo: 0, hi: n - 1}
		if r.IntN(4) == 0 {
			g.arrBool = true
			g.line("var a : [0 .. %d] of bool = false", n-1)
		} else {
			g.elemHi = 1 + r.IntN(2)
			g.line("var a : [0 .. %d] of 0 .. %d = %d", n-1, g.elemHi, r.IntN(g.elemHi+1))
		}
	}
	labels := []string{"l0", "l1", "l2"}[:1+r.IntN(3)]
	nc := len(labels) + r.IntN(3)
	for i := 0; i < nc; i++ {
		l := labels[i%len(labels)]
		if i >= len(labels) {
			l = labels[r.IntN(len(labels))]
		}
		g.command(l)
	}
	g.property()
	return g.sb.String()
}

func (g *specGen) pick(xs ...int) int { return xs[g.r.IntN(len(xs))] }

func (g *specGen) pick3(a, b, c string) string { return []string{a, b, c}[g.r.IntN(3)] }

func (g *specGen) intVar() specVar { return g.ints[g.r.IntN(len(g.ints))] }

// smallVar returns an integer variable whose values are small (usable as
// an index), or false.
func (g *specGen) smallVar() (specVar, bool) {
	var out []specVar
	for _, v := range g.ints {
		if v.lo > -10 && v.hi < 10 {
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		return specVar{}, false
	}
	return out[g.r.IntN(len(out))], true
}

// index is an index expression for the array: a small variable (possibly
// out of range), a constant, or a clamped variable.
func (g *specGen) index() string {
	if v, ok := g.smallVar(); ok {
		switch g.r.IntN(4) {
		case 0:
			return fmt.Sprintf("%d", g.r.IntN(g.arr.hi+1))
		case 1:
			return fmt.Sprintf("min(max(%s, 0), %d)", v.name, g.arr.hi)
		case 2:
			return v.name + " + 1"
		}
		return v.name
	}
	return fmt.Sprintf("%d", g.r.IntN(g.arr.hi+1))
}

// big is an expression whose intermediate values may leave int64.
func (g *specGen) big(d int) string {
	v := g.intVar().name
	e := g.expr(d)
	switch g.r.IntN(10) {
	case 0:
		return fmt.Sprintf("abs(%s + NEG)", v) // 2^63 - v or more
	case 1:
		return fmt.Sprintf("(-(%s + NEG)) - BIG", v) // 1 - v
	case 2:
		return fmt.Sprintf("(%s * B + %s * B) / B", e, e)
	case 3:
		return fmt.Sprintf("min(%s + BIG, %s + BIG) - BIG", v, e)
	case 4:
		return fmt.Sprintf("max(%s - BIG, NEG + %s) + BIG", e, v)
	case 5:
		return fmt.Sprintf("(%s - NEG) / B", e)
	case 6:
		return fmt.Sprintf("(if %s then %s * BIG else %s) / BIG", g.cond(0), v, e)
	case 7:
		return fmt.Sprintf("-%s * NEG / BIG", v)
	case 8:
		return fmt.Sprintf("abs(NEG + %s) - BIG", e)
	}
	return fmt.Sprintf("(%s + BIG) - (%s + BIG)", e, v)
}

func (g *specGen) leaf() string {
	r := g.r
	switch k := r.IntN(8); {
	case k < 4:
		return g.intVar().name
	case k == 4 && g.arr != nil && !g.arrBool:
		return fmt.Sprintf("a[%s]", g.index())
	case k == 5:
		return fmt.Sprintf("%d", r.IntN(7)-3)
	case k == 6 && len(g.bools) > 0:
		return fmt.Sprintf("(if %s then 1 else 0)", g.bools[0])
	}
	return fmt.Sprintf("%d", r.IntN(3))
}

func (g *specGen) expr(d int) string {
	r := g.r
	if d <= 0 || r.IntN(4) == 0 {
		return g.leaf()
	}
	d--
	switch r.IntN(12) {
	case 0, 1:
		return fmt.Sprintf("(%s + %s)", g.expr(d), g.expr(d))
	case 2:
		return fmt.Sprintf("(%s - %s)", g.expr(d), g.expr(d))
	case 3:
		return fmt.Sprintf("-%s", g.expr(d))
	case 4:
		return fmt.Sprintf("%d * %s", r.IntN(5)-2, g.expr(d))
	case 5:
		return fmt.Sprintf("(%s / %d)", g.expr(d), 1+r.IntN(3))
	case 6:
		return fmt.Sprintf("min(%s, %s)", g.expr(d), g.expr(d))
	case 7:
		return fmt.Sprintf("max(%s, %s)", g.expr(d), g.expr(d))
	case 8:
		return fmt.Sprintf("abs(%s)", g.expr(d))
	case 9:
		return fmt.Sprintf("(if %s then %s else %s)", g.cond(d), g.expr(d), g.expr(d))
	}
	return "(" + g.big(d) + ")"
}

func (g *specGen) atom(d int) string {
	r := g.r
	switch k := r.IntN(10); {
	case k == 0 && len(g.bools) > 0:
		return g.bools[0]
	case k == 1 && g.enum != "":
		return fmt.Sprintf("c %s %s", []string{"==", "!="}[r.IntN(2)], g.pick3("red", "green", "blue"))
	case k == 2 && g.arr != nil && g.arrBool:
		return fmt.Sprintf("a[%s]", g.index())
	case k == 3:
		v := g.intVar()
		return fmt.Sprintf("%s %s %d", v.name, []string{"==", "!=", "<", "<=", ">", ">="}[r.IntN(6)], v.lo+r.IntN(v.hi-v.lo+3)-1)
	case k == 4 && g.arr != nil:
		// the right operand reads out of range only where the left
		// operand does not decide: never an error
		v, ok := g.smallVar()
		if ok {
			el := fmt.Sprintf("a[%s]", v.name)
			if !g.arrBool {
				el += fmt.Sprintf(" == %d", r.IntN(g.elemHi+1))
			}
			return fmt.Sprintf("(%s >= 0 && %s <= %d && %s)", v.name, v.name, g.arr.hi, el)
		}
	}
	return fmt.Sprintf("%s %s %s", g.expr(d), []string{"==", "!=", "<", "<=", ">", ">="}[r.IntN(6)], g.expr(d))
}

func (g *specGen) cond(d int) string {
	r := g.r
	if d <= 0 || r.IntN(3) == 0 {
		return g.atom(0)
	}
	d--
	switch r.IntN(5) {
	case 0:
		return fmt.Sprintf("(%s && %s)", g.cond(d), g.cond(d))
	case 1:
		return fmt.Sprintf("(%s || %s)", g.cond(d), g.cond(d))
	case 2:
		return fmt.Sprintf("(%s => %s)", g.cond(d), g.cond(d))
	case 3:
		return fmt.Sprintf("!(%s)", g.cond(d))
	}
	return g.atom(d)
}

// assignInt returns a right-hand side for v: clamped into its range, or
// (a third of the time) not, so that it may leave it.
func (g *specGen) assignInt(lo, hi int) string {
	e := g.expr(2)
	switch g.r.IntN(6) {
	case 0, 1:
		return e
	case 2: // a swap partner or a neighbour
		return g.intVar().name
	}
	return fmt.Sprintf("min(max(%s, %d), %d)", e, lo, hi)
}

func (g *specGen) outcome() string {
	r := g.r
	var as []string
	for _, v := range g.ints {
		if r.IntN(2) == 0 {
			as = append(as, fmt.Sprintf("%s' = %s", v.name, g.assignInt(v.lo, v.hi)))
		}
	}
	for _, b := range g.bools {
		if r.IntN(3) == 0 {
			as = append(as, fmt.Sprintf("%s' = %s", b, g.cond(1)))
		}
	}
	if g.enum != "" && r.IntN(3) == 0 {
		as = append(as, fmt.Sprintf("c' = if %s then %s else %s", g.cond(1), g.pick3("red", "green", "blue"), g.pick3("red", "green", "blue")))
	}
	if g.arr != nil && r.IntN(2) == 0 {
		val := func() string {
			if g.arrBool {
				return g.cond(1)
			}
			if r.IntN(3) == 0 {
				return g.expr(1) // may leave the element range
			}
			return fmt.Sprintf("min(max(%s, 0), %d)", g.expr(1), g.elemHi)
		}
		i1 := g.index()
		as = append(as, fmt.Sprintf("a[%s]' = %s", i1, val()))
		if r.IntN(3) == 0 {
			// a second write: of the same element where the indices meet
			if v, ok := g.smallVar(); ok && v.name != i1 {
				as = append(as, fmt.Sprintf("a[%s]' = %s", v.name, val()))
			}
		}
	}
	if len(as) == 0 {
		return "skip"
	}
	return strings.Join(as, ", ")
}

func (g *specGen) command(label string) {
	r := g.r
	guard := ""
	if r.IntN(5) != 0 {
		guard = " when " + g.cond(2)
	}
	n := 1 + r.IntN(3)
	outs := make([]string, n)
	weighted := r.IntN(3) == 0
	for i := range outs {
		if i > 0 && r.IntN(4) == 0 {
			outs[i] = outs[r.IntN(i)] // a duplicate outcome
		} else {
			outs[i] = g.outcome()
		}
	}
	if weighted {
		for i := range outs {
			outs[i] = fmt.Sprintf("%d: %s", 1+r.IntN(3), outs[i])
		}
	}
	g.line("action %s%s\n    -> %s", label, guard, strings.Join(outs, "\n     | "))
}

func (g *specGen) property() {
	r := g.r
	g.line("property p {")
	if r.IntN(2) == 0 {
		// a start condition over the variables (arrays excluded: their
		// reads outside actions must stay in range provably)
		v := g.intVar()
		g.line("  start %s >= %d", v.name, v.lo+r.IntN(v.hi-v.lo+1))
	}
	g.line("  unsafe %s", g.propCond())
	if r.IntN(4) == 0 {
		g.line("  goal %s", g.propCond())
	}
	g.line("}")
}

// propCond is a condition without array reads at variable indices.
func (g *specGen) propCond() string {
	arr := g.arr
	g.arr = nil
	defer func() { g.arr = arr }()
	return g.cond(2)
}
