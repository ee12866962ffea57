package lang

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"vigil/symbolic"
)

// Session 24 review (h-rev3): an adversarial differential test of the
// narrowing of array indices by the conditions under which a read is
// evaluated (narrow and narrowNot in array.go). Random conditions and
// integer expressions over integer, enum and Boolean variables, reading
// an integer array whose indices start at 1 and a Boolean array at
// indices built with + - * / abs min max unary minus, if, enum values and
// nested reads, compared with the index on either side, under ! && || =>
// and if at any depth, are lowered in four places: a property's unsafe
// condition, a policy rule, an action's guard with an outcome, and an
// action's cost. In every state the lowered model must mean what a
// direct evaluation of the source (lang/spec.md's semantics: && || =>
// and if evaluate from the left and only what they need) means, and a
// condition or cost that loads without E0804 must never read out of
// range.

// s24wNode is an expression of the test's grammar.
type s24wNode struct {
	kind string // lit var enum read bread bvar bin div neg call ite cmp not and or imp
	op   string // bin: + - *; call: abs min max; cmp: the comparison
	name string // var: i j c k; enum: rd gr bl; lit: the text (N - 1, ...)
	k    int    // lit, enum: the value
	args []*s24wNode
}

// s24wState is one state: i, j, k, enum c, Boolean bo, a[1..3], bb[0..1].
type s24wState struct {
	i, j, k, c, bo int
	a              [3]int
	bb             [2]int
}

func (n *s24wNode) String() string {
	a := n.args
	switch n.kind {
	case "lit":
		return n.name
	case "var", "enum", "bvar":
		return n.name
	case "read":
		return "a[" + a[0].String() + "]"
	case "bread":
		return "bb[" + a[0].String() + "]"
	case "bin":
		return "(" + a[0].String() + " " + n.op + " " + a[1].String() + ")"
	case "div":
		return "(" + a[0].String() + " / 2)"
	case "neg":
		return "(-" + a[0].String() + ")"
	case "call":
		if n.op == "abs" {
			return "abs(" + a[0].String() + ")"
		}
		return n.op + "(" + a[0].String() + ", " + a[1].String() + ")"
	case "ite":
		return "(if " + a[0].String() + " then " + a[1].String() + " else " + a[2].String() + ")"
	case "cmp":
		return "(" + a[0].String() + " " + n.op + " " + a[1].String() + ")"
	case "not":
		return "!" + a[0].String()
	case "and":
		return "(" + a[0].String() + " && " + a[1].String() + ")"
	case "or":
		return "(" + a[0].String() + " || " + a[1].String() + ")"
	case "imp":
		return "(" + a[0].String() + " => " + a[1].String() + ")"
	}
	panic(n.kind)
}

func s24wFloorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// eval is n's value (conditions: 0 or 1) in state s and whether
// evaluating it reads an array out of range.
func (n *s24wNode) eval(s *s24wState) (int, bool) {
	a := n.args
	switch n.kind {
	case "lit", "enum":
		return n.k, false
	case "var":
		switch n.name {
		case "i":
			return s.i, false
		case "j":
			return s.j, false
		case "k":
			return s.k, false
		}
		return s.c, false
	case "bvar":
		return s.bo, false
	case "read", "bread":
		x, bad := a[0].eval(s)
		if bad {
			return 0, true
		}
		if n.kind == "read" {
			if x < 1 || x > 3 {
				return 0, true
			}
			return s.a[x-1], false
		}
		if x < 0 || x > 1 {
			return 0, true
		}
		return s.bb[x], false
	case "ite":
		c, bad := a[0].eval(s)
		if bad {
			return 0, true
		}
		if c == 1 {
			return a[1].eval(s)
		}
		return a[2].eval(s)
	case "and", "or", "imp":
		l, bad := a[0].eval(s)
		if bad {
			return 0, true
		}
		switch {
		case n.kind == "and" && l == 0:
			return 0, false
		case n.kind == "imp" && l == 0, n.kind == "or" && l == 1:
			return 1, false
		}
		return a[1].eval(s)
	}
	// every other operator evaluates all its operands
	vs := make([]int, len(a))
	bad := false
	for x, arg := range a {
		v, b := arg.eval(s)
		vs[x], bad = v, bad || b
	}
	if bad {
		return 0, true
	}
	b2i := func(b bool) int {
		if b {
			return 1
		}
		return 0
	}
	switch n.kind {
	case "bin":
		switch n.op {
		case "+":
			return vs[0] + vs[1], false
		case "-":
			return vs[0] - vs[1], false
		}
		return vs[0] * vs[1], false
	case "div":
		return s24wFloorDiv(vs[0], 2), false
	case "neg":
		return -vs[0], false
	case "call":
		switch n.op {
		case "abs":
			return max(vs[0], -vs[0]), false
		case "min":
			return min(vs[0], vs[1]), false
		}
		return max(vs[0], vs[1]), false
	case "not":
		return 1 - vs[0], false
	case "cmp":
		x, y := vs[0], vs[1]
		switch n.op {
		case "<":
			return b2i(x < y), false
		case "<=":
			return b2i(x <= y), false
		case ">":
			return b2i(x > y), false
		case ">=":
			return b2i(x >= y), false
		case "==":
			return b2i(x == y), false
		}
		return b2i(x != y), false
	}
	panic(n.kind)
}

// s24wGen generates expressions: conditions (cond) and integers (num),
// d the depth left.
type s24wGen struct{ r *rand.Rand }

var s24wRels = []string{"<", "<=", ">", ">=", "==", "!=", "!="}

func lit(k int) *s24wNode { return &s24wNode{kind: "lit", name: fmt.Sprint(k), k: k} }

// konst is a constant: a literal or an expression of the constant N = 3.
func (g *s24wGen) konst() *s24wNode {
	switch g.r.IntN(6) {
	case 0:
		return &s24wNode{kind: "lit", name: "N", k: 3}
	case 1:
		return &s24wNode{kind: "lit", name: "(N - 2)", k: 1}
	case 2:
		return &s24wNode{kind: "lit", name: "(-N)", k: -3}
	case 3:
		return &s24wNode{kind: "lit", name: "(N / 2)", k: 1}
	}
	k := g.r.IntN(8) - 2
	if k < 0 {
		return &s24wNode{kind: "lit", name: fmt.Sprintf("(%d)", k), k: k}
	}
	return lit(k)
}

func (g *s24wGen) v() *s24wNode {
	return &s24wNode{kind: "var", name: []string{"i", "j", "k", "i", "k"}[g.r.IntN(5)]}
}

// index is an index expression (integer, or the enum c).
func (g *s24wGen) index(d int) *s24wNode {
	if d <= 0 || g.r.IntN(3) == 0 {
		if g.r.IntN(6) == 0 {
			return &s24wNode{kind: "var", name: "c"}
		}
		return g.v()
	}
	x := g.intIndex(d - 1)
	switch g.r.IntN(14) {
	case 0:
		return &s24wNode{kind: "bin", op: "+", args: []*s24wNode{x, lit(1)}}
	case 1:
		return &s24wNode{kind: "bin", op: "-", args: []*s24wNode{x, lit(1)}}
	case 2:
		return &s24wNode{kind: "bin", op: "*", args: []*s24wNode{x, lit(2)}}
	case 3:
		return &s24wNode{kind: "bin", op: "*", args: []*s24wNode{lit(-1), x}}
	case 4:
		return &s24wNode{kind: "div", args: []*s24wNode{x}}
	case 5:
		return &s24wNode{kind: "neg", args: []*s24wNode{x}}
	case 6:
		return &s24wNode{kind: "bin", op: "+", args: []*s24wNode{x, g.v()}}
	case 7:
		return &s24wNode{kind: "bin", op: "-", args: []*s24wNode{lit(2), x}}
	case 8:
		return &s24wNode{kind: "call", op: "abs", args: []*s24wNode{x}}
	case 9:
		return &s24wNode{kind: "call", op: []string{"min", "max"}[g.r.IntN(2)], args: []*s24wNode{x, g.v()}}
	case 10:
		return &s24wNode{kind: "ite", args: []*s24wNode{g.cond(d - 1), x, g.intIndex(d - 1)}}
	case 11:
		return &s24wNode{kind: "read", args: []*s24wNode{g.index(d - 1)}}
	case 12:
		return &s24wNode{kind: "bin", op: "-", args: []*s24wNode{&s24wNode{kind: "lit", name: "N", k: 3}, x}}
	}
	return x
}

// intIndex is an index of integer type (not the enum c).
func (g *s24wGen) intIndex(d int) *s24wNode {
	x := g.index(d)
	if x.name == "c" {
		return g.v()
	}
	return x
}

// num is an integer compared in a condition.
func (g *s24wGen) num(d int) *s24wNode {
	switch g.r.IntN(6) {
	case 0, 1:
		return &s24wNode{kind: "read", args: []*s24wNode{g.index(d)}}
	case 2:
		if d > 0 {
			return &s24wNode{kind: "ite", args: []*s24wNode{g.cond(d - 1), g.num(d - 1), g.num(d - 1)}}
		}
	case 3:
		x := g.index(d)
		if x.name != "c" {
			return x
		}
	}
	return g.v()
}

func (g *s24wGen) cond(d int) *s24wNode {
	if d <= 0 || g.r.IntN(4) == 0 {
		rel := s24wRels[g.r.IntN(len(s24wRels))]
		switch g.r.IntN(9) {
		case 0: // an enum comparison, the variable on either side
			e := []string{"rd", "gr", "bl"}[g.r.IntN(3)]
			args := []*s24wNode{{kind: "var", name: "c"}, {kind: "enum", name: e, k: map[string]int{"rd": 0, "gr": 1, "bl": 2}[e]}}
			if g.r.IntN(2) == 0 {
				args[0], args[1] = args[1], args[0]
			}
			return &s24wNode{kind: "cmp", op: rel, args: args}
		case 1:
			return &s24wNode{kind: "bvar", name: "bo"}
		case 2:
			return &s24wNode{kind: "bread", args: []*s24wNode{g.index(max(d-1, 0))}}
		case 3: // two variables
			return &s24wNode{kind: "cmp", op: rel, args: []*s24wNode{g.v(), g.v()}}
		case 4, 5: // the constant on the left
			return &s24wNode{kind: "cmp", op: rel, args: []*s24wNode{g.konst(), g.num(max(d-1, 0))}}
		}
		return &s24wNode{kind: "cmp", op: rel, args: []*s24wNode{g.num(max(d-1, 0)), g.konst()}}
	}
	switch g.r.IntN(9) {
	case 0, 1:
		return &s24wNode{kind: "not", args: []*s24wNode{g.cond(d - 1)}}
	case 2, 3:
		return &s24wNode{kind: "and", args: []*s24wNode{g.cond(d - 1), g.cond(d - 1)}}
	case 4:
		return &s24wNode{kind: "imp", args: []*s24wNode{g.cond(d - 1), g.cond(d - 1)}}
	case 5:
		return &s24wNode{kind: "cmp", op: s24wRels[g.r.IntN(len(s24wRels))], args: []*s24wNode{
			{kind: "ite", args: []*s24wNode{g.cond(d - 1), g.num(d - 1), g.num(d - 1)}}, g.konst()}}
	}
	return &s24wNode{kind: "or", args: []*s24wNode{g.cond(d - 1), g.cond(d - 1)}}
}

const s24wHeader = `model m
const N = 3
type col = { rd, gr, bl }
var a : [1 .. N] of 0 .. 2 = 0
var bb : [0 .. 1] of bool = false
var i : -2 .. 4 = 0
var j : 0 .. 3 = 0
var k : 1 .. 3 = 1
var c : col = rd
var bo : bool = false
var r : 0 .. 3 = 0
`

// s24wStates calls f with every state of s24wHeader's model, as a
// symbolic state of m too.
func s24wStates(t *testing.T, m *symbolic.Model, f func(s *s24wState, st symbolic.State)) {
	t.Helper()
	vid := map[string]int{}
	for v := range m.Vars {
		vid[m.Vars[v].Name] = v
	}
	for _, name := range []string{"i", "j", "k", "c", "bo", "r", "a[1]", "a[2]", "a[3]", "bb[0]", "bb[1]"} {
		if _, ok := vid[name]; !ok {
			t.Fatalf("no variable %s in the lowered model", name)
		}
	}
	st := make(symbolic.State, len(m.Vars))
	var s s24wState
	for s.i = -2; s.i <= 4; s.i++ {
		for s.j = 0; s.j <= 3; s.j++ {
			for s.k = 1; s.k <= 3; s.k++ {
				for s.c = 0; s.c <= 2; s.c++ {
					for s.bo = 0; s.bo <= 1; s.bo++ {
						for x := 0; x < 27*4; x++ {
							s.a = [3]int{x % 3, x / 3 % 3, x / 9 % 3}
							s.bb = [2]int{x / 27 % 2, x / 54}
							st[vid["i"]], st[vid["j"]], st[vid["k"]], st[vid["c"]], st[vid["bo"]], st[vid["r"]] = s.i, s.j, s.k, s.c, s.bo, 0
							for e := 0; e < 3; e++ {
								st[vid[fmt.Sprintf("a[%d]", e+1)]] = s.a[e]
							}
							for e := 0; e < 2; e++ {
								st[vid[fmt.Sprintf("bb[%d]", e)]] = s.bb[e]
							}
							f(&s, st)
						}
					}
				}
			}
		}
	}
}

// s24wLoad loads src: the model, or nil with rejected true where the
// only errors are E0804 (an index that may leave its range).
func s24wLoad(t *testing.T, src string) (m *symbolic.Model, rejected bool) {
	t.Helper()
	m, diags := LoadSource("m.spec", []byte(src), Options{})
	if !diags.HasErrors() {
		return m, false
	}
	out := diags.Render()
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "error[") && !strings.Contains(line, "error[E0804]") {
			t.Fatalf("unexpected error:\n%s\n%s", out, src)
		}
	}
	return nil, true
}

// TestS24wNarrowSafeContexts: outside actions (a property's unsafe
// condition, a policy rule, an action's cost given its guard) a loaded
// condition never reads out of range and means what it says.
func TestS24wNarrowSafeContexts(t *testing.T) {
	r := rand.New(rand.NewPCG(2024, 0x77))
	g := &s24wGen{r: r}
	n := 160
	if testing.Short() {
		n = 40
	}
	accepted := 0
	for x := 0; x < n; x++ {
		c := g.cond(3)
		src := s24wHeader + "action t -> r' = 0\nproperty p { unsafe " + c.String() + " }\n"
		switch x % 3 {
		case 1:
			src = s24wHeader + "action t -> r' = 0\npolicy rules pi {\n    when " + c.String() + " -> t\n}\nproperty p { unsafe r == 3 }\n"
		case 2:
			guard := g.cond(2)
			src = s24wHeader + "action t when " + guard.String() + " cost 1 + (if " + c.String() + " then 1 else 0) -> r' = 0\nproperty p { unsafe r == 3 }\n"
			m, rejected := s24wLoad(t, src)
			if rejected {
				continue
			}
			accepted++
			cmd := m.Commands[0]
			s24wStates(t, m, func(s *s24wState, st symbolic.State) {
				gv, gbad := guard.eval(s)
				if gbad || gv == 0 {
					return // the cost is not evaluated (a guard's range error is the command's)
				}
				v, bad := c.eval(s)
				if bad {
					t.Fatalf("state %+v: the cost's condition %s reads out of range, but it loaded without E0804:\n%s", *s, c, src)
				}
				if got := cmd.CostIn(st); got != 1+v {
					t.Fatalf("state %+v: lowered cost %d, want %d:\n%s", *s, got, 1+v, src)
				}
			})
			continue
		}
		m, rejected := s24wLoad(t, src)
		if rejected {
			continue
		}
		accepted++
		var lowered *symbolic.Cond
		if x%3 == 0 {
			lowered = m.Properties[0].Unsafe
		} else {
			lowered = s24wRuleCond(t, m)
		}
		s24wStates(t, m, func(s *s24wState, st symbolic.State) {
			v, bad := c.eval(s)
			if bad {
				t.Fatalf("state %+v: %s reads out of range, but it loaded without E0804:\n%s", *s, c, src)
			}
			if got := lowered.Holds(st); got != (v == 1) {
				t.Fatalf("state %+v: lowered %s is %v, want %v:\n%s", *s, m.CondString(lowered), got, v == 1, src)
			}
		})
	}
	t.Logf("%d of %d loaded", accepted, n)
	if accepted < n/5 {
		t.Errorf("only %d of %d conditions loaded: the test checks too little", accepted, n)
	}
}

// s24wRuleCond is the condition of the first rule of the model's policy.
func s24wRuleCond(t *testing.T, m *symbolic.Model) *symbolic.Cond {
	t.Helper()
	if len(m.Policies) != 1 || len(m.Policies[0].Rules) == 0 {
		t.Fatalf("want one rules policy")
	}
	return m.Policies[0].Rules[0].Cond
}

// TestS24wNarrowActions: in an action, a guard's and an outcome's reads
// (the outcome narrowed by the guard, and by conditions within) keep
// their meaning and report a range error exactly where a direct
// evaluation reads out of range. The outcome also writes a at two
// indices (a range error where they meet or leave 1 .. 3) values that
// read a under conditions (the writes specialize such reads per
// element), and bb at a third.
func TestS24wNarrowActions(t *testing.T) {
	r := rand.New(rand.NewPCG(2025, 0x78))
	g := &s24wGen{r: r}
	n := 120
	if testing.Short() {
		n = 30
	}
	for x := 0; x < n; x++ {
		guard, c, d := g.cond(2), g.cond(3), g.cond(2)
		w1, w2, w3 := g.index(1), g.index(1), g.index(1)
		// the value written at w1: 0, or a read of a in an else branch
		v1 := &s24wNode{kind: "ite", args: []*s24wNode{d, lit(0), &s24wNode{kind: "read", args: []*s24wNode{g.index(2)}}}}
		if r.IntN(2) == 0 {
			v1 = &s24wNode{kind: "ite", args: []*s24wNode{g.cond(1), &s24wNode{kind: "read", args: []*s24wNode{g.index(2)}}, lit(1)}}
		}
		v3 := g.cond(2)
		s24wCheckAction(t, guard, c, d, w1, v1, w2, w3, v3)
	}
}

// s24wCheckAction lowers `action t when GUARD -> r' = if C then 1 else
// (if D then 2 else 0), a[W1]' = V1, a[W2]' = if D then 0 else 1,
// bb[W3]' = V3` and compares it state by state with a direct
// evaluation.
func s24wCheckAction(t *testing.T, guard, c, d, w1, v1, w2, w3, v3 *s24wNode) {
	t.Helper()
	src := s24wHeader + fmt.Sprintf("action t when %s -> r' = if %s then 1 else (if %s then 2 else 0), a[%s]' = %s, a[%s]' = if %s then 0 else 1, bb[%s]' = %s\nproperty p { unsafe r == 3 }\n", guard, c, d, w1, v1, w2, d, w3, v3)
	m, diags := LoadSource("m.spec", []byte(src), Options{})
	if diags.HasErrors() {
		t.Fatalf("%s\n%s", diags.Render(), src)
	}
	if len(m.Commands) != 1 || len(m.Commands[0].Outcomes) != 1 {
		t.Fatalf("want one command of one outcome:\n%s", src)
	}
	cmd := m.Commands[0]
	o := cmd.Outcomes[0]
	s24wStates(t, m, func(s *s24wState, st symbolic.State) {
		gv, gbad := guard.eval(s)
		if got := cmd.Guard.Holds(st); got != (gbad || gv == 1) {
			t.Fatalf("state %+v: lowered guard %v, want %v (range error %v):\n%s", *s, got, gv == 1, gbad, src)
		}
		if !gbad && gv == 0 {
			return
		}
		// the direct outcome: every right-hand side and index read in
		// the old state
		bad := gbad
		val := func(n *s24wNode) int {
			v, b := n.eval(s)
			bad = bad || b
			return v
		}
		wantR := 0
		if cv := val(c); cv == 1 {
			wantR = 1
		} else if dv := val(d); dv == 1 {
			wantR = 2
		}
		i1, x1 := val(w1), val(v1)
		i2, x2 := val(w2), 1-val(d)
		i3, x3 := val(w3), val(v3)
		bad = bad || i1 < 1 || i1 > 3 || i2 < 1 || i2 > 3 || i1 == i2 || i3 < 0 || i3 > 1
		wantA, wantB := s.a, s.bb
		if !bad {
			wantA[i1-1], wantA[i2-1], wantB[i3] = x1, x2, x3
		}
		gotBad := false
		gotR, gotA, gotB := 0, s.a, s.bb
		for _, as := range o.Assigns {
			v := as.Value.Eval(st)
			vr := m.Vars[as.Var]
			if v < vr.Lo || v > vr.Hi {
				gotBad = true
			}
			switch name := vr.Name; {
			case name == "r":
				gotR = v
			case strings.HasPrefix(name, "a["):
				gotA[name[2]-'1'] = v
			case strings.HasPrefix(name, "bb["):
				gotB[name[3]-'0'] = v
			}
		}
		if gotBad != bad || !bad && (gotR != wantR || gotA != wantA || gotB != wantB) {
			t.Fatalf("state %+v: lowered r=%d a=%v bb=%v error=%v, want r=%d a=%v bb=%v error=%v\n%s", *s, gotR, gotA, gotB, gotBad, wantR, wantA, wantB, bad, src)
		}
	})
}

// TestS24wNarrowWriteOffsets: a write at a variable index whose value
// reads the array at an offset of that index in a branch narrowed by
// comparisons of the same variable (a[i]' = if i >= 3 || i == 1 then 0
// else a[i + 1]): the write lowers per element and reads the element the
// offset names there (the specializer picks within the narrowed case
// split), which must be the element the source reads, and a range error
// exactly where the source has one.
func TestS24wNarrowWriteOffsets(t *testing.T) {
	r := rand.New(rand.NewPCG(2026, 0x79))
	g := &s24wGen{r: r}
	n := 150
	if testing.Short() {
		n = 40
	}
	name := func(s string) *s24wNode { return &s24wNode{kind: "var", name: s} }
	bin := func(op string, x, y *s24wNode) *s24wNode {
		return &s24wNode{kind: "bin", op: op, args: []*s24wNode{x, y}}
	}
	for x := 0; x < n; x++ {
		v := []string{"i", "k", "j"}[r.IntN(3)]
		offset := func() *s24wNode {
			switch r.IntN(6) {
			case 0:
				return name(v)
			case 1:
				return bin("+", name(v), lit(1))
			case 2:
				return bin("-", name(v), lit(1))
			case 3:
				return bin("+", lit(2), name(v))
			case 4:
				return bin("-", &s24wNode{kind: "lit", name: "N", k: 3}, name(v))
			}
			return bin("+", name(v), lit(r.IntN(5)-2))
		}
		// comparisons of v with constants under ! && || and if
		var cond func(d int) *s24wNode
		cond = func(d int) *s24wNode {
			if d == 0 || r.IntN(3) == 0 {
				args := []*s24wNode{name(v), g.konst()}
				if r.IntN(2) == 0 {
					args[0], args[1] = args[1], args[0]
				}
				return &s24wNode{kind: "cmp", op: s24wRels[r.IntN(len(s24wRels))], args: args}
			}
			switch r.IntN(4) {
			case 0:
				return &s24wNode{kind: "not", args: []*s24wNode{cond(d - 1)}}
			case 1:
				return &s24wNode{kind: "and", args: []*s24wNode{cond(d - 1), cond(d - 1)}}
			case 2:
				return &s24wNode{kind: "imp", args: []*s24wNode{cond(d - 1), cond(d - 1)}}
			}
			return &s24wNode{kind: "or", args: []*s24wNode{cond(d - 1), cond(d - 1)}}
		}
		read := func() *s24wNode { return &s24wNode{kind: "read", args: []*s24wNode{offset()}} }
		v1 := &s24wNode{kind: "ite", args: []*s24wNode{cond(2), lit(0), read()}}
		if r.IntN(2) == 0 {
			v1 = &s24wNode{kind: "ite", args: []*s24wNode{cond(2), read(), &s24wNode{kind: "ite", args: []*s24wNode{cond(1), lit(1), read()}}}}
		}
		// the second write's index differs from the first's in most
		// states, at another variable's offset
		w2 := bin("+", name("k"), lit(0))
		if v == "k" {
			w2 = bin("-", lit(4), name("k"))
		}
		s24wCheckAction(t, cond(2), cond(1), cond(1), offset(), v1, w2, lit(0), cond(1))
	}
}

// TestS24wConditionIndex: an index that is a condition (a Boolean
// variable, a predicate, a comparison, !, && || =>, true, an element of
// a Boolean array), read or written, is E0201 at the index, saying so;
// it was reported on the case split it lowers to ("bo == 0 compares a
// condition with a integer"), text the model does not contain.
func TestS24wConditionIndex(t *testing.T) {
	for _, tc := range []struct{ decl, index string }{
		{"property p { unsafe a[bo] == 1 }", "bo"},
		{"property p { unsafe a[i < 1] == 1 }", "i < 1"},
		{"property p { unsafe a[(small)] == 1 }", "(small)"},
		{"action t when bb[bb[0]] -> i' = 0", "bb[0]"},
		{"action t -> a[!bo]' = 1", "!bo"},
		{"action t -> bb[true]' = false", "true"},
		{"action t -> i' = a[i == 0 && bo]", "i == 0 && bo"},
		{"policy rules pi { when a[bo => small] == 1 -> s  otherwise -> s }", "bo => small"},
	} {
		src := "model c\nvar a : [0 .. 1] of 0 .. 2 = 0\nvar bb : [0 .. 1] of bool = false\nvar bo : bool = false\nvar i : 0 .. 1 = 0\npred small = i < 1\naction s -> skip\n" + tc.decl + "\n"
		_, diags := LoadSource("c.spec", []byte(src), Options{})
		out := diags.Render()
		if !strings.Contains(out, "error[E0201]: the index of ") || !strings.Contains(out, "but "+tc.index+" is a condition") || strings.Contains(out, "compares a") {
			t.Errorf("%s: want E0201 naming the index %s:\n%s", tc.decl, tc.index, out)
		}
	}
	// integers, enum values and ifs of integers are indices
	src := "model c\ntype col = { rd, gr }\nvar a : [0 .. 1] of 0 .. 2 = 0\nvar c : col = rd\nvar bo : bool = false\naction s -> skip\nproperty p { unsafe a[c] == 1 || a[if bo then 1 else 0] == 2 || a[gr] == 0 }\n"
	if _, diags := LoadSource("c.spec", []byte(src), Options{}); diags.HasErrors() {
		t.Errorf("want no errors:\n%s", diags.Render())
	}
}
