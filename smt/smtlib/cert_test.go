package smtlib

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"vigil/smt"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/gen"
)

// reachable returns the states reachable in q and the start states, or
// ok == false when q is not safe (or the explicit engine cannot answer).
func reachable(q Question) (states, starts []symbolic.State, ok bool) {
	g, err := explicit.New(q.Model, q.Property)
	if err != nil {
		return nil, nil, false
	}
	var dec explicit.Decider
	if q.Policy != nil {
		if dec, err = explicit.NewDecider(q.Model, q.Policy); err != nil {
			return nil, nil, false
		}
	}
	res, err := explicit.Search(context.Background(), g, explicit.Options{Policy: dec, StopAtUnsafe: true})
	if err != nil || res.Verdict != explicit.Safe {
		return nil, nil, false
	}
	for id := 0; id < res.Store.Len(); id++ {
		s := make(symbolic.State, len(q.Model.Vars))
		g.L.Unpack(res.Store.Get(uint32(id)), s)
		states = append(states, s)
		if uint32(id) < res.Layers[1] {
			starts = append(starts, s)
		}
	}
	return states, starts, true
}

// points returns the invariant whose boxes are the given states.
func points(m *symbolic.Model, states []symbolic.State) [][]Lit {
	vars := make([]symbolic.VarID, len(m.Vars))
	for i := range vars {
		vars[i] = symbolic.VarID(i)
	}
	var inv [][]Lit
	for _, s := range states {
		inv = append(inv, Boxes([][]smt.Lit{smt.Point(vars, s)})[0])
	}
	return inv
}

// TestCert checks certificates with z3: the exact reachable set of a safe
// question is a valid invariant (three unsat answers); without one start
// state init fails, without one other reachable state consecution fails;
// the full range is no invariant of an unsafe question, nor the empty set
// of one with start states.
func TestCert(t *testing.T) {
	needZ3(t)
	var ps []problem
	want := map[string]string{}
	cert := func(name string, q Question, inv [][]Lit, answers string) {
		var b strings.Builder
		if err := WriteCert(&b, q, []string{"vigil test certificate", name}, inv); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		ps = append(ps, problem{name, b.String()})
		want[name] = answers
	}
	const valid = "init unsat consecution unsat safety unsat"
	safe, unsafe := 0, 0
	for seed := uint64(0); seed < 500 && (safe < 10 || unsafe < 3); seed++ {
		m := gen.Model(seed, gen.Options{})
		for _, pol := range []*symbolic.PolicyDecl{m.Policies[0], nil} {
			q := Question{Model: m, Property: m.Properties[0], Policy: pol}
			name := fmt.Sprintf("gen%d/%s", seed, policyName(pol))
			states, starts, ok := reachable(q)
			if !ok {
				if _, err := bfsVerdict(q); err == nil && unsafe < 3 {
					unsafe++
					cert(name+"/true", q, [][]Lit{{}}, "init unsat consecution unsat safety sat")
				}
				continue
			}
			// Questions whose every reachable state is a start state test
			// nothing about consecution.
			if len(states) > 80 || len(starts) == len(states) || safe >= 10 {
				continue
			}
			safe++
			cert(name+"/reachable", q, points(m, states), valid)
			// Boxes in another order, and one box twice, change nothing.
			rev := slices.Clone(states)
			slices.Reverse(rev)
			cert(name+"/reversed", q, points(m, append(rev, states[0])), valid)
			cert(name+"/empty", q, nil, "init sat consecution unsat safety unsat")
			drop := func(i int) []symbolic.State {
				return append(slices.Clone(states[:i]), states[i+1:]...)
			}
			consecution := func(i int) string {
				if stepsInto(t, q, drop(i), states[i]) {
					return "consecution sat"
				}
				return "consecution unsat"
			}
			cert(name+"/nostart", q, points(m, drop(0)), "init sat "+consecution(0)+" safety unsat")
			last := len(states) - 1 // not a start state: start states come first
			cert(name+"/nolast", q, points(m, drop(last)), "init unsat "+consecution(last)+" safety unsat")
		}
	}
	if safe < 10 || unsafe < 3 {
		t.Fatalf("found %d safe and %d unsafe questions, want 10 and 3", safe, unsafe)
	}
	got := runBatch(t, ps, 2)
	for _, p := range ps {
		if g := strings.Join(got[p.name], " "); g != want[p.name] {
			t.Errorf("%s: z3 printed %q, want %q", p.name, g, want[p.name])
		}
	}
	failing := 0
	for _, w := range want {
		if strings.Contains(w, "consecution sat") {
			failing++
		}
	}
	if failing == 0 {
		t.Error("no certificate fails consecution")
	}
	t.Logf("%d certificates (%d safe and %d unsafe questions, %d fail consecution)", len(ps), safe, unsafe, failing)
}

// stepsInto reports whether some state of from has the successor to.
func stepsInto(t *testing.T, q Question, from []symbolic.State, to symbolic.State) bool {
	g, err := explicit.New(q.Model, q.Property)
	if err != nil {
		t.Fatal(err)
	}
	var dec explicit.Decider
	if q.Policy != nil {
		if dec, err = explicit.NewDecider(q.Model, q.Policy); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range from {
		_, _, succs, err := expected(q, g, dec, s)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range succs {
			if slices.Equal(u, to) {
				return true
			}
		}
	}
	return false
}
