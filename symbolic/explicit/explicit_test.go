package explicit_test

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"vigil/internal/testutil"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/gen"
)

func TestLayoutPacksWithoutSplitting(t *testing.T) {
	m := &symbolic.Model{Vars: []symbolic.Var{
		{Name: "a", Lo: 0, Hi: 1<<33 - 1},  // 33 bits
		{Name: "b", Lo: -5, Hi: 1<<40 - 6}, // 40 bits: does not fit beside a
		{Name: "c", Lo: 3, Hi: 3},          // 0 bits
		{Name: "d", Lo: 0, Hi: 1},
		{Name: "e", Lo: -1 << 62, Hi: 1 << 62}, // 64 bits: a word of its own
		{Name: "f", Lo: -7, Hi: 7},
	}}
	l, err := explicit.NewLayout(m)
	if err != nil {
		t.Fatal(err)
	}
	if l.W != 4 {
		t.Errorf("W = %d, want 4 (a | b,c,d | e | f)", l.W)
	}
	r := rand.New(rand.NewPCG(1, 2))
	buf := make([]uint64, l.W)
	got := make(symbolic.State, len(m.Vars))
	for i := 0; i < 1000; i++ {
		s := make(symbolic.State, len(m.Vars))
		for j, v := range m.Vars {
			s[j] = v.Lo + int(r.Uint64N(uint64(v.Hi-v.Lo)+1))
		}
		if i == 0 {
			for j, v := range m.Vars {
				s[j] = v.Hi
			}
		}
		l.Pack(s, buf)
		l.Unpack(buf, got)
		for j := range s {
			if got[j] != s[j] || l.Get(buf, symbolic.VarID(j)) != s[j] {
				t.Fatalf("%s: packed %d, unpacked %d", m.Vars[j].Name, s[j], got[j])
			}
		}
	}
}

func TestStore(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	testStore(t, explicit.NewStore(3, 0), func() []uint64 { return []uint64{r.Uint64N(100), r.Uint64N(100), r.Uint64N(4)} })
}

func TestStoreCompact(t *testing.T) {
	m := &symbolic.Model{Vars: []symbolic.Var{{Name: "a", Lo: -1 << 20, Hi: 1 << 20}, {Name: "b", Lo: 0, Hi: 1000}}}
	l, _ := explicit.NewLayout(m)
	if l.W != 1 || l.Bits != 32 {
		t.Fatalf("layout %d words, %d bits; want 1, 32", l.W, l.Bits)
	}
	r := rand.New(rand.NewPCG(5, 6))
	testStore(t, explicit.NewStoreFor(l, 0), func() []uint64 { return []uint64{r.Uint64N(1 << 16)} })
}

// TestStorePages: a store of several arena pages (65536 states each) keeps
// every state under its dense id, whatever its first page's size.
func TestStorePages(t *testing.T) {
	for _, hint := range []int{0, 1 << 20} {
		st := explicit.NewStore(2, hint)
		const n = 150000
		key := func(i int) []uint64 { return []uint64{uint64(i) * 0x9e3779b97f4a7c15, uint64(i)} }
		for i := range n {
			// Each state twice: the second Intern finds the first.
			for range 2 {
				id, _, err := st.Intern(key(i))
				if err != nil || int(id) != i {
					t.Fatalf("hint %d: Intern(state %d) = %d, %v", hint, i, id, err)
				}
			}
		}
		for i := 0; i < n; i += 7 {
			if id, ok := st.Lookup(key(i)); !ok || int(id) != i || !equal(st.Get(id), key(i)) {
				t.Fatalf("hint %d: Lookup(state %d) = %d, %v; Get = %v", hint, i, id, ok, st.Get(uint32(i)))
			}
		}
		if st.Len() != n || st.Bytes() < 16*n {
			t.Fatalf("hint %d: Len %d, Bytes %d", hint, st.Len(), st.Bytes())
		}
	}
}

func testStore(t *testing.T, st *explicit.Store, next func() []uint64) {
	var keys [][]uint64
	for i := 0; i < 50000; i++ {
		x := next()
		id, added, err := st.Intern(x)
		if err != nil {
			t.Fatal(err)
		}
		if added {
			if int(id) != len(keys) {
				t.Fatalf("new id %d, want dense id %d", id, len(keys))
			}
			keys = append(keys, x)
		} else if !equal(keys[id], x) {
			t.Fatalf("id %d holds %v, interned %v", id, keys[id], x)
		}
	}
	if st.Len() != len(keys) {
		t.Fatalf("Len = %d, want %d", st.Len(), len(keys))
	}
	for i, k := range keys {
		id, ok := st.Lookup(k)
		if !ok || int(id) != i || !equal(st.Get(id), k) {
			t.Fatalf("Lookup(%v) = %d, %v; want %d", k, id, ok, i)
		}
	}
	missing := append([]uint64{1 << 17}, keys[0][1:]...)
	if _, ok := st.Lookup(missing); ok {
		t.Fatal("Lookup found a state never interned")
	}
}

func equal(a, b []uint64) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return len(a) == len(b)
}

// wideModel has n variables of range 0..999: a product far too large to
// walk, so start-state enumeration must use the start condition's bounds.
func wideModel(n int, start *symbolic.Cond) *symbolic.Model {
	m := &symbolic.Model{Name: "wide", Labels: []symbolic.Label{{Name: "inc"}}}
	for i := 0; i < n; i++ {
		m.Vars = append(m.Vars, symbolic.Var{Name: string(rune('a' + i)), Lo: 0, Hi: 999})
	}
	m.Commands = []symbolic.Command{{Label: 0, Guard: symbolic.Compare(symbolic.V(0), symbolic.Lt, symbolic.Lit(999)),
		Outcomes: []symbolic.Outcome{{Assigns: []symbolic.Assign{{Var: 0, Value: &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{symbolic.V(0), symbolic.Lit(1)}}}}}}}}
	m.Properties = []*symbolic.Property{{Name: "p", Start: start, Unsafe: symbolic.False()}}
	return m
}

func TestStartsUseBounds(t *testing.T) {
	v, k, cmp := symbolic.V, symbolic.Lit, symbolic.Compare
	sum := func(a, b symbolic.VarID) *symbolic.Expr {
		return &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{v(a), v(b)}}
	}
	// a == 5, 3 <= b < 6, c + d == 4, 2*e >= 1997 (e = 999), !(f > 1),
	// g - a <= 0 (g <= 5), h arbitrary but c+h <= 1.
	start := symbolic.And(
		cmp(v(0), symbolic.Eq, k(5)),
		cmp(k(3), symbolic.Le, v(1)), cmp(v(1), symbolic.Lt, k(6)),
		cmp(sum(2, 3), symbolic.Eq, k(4)),
		cmp(&symbolic.Expr{Op: symbolic.OpMul, K: 2, Args: []*symbolic.Expr{v(4)}}, symbolic.Ge, k(1997)),
		symbolic.Not(cmp(v(5), symbolic.Gt, k(1))),
		cmp(&symbolic.Expr{Op: symbolic.OpSub, Args: []*symbolic.Expr{v(6), v(0)}}, symbolic.Le, k(0)),
		cmp(sum(2, 7), symbolic.Le, k(1)),
	)
	m := wideModel(8, start)
	g := testutil.Generator(t, m, m.Properties[0])
	lo, hi, ok := g.StartBounds()
	if !ok {
		t.Fatal("StartBounds: no start state")
	}
	wantLo := []int{5, 3, 0, 3, 999, 0, 0, 0}
	wantHi := []int{5, 5, 1, 4, 999, 1, 5, 1}
	for i := range lo {
		if lo[i] != wantLo[i] || hi[i] != wantHi[i] {
			t.Errorf("%s: bounds %d..%d, want %d..%d", m.Vars[i].Name, lo[i], hi[i], wantLo[i], wantHi[i])
		}
	}
	n := 0
	if err := g.Starts(func(s symbolic.State) bool {
		if !start.Holds(s) {
			t.Fatalf("start state %v violates the start condition", s)
		}
		n++
		return true
	}); err != nil {
		t.Fatal(err)
	}
	// b: 3 values; (c,d,h) in {(0,4,0),(0,4,1),(1,3,0)}; f: 2; g: 6.
	if want := 3 * 3 * 2 * 6; n != want {
		t.Errorf("%d start states, want %d", n, want)
	}
}

func TestStartsEmpty(t *testing.T) {
	v, k, cmp := symbolic.V, symbolic.Lit, symbolic.Compare
	for _, start := range []*symbolic.Cond{
		cmp(v(0), symbolic.Gt, k(999)),                                           // propagation proves it empty
		symbolic.And(cmp(v(0), symbolic.Eq, k(1)), cmp(v(1), symbolic.Ne, v(1))), // enumeration finds none
		symbolic.False(),
	} {
		m := wideModel(2, start)
		g := testutil.Generator(t, m, m.Properties[0])
		err := g.Starts(func(symbolic.State) bool { return true })
		if err == nil || !strings.Contains(err.Error(), "no state satisfies the start condition of property p") {
			t.Errorf("start %s: err = %v", m.CondString(start), err)
		}
	}
}

func TestStartsInitialState(t *testing.T) {
	m := wideModel(2, nil)
	g, _ := explicit.New(m, m.Properties[0])
	err := g.Starts(func(symbolic.State) bool { return true })
	if err == nil || !strings.Contains(err.Error(), "has no initial value") {
		t.Fatalf("err = %v", err)
	}
	m.Vars[0].HasInit, m.Vars[0].Init = true, 7
	m.Vars[1].HasInit, m.Vars[1].Init = true, 9
	var got []symbolic.State
	if err := g.Starts(func(s symbolic.State) bool { got = append(got, append(symbolic.State(nil), s...)); return true }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0][0] != 7 || got[0][1] != 9 {
		t.Fatalf("start states %v, want [[7 9]]", got)
	}
}

type countingDecider struct{ calls int }

func (d *countingDecider) Decide(s symbolic.State, app []bool) (symbolic.LabelID, error) {
	d.calls++
	return 0, nil
}

func TestCacheEvaluatesOncePerState(t *testing.T) {
	d := &countingDecider{}
	c := explicit.NewCache(d)
	app := []bool{true}
	for round := 0; round < 3; round++ {
		for id := uint32(0); id < 5000; id += 7 {
			if l, err := c.Decide(id, nil, app); err != nil || l != 0 {
				t.Fatal(l, err)
			}
		}
	}
	if d.calls != 715 {
		t.Fatalf("%d policy evaluations, want 715 (one per state)", d.calls)
	}
}

func TestParseState(t *testing.T) {
	m := &symbolic.Model{Name: "m", Vars: []symbolic.Var{
		{Name: "pos", Lo: 0, Hi: 10},
		{Name: "speed", Lo: -2, Hi: 2, HasInit: true, Init: 0},
		{Name: "parked", Lo: 0, Hi: 1, Bool: true, HasInit: true},
	}}
	s, err := explicit.ParseState(m, "pos=3 parked=true")
	if err != nil || m.FormatState(s) != "pos=3 speed=0 parked=true" {
		t.Fatalf("got %v, %v", s, err)
	}
	s, err = explicit.ParseState(m, m.FormatState(symbolic.State{10, -2, 0}))
	if err != nil || s[0] != 10 || s[1] != -2 || s[2] != 0 {
		t.Fatalf("round trip: %v, %v", s, err)
	}
	for in, want := range map[string]string{
		"speed=1":        "no value for pos",
		"pos=11":         "pos=11 is outside its range 0..10",
		"pos=1 spede=0":  `no variable "spede" (did you mean "speed"?)`,
		"pos=1 parked=2": "parked is a Boolean",
		"pos=x":          "not an integer",
		"pos=1,pos=2":    "pos given twice",
		"pos":            "is not NAME=VALUE",
	} {
		if _, err := explicit.ParseState(m, in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseState(%q) = %v, want an error containing %q", in, err, want)
		}
	}
}

// ParseState says what an array's value is written as, and that a scalar
// is not one.
func TestParseStateArrays(t *testing.T) {
	m := testutil.LoadSource(t, "arr.spec", "model arr\nvar r : [1 .. 3] of 0 .. 5 = 0\nvar b : bool = false\n"+
		"action a when r[1] < 5 -> r[1]' = r[1] + 1\nproperty p { unsafe r[1] == 5 }\n")
	if s, err := explicit.ParseState(m, "r=[1,2,3] b=true"); err != nil || m.FormatState(s) != "r=[1,2,3] b=true" {
		t.Fatalf("got %v, %v", s, err)
	}
	for in, want := range map[string]string{
		"r=5":      "r=5: r is an array of 3 elements: give r=[V,...] or an element, r[1]=V",
		"r=]":      "r is an array of 3 elements",
		"b=[true]": "b=[true]: b is not an array: give b=V",
		"x=[1]":    `model arr has no array "x"`,
		"r=[1,2]":  "array r has 3 elements, not 2",
	} {
		if _, err := explicit.ParseState(m, in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseState(%q) = %v, want an error containing %q", in, err, want)
		}
	}
}

// TestRunFileRoundTrip records simulated runs of generated models and
// reads them back.
func TestRunFileRoundTrip(t *testing.T) {
	for seed := uint64(1); seed <= 60; seed++ {
		m := gen.Model(seed, gen.Options{})
		g := testutil.Generator(t, m, m.Properties[0])
		start, err := g.SampleStart(rand.New(rand.NewPCG(seed, 1)), 0)
		if err != nil {
			continue // no start state
		}
		dec, _ := explicit.NewDecider(m, m.Policies[0])
		steps, end, err := explicit.Simulate(g, start, explicit.SimOptions{Steps: 20, Rand: rand.New(rand.NewPCG(seed, 2)), Policy: dec})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		var b bytes.Buffer
		if err := explicit.WriteRun(&b, explicit.NewRun(m, "p", "pi", end, steps)); err != nil {
			t.Fatal(err)
		}
		run, back, err := explicit.ReadRun(&b, m)
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, b.String())
		}
		if run.End != end || len(back) != len(steps) {
			t.Fatalf("seed %d: read %d steps ending %s, wrote %d ending %s", seed, len(back), run.End, len(steps), end)
		}
		for i := range steps {
			if m.FormatState(back[i].State) != m.FormatState(steps[i].State) || back[i].Cmd != steps[i].Cmd || back[i].Outcome != steps[i].Outcome || back[i].Label != steps[i].Label {
				t.Fatalf("seed %d step %d: read %+v, wrote %+v", seed, i, back[i], steps[i])
			}
		}
	}
}

// TestValidateRejectsMalformedIR: a broken model is an error, never a panic.
func TestValidateRejectsMalformedIR(t *testing.T) {
	base := func() *symbolic.Model {
		return &symbolic.Model{
			Name:   "m",
			Vars:   []symbolic.Var{{Name: "x", Lo: 0, Hi: 3}},
			Labels: []symbolic.Label{{Name: "a"}},
			Commands: []symbolic.Command{{Label: 0, Guard: symbolic.True(), Outcomes: []symbolic.Outcome{
				{Assigns: []symbolic.Assign{{Var: 0, Value: symbolic.Lit(1)}}}}}},
			Properties: []*symbolic.Property{{Name: "p", Unsafe: symbolic.False()}},
		}
	}
	for name, breakIt := range map[string]func(m *symbolic.Model){
		"nil guard": func(m *symbolic.Model) { m.Commands[0].Guard = nil },
		"bad label": func(m *symbolic.Model) { m.Commands[0].Label = 4 },
		"bad var":   func(m *symbolic.Model) { m.Commands[0].Outcomes[0].Assigns[0].Var = 9 },
		"nil value": func(m *symbolic.Model) { m.Commands[0].Outcomes[0].Assigns[0].Value = nil },
		"div by zero": func(m *symbolic.Model) {
			m.Commands[0].Outcomes[0].Assigns[0].Value = &symbolic.Expr{Op: symbolic.OpDiv, Args: []*symbolic.Expr{symbolic.V(0)}}
		},
		"missing args": func(m *symbolic.Model) {
			m.Commands[0].Outcomes[0].Assigns[0].Value = &symbolic.Expr{Op: symbolic.OpMin}
		},
		"bad op":         func(m *symbolic.Model) { m.Commands[0].Guard = &symbolic.Cond{Op: 99} },
		"empty range":    func(m *symbolic.Model) { m.Vars[0].Hi = -1 },
		"assigned twice": func(m *symbolic.Model) { o := &m.Commands[0].Outcomes[0]; o.Assigns = append(o.Assigns, o.Assigns[0]) },
		"policy label": func(m *symbolic.Model) {
			m.Policies = []*symbolic.PolicyDecl{{Name: "r", Kind: symbolic.KindRules, Rules: []symbolic.Rule{{Cond: symbolic.True(), Label: 3}}}}
		},
		"nil unsafe": func(m *symbolic.Model) { m.Properties[0].Unsafe = nil },
	} {
		m := base()
		breakIt(m)
		if _, err := explicit.New(m, m.Properties[0]); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := explicit.New(base(), base().Properties[0]); err != nil {
		t.Fatal(err)
	}
}

func TestRangeErrorNamesCommandOutcomeAndState(t *testing.T) {
	m := &symbolic.Model{
		Name:   "m",
		Vars:   []symbolic.Var{{Name: "x", Lo: 0, Hi: 3, HasInit: true}},
		Labels: []symbolic.Label{{Name: "inc"}},
		Commands: []symbolic.Command{{Label: 0, Guard: symbolic.True(), Pos: symbolic.Pos{File: "m.spec", Line: 4, Col: 8}, Outcomes: []symbolic.Outcome{
			{Assigns: []symbolic.Assign{{Var: 0, Value: &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{symbolic.V(0), symbolic.Lit(1)}}}}},
			{Assigns: []symbolic.Assign{{Var: 0, Value: &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{symbolic.V(0), symbolic.Lit(2)}}}}},
		}}},
		Properties: []*symbolic.Property{{Name: "p", Unsafe: symbolic.False()}},
	}
	g, _ := explicit.New(m, m.Properties[0])
	_, err := explicit.Search(context.Background(), g, explicit.Options{})
	var re *explicit.RangeError
	if !errors.As(err, &re) {
		t.Fatalf("err = %v, want a RangeError", err)
	}
	want := "explicit: m.spec:4:8: range error: action inc, outcome 2 sets x to 4 outside 0..3 in state x=2"
	if !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("err = %q, want prefix %q", err, want)
	}
}

func TestSearchLimitAndCancel(t *testing.T) {
	m := wideModel(1, symbolic.True())
	g, _ := explicit.New(m, m.Properties[0])
	res, err := explicit.Search(context.Background(), g, explicit.Options{MaxStates: 10})
	if err != nil || res.Verdict != explicit.Unknown {
		t.Fatalf("MaxStates: %v, %v", res.Verdict, err)
	}
	// Start states alone exceed the limit; all of them are terminal, so
	// only the cut enumeration shows that the search is incomplete.
	m = wideModel(2, symbolic.True())
	m.Properties[0].Goal = symbolic.True()
	g, _ = explicit.New(m, m.Properties[0])
	res, err = explicit.Search(context.Background(), g, explicit.Options{MaxStates: 10})
	if err != nil || res.Verdict != explicit.Unknown {
		t.Fatalf("MaxStates during start enumeration: %v, %v", res.Verdict, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m = wideModel(2, symbolic.True()) // a million start states
	g, _ = explicit.New(m, m.Properties[0])
	res, err = explicit.Search(ctx, g, explicit.Options{ProgressEvery: 100})
	if err != nil || res.Verdict != explicit.Unknown {
		t.Fatalf("canceled: %v, %v", res.Verdict, err)
	}
}

type countCalls struct {
	d     explicit.Decider
	calls int
}

func (c *countCalls) Decide(s symbolic.State, app []bool) (symbolic.LabelID, error) {
	c.calls++
	return c.d.Decide(s, app)
}

// TestSearchEvaluatesExpensivePoliciesOnce: with a policy that is not
// Cheap, BFS and the counterexample rebuild evaluate it at most once per
// state.
func TestSearchEvaluatesExpensivePoliciesOnce(t *testing.T) {
	unsafe := 0
	for seed := uint64(1); seed <= 100; seed++ {
		m := gen.Model(seed, gen.Options{MaxVars: 5, MaxRange: 8})
		g, _ := explicit.New(m, m.Properties[0])
		d, _ := explicit.NewDecider(m, m.Policies[0])
		c := &countCalls{d: d}
		res, err := explicit.Search(context.Background(), g, explicit.Options{Policy: c, StopAtUnsafe: true})
		if err != nil {
			continue
		}
		if res.Verdict == explicit.UnsafeVerdict {
			unsafe++
		}
		if c.calls > res.Stats.States {
			t.Fatalf("seed %d: %d policy evaluations for %d states", seed, c.calls, res.Stats.States)
		}
	}
	if unsafe == 0 {
		t.Fatal("no counterexample was rebuilt")
	}
}

// TestCheckCounterexample accepts BFS counterexamples and rejects tampered
// ones.
func TestCheckCounterexample(t *testing.T) {
	checked := 0
	for seed := uint64(1); seed <= 200 && checked < 30; seed++ {
		m := gen.Model(seed, gen.Options{MaxVars: 5, MaxRange: 8})
		g, _ := explicit.New(m, m.Properties[0])
		d, _ := explicit.NewDecider(m, m.Policies[0])
		res, err := explicit.Search(context.Background(), g, explicit.Options{Policy: d, StopAtUnsafe: true})
		if err != nil || res.Verdict != explicit.UnsafeVerdict || len(res.Trace) < 2 {
			continue
		}
		checked++
		if err := g.CheckCounterexample(d, res.Trace); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		bad := append([]explicit.Step(nil), res.Trace...)
		bad[0].Outcome = len(m.Commands[bad[0].Cmd].Outcomes) // no such outcome
		if err := g.CheckCounterexample(d, bad); err == nil {
			t.Fatalf("seed %d: accepted an outcome that does not exist", seed)
		}
		cut := res.Trace[:len(res.Trace)-1]
		cut = append(cut[:len(cut)-1:len(cut)-1], explicit.Step{State: cut[len(cut)-1].State, Cmd: -1})
		if err := g.CheckCounterexample(d, cut); err == nil {
			t.Fatalf("seed %d: accepted a run that does not end unsafe", seed)
		}
	}
	if checked == 0 {
		t.Fatal("no counterexample checked")
	}
}
