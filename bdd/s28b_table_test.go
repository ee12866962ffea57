package bdd_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"vigil/bdd"
	"vigil/internal/testutil"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/gen"
)

// randomTable returns a table policy for m: rows for a random share of
// the states (the others are stuck), with random labels, applicable or
// not; some states get two rows (the last one counts), and a few rows are
// not states (a value out of range), which never match.
func randomTable(m *symbolic.Model, r *rand.Rand) *symbolic.PolicyDecl {
	d := &symbolic.PolicyDecl{Name: "tab", Kind: symbolic.KindTable, Table: &symbolic.Table{}}
	add := func(s symbolic.State, l symbolic.LabelID) {
		d.Table.Rows = append(d.Table.Rows, append(symbolic.State(nil), s...))
		d.Table.Labels = append(d.Table.Labels, l)
	}
	all := gen.States(m)
	app := make([]bool, len(m.Labels))
	for _, s := range all {
		if r.IntN(5) == 0 {
			continue // stuck
		}
		m.Applicable(s, app)
		l := symbolic.LabelID(r.IntN(len(m.Labels)))
		if r.IntN(3) != 0 { // mostly an applicable label, when there is one
			for k := range app {
				if app[(int(l)+k)%len(app)] {
					l = symbolic.LabelID((int(l) + k) % len(app))
					break
				}
			}
		}
		add(s, l)
		if r.IntN(6) == 0 { // overridden by a later row
			add(s, symbolic.LabelID(r.IntN(len(m.Labels))))
		}
		if r.IntN(20) == 0 { // not a state
			t := append(symbolic.State(nil), s...)
			t[0] = m.Vars[0].Hi + 1
			add(t, symbolic.LabelID(r.IntN(len(m.Labels))))
		}
	}
	r.Shuffle(len(d.Table.Rows), func(i, j int) {
		// keep the order of rows of one state: swap only rows of
		// different states
		if m.FormatState(d.Table.Rows[i]) != m.FormatState(d.Table.Rows[j]) {
			d.Table.Rows[i], d.Table.Rows[j] = d.Table.Rows[j], d.Table.Rows[i]
			d.Table.Labels[i], d.Table.Labels[j] = d.Table.Labels[j], d.Table.Labels[i]
		}
	})
	return d
}

// TestS28bTableConforms: table policies with stuck states, inapplicable
// labels, overridden rows and rows that are no state: BDD verification and
// exploration agree with the explicit engine, counterexamples replay.
func TestS28bTableConforms(t *testing.T) {
	first, n := campaign(t, 500000, models(t)/4)
	ctx := context.Background()
	compared := 0
	for seed := first; seed < first+uint64(n); seed++ {
		m := gen.Model(seed, gen.Options{InitialStart: seed%2 == 0})
		pd := randomTable(m, rand.New(rand.NewPCG(seed, 3)))
		m.Policies = append(m.Policies, pd)
		prop := m.Properties[0]
		o := bdd.Order(seed % 3)
		g, dec, err := testutil.Explicit(m, prop, pd)
		if err != nil {
			t.Fatal(err)
		}
		want, werr := explicit.Search(ctx, g, explicit.Options{Policy: dec, StopAtUnsafe: true})
		if werr != nil {
			continue
		}
		got, err := bdd.Verify(ctx, m, prop, pd, bdd.Options{Order: o})
		if err != nil {
			t.Errorf("seed %d: %v", seed, err)
			continue
		}
		if got.Verdict.Explicit() != want.Verdict {
			t.Errorf("seed %d (order %v): BFS says %v, BDD %v", seed, o, want.Verdict, got.Verdict)
			continue
		}
		compared++
		if got.Verdict == bdd.Unsafe {
			if err := g.CheckCounterexample(dec, got.Trace); err != nil {
				t.Errorf("seed %d: %v", seed, err)
			}
			if len(got.Trace) != len(want.Trace) {
				t.Errorf("seed %d: counterexample of %d steps, the shortest has %d", seed, len(got.Trace)-1, len(want.Trace)-1)
			}
		}
		if diff, err := exploreBoth(m, pd, o); err == nil && diff != "" {
			t.Errorf("seed %d (order %v): explore: %s", seed, o, diff)
		}
	}
	t.Logf("%d models with table policies, %d verdicts compared", n, compared)
	if compared < n/2 {
		t.Errorf("only %d verdicts compared on %d models", compared, n)
	}
}

// TestS28bPropUTableConforms: BDD Prop-U under random table policies
// agrees with explicit Prop-U, TarjanSafe and the reference on every
// state (r = 0 follows the table, stuck states included).
func TestS28bPropUTableConforms(t *testing.T) {
	first, n := campaign(t, 600000, models(t)/10)
	conformPropU(t, first, n, gen.Options{}, func(m *symbolic.Model, seed uint64) (*symbolic.PolicyDecl, error) {
		return randomTable(m, rand.New(rand.NewPCG(seed, 3))), nil
	})
}
