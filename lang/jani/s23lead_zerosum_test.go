package jani_test

import (
	"fmt"
	"testing"

	"vigil/lang/jani"
	"vigil/symbolic"
)

// TestZeroSumComplement: destinations p and 1 - p (x/(N-c) and
// 1 - x/(N-c), the QVBS urn's pattern) cannot all have probability 0, so
// the import adds no zero-sum command for them (it added one whose guard
// never holds, a command more in every such model); where the numerators
// do not sum to a multiple of the common denominator (x/y and x/y), the
// zero-sum command stays. Every in-range state is checked against the
// factors' exact values.
func TestZeroSumComplement(t *testing.T) {
	for _, tc := range []struct {
		p, q     string // the two destinations' probabilities
		zeroSum  bool   // whether the model keeps a zero-sum command
		lo, hi   int    // range of x and y
		guardGeY bool
	}{
		{`{"op": "/", "left": "x", "right": "y"}`, `{"op": "-", "left": 1, "right": {"op": "/", "left": "x", "right": "y"}}`, false, 0, 3, true},
		{`{"op": "/", "left": "x", "right": "y"}`, `{"op": "/", "left": {"op": "-", "left": "y", "right": "x"}, "right": "y"}`, false, 0, 3, true},
		{`{"op": "/", "left": "x", "right": 2}`, `{"op": "/", "left": {"op": "-", "left": 2, "right": "x"}, "right": 2}`, false, 0, 3, false},
		{`{"op": "/", "left": "x", "right": "y"}`, `{"op": "/", "left": "x", "right": "y"}`, true, 0, 3, false},
		{`{"op": "/", "left": "x", "right": 4}`, `{"op": "/", "left": {"op": "-", "left": 2, "right": "x"}, "right": 2}`, true, 0, 3, false},
	} {
		guard := `true`
		if tc.guardGeY {
			guard = `{"op": "≤", "left": "x", "right": "y"}`
		}
		src := fmt.Sprintf(`{"jani-version": 1, "name": "c", "type": "mdp",
 "variables": [{"name": "x", "type": {"kind": "bounded", "base": "int", "lower-bound": %d, "upper-bound": %d}, "initial-value": 0},
               {"name": "y", "type": {"kind": "bounded", "base": "int", "lower-bound": %d, "upper-bound": %d}, "initial-value": 1}],
 "actions": [{"name": "a"}],
 "automata": [{"name": "m", "locations": [{"name": "l"}], "initial-locations": ["l"],
   "edges": [{"location": "l", "action": "a", "guard": {"exp": %s}, "destinations": [
     {"location": "l", "probability": {"exp": %s}, "assignments": [{"ref": "x", "value": 0}]},
     {"location": "l", "probability": {"exp": %s}, "assignments": [{"ref": "x", "value": 1}]}]}]}],
 "system": {"elements": [{"automaton": "m"}]}}`, tc.lo, tc.hi, tc.lo, tc.hi, guard, tc.p, tc.q)
		m, _, err := jani.Decode("c.jani", []byte(src), nil)
		if err != nil {
			t.Fatalf("%s, %s: %v", tc.p, tc.q, err)
		}
		zs := false
		var both []symbolic.Outcome // the command where both destinations are live
		for _, c := range m.Commands {
			for _, o := range c.Outcomes {
				if len(o.ProbFactors) == 1 && o.ProbFactors[0].ZeroSum {
					zs = true
				}
			}
			if len(c.Outcomes) == 2 {
				both = c.Outcomes
			}
		}
		if zs != tc.zeroSum {
			t.Errorf("%s, %s: zero-sum command %v, want %v", tc.p, tc.q, zs, tc.zeroSum)
		}
		if zs {
			continue
		}
		// no in-range state where the guard holds has both probabilities
		// 0 with a non-zero denominator (the combination the import left
		// out)
		for x := tc.lo; x <= tc.hi; x++ {
			for y := tc.lo; y <= tc.hi; y++ {
				if tc.guardGeY && x > y {
					continue
				}
				st := symbolic.State{x, y}
				dead := 0
				for _, o := range both {
					n, d := o.ProbFactors[0].At(st)
					if n.Sign() == 0 && d.Sign() != 0 {
						dead++
					}
				}
				if len(both) != 2 || dead == 2 {
					t.Errorf("%s, %s: x=%d y=%d: both probabilities 0, and no zero-sum command", tc.p, tc.q, x, y)
				}
			}
		}
	}
}
