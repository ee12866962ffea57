package verify_test

import (
	"context"
	"strconv"
	"testing"

	"vigil/bdd"
	"vigil/internal/testutil"
	"vigil/symbolic/explicit"
	"vigil/verify"
)

// Explore counts the same reachable states by explicit search and with
// BDDs, and a state limit leaves the search incomplete.
func TestExplore(t *testing.T) {
	m := testutil.LoadFile(t, "../specs/oneway_line.spec")
	g := testutil.Generator(t, m, m.Property(""))
	rep, complete, err := verify.Explore(context.Background(), verify.ExploreQuestion{Gen: g})
	if err != nil || !complete {
		t.Fatalf("bfs: %v, complete %v", err, complete)
	}
	bfs := rep.(*verify.ExploreReport)
	rep, complete, err = verify.Explore(context.Background(), verify.ExploreQuestion{Gen: g, BDD: true, BDDOptions: bdd.Options{MaxNodes: bdd.DefaultMaxNodes}, Order: "interleaved"})
	if err != nil || !complete {
		t.Fatalf("bdd: %v, complete %v", err, complete)
	}
	if b := rep.(*verify.BDDExploreReport); b.States.String() != strconv.Itoa(bfs.States) {
		t.Errorf("bdd counts %v states, bfs %v", b.States, bfs.States)
	}
	if _, complete, err = verify.Explore(context.Background(), verify.ExploreQuestion{Gen: g, Search: explicit.Options{MaxStates: 2}}); err != nil || complete {
		t.Errorf("--max-states 2: %v, complete %v", err, complete)
	}
}

// Explore makes the policy's deciders itself, one per goroutine of a
// parallel search, and counts the same states on one goroutine and on
// several.
func TestExplorePolicyWorkers(t *testing.T) {
	m := testutil.LoadFile(t, "../specs/oneway_line.spec")
	g := testutil.Generator(t, m, m.Property(""))
	var states []int
	for _, j := range []int{1, 3} {
		rep, complete, err := verify.Explore(context.Background(), verify.ExploreQuestion{Gen: g, Policy: m.Policy("careful"), Search: explicit.Options{Workers: j}})
		if err != nil || !complete {
			t.Fatalf("-j %d: %v, complete %v", j, err, complete)
		}
		states = append(states, rep.(*verify.ExploreReport).States)
	}
	if states[0] != states[1] {
		t.Errorf("careful: %d states on one goroutine, %d on three", states[0], states[1])
	}
}
