package lang

import (
	"fmt"
	"strings"
	"testing"

	"vigil/symbolic"
)

// s30eChain is the reviewer's spec: pred pK = pJ && pJ for K = 1 .. n,
// each using the one before twice, and an action guarded by pn.
func s30eChain(n int, p0 string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "model m\nvar x : 0 .. 3 = 0\npred p0 = %s\n", p0)
	for k := 1; k <= n; k++ {
		fmt.Fprintf(&b, "pred p%d = p%d && p%d\n", k, k-1, k-1)
	}
	fmt.Fprintf(&b, "action a when p%d -> x' = x + 1\nproperty p { unsafe x == 3 }\n", n)
	return b.String()
}

// s30eOrChain is its variant without a conjunction to flatten: pK =
// (pJ || qJ) && x < 3 and qK = (qJ || pJ) && x < 3, a DAG of a few nodes
// per level that reads as a tree of 2^K.
func s30eOrChain(n int, extra string) string {
	var b strings.Builder
	b.WriteString("model m\nvar x : 0 .. 3 = 0\npred p0 = x == 0\npred q0 = x >= 1\n")
	for k := 1; k <= n; k++ {
		fmt.Fprintf(&b, "pred p%d = (p%d || q%d) && x < 3\n", k, k-1, k-1)
		fmt.Fprintf(&b, "pred q%d = (q%d || p%d) && x < 3\n", k, k-1, k-1)
	}
	fmt.Fprintf(&b, "action a when p%d%s -> x' = x + 1\nproperty p { unsafe x == 3 }\n", n, extra)
	return b.String()
}

func s30eLoad(t *testing.T, src string) (*symbolic.Model, Diagnostics) {
	t.Helper()
	return LoadSource("s30e.spec", []byte(src), Options{OverflowWarnings: true})
}

func s30ePred(m *symbolic.Model, name string) *symbolic.Cond {
	for _, p := range m.Preds {
		if p.Name == name {
			return p.Cond
		}
	}
	return nil
}

// TestS30eChainDedup: p && p of a predicate is p. Lowering flattened
// nested conjunctions, so pK of the chain had 2^K arguments: 20 levels
// took 1.6 s and 61 MB to check, 40 never ended. A short chain first, so
// that a regression fails there rather than eat the memory of the long
// one.
func TestS30eChainDedup(t *testing.T) {
	m, ds := s30eLoad(t, s30eChain(12, "x < 3"))
	if m == nil {
		t.Fatalf("the 12-level chain does not load: %v", ds)
	}
	if c := s30ePred(m, "p12"); c == nil || c.Op != symbolic.CCmp {
		t.Fatalf("p12 of the chain is not the comparison x < 3 that p0 is: %+v", c)
	}
	m, ds = s30eLoad(t, s30eChain(40, "x < 3"))
	if m == nil {
		t.Fatalf("the 40-level chain does not load: %v", ds)
	}
	g := m.Commands[0].Guard
	if g.Op != symbolic.CCmp || g != s30ePred(m, "p0") {
		t.Fatalf("the guard p40 is not p0's node: %+v", g)
	}
	// the same transitions as p0 itself: x < 3
	for x := 0; x <= 3; x++ {
		if got := g.Holds(symbolic.State{x}); got != (x < 3) {
			t.Errorf("the guard at x = %d is %v", x, got)
		}
	}
}

// TestS30eDedupKeepsOrder: repeated arguments of && and || are dropped
// (the same node, or a small one of the same structure) and the others
// keep their order, first occurrences first.
func TestS30eDedupKeepsOrder(t *testing.T) {
	src := "model m\nvar x : 0 .. 3 = 0\nvar y : -2 .. 2 = 0\npred r = y > 1\n" +
		"pred c = y > 1 && x == 1 && r && y > 1 && (x == 1 && r)\n" +
		"pred d = x == 2 || y < 0 || x == 2 || (y < 0 || r || r)\n" +
		"pred e = x + 1 == y && x + 1 == y - 0\n" +
		"action a when c || d || e -> x' = 0\nproperty p { unsafe x == 3 }\n"
	m, ds := s30eLoad(t, src)
	if m == nil {
		t.Fatalf("does not load: %v", ds)
	}
	str := func(name string) string { return m.CondString(s30ePred(m, name)) }
	for name, want := range map[string]string{
		"c": "y > 1 && x == 1",
		"d": "x == 2 || y < 0 || y > 1",
		"e": "x + 1 == y && x + 1 == y - 0", // not the same structure: both kept
	} {
		if got := str(name); got != want {
			t.Errorf("pred %s lowers to %s, want %s", name, got, want)
		}
	}
}

// TestS30eTreeLimit: the variant without a conjunction to flatten is a
// small DAG, but every later pass (the overflow warnings, the engines'
// compilers and encoders) reads it as a tree of 2^K nodes: E0705 at the
// first predicate past the limit, fast, and no model.
func TestS30eTreeLimit(t *testing.T) {
	m, ds := s30eLoad(t, s30eOrChain(40, ""))
	if m != nil {
		t.Fatal("the 40-level chain of (pJ || qJ) && x < 3 loads")
	}
	var got *Diagnostic
	for i := range ds {
		if ds[i].Code == "E0705" {
			got = &ds[i]
		}
	}
	if got == nil || len(ds) != 1 {
		t.Fatalf("want one E0705, got %v", ds)
	}
	// p18 is the first past 2^20 nodes beyond the model's: line 3 + 2*18
	if got.Pos.Line != 39 || got.Pos.Col != 6 || !strings.Contains(got.Msg, "pred p18 is too large") ||
		!strings.Contains(got.Msg, "introduce a variable") {
		t.Errorf("E0705 at %v: %s", got.Pos, got.Msg)
	}

	// a cost that may be 0 is E0405, whose hint asks whether the guard
	// never holds: not through the tree of the guard
	_, ds = s30eLoad(t, s30eOrChain(40, " cost x"))
	if len(ds) != 1 || ds[0].Code != "E0405" {
		t.Errorf("a cost that may be 0 under the 40-level guard: %v", ds)
	}

	// a few levels load, and mean what they say: x counts up to 3
	m, ds = s30eLoad(t, s30eOrChain(8, ""))
	if m == nil {
		t.Fatalf("the 8-level chain does not load: %v", ds)
	}
	g := m.Commands[0].Guard
	for x := 0; x <= 3; x++ {
		if got := g.Holds(symbolic.State{x}); got != (x < 3) {
			t.Errorf("the 8-level guard at x = %d is %v", x, got)
		}
	}
}

// TestS30eTreeLimitInAll: trees under the limit each, but many of them
// past the model's size, exceed it together (an engine encodes every
// guard as a tree).
func TestS30eTreeLimitInAll(t *testing.T) {
	src := s30eOrChain(14, "")
	for i := 0; i < 12; i++ {
		src += fmt.Sprintf("action b%d when p14 -> x' = x + 1\n", i)
	}
	_, ds := s30eLoad(t, src)
	if len(ds) != 1 || ds[0].Code != "E0705" || !strings.Contains(ds[0].Msg, "in all") {
		t.Fatalf("want one E0705 in all, got %v", ds)
	}
	// smaller trees count too: 100 guards of 16,379 nodes over a model
	// of some 400 (the ic3 engine took 23 s and 1.5 GB for 1000 of them)
	src = s30eOrChain(11, "")
	for i := 0; i < 100; i++ {
		src += fmt.Sprintf("action b%d when p11 -> x' = x + 1\n", i)
	}
	_, ds = s30eLoad(t, src)
	if len(ds) != 1 || ds[0].Code != "E0705" || !strings.Contains(ds[0].Msg, "pred p11 is too large") {
		t.Fatalf("100 guards of p11: want one E0705 in all, got %v", ds)
	}
	// one guard of the 14 levels loads
	if m, ds := s30eLoad(t, s30eOrChain(14, "")); m == nil {
		t.Fatalf("the 14-level chain does not load: %v", ds)
	}
}
