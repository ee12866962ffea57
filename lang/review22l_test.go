package lang

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

// TestReview22lMinLiteral: -9223372036854775808, the smallest 64-bit
// integer, is a constant the language takes from -D and the checker folds
// (-9223372036854775807 - 1), and the lowered model prints a constant of
// that value as that literal; but the literal itself was E0303 ("integer
// 9223372036854775808 is too large"), so the printed model did not load
// back. It now reads as one literal in every folder: constants, array
// constants, schema and quantifier bounds, policy conditions, guards.
func TestReview22lMinLiteral(t *testing.T) {
	for _, src := range []string{
		"const MIN = -9223372036854775807 - 1\nvar x : -5 .. 5 = 0\npred q = x > MIN\naction a when x < 5 -> x' = x + 1\nproperty p { unsafe q && x == 5 }\n",
		"const MIN = -9223372036854775808\nconst K = [-9223372036854775808, 1]\nvar x : -5 .. 5 = 0\n" +
			"action a(i in 0 .. MIN - MIN + 1) when x - -9223372036854775808 > 9223372036854775806 + i && x < 5 -> x' = x + 1\n" +
			"pred z = forall k in -9223372036854775808 / 4611686018427387904 .. 0: x != k - 3\n" +
			"policy rules r when K[0] == -9223372036854775808 { otherwise -> a[0] }\n" +
			"property p { start x == 0 unsafe x == 5 && MIN < 0 && z }\n",
	} {
		m, diags := LoadSource("min.spec", []byte(src), Options{})
		if m == nil {
			t.Fatalf("does not load:\n%s\n%s", diags.Render(), src)
		}
		text := printModel(m)
		m2, diags := LoadSource("min.spec", text, Options{})
		if m2 == nil {
			t.Fatalf("the printed model does not load:\n%s\n%s", diags.Render(), text)
		}
		if again := printModel(m2); !bytes.Equal(text, again) {
			t.Errorf("print/load round trip differs:\n%s\n---\n%s", text, again)
		}
	}
	m, diags := LoadSource("min.spec", []byte("const MIN = -9223372036854775808\nvar x : 0 .. 1 = 0\nproperty p { unsafe x == 1 }\n"), Options{})
	if m == nil {
		t.Fatal(diags.Render())
	}
	if len(m.Consts) != 1 || m.Consts[0].Value != math.MinInt64 {
		t.Errorf("constants %v; want MIN = %d", m.Consts, math.MinInt64)
	}
	// one more minus overflows, as -(-9223372036854775807 - 1) does
	if m, _ := LoadSource("min.spec", []byte("const A = - -9223372036854775808\n"), Options{}); m != nil {
		t.Errorf("- -9223372036854775808 folded: %v", m.Consts)
	}
}

// TestReview22lQuantifierWordAsName: forall, exists, sum and count are
// quantifier words only when a name follows them (spec.md, "Quantifiers
// and aggregates"), and they remain usable as names; but a variable
// named so at the end of a declaration, before the next one's keyword
// (`pred q = exists` then `property p`), or before then, else, goal,
// ..., was read as a quantifier over the keyword: "unexpected p,
// expected in". A rename in vigil lsp to such a name (allowed: it is no
// reserved word) broke the file so.
func TestReview22lQuantifierWordAsName(t *testing.T) {
	srcs := map[string]string{
		"before a declaration": "var exists : bool = false\npred q = exists\nproperty p { unsafe q }\n",
		"before then, else, goal": "var sum : 0 .. 3 = 0\nvar exists : bool = false\n" +
			"action a when (if exists then sum else 0) < 3 -> sum' = sum + 1\nproperty p { unsafe exists goal sum == 3 }\n",
		"before a rule":      "var count : 0 .. 1 = 0\naction a -> count' = 1\npolicy rules r {\n    when count == count -> a\n    otherwise -> a\n}\nproperty p { unsafe count == 1 }\n",
		"still a quantifier": "var x : 0 .. 3 = 0\npred q = exists k in 0 .. 3: x == k\nproperty p { unsafe q }\n",
	}
	for name, src := range srcs {
		m, diags := LoadSource("q.spec", []byte(src), Options{})
		if m == nil {
			t.Errorf("%s: does not load:\n%s", name, diags.Render())
			continue
		}
		compareParsers(t, name, []byte(src))
		out, _ := Format("q.spec", []byte(src))
		mf, diags := LoadSource("q.spec", out, Options{})
		if mf == nil || !bytes.Equal(printModel(m), printModel(mf)) {
			t.Errorf("%s: the formatted text loads to another model: %s\n%s", name, diags.Render(), out)
		}
	}
}

// TestReview22lFoldAggregates: spec.md's own `const TOTAL = sum k in 1 ..
// N: k` is a constant, but a quantifier's bound, an array's range or a
// policy's condition naming it was E0207 ("must be constant integer
// expressions ..., not sum k in 1 .. 2: k"): their folder knew no
// aggregate. And `if` with a constant condition did not fold, so `const
// T = count k in 0 .. 3: k > 1` (count expands to if C then 1 else 0) and
// `const U = if N > 2 then 1 else 2` were E0207 "must not depend on
// variables", and `x * (if N > 2 then 1 else 2)` was not linear.
func TestReview22lFoldAggregates(t *testing.T) {
	src := `const N = 3
const T = sum k in 1 .. 2: k
const K = [sum k in 1 .. 2: k, 1]
const C = count k in 0 .. N: exists j in 0 .. k: j * j == k
const U = if N > 2 then 1 else 2
var x : 0 .. 9 = 0
var a : [0 .. K[0]] of bool = false
pred q = forall j in 0 .. T: x != j
action step(i in 0 .. C) when x + i < 9 -> x' = x * U + i
action back(i in 1 .. K[0] - 1) when x >= i -> x' = x * (if N > 2 then 1 else 2) - i
policy rules r when (sum k in 1 .. N: k) == 6 && forall k in 1 .. N: k > 0 { otherwise -> step[1] }
property p { start x == 0 unsafe x == 5 && q }
`
	m, diags := LoadSource("agg.spec", []byte(src), Options{})
	if m == nil {
		t.Fatalf("does not load:\n%s", diags.Render())
	}
	want := map[string]int{"N": 3, "T": 3, "C": 2, "U": 1}
	for _, k := range m.Consts {
		if v, ok := want[k.Name]; ok && v != k.Value {
			t.Errorf("%s = %d, want %d", k.Name, k.Value, v)
		}
		delete(want, k.Name)
	}
	if len(want) > 0 {
		t.Errorf("constants missing: %v", want)
	}
	// step[0] .. step[2] (C = 2: 0 and 1 are squares), back[1] .. back[2]
	// (K[0] = 3), a[0] .. a[3], and the policy for N = 3
	if len(m.Labels) != 5 || len(m.Vars) != 5 || len(m.Policies) != 1 {
		t.Errorf("%d labels, %d variables, %d policies; want 5, 5, 1:\n%s", len(m.Labels), len(m.Vars), len(m.Policies), printModel(m))
	}
}

// TestReview22lByteOrderMark: a UTF-8 file that starts with a byte-order
// mark (as Windows Notepad saves it) was E0001 "invalid character
// '\ufeff'" at 1:1, an invisible character, while editors (and so vigil
// lsp, which gets the text without it) showed no error. The mark is
// skipped now, and is no column: positions on the first line are the
// editor's.
func TestReview22lByteOrderMark(t *testing.T) {
	src := "\ufeffvar x : 0 .. 1 = 0 + yy\nproperty p { unsafe x == 1 }\n"
	_, diags := LoadSource("bom.spec", []byte(src), Options{})
	if len(diags) != 1 || diags[0].Code != "E0101" || diags[0].Pos.Line != 1 || diags[0].Pos.Col != 22 {
		t.Fatalf("want E0101 at 1:22 (yy), got:\n%s", diags.Render())
	}
	if r := diags.Render(); strings.Contains(r, "\ufeff") {
		t.Errorf("the rendered line shows the mark:\n%s", r)
	}
	fixed := strings.Replace(src, " + yy", "", 1)
	m, diags := LoadSource("bom.spec", []byte(fixed), Options{})
	if m == nil {
		t.Fatal(diags.Render())
	}
	out, _ := Format("bom.spec", []byte(fixed))
	if want := "var x : 0 .. 1 = 0\nproperty p {\n    unsafe x == 1\n}\n"; string(out) != want {
		t.Errorf("formatted:\n%q, want\n%q", out, want)
	}
	// elsewhere it is an error that says what it is
	_, diags = LoadSource("bom.spec", []byte("var x : 0 .. 1 = 0\n\ufeff\n"), Options{})
	if len(diags) != 1 || !strings.Contains(diags[0].Msg, "byte-order mark") {
		t.Errorf("a mark after the start: %s", diags.Render())
	}
}
