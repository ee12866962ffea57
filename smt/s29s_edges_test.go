package smt

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"vigil/lang"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/gen"
)

// s29sModels is the campaign size of the session-29 edge suites: the
// default keeps them to a few seconds; VIGIL_S29S_MODELS widens them.
func s29sModels(t *testing.T, def int) int {
	if v := os.Getenv("VIGIL_S29S_MODELS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			t.Fatalf("VIGIL_S29S_MODELS=%q: want a positive number of models", v)
		}
		return n
	}
	if testing.Short() {
		return def / 3
	}
	return def
}

// loadEdge loads gen.EdgeSpec(seed, wide) through the front end; nil when
// the source does not load (a folded constant beyond 64 bits, an index
// outside actions that might leave its range), which the caller counts.
func loadEdge(seed uint64, wide bool) (*symbolic.Model, string, lang.Diagnostics) {
	src := gen.EdgeSpec(seed, wide)
	m, diags := lang.LoadSource(fmt.Sprintf("edge%d.spec", seed), []byte(src), lang.Options{})
	return m, src, diags
}

// TestS29sEdgeTransitions is the adversary's state-by-state cross-check of
// the two semantics on models written as .spec text (gen.EdgeSpec: ranges
// next to ±2^63 and ±2^53, constants -2^63 and 2^63-1 in sums, abs,
// negations, min, max, divisions; arrays read and written at variable
// indices, enums, duplicate outcomes, swaps, unclamped assignments), so
// that lowering (arrays, enums, index errors) is part of what is compared:
// in every state in range, the explicit engine's compiled evaluation
// (guard index, packing, 64-bit fast paths) and the SMT encoding must
// agree on the state's status, each label's applicability, each label's
// range error, and, for a label without one, its set of successors
// (enumerated from the solver with blocking clauses).
func TestS29sEdgeTransitions(t *testing.T) {
	n := s29sModels(t, 150)
	begin := time.Now()
	loaded, skipped, states, succs, errs := 0, 0, 0, 0, 0
	codes := map[string]int{}
	for seed := uint64(1); loaded < n && seed < uint64(4*n+10); seed++ {
		m, src, diags := loadEdge(seed, seed%2 == 0)
		if m == nil {
			skipped++
			for _, d := range diags {
				codes[d.Code]++
			}
			continue
		}
		loaded++
		quiesce(t)
		c0, s0 := LiveContexts()
		s, e, k := edgeTransitions(t, m, src, seed)
		if c1, s1 := LiveContexts(); c1 != c0 || s1 != s0 {
			t.Fatalf("seed %d: %d Z3 contexts and %d solvers alive before the model, %d and %d after", seed, c0, s0, c1, s1)
		}
		states, succs, errs = states+s, succs+e, errs+k
		if t.Failed() {
			return
		}
	}
	t.Logf("%d models (%d sources did not load: %v), %d states, %d successors, %d label range errors agree, %v", loaded, skipped, codes, states, succs, errs, time.Since(begin).Round(time.Millisecond))
	if loaded < n || errs == 0 || succs == 0 {
		t.Errorf("%d of %d models loaded, %d range errors, %d successors: the test compares too little", loaded, n, errs, succs)
	}
}

// edgeTransitions compares one model's explicit and SMT semantics in (up
// to 120 of) its states.
func edgeTransitions(t *testing.T, m *symbolic.Model, src string, seed uint64) (states, succs, errs int) {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Errorf("seed %d: %s\n%s", seed, fmt.Sprintf(format, args...), src)
	}
	p := m.Properties[0]
	g, err := explicit.New(m, p)
	if err != nil {
		fail("explicit: %v", err)
		return
	}
	x := newCtx(t)
	defer x.Close() // not at the test's end: 16 MB per model (z3_test.go's newCtx)
	e, err := NewEncoder(x, m)
	must(t, err)
	tr, err := e.Transition(TransOptions{Property: p})
	if err != nil {
		fail("transition: %v", err)
		return
	}
	rerr, err := e.RangeErrors(TransOptions{Property: p}, e.Cur)
	must(t, err)
	app := e.Applicable(e.Cur)
	unsafe := e.Cond(p.Unsafe, e.Cur)
	sv := newSolver(t, x)
	defer sv.Close()
	must(t, sv.Assert(tr.Formula))
	q := newSolver(t, x)
	defer q.Close()
	all := gen.States(m)
	if len(all) > 120 {
		r := rand.New(rand.NewPCG(seed, 29))
		r.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
		all = all[:120]
	}
	var xp explicit.Expansion
	src0 := make([]uint64, g.L.W)
	for _, s := range all {
		states++
		// Packing round trip.
		g.L.Pack(s, src0)
		back := make(symbolic.State, len(s))
		g.L.Unpack(src0, back)
		if !slices.Equal(back, s) {
			fail("state %v packs and unpacks to %v", s, back)
			return
		}
		st := g.Status(s)
		if got := sat(t, e, q, s, unsafe); got != (st == explicit.Unsafe) {
			fail("state %s: smt unsafe=%v, explicit status %v", m.FormatState(s), got, st)
			return
		}
		if st != explicit.Open {
			if got := smtSucc(t, e, sv, s); len(got) > 0 {
				fail("terminal state %s has smt successors %v", m.FormatState(s), got)
			}
			continue
		}
		g.Applicable(s, &xp)
		for l := range m.Labels {
			lid := symbolic.LabelID(l)
			if got := sat(t, e, q, s, app[l]); got != xp.App[l] {
				fail("state %s, label %s: smt applicable=%v, explicit %v", m.FormatState(s), m.Labels[l].Name, got, xp.App[l])
				return
			}
			if !xp.App[l] {
				if got := smtSucc(t, e, sv, s, tr.Label[l]); len(got) > 0 {
					fail("state %s, label %s not applicable, smt successors %v", m.FormatState(s), m.Labels[l].Name, got)
					return
				}
				continue
			}
			err := g.Successors(src0, s, lid, &xp)
			var re *explicit.RangeError
			if err != nil && !errors.As(err, &re) {
				fail("state %s: %v", m.FormatState(s), err)
				return
			}
			smtErr := sat(t, e, q, s, rerr[l])
			if smtErr != (err != nil) {
				fail("state %s, label %s: smt range error=%v, explicit %v", m.FormatState(s), m.Labels[l].Name, smtErr, err)
				return
			}
			if err != nil {
				errs++
				continue
			}
			var want []string
			grp := xp.Groups[len(xp.Groups)-1]
			for i := grp.From; i < grp.To; i++ {
				n := make(symbolic.State, len(s))
				g.L.Unpack(xp.Target(i), n)
				want = append(want, fmt.Sprint(n))
			}
			slices.Sort(want)
			got := smtSucc(t, e, sv, s, tr.Label[l])
			if !slices.Equal(got, want) {
				fail("state %s, label %s: smt successors %v, explicit %v", m.FormatState(s), m.Labels[l].Name, got, want)
				return
			}
			succs += len(want)
		}
	}
	return
}

// sat reports whether c holds in s (sv: a solver without assertions).
func sat(t *testing.T, e *Encoder, sv *Solver, s symbolic.State, c Term) bool {
	t.Helper()
	must(t, sv.Push())
	defer func() { must(t, sv.Pop(1)) }()
	must(t, sv.Assert(e.State(s, e.Cur)))
	must(t, sv.Assert(c))
	r, err := sv.Check()
	must(t, err)
	if r == Unknown {
		t.Fatalf("unknown: %s", sv.ReasonUnknown())
	}
	return r == Sat
}
