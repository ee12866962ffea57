package trees

import (
	"context"
	"testing"
	"time"

	"vigil/symbolic"
)

// s32uWidePolicy: one variable x over lo..hi read as 2x by one tree
// whose class 1 wins only on 0.5 <= 2x < 1, where no integer x lies:
// class 1 is never chosen, but the input-space search finds it winning
// at an input no state has, so the fallback must split the box.
func s32uWidePolicy(t *testing.T, lo, hi int) *Policy {
	t.Helper()
	b := newBuilder("veritas", 2)
	b.e.Trees = []Tree{{Class: 1, Nodes: []Node{
		{Feature: 0, Threshold: 0.5, Left: 1, Right: 2},
		{Feature: -1, Leaf: 0},
		{Feature: 0, Threshold: 1, Left: 3, Right: 4},
		{Feature: -1, Leaf: 1},
		{Feature: -1, Leaf: 2},
	}, Values: []float64{-1, 1, -1}}}
	b.e.NumFeatures, b.e.Declared = 1, true
	e, err := b.finish()
	if err != nil {
		t.Fatal(err)
	}
	vars := []symbolic.Var{{Name: "x", Lo: lo, Hi: hi}}
	d := &symbolic.PolicyDecl{Name: "pi", Kind: symbolic.KindTrees, Outputs: []symbolic.LabelID{0, 1},
		Inputs: []symbolic.Affine{{Terms: []symbolic.AffineTerm{{Coef: symbolic.Rat{Num: 2, Den: 1}, Var: 0}}}}}
	p := &Policy{Decl: d, Ens: e, vars: vars, x: make([]float64, 1), scores: make([]float64, 2)}
	p.varEns, p.whyInput = p.lift()
	p.signs = [][]int{d.Inputs[0].Signs(1)}
	return p
}

// TestS32uFallbackWideBox: the input-space fallback over a box whose
// width hi - lo does not fit in an int (x over -2^62 .. 2^62, beyond
// ±2^53 so not lifted). The width overflowed to a negative number, the
// box's size came out negative, at most EnumerateLimit, and the
// fallback enumerated its 2^63 states one by one, ignoring its budget,
// timeout and Stop: a query that never returned. No engine asks such a
// box today (ic3 and ppa refuse ranges beyond ±2^53), so it was latent.
func TestS32uFallbackWideBox(t *testing.T) {
	for _, r := range [][2]int{{-1 << 62, 1 << 62}, {-1 << 63, 1<<63 - 1}, {-1 << 63, 0}, {-5, 1<<63 - 1}} {
		p := s32uWidePolicy(t, r[0], r[1])
		if ok, _ := p.Exact(); ok {
			t.Fatal("lifted; the test needs the fallback")
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		type answer struct {
			r   StateResult
			err error
		}
		done := make(chan answer, 1)
		go func() {
			res, err := p.Excludes([]int{r[0]}, []int{r[1]}, 1, []int{0, 1}, Options{Stop: ctx.Done()})
			done <- answer{res, err}
		}()
		select {
		case a := <-done:
			if a.err != nil {
				t.Fatal(a.err)
			}
			if a.r.Verdict == Refuted {
				t.Errorf("%v: refuted at %v, where class 1 is never chosen", r, a.r.Witness)
			}
			t.Logf("%v: %v after %d nodes", r, a.r.Verdict, a.r.Nodes)
		case <-time.After(10 * time.Second):
			t.Fatalf("%v: no answer 8 s after the query was stopped", r)
		}
		cancel()
	}
}
