package jani_test

import (
	"errors"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vigil/lang/jani"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// TestReview21vNegativeProbability: a destination whose state-dependent
// probability is negative, or divides by zero, in a state where its edge
// is enabled is a probability error, not a destination that the lowering
// drops as if its probability were 0. Until review 21v the lowering kept an
// outcome only where num/den > 0, so that at x == 1 the probabilities
// -1/2, 3/4, 3/4 (summing to 1, none above 1) lost their first
// destination and every engine said safe, though it leads to y == 1; and
// 1/(x-2) at x == 2 was no division by zero. The explicit engine (which
// every other engine's probability errors are tested against) must report
// an error in exactly the states where some destination's probability is
// undefined or outside [0, 1], computed here from the fractions as
// written.
func TestReview21vNegativeProbability(t *testing.T) {
	type frac struct{ num, den func(x int) int }
	lin := func(a, b int) func(int) int { return func(x int) int { return a*x + b } }
	cases := []struct {
		name  string
		json  []string // the destinations' probability expressions
		fracs []frac
	}{
		{"neg3",
			[]string{`{"op": "/", "left": {"op": "-", "left": "x", "right": 2}, "right": 2}`,
				`{"op": "/", "left": {"op": "+", "left": "x", "right": 2}, "right": 4}`,
				`{"op": "/", "left": {"op": "+", "left": "x", "right": 2}, "right": 4}`},
			[]frac{{lin(1, -2), lin(0, 2)}, {lin(1, 2), lin(0, 4)}, {lin(1, 2), lin(0, 4)}}},
		{"zeroden",
			[]string{`{"op": "/", "left": 1, "right": {"op": "-", "left": "x", "right": 2}}`,
				`{"op": "-", "left": 1, "right": {"op": "/", "left": 1, "right": {"op": "-", "left": "x", "right": 2}}}`},
			[]frac{{lin(0, 1), lin(1, -2)}, {lin(1, -3), lin(1, -2)}}},
		{"zerozero",
			[]string{`{"op": "/", "left": {"op": "-", "left": 2, "right": "x"}, "right": {"op": "-", "left": 2, "right": "x"}}`,
				`{"op": "/", "left": {"op": "-", "left": "x", "right": 2}, "right": {"op": "-", "left": 2, "right": "x"}}`},
			[]frac{{lin(-1, 2), lin(-1, 2)}, {lin(1, -2), lin(-1, 2)}}},
		{"negden",
			[]string{`{"op": "/", "left": "x", "right": {"op": "-", "left": "x", "right": 5}}`,
				`{"op": "-", "left": 1, "right": {"op": "/", "left": "x", "right": {"op": "-", "left": "x", "right": 5}}}`},
			[]frac{{lin(1, 0), lin(1, -5)}, {lin(0, -5), lin(1, -5)}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var dests []string
			for i, p := range c.json {
				dests = append(dests, fmt.Sprintf(`{"location": "l", "probability": {"exp": %s}, "assignments": [{"ref": "y", "value": %d}]}`, p, min(i, 1)))
			}
			text := `{"jani-version": 1, "name": "p", "type": "mdp",
 "variables": [{"name": "x", "type": {"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 4}, "initial-value": 0},
               {"name": "y", "type": {"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 1}, "initial-value": 0}],
 "actions": [{"name": "a"}],
 "automata": [{"name": "m", "locations": [{"name": "l"}], "initial-locations": ["l"],
   "edges": [{"location": "l", "action": "a", "destinations": [` + strings.Join(dests, ", ") + `]}]}],
 "system": {"elements": [{"automaton": "m"}]}}`
			path := filepath.Join(t.TempDir(), c.name+".jani")
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			m, err := jani.Load(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			g, err := explicit.New(m, nil)
			if err != nil {
				t.Fatal(err)
			}
			for x := 0; x <= 4; x++ {
				want := false
				for _, f := range c.fracs {
					n, d := f.num(x), f.den(x)
					if d == 0 {
						want = true
						continue
					}
					p := big.NewRat(int64(n), int64(d))
					if p.Sign() < 0 || p.Cmp(big.NewRat(1, 1)) > 0 {
						want = true
					}
				}
				s := symbolic.State{x, 0}
				err := g.ErrorAt(s, nil)
				var re *explicit.RangeError
				got := errors.As(err, &re) && re.Prob
				if err != nil && !got {
					t.Fatalf("x=%d: %v", x, err)
				}
				if got != want {
					t.Errorf("x=%d: probability error %v (%v), want %v", x, got, err, want)
				}
				// and the symbolic engines' condition says the same
				bad := false
				for _, cmd := range m.Commands {
					if !cmd.Guard.Holds(s) {
						continue
					}
					for _, o := range cmd.Outcomes {
						bad = bad || o.BadProb().Holds(s)
					}
				}
				if bad != want {
					t.Errorf("x=%d: BadProb %v, want %v", x, bad, want)
				}
			}
		})
	}
}
