package lang

import (
	"strings"
	"testing"
)

const arraySrc = `const N = 3
var on : [0 .. N - 1] of 0 .. N = 0
var i : 0 .. N - 1 = 0
action poke when on[i] > 0 -> on[i]' = on[i] - 1
property p { unsafe on[0] == N }
`

// TestAnalyzeArrays: an editor sees an array's declaration, its uses
// (indexed, assigned) and a summary with the folded element range.
func TestAnalyzeArrays(t *testing.T) {
	a := Analyze("a.spec", []byte(arraySrc), Options{})
	if a.Diags.HasErrors() {
		t.Fatal(a.Diags.Render())
	}
	syms := a.Lookup(NSNames, "on")
	if len(syms) != 1 || !strings.Contains(syms[0].Detail, "[0 .. N - 1] of 0 .. N") || !strings.Contains(syms[0].Doc, "3 elements on[0] .. on[2], each in 0 .. 3") {
		t.Fatalf("symbols of on: %+v", syms)
	}
	n := 0
	for _, r := range a.RefsTo(NSNames, "on") {
		if !r.Decl {
			n++
		}
	}
	if n != 4 {
		t.Errorf("want 4 uses of on, got %d: %+v", n, a.RefsTo(NSNames, "on"))
	}
	r, ok := a.RefAt(4, 19)
	if !ok || r.Name != "on" {
		t.Errorf("RefAt(4, 19) = %+v, %v; want on", r, ok)
	}
}
