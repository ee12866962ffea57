package cert

import "testing"

// TestReview17IntegerNumerals: an invariant's constants are read as z3
// reads them. The reader took any Atoi text, so a bound (>= |battery|
// +191) made vigil cert check say valid while z3 does not load the file
// (unknown constant +191); z3 reads -191, 0191 and (- -191) as numbers.
func TestReview17IntegerNumerals(t *testing.T) {
	neg := func(s string) sexp { return list{items: []sexp{atom{s: "-"}, atom{s: s}}} }
	for _, c := range []struct {
		e    sexp
		want int
		ok   bool
	}{
		{atom{s: "191"}, 191, true},
		{atom{s: "0"}, 0, true},
		{neg("191"), -191, true},
		{atom{s: "+191"}, 0, false},
		{atom{s: "-191"}, -191, true},
		{neg("-191"), 191, true},
		{atom{s: "0191"}, 191, true},
		{neg("+191"), 0, false},
		{atom{s: "-+191"}, 0, false},
		{atom{s: "-"}, 0, false},
	} {
		k, err := integer(c.e)
		if c.ok && (err != nil || k != c.want) {
			t.Errorf("%s: got %d, %v; want %d", show(c.e), k, err, c.want)
		}
		if !c.ok && err == nil {
			t.Errorf("%s: read as %d, want a refusal (z3 does not read it as a number)", show(c.e), k)
		}
	}
}
