package verify_test

import (
	"context"
	"testing"

	"vigil/bdd"
	"vigil/internal/testutil"
	"vigil/safety"
	"vigil/symbolic/explicit"
	"vigil/verify"
)

// SafeBDD answers for one state, for the start states one by one, and
// for every state at once; its answers agree with the explicit decider.
func TestSafeBDD(t *testing.T) {
	m := testutil.LoadFile(t, "../specs/tarjansafe.spec")
	g := testutil.Generator(t, m, m.Property(""))
	s, err := explicit.ParseState(m, "layer=4 side=true")
	if err != nil {
		t.Fatal(err)
	}
	hasty := m.Policy("hasty")
	q := verify.SafeBDDQuestion{Gen: g, Policy: hasty, Radius: 0, State: s, Options: bdd.Options{MaxNodes: bdd.DefaultMaxNodes}}
	rep, err := verify.SafeBDD(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	rep.Finish()
	dec, _ := explicit.NewDecider(m, hasty)
	d, err := safety.New("tarjan", safety.NewSpace(g, dec), 0, safety.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := safety.Check(context.Background(), d, 0, safety.CheckOptions{State: s})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Scope != "state" || len(rep.States) != 1 || rep.Verdict != want.Verdict {
		t.Errorf("layer=4 side=true at radius 0: scope %s, %d states, %s; tarjan says %s", rep.Scope, len(rep.States), rep.Verdict, want.Verdict)
	}
	q.State = nil
	if rep, err = verify.SafeBDD(context.Background(), q); err != nil || rep.Scope != "start" || len(rep.States) == 0 {
		t.Errorf("start states: %+v, %v", rep, err)
	}
	q.All, q.Radius, q.Policy = true, safety.Inf, nil
	if rep, err = verify.SafeBDD(context.Background(), q); err != nil || rep.Scope != "all" || rep.Region == nil || !rep.Region.Complete {
		t.Errorf("all states: %+v, %v", rep, err)
	}
}
