package safety_test

import (
	"context"
	"strings"
	"testing"

	"vigil/internal/testutil"
	"vigil/safety"
)

// TestS30jScopeExpandedReported (review, session 30): the search of a
// question's scope for range errors (lang/spec.md, "Range errors") runs
// before the decider and expands the states itself; a stop during it left
// the figures at "tarjan: 0 expanded, 2584802 states stored". Each decider
// now counts those expansions (Stats.Scope), the report carries them
// (scope_expanded) and its text says so; the decider's own Expanded is
// unchanged.
func TestS30jScopeExpandedReported(t *testing.T) {
	m := testutil.LoadSource(t, "grid.spec", `model grid
var x : 0 .. 300 = 0
var y : 0 .. 300 = 0
action right when x < 300 -> x' = x + 1
action up when y < 300 -> y' = y + 1
action boom when x == 299 && y == 299 -> x' = x + 5
policy rules p {
    otherwise -> right
}
property prop {
    unsafe x == 300 && y == 0
}
`)
	if safety.NoRangeErrors(m) {
		t.Fatal("the model must have a possible range error, so that the scope is searched")
	}
	_, _, g, dec, _ := scopeSetup(t, m)
	for _, algo := range safety.Algorithms {
		// Stopped at the first progress line (4096 expansions), which the
		// scope search shows: radius inf, whose scope is the whole grid.
		sp := safety.NewSpace(g, dec)
		d, err := safety.New(algo, sp, safety.Inf, safety.Options{})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		var line string
		rep, err := safety.Check(ctx, d, safety.Inf, safety.CheckOptions{Policy: "p", Progress: func(l string) {
			if line == "" {
				line = l
			}
			cancel()
		}})
		cancel()
		if err != nil {
			t.Fatalf("%s: %v", algo, err)
		}
		st := d.Stats()
		if rep.Verdict != "unknown" || st.Scope == 0 || rep.ScopeExpanded != st.Scope || st.Expanded != 0 {
			t.Fatalf("%s: verdict %s, stats %+v, report scope %d; want unknown, the scope search's expansions counted", algo, rep.Verdict, st, rep.ScopeExpanded)
		}
		if !strings.Contains(line, "4096 expanded") {
			t.Errorf("%s: progress line %q, want the scope search's 4096 expansions", algo, line)
		}
		var b strings.Builder
		if err := rep.WriteText(&b); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "expanded first by the search of the scope for range errors") {
			t.Errorf("%s: report %q does not name the scope search's expansions", algo, b.String())
		}
		// Whole runs: the scope's expansions are counted once, apart
		// from the decider's (radius inf reaches the range error: the
		// answer).
		for _, r := range []safety.Radius{safety.Inf, 1} {
			sp := safety.NewSpace(g, dec)
			d, _ := safety.New(algo, sp, r, safety.Options{})
			rep, err := safety.Check(context.Background(), d, r, safety.CheckOptions{Policy: "p"})
			if err != nil && (r != safety.Inf || !strings.Contains(err.Error(), "range error")) {
				t.Fatal(err)
			}
			if st := d.Stats(); st.Scope > sp.Expanded() || st.Scope == 0 || rep != nil && rep.Expanded != st.Expanded {
				t.Errorf("%s r=%v: stats %+v, %d states expanded in the space", algo, r, st, sp.Expanded())
			}
		}
	}
}
