package batch

import (
	"strings"
	"testing"
)

// Review (session 14): the repetitions and seeds of a run ask one
// question, so a verdict that changes between them is a disagreement.
// Keyed by repetition, the runs below were never compared: a0 said safe
// in rep-1 and unsafe in rep-2, and a1's unsafe in rep-1 met a0's safe
// only in a table, while the report said the algorithms agree.
func TestReview14DisagreementAcrossRepetitions(t *testing.T) {
	run := func(alg, rep, verdict string, coverage float64) map[string]any {
		return map[string]any{"algorithm": alg, "domain": "d", "problem": "m", "rep": rep, "verdict": verdict, "coverage": coverage}
	}
	cases := []struct {
		name string
		runs []map[string]any
		want string // "" for agreement
		n    int    // instances decided twice or more
	}{
		{"one algorithm, two repetitions", []map[string]any{
			run("a0", "rep-1", "safe", 1), run("a0", "rep-2", "unsafe", 1)},
			"d/m: a0: verdict=safe | verdict=unsafe", 1},
		{"two algorithms, different repetitions", []map[string]any{
			run("a0", "rep-1", "safe", 1), run("a0", "rep-2", "unknown", 0),
			run("a1", "rep-1", "unknown", 0), run("a1", "rep-2", "unsafe", 1)},
			"d/m: a0: verdict=safe; a1: verdict=unsafe", 1},
		{"seeds agree", []map[string]any{
			run("a0", "seed-1", "safe", 1), run("a0", "seed-2", "safe", 1), run("a1", "seed-1", "safe", 1)},
			"", 1},
		{"an undecided run is no answer", []map[string]any{
			run("a0", "rep-1", "safe", 1), run("a0", "rep-2", "unsafe", 0)},
			"", 0},
	}
	for _, c := range cases {
		rep := &Report{Runs: c.runs, Algorithms: []string{"a0", "a1"}, Agree: []string{"verdict"}}
		list, n := rep.Disagreements()
		got := strings.Join(list, "\n")
		if got != c.want || n != c.n {
			t.Errorf("%s: Disagreements = %q, %d; want %q, %d", c.name, got, n, c.want, c.n)
		}
		if err := rep.Disagreement(); (err != nil) != (c.want != "") {
			t.Errorf("%s: Disagreement = %v", c.name, err)
		}
	}
}
