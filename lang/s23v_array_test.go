package lang

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestS23vArrayWriteAdversarial: TestArrayWriteDifferential's comparison
// (the specialized lowering of writes at a variable index against the
// shared one, state by state: guards, successors and range errors, and
// bfs) on the shapes a reviewer would try against the specializer:
// arrays of enums indexed by an enum variable, Boolean arrays written at
// an offset of the read index, schema and `for` parameters and constants
// in the indices (i + P, K + i), forall writes, nested reads a[a[i] + 1],
// offsets that leave the range (a[i + 1] where i is the last index),
// indices of no offset form (i * 1, (i + 1) - 1, i / 1, min), two writes
// one index apart, guards that narrow the index (i == 1, i >= 1 && i <=
// 2) and short-circuit chains (i < 2 && a[i + 1] > 0, i >= 2 || b[i +
// 1], chains of && and || in a guard).
func TestS23vArrayWriteAdversarial(t *testing.T) {
	arrayDifferential(t, "adv.spec", rand.New(rand.NewPCG(23, 2)), 200, 40, s23vArrayModel, 1, 2)
}

type s23vGen struct {
	rng   *rand.Rand
	lo    int
	param bool // in a schema or a `for`: P reads as a constant
}

func (g *s23vGen) pick(xs ...string) string { return xs[g.rng.IntN(len(xs))] }

// index is an index into a (and b, e: 0 .. 1, col for e and a).
func (g *s23vGen) index(d int) string {
	forms := []string{"i", "i", "i + 1", "1 + i", "i - 1", "i - 0", "(i + 1) - 1", "i * 1", "i / 1", "K + i", "i + K - 1", "j", "j + 1", "min(i, j)"}
	if g.param {
		forms = append(forms, "i + P", "P + j", "P")
	}
	if d > 0 {
		forms = append(forms, "a["+g.index(d-1)+"]", "a["+g.index(d-1)+"] + 1", "a[i] - "+fmt.Sprint(g.lo), "i + a[j] - "+fmt.Sprint(g.lo))
	}
	return g.pick(forms...)
}

// integer is a value of a's elements (0 .. 2, sometimes outside).
func (g *s23vGen) integer(d int) string {
	if d == 0 || g.rng.IntN(3) == 0 {
		return g.pick("0", "1", "2", "j", "a["+g.index(1)+"]", "a["+g.index(1)+"] + 1", "a["+fmt.Sprint(g.lo+1)+"]", "a["+g.index(1)+"] - 1", "if b["+g.index(1)+"] then 1 else 0")
	}
	x, y := g.integer(d-1), g.integer(d-1)
	switch g.rng.IntN(4) {
	case 0:
		return "min(2, " + x + " + " + y + ")"
	case 1:
		return "max(0, " + x + " - " + y + ")"
	case 2:
		return "(if " + g.boolean(d-1) + " then " + x + " else " + y + ")"
	}
	return "min(" + x + ", " + y + ")"
}

func (g *s23vGen) color() string {
	return g.pick("red", "green", "blue", "e["+g.index(1)+"]", "col", "(if "+g.boolean(0)+" then e["+g.index(1)+"] else green)", "e[col]")
}

// boolean is a condition reading the arrays, short-circuit chains among
// them.
func (g *s23vGen) boolean(d int) string {
	if d == 0 || g.rng.IntN(3) == 0 {
		return g.pick("b["+g.index(1)+"]", "true", "("+g.integer(0)+") < ("+g.integer(0)+")", "i < 2 && a[i + 1] > 0", "i >= 2 || b[i + 1]",
			"i >= 0 && i < 1 && b[i + 1] && a[i] == a[i + 1]", "e["+g.index(1)+"] == red", "e[col] != e[i]", "col == blue",
			"i < 0 || i > 1 || b[i] || b[i] == b[i - 1 + 1]")
	}
	x, y := g.boolean(d-1), g.boolean(d-1)
	switch g.rng.IntN(5) {
	case 0:
		return "!(" + x + ")"
	case 1:
		return "(" + x + ") && (" + y + ") && (" + g.boolean(0) + ")"
	case 2:
		return "(" + x + ") || ((" + y + ") || " + g.boolean(0) + ")"
	case 3:
		return "(" + x + ") => (" + y + ")"
	}
	return "(" + g.integer(d-1) + ") == (" + g.integer(d-1) + ")"
}

// s23vArrayModel is a random model over an array a of three integers
// (indexed from 0 or 1), Boolean and enum arrays b and e of two, an enum
// index col and integer indices i (one outside a's range on each side)
// and j.
func s23vArrayModel(rng *rand.Rand) string {
	g := &s23vGen{rng: rng, lo: rng.IntN(2)}
	var sb strings.Builder
	fmt.Fprintf(&sb, "type color = { red, green, blue }\nconst K = %d\nvar a : [%d .. %d] of 0 .. 2 = 0\nvar b : [0 .. 1] of bool = false\nvar e : [0 .. 1] of color = red\nvar i : -1 .. 2 = 0\nvar j : 0 .. 1 = 1\nvar col : color = green\n", g.lo, g.lo, g.lo+2)
	for c := 0; c < 1+rng.IntN(3); c++ {
		fmt.Fprintf(&sb, "action c%d", c)
		g.param = false
		switch rng.IntN(4) {
		case 0:
			sb.WriteString("(P in 0 .. 1)")
			g.param = true
		case 1:
			sb.WriteString(" for P in 0 .. 1")
			g.param = true
		}
		switch rng.IntN(4) {
		case 0:
			fmt.Fprintf(&sb, " when %s", g.boolean(2))
		case 1, 2:
			fmt.Fprintf(&sb, " when %s && (%s)", g.pick("i >= 0 && i <= 1", "i == 1", "i >= 1 && i <= 2", "i < 2 && i >= 0 && j >= 1", "i == 0 || i == 1"), g.boolean(1))
		}
		sb.WriteString(" ->")
		for o := 0; o < 1+rng.IntN(2); o++ {
			if o > 0 {
				sb.WriteString(" |")
			}
			var asg []string
			switch rng.IntN(6) {
			case 0: // two writes one index apart
				x := g.index(0)
				asg = append(asg, fmt.Sprintf("a[%s]' = %s", x, g.integer(2)), fmt.Sprintf("a[%s + 1]' = %s", x, g.integer(2)))
			case 1:
				asg = append(asg, fmt.Sprintf("forall k in 0 .. 1: b[k]' = %s", g.pick("b[k + i]", "b[1 - k] || a[i + k] > 0", "i == k && b[i] || i != k && b[k]", "a[k + i - 1 + K] == 1")))
			}
			targets := []string{"a[" + g.index(1) + "]", "a[" + g.index(1) + "]", "b[" + g.index(1) + "]", "e[" + g.index(1) + "]", "e[col]", "a[col]", "i", "j"}
			rng.Shuffle(len(targets), func(x, y int) { targets[x], targets[y] = targets[y], targets[x] })
			for _, tg := range targets[:1+rng.IntN(3)] {
				var v string
				switch tg[0] {
				case 'b':
					v = g.boolean(2)
				case 'e':
					v = g.color()
				case 'i':
					v = g.pick("min(2, i + 1)", "max(-1, i - 1)", "a[j + K]", "j")
				case 'j':
					v = g.pick("0", "1", "min(1, a[j + K])")
				default:
					v = g.integer(2)
					if rng.IntN(4) > 0 {
						v = "min(2, max(0, " + v + "))"
					}
				}
				asg = append(asg, tg+"' = "+v)
			}
			sb.WriteString(" " + strings.Join(asg, ", "))
		}
		sb.WriteString("\n")
	}
	sb.WriteString("action turn -> col' = if col == red then green else if col == green then blue else red\n")
	fmt.Fprintf(&sb, "property p { start i == 0 && j == 1 unsafe a[%d] == 2 && b[1] && e[1] == blue }\n", g.lo)
	return sb.String()
}

// TestS23vWriteErrorOnce: a type error in the value of a write at a
// variable index is reported once. The specialized lowering gives each
// element its own copy of the value, and the checker reported the error
// in every copy (200 elements: 50 errors, MaxErrors, at one place, each
// quoting another element, c[0] == 1, c[1] == 1, ...); before the
// specialization the copies were one shared node, checked once.
func TestS23vWriteErrorOnce(t *testing.T) {
	src := `var c : [0 .. 199] of 0 .. 3 = 0
var b : [0 .. 199] of bool = false
var i : 0 .. 199 = 0
action w -> b[i]' = if i == 0 then 1 else c[i] == 1
property p { unsafe b[1] }
`
	m, diags := LoadSource("once.spec", []byte(src), Options{})
	if m != nil {
		t.Fatal("loaded a model with a type error")
	}
	n := 0
	for _, d := range diags {
		if d.Code == "E0201" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d E0201 errors, want 1:\n%s", n, diags.Render())
	}
}
