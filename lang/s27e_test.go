package lang

import (
	"strings"
	"testing"

	"vigil/symbolic"
)

// TestS27eDeadPredicate: a predicate is rewritten once, where it is first
// used; first used in an operand that is never evaluated (N > 3 && big),
// its constant index out of range was not E0803 and the array's first
// element stood for the read in every use, the evaluated ones too: the
// model below loaded with big meaning a[0] == 0, and every engine said
// safe. A predicate means the same wherever it is used: its reads are
// judged as its own body evaluates them.
func TestS27eDeadPredicate(t *testing.T) {
	for _, guard := range []string{
		"(N > 3 && big) || !big",
		"(if N > 3 then big else false) || !big",
		"!big || (N > 3 && big)",
	} {
		src := "model dp\nconst N = 2\nvar a : [0 .. N - 1] of 0 .. 3 = 0\nvar i : 0 .. 3 = 0\n" +
			"action step when " + guard + " -> i' = 1\npred big = a[3] == 0\nproperty p { unsafe i == 1 }\n"
		m, diags := LoadSource("dp.spec", []byte(src), Options{})
		if m != nil || !strings.Contains(diags.Render(), "E0803") {
			t.Errorf("when %s: want E0803 at big's a[3], got:\n%s", guard, diags.Render())
		}
	}
	// a read the predicate's own body never makes stays no error
	src := `model dp
const N = 2
var a : [0 .. N - 1] of 0 .. 3 = 0
var i : 0 .. 3 = 0
action step when (N > 3 && big) || !big -> i' = 1
pred big = N > 3 && a[3] == 0
property p { unsafe i == 1 }
`
	m, diags := LoadSource("dp.spec", []byte(src), Options{})
	if m == nil {
		t.Fatalf("does not load:\n%s", diags.Render())
	}
	if !m.Commands[0].Guard.Holds(make(symbolic.State, len(m.Vars))) {
		t.Errorf("the guard !big is false in the start state; big (N > 3 && ...) is false there")
	}
}

// TestS27eQuietConstantFailure: a constant that the array stage folds
// quietly and fails to fold (its value is an if, which bounds and
// indices do not take) was remembered as bad, and the index that needed
// it later was refused without saying why: "internal error: this
// declaration was dropped" (E0003). The index says why now.
func TestS27eQuietConstantFailure(t *testing.T) {
	for _, guard := range []string{
		"U == 7 || a[U] == 0", // constCond folds U quietly first
		"i < U && a[U] == 0",  // narrowing does
	} {
		src := "model q\nconst N = 2\nconst U = if N > 2 then 3 else 1\nvar a : [0 .. N - 1] of 0 .. 3 = 0\nvar i : 0 .. 3 = 0\n" +
			"action s when " + guard + " -> i' = 1\nproperty p { unsafe i == 1 }\n"
		_, diags := LoadSource("q.spec", []byte(src), Options{})
		out := diags.Render()
		if !strings.Contains(out, "E0207") || strings.Contains(out, "E0003") {
			t.Errorf("when %s: want E0207 (the index's constant is an if), got:\n%s", guard, out)
		}
	}
}

// TestS27eConstantLeftDecides: the left operand of && (||, =>) decides it
// where its own left does: with N = 2, N > 3 && x > 0 is false whatever x
// is, so a[3] behind it, or in the arm of an if it guards, is never read.
// A left operand whose value depends on a variable decides nothing.
func TestS27eConstantLeftDecides(t *testing.T) {
	src := `model cl
const N = 2
var a : [0 .. N - 1] of 0 .. 3 = 0
var x : 0 .. 3 = 0
var i : 0 .. 3 = 0
action s when N > 3 && x > 0 && a[3] == 0 -> i' = 1
action t when (if N > 3 && x > 0 then a[3] else 0) == 0 -> i' = 2
action u when N <= 3 || x > 0 || a[3] == 0 -> i' = 3
action v when (N > 3 && x > 0) => a[3] == 0 -> i' = 3
property p { unsafe i == 1 }
`
	m, diags := LoadSource("cl.spec", []byte(src), Options{})
	if m == nil {
		t.Fatalf("does not load:\n%s", diags.Render())
	}
	for _, x := range []int{0, 1, 3} {
		st := make(symbolic.State, len(m.Vars))
		for i, v := range m.Vars {
			if v.Name == "x" {
				st[i] = x
			}
		}
		for _, c := range m.Commands {
			name := m.Labels[c.Label].Name
			if got, want := c.Guard.Holds(st), name != "s"; got != want {
				t.Errorf("x = %d: guard of %s is %v, want %v", x, name, got, want)
			}
		}
	}
	for _, bad := range []string{
		"action s when x > 3 && N > 3 && a[3] == 0 -> i' = 1",
		"action s when (if x > 0 && N > 3 then a[3] else 0) == 0 -> i' = 1",
		"action s when N > 1 && x > 0 && a[3] == 0 -> i' = 1",
	} {
		src := "model cl\nconst N = 2\nvar a : [0 .. N - 1] of 0 .. 3 = 0\nvar x : 0 .. 3 = 0\nvar i : 0 .. 3 = 0\n" + bad + "\nproperty p { unsafe i == 1 }\n"
		m, diags := LoadSource("cl.spec", []byte(src), Options{})
		if m != nil || !strings.Contains(diags.Render(), "E0803") {
			t.Errorf("%s: want E0803 (the read is evaluated), got:\n%s", bad, diags.Render())
		}
	}
}

// TestS27eNeverApplicableWrites: a command whose guard folds to false is
// never applicable, so its outcomes are never evaluated: the schema
// set(j in 0 .. 3) when j < N && a[j] == 0 -> a[j]' = 1 read a[j] dead
// for j >= N (b5594ab) but its write a[j]' stayed E0803, and a model
// sized by -D N=2 was still refused. The commands of j = 2, 3 keep no
// write of a; a command whose guard may hold still writes out of range.
func TestS27eNeverApplicableWrites(t *testing.T) {
	src := `model nw
const N = 4
var a : [0 .. N - 1] of 0 .. 3 = 0
var i : 0 .. 3 = 0
action set(j in 0 .. 3) when j < N && a[j] == 0 -> a[j]' = 1
action w when N > 3 cost a[3] + 1 -> 1: a[3]' = a[2] + 1, i' = 2 | 3: forall k in 0 .. 3: a[k]' = 2
action step when forall k in 0 .. 3: k >= N || a[k] == 1 -> i' = 1
property p { unsafe i == 1 }
`
	for _, n := range []string{"4", "2"} {
		m, diags := LoadSource("nw.spec", []byte(src), Options{Defines: map[string]string{"N": n}})
		if m == nil {
			t.Fatalf("-D N=%s: does not load:\n%s", n, diags.Render())
		}
		if m2, diags := LoadSource("nw.spec", printModel(m), Options{}); m2 == nil {
			t.Errorf("-D N=%s: the printed model does not load:\n%s", n, diags.Render())
		}
		st := make(symbolic.State, len(m.Vars))
		for _, c := range m.Commands {
			name := m.Labels[c.Label].Name
			applicable := c.Guard.Holds(st)
			if n == "2" && (name == "set[2]" || name == "set[3]" || name == "w") && applicable {
				t.Errorf("-D N=2: %s is applicable in the start state", name)
			}
		}
	}
	for _, bad := range []string{
		"action s when N > 1 -> a[3]' = 1",
		"action s(j in 0 .. 3) when j <= N && a[0] == 0 -> a[j]' = 1",
		"action s when i > 1 && N > 3 -> a[3]' = 1",
	} {
		src := "model nw\nconst N = 2\nvar a : [0 .. N - 1] of 0 .. 3 = 0\nvar i : 0 .. 3 = 0\n" + bad + "\nproperty p { unsafe i == 1 }\n"
		m, diags := LoadSource("nw.spec", []byte(src), Options{})
		if m != nil || !strings.Contains(diags.Render(), "E0803") {
			t.Errorf("%s: want E0803 (the command may be taken), got:\n%s", bad, diags.Render())
		}
	}
}

// TestS27eE0804NamesALiveRead: outside actions an index must provably
// stay in range (E0804), and the error names a read that may leave it.
// A read that is never evaluated (N > 3 && a[i + 2], N = 2) is no such
// read: E0804 named it rather than the evaluated a[i] beside it.
func TestS27eE0804NamesALiveRead(t *testing.T) {
	src := `model e
const N = 2
var a : [0 .. N - 1] of 0 .. 3 = 0
var i : 0 .. 3 = 0
action s when i < 3 -> i' = i + 1
pred far = a[i + 2] == 0
property p { unsafe (N > 3 && a[i + 2] == 0) || (N > 3 && far) || a[i] == 1 }
`
	_, diags := LoadSource("e.spec", []byte(src), Options{})
	out := diags.Render()
	if !strings.Contains(out, "e.spec:7:") || !strings.Contains(out, "index i may leave") || strings.Contains(out, "index i + 2 may leave") {
		t.Errorf("want E0804 at the evaluated a[i] of line 7 only, got:\n%s", out)
	}
}

// TestS27eBoolConstSplitAtTheRead: an array constant of conditions read
// at a variable index splits into a disjunction (19c21a7) whose nodes sat
// at the constant's elements, so an error in the read's use (B[i] + 1)
// was shown at the declaration `const B = [...]`; it is at the read.
func TestS27eBoolConstSplitAtTheRead(t *testing.T) {
	src := `model bc
const B = [true, false, true]
var i : 0 .. 2 = 0
var x : 0 .. 3 = 0
action h -> x' = B[i] + 1
property p { unsafe x == 3 }
`
	_, diags := LoadSource("bc.spec", []byte(src), Options{})
	out := diags.Render()
	if !strings.Contains(out, "bc.spec:5:18: error[E0201]") {
		t.Errorf("want E0201 at B[i] (5:18), got:\n%s", out)
	}
}
