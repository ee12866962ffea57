package trees

import (
	"context"
	"fmt"
	"testing"
	"time"

	"vigil/symbolic"
)

// s29tFallbackPolicy is a policy over three variables 0..n whose first
// two inputs read two variables each (v0 + v1, v1 - v2 + 50), so that it
// is not lifted and Excludes runs the input-space fallback.
func s29tFallbackPolicy(t *testing.T, e *Ensemble, n int) *Policy {
	m := &symbolic.Model{Name: "fb", Labels: []symbolic.Label{{Name: "a"}, {Name: "b"}}}
	for v := 0; v < 3; v++ {
		m.Vars = append(m.Vars, symbolic.Var{Name: fmt.Sprintf("v%d", v), Lo: 0, Hi: n})
	}
	one, neg := symbolic.Rat{Num: 1, Den: 1}, symbolic.Rat{Num: -1, Den: 1}
	d := &symbolic.PolicyDecl{Name: "pi", Kind: symbolic.KindTrees, Outputs: []symbolic.LabelID{0, 1}, Inputs: []symbolic.Affine{
		{Terms: []symbolic.AffineTerm{{Coef: one, Var: 0}, {Coef: one, Var: 1}}},
		{Const: symbolic.Rat{Num: 50, Den: 1}, Terms: []symbolic.AffineTerm{{Coef: one, Var: 1}, {Coef: neg, Var: 2}}},
		{Terms: []symbolic.AffineTerm{{Coef: one, Var: 2}}},
	}}
	p := &Policy{Decl: d, Ens: e, vars: m.Vars, x: make([]float64, 3), scores: make([]float64, 2)}
	p.varEns, p.whyInput = p.lift()
	for i := range d.Inputs {
		p.signs = append(p.signs, d.Inputs[i].Signs(len(m.Vars)))
	}
	if exact, _ := p.Exact(); exact {
		t.Fatal("the policy was lifted; the test needs the input-space fallback")
	}
	return p
}

// TestS29tFallbackStops: the input-space fallback (excludesBySplitting)
// checks Stop before every box and hands each box's search only the time
// left of the timeout. Before, it checked Stop only when its node count
// was a multiple of 64: a Ctrl-C arriving while the count was odd let it
// go on splitting and searching boxes; and each box's search had the
// whole timeout again.
func TestS29tFallbackStops(t *testing.T) {
	e := s29tEnsemble(t, 30, 5, 3, 7)
	p := s29tFallbackPolicy(t, e, 60)
	lo, hi := []int{0, 0, 0}, []int{60, 60, 60}
	defer func() { fallbackSearchHook = nil }()

	// Unstopped: the fallback answers, after several box searches.
	searches := 0
	fallbackSearchHook = func(Options) { searches++ }
	full, err := p.Excludes(lo, hi, 0, []int{1}, Options{})
	if err != nil || full.Verdict == Unknown || searches < 4 {
		t.Fatalf("unstopped: %v after %d box searches (%v); the test needs a decided answer after at least 4", full.Verdict, searches, err)
	}

	// Stop closed during the third box's search: no box is searched after.
	for _, at := range []int{1, 2, 3} {
		ctx, cancel := context.WithCancel(context.Background())
		searches = 0
		fallbackSearchHook = func(Options) {
			searches++
			if searches == at {
				cancel()
			}
		}
		r, err := p.Excludes(lo, hi, 0, []int{1}, Options{Stop: ctx.Done()})
		cancel()
		if err != nil || r.Verdict != Unknown {
			t.Fatalf("stopped in box search %d: %v, %v; want unknown", at, r.Verdict, err)
		}
		if searches != at {
			t.Errorf("stopped in box search %d (node count %d then): %d box searches ran", at, r.Nodes, searches)
		}
	}

	// A timeout: each box's search gets what is left of it.
	const timeout = time.Hour
	start := time.Now()
	var subs []time.Duration
	fallbackSearchHook = func(sub Options) { subs = append(subs, sub.Timeout) }
	if _, err := p.Excludes(lo, hi, 0, []int{1}, Options{Timeout: timeout}); err != nil {
		t.Fatal(err)
	}
	elapsed := time.Since(start)
	for i, s := range subs {
		if s <= 0 || s >= timeout || (i > 0 && s > subs[i-1]) {
			t.Fatalf("box search %d had timeout %v (before: %v); want what is left of %v, not a fresh one", i, s, subs[:i], timeout)
		}
	}
	if len(subs) > 1 && subs[len(subs)-1] < timeout-elapsed {
		t.Errorf("last box search had %v, less than what was left (%v)", subs[len(subs)-1], timeout-elapsed)
	}
}
