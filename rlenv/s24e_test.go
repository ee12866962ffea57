package rlenv_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"vigil/lang"
	"vigil/rlenv"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// s24eWide has an intermediate value of 2^63 (exact, no wrap-around),
// weighted outcomes, two commands of one label, a state both unsafe and
// a goal (unsafe), a deadlock, and a range error in one outcome only
// (taking up at x = 1 with big = 4e9 is the error whichever outcome is
// sampled).
const s24eWide = `model wide
const B = 4611686018427387904
var x : -2 .. 2 = 0
var big : -5000000000 .. 5000000000 = 0
var done : bool = false
action up when x < 2 && !done -> 1: x' = x + 1, big' = 4000000000 | 3: x' = x + 1, big' = big - 4000000000
action down when x > -2 && !done -> x' = (x * B + x * B) / B - x - 1
action down when x > -2 && !done -> x' = x - 1, big' = 0
action stop when !done -> done' = true
property p { start x >= -1 && x <= 1 && !done unsafe x == 2 && big > 0 goal x == 2 || x == -2 }
`

// TestS24eEpisodesAreTheExplicitSemantics: every step of random
// episodes, on this model and the repository's specs, is one bfs would
// take. The mask is the applicable labels; a label whose successors
// (every outcome of every applicable command, as Successors expands
// them) include a range error is that error, and the state stays; else
// the next state is the one the step's command and outcome give, that
// command has the label and an enabled guard, and the state is one of
// the label's successors; unsafe, goal, deadlock and terminated are
// those of the next state under the property (unsafe before goal).
func TestS24eEpisodesAreTheExplicitSemantics(t *testing.T) {
	dir := t.TempDir()
	wide := filepath.Join(dir, "wide.spec")
	if err := os.WriteFile(wide, []byte(s24eWide), 0o644); err != nil {
		t.Fatal(err)
	}
	files := []string{wide, "../specs/oneway.spec", "../specs/cliff.spec", "../specs/transport.spec", "../specs/rover.spec", "../specs/blocks.spec"}
	for _, f := range files {
		m, diags := lang.LoadFile(f, lang.Options{})
		if m == nil {
			t.Fatalf("%s: %v", f, diags)
		}
		prop := m.Properties[0]
		g, err := explicit.New(m, prop)
		if err != nil {
			t.Fatal(err)
		}
		env, err := rlenv.New(g, rlenv.Options{StepReward: -1, GoalReward: 100, UnsafePenalty: 100, MaxSteps: 30})
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(24, 5))
		errs, steps := 0, 0
		for ep := 0; ep < 60; ep++ {
			o, err := env.Reset(uint64(ep), true, nil)
			if err != nil {
				t.Fatalf("%s: reset: %v", f, err)
			}
			for !o.Terminated && !o.Truncated {
				s := symbolic.State(o.Obs)
				var x explicit.Expansion
				g.Applicable(s, &x)
				for l := range m.Labels {
					if (o.Mask[l] == 1) != x.App[l] {
						t.Fatalf("%s: mask %v in %s, applicable %v", f, o.Mask, m.FormatState(s), x.Labels)
					}
				}
				a := x.Labels[rng.IntN(len(x.Labels))]
				src := make([]uint64, g.L.W)
				g.L.Pack(s, src)
				succErr := g.Successors(src, s, a, &x)
				next, err := env.Step(int(a))
				if succErr != nil {
					if err == nil || err.Error() != succErr.Error() {
						t.Fatalf("%s: label %s in %s: bfs meets %v, the env %v", f, m.Labels[a].Name, m.FormatState(s), succErr, err)
					}
					errs++
					// the state stayed: a label without an error (or the end)
					var ok []symbolic.LabelID
					for _, l := range x.Labels {
						var y explicit.Expansion
						g.Applicable(s, &y)
						if g.Successors(src, s, l, &y) == nil {
							ok = append(ok, l)
						}
					}
					if len(ok) == 0 {
						break
					}
					a = ok[rng.IntN(len(ok))]
					next, err = env.Step(int(a))
				}
				if err != nil {
					t.Fatalf("%s: label %s in %s: %v", f, m.Labels[a].Name, m.FormatState(s), err)
				}
				steps++
				ci, oi := *next.Info.CommandIndex, *next.Info.Outcome
				if m.Commands[ci].Label != a || !g.Guard(s, ci) {
					t.Fatalf("%s: step %s in %s took command %d (%s), not an enabled one of the label", f, m.Labels[a].Name, m.FormatState(s), ci, next.Info.Command)
				}
				want, err := g.Apply(s, ci, oi)
				if err != nil || !slices.Equal(want, symbolic.State(next.Obs)) {
					t.Fatalf("%s: command %d outcome %d from %s gives %v (%v), the env %v", f, ci, oi, m.FormatState(s), want, err, next.Obs)
				}
				var y explicit.Expansion
				g.Applicable(s, &y)
				if err := g.Successors(src, s, a, &y); err != nil {
					t.Fatal(err)
				}
				found := false
				for _, sc := range y.Succs {
					u, _ := g.Apply(s, int(sc.Cmd), int(sc.Outcome))
					found = found || slices.Equal(u, want)
				}
				if !found {
					t.Fatalf("%s: %v is not a successor of %s by %s", f, want, m.FormatState(s), m.Labels[a].Name)
				}
				st := g.Status(want)
				g.Applicable(want, &y)
				dead := st == explicit.Open && len(y.Labels) == 0
				if next.Info.Unsafe != (st == explicit.Unsafe) || next.Info.Goal != (st == explicit.Goal) || next.Info.Deadlock != dead || next.Terminated != (st != explicit.Open || dead) {
					t.Fatalf("%s: %v after %s: info %+v terminated %v, but its status is %v (deadlock %v)", f, want, m.Labels[a].Name, next.Info, next.Terminated, st, dead)
				}
				if next.Truncated != (!next.Terminated && next.Info.Steps >= 30) {
					t.Fatalf("%s: truncated %v after %d steps", f, next.Truncated, next.Info.Steps)
				}
				o = next
			}
		}
		if steps == 0 {
			t.Errorf("%s: no steps", f)
		}
		t.Logf("%s: %d steps, %d range errors", f, steps, errs)
		if f == wide && errs == 0 {
			t.Errorf("%s: no range error met: the model does not test it", f)
		}
	}
}
