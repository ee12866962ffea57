package ppa_test

import (
	"context"
	"testing"
	"time"

	"vigil/lang"
	"vigil/nn"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/verify"
)

// TestReview21pOneLabelPolicyBoxes: a learned policy that never leaves
// an applicable label unchosen (a network with one output) needs no
// policy facts, so a cube whose states ppa lists must not become one box
// per state. Spec seed 281 of the differential test exported 2,561
// one-state boxes; ic3/cert's single query over them took 30-57 s in
// Z3's preprocessing, which ignored --timeout (ppa/FIGURES.md, session
// 21). Merged, the invariant is 2 boxes.
func TestReview21pOneLabelPolicyBoxes(t *testing.T) {
	const src = `model g281
type color = { red, green, blue }
var c : color = red
var x0 : 0 .. 4 = 2
var x1 : -3 .. 0 = 0
var a : [0 .. 2] of -2 .. 1 = -2
var f : bool = false
action t0 -> x1' = min(max(a[abs(x0) / 2], -3), 0), c' = if f then green else blue
policy rules pi {
    otherwise -> t0
}
property p {
    unsafe (a[1] > 1 && c < blue)
}
`
	m, diags := lang.LoadSource("g281.spec", []byte(src), lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	pol, pd, err := nn.Random(m, []symbolic.LabelID{0}, 281, []int{4})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	v, err := verify.Decide(ctx, &verify.Question{Model: m, Property: m.Properties[0], Policy: pd, Executable: pol, Engine: "ppa", Certificate: true})
	if err != nil {
		t.Fatal(err)
	}
	if v.Answer != explicit.Safe || v.Invariant == nil {
		t.Fatalf("answer %v, invariant %v (%s %s); want safe with a checked certificate", v.Answer, v.Invariant != nil, v.Reason, v.CertNote)
	}
	if n := len(v.Invariant.Inv); n > 8 {
		t.Errorf("the certificate has %d boxes for %d states in the product of ranges; a policy without facts needs no one-state boxes", n, 3*5*4*4*4*4*2)
	}
}
