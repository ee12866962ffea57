package explicit_test

import (
	"testing"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// TestS24xChangedNamesEnumValues: a counterexample's steps after the
// first list the variables that changed (explicit.Changed, also vigil
// verify's report and its HTML table through FormatValue); an enum
// variable prints its value's name there, as in FormatState, not its
// index (session 24: "c=2" where the first state read "c=green").
func TestS24xChangedNamesEnumValues(t *testing.T) {
	m := &symbolic.Model{Vars: []symbolic.Var{
		{Name: "c", Lo: 0, Hi: 2, Values: []string{"red", "green", "blue"}},
		{Name: "f", Lo: 0, Hi: 1, Bool: true},
		{Name: "a[0]", Lo: 0, Hi: 3},
		{Name: "a[1]", Lo: 0, Hi: 3},
	}}
	a, b := symbolic.State{1, 0, 0, 0}, symbolic.State{2, 1, 0, 3}
	if got, want := m.FormatState(b), "c=blue f=true a=[0,3]"; got != want {
		t.Errorf("FormatState = %q, want %q", got, want)
	}
	if got, want := explicit.Changed(m, a, b), "c=blue f=true a[1]=3"; got != want {
		t.Errorf("Changed = %q, want %q", got, want)
	}
	if got, want := explicit.FormatValue(&m.Vars[0], 0), "red"; got != want {
		t.Errorf("FormatValue = %q, want %q", got, want)
	}
}
