package lang

import (
	"bytes"
	"math/rand"
	"strings"
	"testing"
)

// TestS29fFmtLoosestBreak: fmt broke a long line between x and + y <= 4
// when an && of the same parenthesis depth fitted too, as + and && break
// points counted alike. It breaks at the loosest-binding operator that
// fits now (, | -> before => || && before comparisons before + -). On
// random long guards and updates: fmt is a fixed point, the lowered model
// is unchanged, and no continuation starts with + or - (or a comparison)
// where the piece before it could have ended at an && or || of the same
// depth; the fixed case breaks before &&.
func TestS29fFmtLoosestBreak(t *testing.T) {
	const head = "model f\nvar xxxxxxxxxxxx : 0 .. 4 = 0\nvar yyyyyyyyyyyy : 0 .. 4 = 0\nvar okokokokokok : bool = false\n"
	fixed := head + "action step when okokokokokok && xxxxxxxxxxxx < 3 && yyyyyyyyyyyy < 3 && xxxxxxxxxxxx + yyyyyyyyyyyy <= 4 -> xxxxxxxxxxxx' = 1\n"
	out, diags := Format("f.spec", []byte(fixed))
	if out == nil {
		t.Fatal(diags.Render())
	}
	if !strings.Contains(string(out), "yyyyyyyyyyyy < 3\n        && xxxxxxxxxxxx + yyyyyyyyyyyy <= 4") {
		t.Errorf("the guard did not break before &&:\n%s", out)
	}
	rng := rand.New(rand.NewSource(29))
	atoms := []string{"xxxxxxxxxxxx", "yyyyyyyyyyyy", "(xxxxxxxxxxxx + 1)", "2"}
	sum := func() string {
		n := 1 + rng.Intn(4)
		var b []string
		for k := 0; k < n; k++ {
			b = append(b, atoms[rng.Intn(len(atoms))])
		}
		ops := []string{" + ", " - "}
		s := b[0]
		for _, x := range b[1:] {
			s += ops[rng.Intn(2)] + x
		}
		return s
	}
	for i := 0; i < 300; i++ {
		var conj []string
		for k := 0; k < 2+rng.Intn(6); k++ {
			cmp := []string{" <= ", " < ", " == ", " != ", " >= "}[rng.Intn(5)]
			conj = append(conj, sum()+cmp+sum())
		}
		g := conj[0]
		for _, c := range conj[1:] {
			g += []string{" && ", " || "}[rng.Intn(2)] + c
		}
		src := head + "action step when okokokokokok && (" + g + ") || " + g + " -> xxxxxxxxxxxx' = max(0, min(4, " + sum() + "))\n"
		out, diags := Format("f.spec", []byte(src))
		if out == nil {
			t.Fatalf("%s\n%s", src, diags.Render())
		}
		again, _ := Format("f.spec", out)
		if !bytes.Equal(out, again) {
			t.Fatalf("fmt is no fixed point:\n%s\nthen\n%s", out, again)
		}
		m1, d1 := LoadSource("f.spec", []byte(src), Options{})
		m2, d2 := LoadSource("f.spec", out, Options{})
		if (m1 == nil) != (m2 == nil) {
			t.Fatalf("formatting changed whether it loads: %s / %s", d1.Render(), d2.Render())
		}
		if m1 != nil && !bytes.Equal(printModel(m1), printModel(m2)) {
			t.Fatalf("formatting changed the model:\n%s\n%s", src, out)
		}
		lines := strings.Split(string(out), "\n")
		for k := 1; k < len(lines); k++ {
			l := strings.TrimLeft(lines[k], " ")
			if l == lines[k] || !(strings.HasPrefix(l, "+ ") || strings.HasPrefix(l, "- ") || strings.HasPrefix(l, "<") || strings.HasPrefix(l, "=")) {
				continue
			}
			// the piece before ended at a tight operator: no && or ||
			// outside parentheses may have fitted in it
			prev := lines[k-1]
			depth := 0
			for j := 0; j+4 <= len(prev); j++ {
				switch prev[j] {
				case '(':
					depth++
				case ')':
					depth--
				}
				if depth == 0 && j > 0 && (prev[j:j+4] == " && " || prev[j:j+4] == " || ") && strings.TrimSpace(prev[:j]) != "" {
					if k-1 == 0 || lines[k-1] != strings.TrimLeft(lines[k-1], " ") || strings.HasPrefix(prev, "action") {
						t.Errorf("a break at a tight operator though an && or || fitted:\n%s", out)
					}
					break
				}
			}
		}
	}
}
