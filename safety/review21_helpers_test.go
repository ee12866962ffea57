package safety_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"vigil/internal/testutil"
	"vigil/safety"
	"vigil/symbolic"
)

// walkerSpec is review 21's walker: diver walks x up to the unsafe 100,
// and a wide unused z keeps the number of states from capping the radius.
const walkerSpec = `model h
var x : 0 .. 100 = 0
var z : 0 .. 1000000 = 0
action walk when x < 100 -> x' = x + 1
action stay -> skip
action back when x > 0 -> x' = x - 1
property p { unsafe x == 100 }
policy rules diver { otherwise -> walk }
`

// spinsSpec is review 21's spins model: 16 self-loop labels (deviations),
// down, and die to the unsafe 99, from x = 70; tail adds actions and the
// property and policy lines.
func spinsSpec(tail string) string {
	src := "model spins\nvar x : 0 .. 99 = 70\nvar z : 0 .. 1000000 = 0\n"
	for i := range 16 {
		src += fmt.Sprintf("action spin%d -> skip\n", i)
	}
	return src + tail
}

// decideDiver asks decider algo whether state s of m is r-safe for policy
// diver (60 s at most) and returns its answer, statistics and error.
func decideDiver(t *testing.T, m *symbolic.Model, algo string, r safety.Radius, s symbolic.State) (bool, safety.Stats, error) {
	t.Helper()
	g, dec, err := testutil.Explicit(m, m.Property(""), m.Policy("diver"))
	if err != nil {
		t.Fatal(err)
	}
	sp := safety.NewSpace(g, dec)
	d, err := safety.New(algo, sp, r, safety.Options{})
	if err != nil {
		t.Fatal(err)
	}
	id, err := sp.Intern(s)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	ok, err := d.Decide(ctx, id)
	return ok, d.Stats(), err
}
