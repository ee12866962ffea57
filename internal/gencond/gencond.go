// Package gencond generates random start conditions for the tests of
// the start states' narrowing: the explicit engine's (symbolic/explicit)
// and the safety certificate checker's own (safety/cert), which share no
// code, are attacked with the same conditions.
package gencond

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// StartCond is a random start condition over x, y (integers) and b (a
// Boolean): comparisons of forms built from divisions by constants up to
// 2^63-1, max, min, abs, unary minus, constant multiples, sums and
// if-then-else with constants up to the ends of int64, combined by !,
// &&, || and =>, so that the narrowing meets negations and disjunctions
// at every depth.
func StartCond(rng *rand.Rand) string {
	consts := []int64{0, 1, 2, 3, 7, -1, -2, -5, 1 << 31, 1 << 62, -(1 << 62), 1<<63 - 1, -(1<<63 - 1), 1<<62 + 3, 1<<63 - 2}
	lit := func() string {
		c := consts[rng.IntN(len(consts))]
		if rng.IntN(2) == 0 {
			c = int64(rng.IntN(9) - 4)
		}
		if c < 0 {
			return fmt.Sprintf("(%d)", c)
		}
		return fmt.Sprint(c)
	}
	var expr func(d int) string
	expr = func(d int) string {
		if d == 0 || rng.IntN(4) == 0 {
			switch rng.IntN(5) {
			case 0:
				return "x"
			case 1:
				return "y"
			case 2:
				return fmt.Sprintf("(x + %s)", lit())
			case 3:
				return fmt.Sprintf("(y - x + %d)", rng.IntN(5)-2)
			}
			return fmt.Sprintf("(%d * x - y)", rng.IntN(7)-3)
		}
		a := expr(d - 1)
		switch rng.IntN(9) {
		case 0, 1:
			k := []int64{1, 2, 3, 7, 1 << 31, 1 << 62, 1<<63 - 1}[rng.IntN(7)]
			return fmt.Sprintf("(%s / %d)", a, k)
		case 2:
			return fmt.Sprintf("max(%s, %s)", a, expr(d-1))
		case 3:
			return fmt.Sprintf("min(%s, %s)", a, expr(d-1))
		case 4:
			return fmt.Sprintf("abs(%s)", a)
		case 5:
			return fmt.Sprintf("(-%s)", a)
		case 6:
			return fmt.Sprintf("(%d * %s)", []int{-1, 2, -3}[rng.IntN(3)], a)
		case 7:
			return fmt.Sprintf("(%s + %s)", a, expr(d-1))
		}
		return fmt.Sprintf("(if b then %s else %s)", a, expr(d-1))
	}
	ops := []string{"<", "<=", "==", "!=", ">", ">="}
	var cond func(d int) string
	cond = func(d int) string {
		if d == 0 || rng.IntN(3) > 0 {
			switch rng.IntN(8) {
			case 0:
				return "b"
			case 1:
				return "!b"
			case 2:
				return fmt.Sprintf("%s %s %s", expr(rng.IntN(3)), ops[rng.IntN(6)], expr(rng.IntN(3)))
			case 3, 4:
				return fmt.Sprintf("%s %s %s", lit(), ops[rng.IntN(6)], expr(1+rng.IntN(3)))
			}
			return fmt.Sprintf("%s %s %s", expr(1+rng.IntN(3)), ops[rng.IntN(6)], lit())
		}
		switch rng.IntN(5) {
		case 0:
			return "!(" + cond(d-1) + ")"
		case 1:
			return "(" + cond(d-1) + " || " + cond(d-1) + ")"
		case 2:
			return "(" + cond(d-1) + " => " + cond(d-1) + ")"
		}
		return "(" + cond(d-1) + " && " + cond(d-1) + ")"
	}
	var conj []string
	for j := 0; j <= rng.IntN(3); j++ {
		conj = append(conj, cond(2))
	}
	return strings.Join(conj, " && ")
}
