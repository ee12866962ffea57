package lang

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"vigil/symbolic"
)

// Session 24: an array read in the right operand of ||, or in the else
// branch of an if, is evaluated only where the left operand (the
// condition) is false, and the index's interval is narrowed there
// (narrowNot): `i >= N || a[i] > 0` and `if i >= N then 0 else a[i]` read
// a[i] in range. Such reads outside actions were error E0804 although
// they provably stay in range.

func TestS24xNarrowNotAccepts(t *testing.T) {
	src := `model n
type col = { red, green, blue }
const N = 2
var a : [0 .. N - 1] of 0 .. 2 = 0
var i : 0 .. N = 0
var c : col = red
action mv when i < N -> i' = i + 1
action paint when c != blue -> c' = blue
policy rules pi {
    when !(i >= N || a[i] != 1) -> mv
    when i > N - 1 || a[i] == 1 -> mv
    when (if i >= N then 0 else a[i]) == 2 -> mv
    when c == blue || a[c] == 0 -> paint
    when !(c != red) && a[c] == 0 -> paint
}
property p { start i == 0 unsafe !(i == N || a[i] < 2) && (c == blue || a[c] == 1) }
`
	if _, diags := LoadSource("n.spec", []byte(src), Options{}); diags.HasErrors() {
		t.Fatalf("want no errors:\n%s", diags.Render())
	}
	// reads before the narrowing condition, or under a disjunction of
	// comparisons, may leave the range: still E0804
	for _, cond := range []string{
		"a[i] < 2 && i < N",
		"i >= N && a[i] == 1",
		"(i < N || c == red) && a[i] == 1",
		"!(i < N || c == red) || a[i] == 1",
		"c != blue || a[c] == 0",
		"if i < N then 0 else a[i]",
	} {
		bad := strings.Replace(src, "when !(i >= N || a[i] != 1) -> mv", "when ("+cond+") -> mv", 1)
		if strings.HasPrefix(cond, "if") {
			bad = strings.Replace(src, "when !(i >= N || a[i] != 1) -> mv", "when ("+cond+") == 1 -> mv", 1)
		}
		_, diags := LoadSource("n.spec", []byte(bad), Options{})
		if !strings.Contains(diags.Render(), "E0804") {
			t.Errorf("%s: want E0804, got:\n%s", cond, diags.Render())
		}
	}
}

// s24xCond is a condition of the test's grammar, printed as .spec text
// and evaluated directly with lang/spec.md's error semantics.
type s24xCond struct {
	op   string // "cmp", "&&", "||", "=>", "!", "if" (value: if c then x else y)
	x    string // cmp: left operand (i, j, a[IDX]), compared with k
	rel  string
	k    int
	a, b *s24xCond
}

func (c *s24xCond) String() string {
	switch c.op {
	case "cmp":
		return fmt.Sprintf("%s %s %d", c.x, c.rel, c.k)
	case "!":
		return "!(" + c.a.String() + ")"
	}
	return "(" + c.a.String() + " " + c.op + " " + c.b.String() + ")"
}

// eval is c's truth in state (i, j, a) and whether evaluating it reads a
// out of range (&&, ||, => from the left and only what they need).
func (c *s24xCond) eval(i, j int, a []int) (v, bad bool) {
	switch c.op {
	case "cmp":
		x, bad := s24xVal(c.x, i, j, a)
		if bad {
			return false, true
		}
		switch c.rel {
		case "<":
			return x < c.k, false
		case "<=":
			return x <= c.k, false
		case ">":
			return x > c.k, false
		case ">=":
			return x >= c.k, false
		case "==":
			return x == c.k, false
		}
		return x != c.k, false
	case "!":
		v, bad := c.a.eval(i, j, a)
		return !v, bad
	}
	l, bad := c.a.eval(i, j, a)
	if bad {
		return false, true
	}
	switch {
	case c.op == "&&" && !l, c.op == "=>" && !l:
		return c.op == "=>", false
	case c.op == "||" && l:
		return true, false
	}
	return c.b.eval(i, j, a)
}

func s24xVal(x string, i, j int, a []int) (int, bool) {
	idx := 0
	switch x {
	case "i":
		return i, false
	case "j":
		return j, false
	case "a[i]":
		idx = i
	case "a[j]":
		idx = j
	case "a[i + 1]":
		idx = i + 1
	case "a[j - 1]":
		idx = j - 1
	}
	if idx < 0 || idx >= len(a) {
		return 0, true
	}
	return a[idx], false
}

func s24xGenCond(r *rand.Rand, d int) *s24xCond {
	if d == 0 || r.IntN(3) == 0 {
		xs := []string{"i", "j", "i", "j", "a[i]", "a[j]", "a[i + 1]", "a[j - 1]"}
		rels := []string{"<", "<=", ">", ">=", "==", "!="}
		return &s24xCond{op: "cmp", x: xs[r.IntN(len(xs))], rel: rels[r.IntN(len(rels))], k: r.IntN(6) - 1}
	}
	switch r.IntN(5) {
	case 0:
		return &s24xCond{op: "!", a: s24xGenCond(r, d-1)}
	case 1:
		return &s24xCond{op: "&&", a: s24xGenCond(r, d-1), b: s24xGenCond(r, d-1)}
	case 2:
		return &s24xCond{op: "=>", a: s24xGenCond(r, d-1), b: s24xGenCond(r, d-1)}
	}
	return &s24xCond{op: "||", a: s24xGenCond(r, d-1), b: s24xGenCond(r, d-1)}
}

// TestS24xNarrowNotSemantics: the narrowed case splits keep the meaning
// of the reads. Random conditions of comparisons of i, j and elements of
// a read at i, j, i + 1, j - 1 under !, &&, || and =>, as the value
// `r' = if C then 1 else 0` and as the else branch `if C then 2 else
// (if D then 1 else 0)`, are lowered; in every state the lowered outcome
// must give r the value of a direct evaluation, and set the carrier a[0]
// one above its range exactly where the direct evaluation reads a out of
// range.
func TestS24xNarrowNotSemantics(t *testing.T) {
	r := rand.New(rand.NewPCG(24, 0x6e6f74))
	n := 300
	if testing.Short() {
		n = 100
	}
	for k := 0; k < n; k++ {
		c, dcond := s24xGenCond(r, 3), s24xGenCond(r, 2)
		value := fmt.Sprintf("if %s then 1 else 0", c)
		if k%2 == 1 {
			value = fmt.Sprintf("if %s then 2 else (if %s then 1 else 0)", c, dcond)
		}
		src := fmt.Sprintf("model m\nvar a : [0 .. 2] of 0 .. 3 = 0\nvar i : -1 .. 3 = 0\nvar j : 0 .. 4 = 0\nvar r : 0 .. 2 = 0\naction t -> r' = %s\nproperty p { unsafe r == 3 }\n", value)
		m, diags := LoadSource("m.spec", []byte(src), Options{})
		if diags.HasErrors() {
			t.Fatalf("%s", diags.Render())
		}
		if len(m.Commands) != 1 || len(m.Commands[0].Outcomes) != 1 {
			t.Fatalf("want one command of one outcome:\n%s", src)
		}
		o := m.Commands[0].Outcomes[0]
		vid := map[string]int{}
		for v := range m.Vars {
			vid[m.Vars[v].Name] = v
		}
		s := make(symbolic.State, len(m.Vars))
		for i := -1; i <= 3; i++ {
			for j := 0; j <= 4; j++ {
				for x := 0; x < 64; x++ {
					a := []int{x % 4, x / 4 % 4, x / 16}
					s[vid["i"]], s[vid["j"]], s[vid["r"]] = i, j, 0
					for e := range a {
						s[vid[fmt.Sprintf("a[%d]", e)]] = a[e]
					}
					want, bad := c.eval(i, j, a)
					wantR := 0
					if want {
						wantR = 1
						if k%2 == 1 {
							wantR = 2
						}
					} else if k%2 == 1 && !bad {
						var d bool
						d, bad = dcond.eval(i, j, a)
						if d {
							wantR = 1
						}
					}
					gotBad, gotR := false, 0
					for _, as := range o.Assigns {
						v := as.Value.Eval(s)
						switch m.Vars[as.Var].Name {
						case "a[0]":
							gotBad = v == 4
						case "r":
							gotR = v
						}
					}
					if gotBad != bad || !bad && gotR != wantR {
						t.Fatalf("state i=%d j=%d a=%v: lowered r=%d error=%v, want r=%d error=%v\n%s", i, j, a, gotR, gotBad, wantR, bad, src)
					}
				}
			}
		}
	}
}
