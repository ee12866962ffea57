package trees

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vigil/lang"
	"vigil/symbolic"
)

// s32tPolicy loads a one-policy model: the variable declarations vars, a
// trees policy pi reading inputs over the Veritas file ens, outputs good
// and bad.
func s32tPolicy(t *testing.T, vars, inputs, ens string) *Policy {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "e.json")
	if err := os.WriteFile(file, []byte(ens), 0o644); err != nil {
		t.Fatal(err)
	}
	src := vars + "action good -> skip\naction bad -> skip\npolicy trees pi \"" + file + "\" {\n inputs " + inputs + "\n outputs good, bad\n}\n"
	m, diags := lang.LoadSource(filepath.Join(dir, "m.spec"), []byte(src), lang.Options{})
	if diags.HasErrors() {
		t.Fatalf("%s\n%s", diags.Render(), src)
	}
	pol, err := symbolic.Instantiate(m, m.Policies[0])
	if err != nil {
		t.Fatal(err)
	}
	return pol.(*Policy)
}

// TestS32tLiftTopOfRange: a variable whose range ends at 2^53 (the largest
// bound ic3 and ppa take). A split that every state of the range takes to
// the same side was lifted to "v < hi + 1" with hi + 1 = 2^53 + 1, which
// float64 rounds to 2^53: the state v = 2^53 went the other way in the
// lifted ensemble, and Excludes proved bad excluded on a box where the
// policy chooses bad at v = 2^53. Both an increasing input (x) and a
// decreasing one (-x, whose lifted split swaps the children) are asked,
// against every state of the box.
func TestS32tLiftTopOfRange(t *testing.T) {
	const vars = "var x : 9007199254740892 .. 9007199254740992 = 9007199254740892\n"
	cases := []struct{ name, input, ens string }{
		{"increasing", "x", `{"at_type": "RAW", "base_scores": [0.0, 0.0], "trees": [
{"num_leaf_values": 2, "split_type": "LtSplit", "structure": {"feat_id": 0, "split_value": 9007199254740994, "left": {"leaf_value": [0.0, 1.0]}, "right": {"leaf_value": [1.0, 0.0]}}},
{"num_leaf_values": 2, "split_type": "LtSplit", "structure": {"feat_id": 0, "split_value": 9007199254740992, "left": {"leaf_value": [2.0, 0.0]}, "right": {"leaf_value": [0.0, 0.0]}}}]}`},
		{"decreasing", "-x", `{"at_type": "RAW", "base_scores": [0.0, 0.0], "trees": [
{"num_leaf_values": 2, "split_type": "LtSplit", "structure": {"feat_id": 0, "split_value": -9007199254740994, "left": {"leaf_value": [1.0, 0.0]}, "right": {"leaf_value": [0.0, 1.0]}}},
{"num_leaf_values": 2, "split_type": "LtSplit", "structure": {"feat_id": 0, "split_value": -9007199254740991, "left": {"leaf_value": [0.0, 0.0]}, "right": {"leaf_value": [2.0, 0.0]}}}]}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := s32tPolicy(t, vars, c.input, c.ens)
			sc := make([]float64, 2)
			chosen := 0
			for v := 9007199254740892; v <= 9007199254740992; v++ {
				if err := p.Scores(symbolic.State{v}, sc); err != nil {
					t.Fatal(err)
				}
				if sc[1] > sc[0] {
					chosen++
					if v != 9007199254740992 {
						t.Fatalf("bad chosen at %d, the model means only 2^53", v)
					}
				}
			}
			if chosen != 1 {
				t.Fatalf("bad chosen in %d states, want 1 (2^53)", chosen)
			}
			for _, lo := range []int{9007199254740892, 9007199254740990} {
				r, err := p.Excludes([]int{lo}, []int{9007199254740992}, 1, []int{0, 1}, Options{})
				if err != nil {
					t.Fatal(err)
				}
				if r.Verdict != Refuted || r.Witness[0] != 9007199254740992 {
					t.Fatalf("box %d..2^53: %v witness %v, want possible at 2^53", lo, r.Verdict, r.Witness)
				}
			}
			r, err := p.Excludes([]int{9007199254740892}, []int{9007199254740991}, 1, []int{0, 1}, Options{})
			if err != nil || r.Verdict != Proved {
				t.Fatalf("box below 2^53: %v %v, want excluded", r.Verdict, err)
			}
		})
	}
}

// TestS32tLiftOutsideRange: the lifted ensemble's cuts are found by
// searching the variable's range, so a split whose input crosses its
// threshold outside the range is cut at the range's end: with the
// decreasing input -x over x : 0 .. 10, the split -x < -15.5 (true for
// x > 15.5) holds nowhere in the range and became "always right", and a
// box above the range (x = 14 .. 18) was proved to exclude bad, which
// the policy chooses at x = 16; below the range (x < -5.5 over x), the
// lifted answer was a witness that the exact test rejected (unknown). No
// engine asks boxes beyond the ranges today; Excludes and ExcludesWithin
// now answer them by the input-space fallback, which is exact.
func TestS32tLiftOutsideRange(t *testing.T) {
	const ens = `{"at_type": "RAW", "base_scores": [0.0, 0.0], "trees": [
{"num_leaf_values": 2, "split_type": "LtSplit", "structure": {"feat_id": 0, "split_value": THR, "left": {"leaf_value": [0.0, 1.0]}, "right": {"leaf_value": [1.0, 0.0]}}},
{"num_leaf_values": 2, "split_type": "LtSplit", "structure": {"feat_id": 1, "split_value": 2.5, "left": {"leaf_value": [0.0, 0.0]}, "right": {"leaf_value": [0.0, 0.5]}}}]}`
	cases := []struct {
		input, thr string
		lo         int
		want       Verdict
	}{
		{"x", "-5.5", -3, Proved},
		{"x", "-5.5", -8, Refuted},
		{"x", "-5.5", 0, Proved},
		{"-x", "-15.5", 14, Refuted},
		{"-x", "-15.5", 8, Proved},
	}
	y4 := []symbolic.Atom{{Form: symbolic.NewForm([]symbolic.Term{{Var: 1, Coef: 1}}), K: 4, Upper: true}}
	for _, c := range cases {
		p := s32tPolicy(t, "var x : 0 .. 10 = 0\nvar y : 0 .. 5 = 0\n", c.input+", y", strings.Replace(ens, "THR", c.thr, 1))
		if ok, why := p.Exact(); !ok {
			t.Fatalf("not lifted: %s", why)
		}
		lo, hi := []int{c.lo, 0}, []int{c.lo + 2, 5}
		if c.lo == 14 {
			hi[0] = 18
		}
		r, err := p.Excludes(lo, hi, 1, []int{0, 1}, Options{})
		if err != nil || r.Verdict != c.want {
			t.Fatalf("input %s < %s, box %v..%v: %v %v, want %v", c.input, c.thr, lo, hi, r.Verdict, err, c.want)
		}
		r, err = p.ExcludesWithin(lo, hi, y4, 1, []int{0, 1}, Options{})
		if err != nil || r.Verdict != c.want {
			t.Fatalf("input %s < %s, box %v..%v within y <= 4: %v %v, want %v", c.input, c.thr, lo, hi, r.Verdict, err, c.want)
		}
	}
}
