package trees

import (
	"context"
	"fmt"
	"testing"
	"time"

	"vigil/symbolic"
)

// s32uStopModel is a model of six variables 0..1000 with labels a, b, c.
func s32uStopModel() *symbolic.Model {
	m := &symbolic.Model{Name: "stop", Labels: []symbolic.Label{{Name: "a"}, {Name: "b"}, {Name: "c"}}}
	for v := 0; v < 6; v++ {
		m.Vars = append(m.Vars, symbolic.Var{Name: fmt.Sprintf("v%d", v), Lo: 0, Hi: 1000})
	}
	return m
}

// TestS32uStopOn: a tree policy's certification queries give up
// (undecided, never excluded) once the channel given to StopOn closes,
// as nn.Policy's do. Before, trees.Policy had no stop hook: PolIC3 and
// PPA passed their context's Done only to networks, and a search of a
// large ensemble over one box ran on after SIGTERM and --timeout. The
// ensemble is 200 trees of depth 8 over 6 features, where a query
// takes seconds; the stop comes after 100 ms and the query must answer
// within about a second of it. Both the lifted search (inputs of one
// variable) and the input-space fallback (Exclude over boxes beyond the
// ranges, ExcludeWithin with atoms) are stopped.
func TestS32uStopOn(t *testing.T) {
	m := s32uStopModel()
	outs := []symbolic.LabelID{0, 1, 2}
	p, _, err := Random(m, outs, 3, 200, 8)
	if err != nil {
		t.Fatal(err)
	}
	if ok, why := p.Exact(); !ok {
		t.Fatalf("the random policy is not lifted: %s", why)
	}
	// Class 0 leads by 100 (its trees' scores spread by about 10): that
	// b is never chosen is true or nearly so, and the search's bounds
	// are far from settling it; the query runs for many seconds.
	p.Ens.Base[0] += 100
	p.varEns.Base[0] += 100
	lo, hi := make([]int, 6), make([]int, 6)
	for v := range hi {
		hi[v] = 1000
	}
	type query struct {
		name string
		// run asks the query as an engine does (symbolic.Certifiable),
		// base as Excludes with a timeout of 1 s
		run  func() (symbolic.Exclusion, error)
		base func() (StateResult, error)
	}
	atoms := []symbolic.Atom{{Form: symbolic.NewForm([]symbolic.Term{{Coef: 1, Var: 0}, {Coef: -1, Var: 1}}), K: 0}} // v0 - v1 >= 0
	all := []int{0, 1, 2}
	queries := []query{
		{"Exclude", func() (symbolic.Exclusion, error) {
			ex, _, err := p.Exclude(lo, hi, 1, outs)
			return ex, err
		}, func() (StateResult, error) { return p.Excludes(lo, hi, 1, all, Options{Timeout: time.Second}) }},
		{"ExcludeWithin", func() (symbolic.Exclusion, error) {
			ex, _, err := p.ExcludeWithin(lo, hi, atoms, 1, outs)
			return ex, err
		}, func() (StateResult, error) {
			return p.ExcludesWithin(lo, hi, atoms, 1, all, Options{Timeout: time.Second})
		}},
	}
	for _, q := range queries {
		// Unstopped, the query must outlast the stop's delay (or the
		// test shows nothing): with a timeout of 1 s it must time out.
		p.StopOn(nil)
		r, err := q.base()
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != Unknown || r.Stopped != StopTimeout {
			t.Fatalf("%s: answered %v (stopped %q) within 1 s unstopped; the test needs a query of seconds", q.name, r.Verdict, r.Stopped)
		}

		ctx, cancel := context.WithCancel(context.Background())
		p.StopOn(ctx.Done())
		time.AfterFunc(100*time.Millisecond, cancel)
		type answer struct {
			ex  symbolic.Exclusion
			err error
		}
		done := make(chan answer, 1)
		start := time.Now()
		go func() {
			ex, err := q.run()
			done <- answer{ex, err}
		}()
		select {
		case ans := <-done:
			took := time.Since(start)
			if ans.err != nil {
				t.Fatal(ans.err)
			}
			if ans.ex != symbolic.Undecided {
				t.Errorf("%s: stopped after 100 ms, answered %v; want undecided", q.name, ans.ex)
			}
			t.Logf("%s: stopped at 100 ms: %v after %v", q.name, ans.ex, took)
		case <-time.After(5 * time.Second):
			// unstopped it runs for many seconds more (up to its node
			// budget); the goroutine is left to finish
			t.Fatalf("%s: stopped after 100 ms, still searching after 5 s", q.name)
		}
	}

	// The hook lasts until removed: StopOn(nil) gives answers again.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p.StopOn(ctx.Done())
	small := []int{0, 0, 0, 0, 0, 0}
	p.StopOn(nil)
	for _, a := range outs {
		ex, _, err := p.Exclude(small, small, a, outs)
		if err != nil || ex == symbolic.Undecided {
			t.Errorf("after StopOn(nil), label %d at the zero state: %v, %v", a, ex, err)
		}
	}
}
