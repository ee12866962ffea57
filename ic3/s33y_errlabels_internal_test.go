package ic3

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"vigil/lang"
	"vigil/smt"
)

// TestS33yErrLabelsAfterLost: findErrLabels asks, per label, whether it
// has a range error somewhere (unknown counts as yes). One check that ran
// out of the resource limit left its solver lost (smt.Solver.Lost), and
// every later label then answered Unknown: "a range error somewhere" for
// all of them, so the bad region carried the range errors of labels that
// have none (their guards keep them in range), at the cost of
// certifications. Here the first label's check runs under a limit of 1
// (errHook): it counts as a range error, and the others are still asked
// on their own: "up" (unguarded: a range error at 50) yes, "safe" and
// "down" (guarded) no.
func TestS33yErrLabelsAfterLost(t *testing.T) {
	src := `model errlabels
var x : 0 .. 50 = 0
var y : 0 .. 50 = 0
action first -> y' = y + 1
action safe when x < 50 -> x' = x + 1
action up -> x' = x + 2
action down when x >= 3 -> x' = x - 3
property p { unsafe x == 49 && y == 0 }
`
	path := filepath.Join(t.TempDir(), "m.spec")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	m, diags := lang.Load(path, lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	prop := m.Property("")
	var stats Stats
	ask := func(limitFirst bool) []bool {
		t.Helper()
		n := 0
		errHook = func(s *smt.Solver) {
			n++
			l := smt.Limits{}
			if limitFirst && n == 1 {
				l.Rlimit = 1
			}
			if err := s.SetLimits(l); err != nil {
				t.Fatal(err)
			}
		}
		defer func() { errHook = nil }()
		sv := newSolver(context.Background(), m, smt.TransOptions{Property: prop}, &stats, true, func() [][]box { return nil })
		if !slices.Equal(sv.canErr, []bool{true, true, true, true}) {
			t.Fatalf("canErr %v: the labels' bounds should all leave the range", sv.canErr)
		}
		if err := sv.findErrLabels(prop); err != nil {
			t.Fatal(err)
		}
		if n != 4 {
			t.Fatalf("%d checks, want one per label (4)", n)
		}
		return sv.errLabels
	}
	if got, want := ask(false), []bool{true, false, true, false}; !slices.Equal(got, want) {
		t.Fatalf("without a limit: errLabels %v, want %v", got, want)
	}
	got := ask(true)
	if !got[0] {
		t.Errorf("the label whose check ran out of the limit must count as a range error (unknown is yes)")
	}
	if want := []bool{true, false, true, false}; !slices.Equal(got[1:], want[1:]) {
		t.Errorf("after a check that ran out of the limit: errLabels %v, want %v for the labels after it", got, want)
	}
}
