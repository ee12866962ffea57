package explicit_test

import (
	"testing"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// TestS24wFormatValueEdges: FormatValue names an enum value only where
// the value has a name (an enum whose range starts above 0, as a JANI
// import could make it, included); a value outside the names (one above
// the range, as a range error's carrier, or negative) prints as the
// integer, never as a neighbouring name or a panic. A Boolean prints
// true or false as FormatState does, and an integer variable its value.
func TestS24wFormatValueEdges(t *testing.T) {
	enum := symbolic.Var{Name: "c", Lo: 0, Hi: 2, Values: []string{"red", "green", "blue"}}
	shifted := symbolic.Var{Name: "d", Lo: 3, Hi: 4, Values: []string{"lo", "hi"}}
	b := symbolic.Var{Name: "f", Lo: 0, Hi: 1, Bool: true}
	n := symbolic.Var{Name: "n", Lo: -5, Hi: 5}
	for _, tc := range []struct {
		v    *symbolic.Var
		x    int
		want string
	}{
		{&enum, 0, "red"}, {&enum, 2, "blue"}, {&enum, 3, "3"}, {&enum, -1, "-1"},
		{&enum, -9223372036854775808, "-9223372036854775808"}, {&enum, 9223372036854775807, "9223372036854775807"},
		{&shifted, 3, "lo"}, {&shifted, 4, "hi"}, {&shifted, 2, "2"}, {&shifted, 5, "5"}, {&shifted, 0, "0"},
		{&b, 0, "false"}, {&b, 1, "true"},
		{&n, -5, "-5"}, {&n, 0, "0"},
	} {
		if got := explicit.FormatValue(tc.v, tc.x); got != tc.want {
			t.Errorf("FormatValue(%s, %d) = %q, want %q", tc.v.Name, tc.x, got, tc.want)
		}
	}
	// Changed and FormatState agree on every value
	m := &symbolic.Model{Vars: []symbolic.Var{enum, shifted, b, n}}
	from, to := symbolic.State{0, 3, 0, 0}, symbolic.State{3, 4, 1, -5}
	if got, want := explicit.Changed(m, from, to), "c=3 d=hi f=true n=-5"; got != want {
		t.Errorf("Changed = %q, want %q", got, want)
	}
	if got, want := m.FormatState(to), "c=3 d=hi f=true n=-5"; got != want {
		t.Errorf("FormatState = %q, want %q", got, want)
	}
}
